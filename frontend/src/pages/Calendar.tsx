import {
  lazy,
  Suspense,
  useEffect,
  useMemo,
  useRef,
  useState,
  type DragEvent,
  type KeyboardEvent,
  type ReactNode,
} from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  PLATFORM_STATUS_LABELS,
  slotApproval,
  ScheduleMessages,
  type Article,
  type CalendarAnswer,
  type CalendarDate,
  type CalendarEntry,
  type VersionId,
} from '@app/shared';
import { errorText, request } from '../api/client';
import { ChannelTag } from '../channels/ChannelTag';
import { channelById, versionNames } from '../channels/registry';
import { LoadFailed } from '../components/LoadFailed';
import { Modal } from '../components/Modal';
import { PageHeader } from '../components/PageHeader';
import { Spinner } from '../components/Spinner';
import { articleIdOf } from '../components/create/articleQuery';
import { ArticleCard } from '../components/schedule/ArticleCard';
import { PublishConfirmModal, type PublishResult } from '../components/schedule/PublishConfirmModal';
import { STATUS_TONES } from '../components/schedule/StatusBadge';
import { reviewBadge } from '../components/review/ReviewActions';
import { useReviewSettings } from '../hooks/useReviewSettings';
import { ARTICLE_LISTS_KEY, refreshArticleLists } from '../hooks/useArticleLists';
import { useDragAutoScroll } from '../hooks/useDragAutoScroll';
import { useSession } from '../hooks/useSession';
import { useCan } from '../hooks/useWorkspaces';
import {
  addDays,
  addMonths,
  dayKey,
  isPastMove,
  longDay,
  movedTime,
  parseDayKey,
  placeOf,
  sameDay,
  timeOfDay,
  todayIn,
  viewDays,
  viewRange,
  viewTitle,
  weekdayIndex,
  weekdayNames,
  type CalendarView,
} from '../lib/calendarGrid';
import { toast } from '../lib/toast';
import { formatDateTime, useUserTimeZone } from '../lib/userTime';
import '../styles/schedule.css';
import '../styles/calendar.css';

const loadScheduleModal = () => import('../components/schedule/ScheduleModal');
const ScheduleModal = lazy(loadScheduleModal);

/** The calendar's texts (docs/product.md, Calendar). */
export const CalendarMessages = {
  loadFailed: 'Failed to load the calendar',
  empty: (view: CalendarView) => `Nothing is scheduled or published this ${view}.`,
  moved: (title: string, version: VersionId, time: string) =>
    `Rescheduled "${title}" (${versionNames(version).row}) to ${time}`,
  movedBack: (title: string, time: string) => `"${title}" is back at ${time}`,
  moveFailed: 'Could not reschedule',
  undo: 'Undo',
  /** On the day or hour under a dragged item whose new time would already be gone. */
  pastCell: 'In the past',
  /** Above a week's day whose items before the first hour in view are scrolled out of sight. */
  earlier: (count: number) => `${count} earlier`,
  earlierLabel: (count: number, day: string) => `${count} earlier on ${day}: show`,
} as const;

const HOURS = Array.from({ length: 24 }, (_, hour) => hour);
/** The hour the week view shows first (earlier hours are a scroll up). */
const WEEK_OPENS_AT = 8;
/** The week grid's hour column (styles/calendar.css). */
const WEEK_HOUR_COLUMN_PX = 56;
// An entry is its channel's, on the schedule it follows (a channel's scheduled and published entries never meet).
const entryKey = (e: Pick<CalendarEntry, 'articleId' | 'platform' | 'channel'>) =>
  `${e.articleId}:${e.platform}:${e.channel}`;

/** Where an entry goes: its channel, by its registry entry's name (a channel the SPA does not know: its id). */
const entryPlace = (entry: CalendarEntry): string => channelById(entry.channel)?.label ?? entry.channel;

/** Only a time still ahead can be moved: a published post, or one whose time has come, stays where it is. */
const canMove = (e: CalendarEntry) => e.kind === 'scheduled' && e.status === 'scheduled';
/** Two scheduled entries of one version's schedule (its channels'). */
const sameSchedule = (a: CalendarEntry, b: CalendarEntry) =>
  a.kind === 'scheduled' &&
  b.kind === 'scheduled' &&
  a.articleId === b.articleId &&
  a.platform === b.platform &&
  a.at === b.at;
const calendarKey = (from: string, to: string) => [...ARTICLE_LISTS_KEY, 'calendar', from, to] as const;
const pad = (n: number) => String(n).padStart(2, '0');
const MINUTE_MS = 60_000;

/** The time, moving on with each minute (the week's now-line, today's highlight). */
function useMinuteClock(): Date {
  const [clock, setClock] = useState(() => new Date());
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout>;
    const next = () => {
      timer = setTimeout(
        () => {
          setClock(new Date());
          next();
        },
        MINUTE_MS - (Date.now() % MINUTE_MS) + 20,
      );
    };
    next();
    return () => clearTimeout(timer);
  }, []);
  return clock;
}

/** The first hour row of the week's box at least half in sight below its sticky head; null before any layout. */
function firstHourInView(box: HTMLElement): number | null {
  const rows = [...box.querySelectorAll<HTMLElement>('.calendar-grid__hour-row')];
  if (!rows[0]?.offsetHeight) return null;
  const top = box.scrollTop + (box.querySelector<HTMLElement>('.calendar-grid__head')?.offsetHeight ?? 0);
  const first = rows.findIndex((row) => row.offsetTop + row.offsetHeight / 2 >= top);
  return first === -1 ? HOURS.length : first;
}

/** A roving-tabindex position: a day (month), a day's hour (week), or an item in one of them. */
type FocusTarget = { kind: 'cell'; day: string; hour?: number } | { kind: 'item'; key: string };
const cellId = (day: string, hour?: number) => (hour === undefined ? `cell:${day}` : `cell:${day}:${hour}`);
const focusIdOf = (t: FocusTarget) => (t.kind === 'cell' ? cellId(t.day, t.hour) : `item:${t.key}`);

/**
 * Moves an entry to `at` in every kept calendar answer, so it shows in its new place before the server's answer: with
 * it, the other channels of the same schedule (a drag moves the version's schedule, which they follow).
 */
function moveInCache(queryClient: QueryClient, entry: CalendarEntry, at: string) {
  queryClient.setQueriesData<CalendarAnswer>(
    { queryKey: [...ARTICLE_LISTS_KEY, 'calendar'] },
    (answer) =>
      answer && {
        ...answer,
        entries: answer.entries.map((e) => (sameSchedule(e, entry) ? { ...e, at } : e)),
      },
  );
}

function UndoToast({ text, onUndo, closeToast }: { text: string; onUndo: () => void; closeToast?: () => void }) {
  return (
    <div className="calendar-toast">
      <span>{text}</span>
      <button
        type="button"
        className="btn btn--secondary btn--sm"
        onClick={() => {
          closeToast?.();
          onUndo();
        }}
      >
        {CalendarMessages.undo}
      </button>
    </div>
  );
}

interface Opened {
  entry: CalendarEntry;
  article: Article;
}

/**
 * docs/product.md (Calendar): each article's platforms at their scheduled or published time, by month or
 * week, on the user's clock. Only the range on screen is fetched (GET /api/calendar). A scheduled item is
 * dragged to another day or hour to move it (the Schedule page's call and checks), with Undo; a click or
 * Enter opens its card actions; the grid moves with the arrow keys (one tab stop).
 */
export default function CalendarPage() {
  const queryClient = useQueryClient();
  const timeZone = useUserTimeZone();
  // The range is the user's zone's: asked for once their profile (and so their zone) is known.
  const { user } = useSession();
  // Moving an item is scheduling it: only a role that may (docs/product.md, Workspaces) can drag one.
  const mayMove = useCan()('schedule.set');
  const [params, setParams] = useSearchParams();
  const view: CalendarView = params.get('view') === 'week' ? 'week' : 'month';
  const clock = useMinuteClock();
  const today = todayIn(clock, timeZone);
  const anchor = parseDayKey(params.get('date')) ?? today;
  const anchorKey = dayKey(anchor);
  const days = viewDays(view, anchor);
  const range = viewRange(view, anchor, timeZone);
  const calendar = useQuery({
    queryKey: calendarKey(range.from, range.to),
    queryFn: ({ signal }) => request('articles.calendar', { query: range }, { signal }),
    enabled: Boolean(user),
    staleTime: 0,
  });
  // One "now" per answer (the card's statuses are judged at it); the dialog opens only once there is one.
  const now = useMemo(() => new Date(calendar.dataUpdatedAt), [calendar.dataUpdatedAt]);
  const [focus, setFocus] = useState<FocusTarget | null>(null);
  const [dragging, setDragging] = useState<CalendarEntry | null>(null);
  // The cell under a dragged item, and whether it refuses the item (its new time would be in the past).
  const [dropTarget, setDropTarget] = useState<{ id: string; refused: boolean } | null>(null);
  const dropTargetRef = useRef(dropTarget);
  const markDropTarget = (next: { id: string; refused: boolean } | null) => {
    dropTargetRef.current = next;
    setDropTarget(next);
  };
  // Let go over a cell that refused the item: the browser fires dragleave there (to nowhere), then dragend.
  const letGoOnRefusedRef = useRef(false);
  // The first hour of the week wholly in view: the items of the hours above it are counted in the day's head.
  const [topHour, setTopHour] = useState(WEEK_OPENS_AT);
  const [opened, setOpened] = useState<Opened | null>(null);
  // The card's follow-up dialogs, with the item they were opened from (`from`, its entry key).
  const [scheduling, setScheduling] = useState<{ article: Article; platforms: VersionId[]; from: string } | null>(null);
  const [publishing, setPublishing] = useState<{ article: Article; platform: VersionId; from: string } | null>(null);
  const gridRef = useRef<HTMLDivElement>(null);
  const scrollRef = useRef<HTMLDivElement>(null);
  useDragAutoScroll(Boolean(dragging), scrollRef);
  const moveFocusRef = useRef(false);
  // The item a closed dialog was about, until the refreshed calendar is on screen (see the effect below).
  const followRef = useRef<{ key: string; refreshed: boolean } | null>(null);
  const [refreshes, setRefreshes] = useState(0);

  const setAnchor = (date: CalendarDate, nextView: CalendarView = view) => {
    const next = new URLSearchParams(params);
    next.set('view', nextView);
    next.set('date', dayKey(date));
    setParams(next, { replace: true });
  };

  const entries = useMemo(() => calendar.data?.entries ?? [], [calendar.data?.entries]);
  const reviewSettings = useReviewSettings();
  const articles = useMemo(
    () => new Map((calendar.data?.articles ?? []).map((a) => [articleIdOf(a), a])),
    [calendar.data?.articles],
  );
  // Where review is required, a scheduled version not approved reads "Waiting for approval", then "Expired"
  // (shared/src/review.ts slotApproval), as on its Schedule card.
  const approvalOf = (entry: CalendarEntry) => {
    const article = entry.kind === 'scheduled' ? articles.get(entry.articleId) : undefined;
    return article ? slotApproval(article, entry.platform, reviewSettings, now) : null;
  };
  // Items by cell: the day (month) or the day and hour (week), in time order as the API answers.
  const byCell = useMemo(() => {
    const cells = new Map<string, CalendarEntry[]>();
    for (const entry of entries) {
      const place = placeOf(entry.at, timeZone);
      const id = view === 'month' ? cellId(place.key) : cellId(place.key, place.hour);
      const cell = cells.get(id);
      if (cell) cell.push(entry);
      else cells.set(id, [entry]);
    }
    return cells;
  }, [entries, timeZone, view]);

  const visible = (date: CalendarDate) => days.some((d) => sameDay(d, date));
  const defaultCell: FocusTarget = {
    kind: 'cell',
    day: dayKey(visible(today) ? today : view === 'month' ? { ...anchor, day: 1 } : days[0]!),
    ...(view === 'week' ? { hour: WEEK_OPENS_AT } : {}),
  };
  const current = focus ?? defaultCell;
  const currentId = focusIdOf(current);

  // After a key moved the position, the element there takes the focus (it may have just been rendered).
  useEffect(() => {
    if (!moveFocusRef.current) return;
    moveFocusRef.current = false;
    gridRef.current?.querySelector<HTMLElement>(`[data-focus-id="${CSS.escape(currentId)}"]`)?.focus();
  });

  // A dialog gives the focus back to the item it was opened from; when the refreshed calendar moves that item
  // (rescheduled, published) the node is gone and the focus falls to the page: it follows the item to its new
  // place instead, or to the grid's tab stop when the item left the range shown. Focus put elsewhere is left.
  useEffect(() => {
    const follow = followRef.current;
    if (!follow) return;
    const active = document.activeElement;
    if (!active || active === document.body) {
      followRef.current = null;
      moveFocusRef.current = true;
      setFocus(entries.some((e) => entryKey(e) === follow.key) ? { kind: 'item', key: follow.key } : null);
    } else if (follow.refreshed && calendar.data === queryClient.getQueryData(calendarKey(range.from, range.to))) {
      // The refreshed answer is on screen and the focus is still somewhere: nothing to follow.
      followRef.current = null;
    }
  }, [entries, refreshes, calendar.data, queryClient, range.from, range.to]);

  // The week opens at the working day's start, with the shown date's column in view (a phone scrolls sideways).
  useEffect(() => {
    const box = scrollRef.current;
    if (view !== 'week' || !box) return;
    const slot = box.querySelector<HTMLElement>(`[data-focus-id="${CSS.escape(cellId(anchorKey, WEEK_OPENS_AT))}"]`);
    const head = box.querySelector<HTMLElement>('.calendar-grid__head');
    if (!slot) return;
    box.scrollTop = slot.offsetTop - (head?.offsetHeight ?? 0);
    if (slot.offsetLeft + slot.offsetWidth > box.clientWidth) box.scrollLeft = slot.offsetLeft - WEEK_HOUR_COLUMN_PX;
    setTopHour(firstHourInView(box) ?? WEEK_OPENS_AT);
  }, [view, anchorKey]);

  // Items per day of the week in the hours scrolled out of sight above, earliest first.
  const earlier = useMemo(() => {
    const hidden = new Map<string, CalendarEntry[]>();
    if (view !== 'week') return hidden;
    for (const entry of entries) {
      const place = placeOf(entry.at, timeZone);
      if (place.hour >= topHour) continue;
      const list = hidden.get(place.key);
      if (list) list.push(entry);
      else hidden.set(place.key, [entry]);
    }
    return hidden;
  }, [entries, timeZone, view, topHour]);

  /** Shows a day's earliest hidden item: the hours scroll back to it, and it takes the focus. */
  const showEarlier = (first: CalendarEntry) => {
    const box = scrollRef.current;
    const place = placeOf(first.at, timeZone);
    const slot = box?.querySelector<HTMLElement>(`[data-focus-id="${CSS.escape(cellId(place.key, place.hour))}"]`);
    if (box && slot)
      box.scrollTop = slot.offsetTop - (box.querySelector<HTMLElement>('.calendar-grid__head')?.offsetHeight ?? 0);
    goTo({ kind: 'item', key: entryKey(first) });
  };

  const goTo = (target: FocusTarget) => {
    moveFocusRef.current = true;
    setFocus(target);
  };

  const goToDay = (date: CalendarDate, hour?: number) => {
    if (!visible(date)) setAnchor(date);
    goTo({ kind: 'cell', day: dayKey(date), ...(view === 'week' ? { hour: hour ?? WEEK_OPENS_AT } : {}) });
  };

  const step = (direction: -1 | 1) => {
    setFocus(null);
    setAnchor(view === 'month' ? addMonths({ ...anchor, day: 1 }, direction) : addDays(anchor, 7 * direction));
  };

  /** After a dialog opened from an item (its entry key): the lists are refreshed, and the focus follows the item. */
  const refreshAndRefocus = async (key: string) => {
    const follow = { key, refreshed: false };
    followRef.current = follow;
    await refreshArticleLists(queryClient);
    follow.refreshed = true;
    setRefreshes((n) => n + 1);
  };

  const open = (entry: CalendarEntry) => {
    const article = articles.get(entry.articleId);
    if (article) setOpened({ entry, article });
  };

  const onCellKey = (event: KeyboardEvent, date: CalendarDate, hour?: number) => {
    const cell = view === 'month' ? cellId(dayKey(date)) : cellId(dayKey(date), hour);
    const items = byCell.get(cell) ?? [];
    const keys: Record<string, () => void> = {
      ArrowLeft: () => goToDay(addDays(date, -1), hour),
      ArrowRight: () => goToDay(addDays(date, 1), hour),
      ArrowUp: () => (view === 'month' ? goToDay(addDays(date, -7)) : goToDay(date, Math.max(0, (hour ?? 0) - 1))),
      ArrowDown: () => (view === 'month' ? goToDay(addDays(date, 7)) : goToDay(date, Math.min(23, (hour ?? 0) + 1))),
      Home: () => goToDay(addDays(date, -weekdayIndex(date)), hour),
      End: () => goToDay(addDays(date, 6 - weekdayIndex(date)), hour),
      PageUp: () => goToDay(view === 'month' ? addMonths(date, -1) : addDays(date, -7), hour),
      PageDown: () => goToDay(view === 'month' ? addMonths(date, 1) : addDays(date, 7), hour),
      Enter: () => {
        if (items[0]) goTo({ kind: 'item', key: entryKey(items[0]) });
      },
    };
    const action = keys[event.key === ' ' ? 'Enter' : event.key];
    if (!action) return;
    event.preventDefault();
    action();
  };

  const onItemKey = (event: KeyboardEvent, entry: CalendarEntry, cell: string, date: CalendarDate, hour?: number) => {
    const items = byCell.get(cell) ?? [];
    const index = items.findIndex((e) => entryKey(e) === entryKey(entry));
    const toItem = (i: number) => {
      const next = items[Math.max(0, Math.min(items.length - 1, i))];
      if (next) goTo({ kind: 'item', key: entryKey(next) });
    };
    const keys: Record<string, () => void> = {
      ArrowUp: () => (index === 0 ? goTo({ kind: 'cell', day: dayKey(date), hour }) : toItem(index - 1)),
      ArrowDown: () => toItem(index + 1),
      ArrowLeft: () => goToDay(addDays(date, -1), hour),
      ArrowRight: () => goToDay(addDays(date, 1), hour),
      Escape: () => goTo({ kind: 'cell', day: dayKey(date), hour }),
    };
    const action = keys[event.key];
    if (!action) return;
    event.preventDefault();
    event.stopPropagation();
    action();
  };

  /** PUT /api/articles/{id}/schedule, as the Schedule page does; the server refuses a past time with its message. */
  const reschedule = async (entry: CalendarEntry, datetime: string, undoing = false) => {
    if (datetime === entry.at) return;
    moveInCache(queryClient, entry, datetime);
    try {
      const answer = await request('schedule.set', {
        params: { id: entry.articleId },
        body: { platform: entry.platform, datetime },
      });
      const at = answer.scheduledFor ?? datetime;
      const when = formatDateTime(at, timeZone);
      if (undoing) toast.success(CalendarMessages.movedBack(entry.title, when));
      else {
        toast.success(
          ({ closeToast }) => (
            <UndoToast
              text={CalendarMessages.moved(entry.title, entry.platform, when)}
              closeToast={closeToast}
              onUndo={() => void reschedule({ ...entry, at }, entry.at, true)}
            />
          ),
          { autoClose: 10_000 },
        );
      }
    } catch (err) {
      toast.error(errorText(err, CalendarMessages.moveFailed));
    } finally {
      void refreshArticleLists(queryClient);
    }
  };

  /** Whether the dragged item would land in the past on this day (month) or hour (week): it is not taken there. */
  const refusesDrop = (date: CalendarDate, hour?: number) =>
    Boolean(dragging && isPastMove(movedTime(dragging.at, date, timeZone, hour), new Date()));

  const dropProps = (date: CalendarDate, id: string, hour?: number) => ({
    onDragOver: (event: DragEvent) => {
      if (!dragging) return;
      // A past cell does not accept the drop (the pointer says so); letting go there sends nothing (see onDragEnd).
      const refused = refusesDrop(date, hour);
      letGoOnRefusedRef.current = false;
      if (!refused) event.preventDefault();
      event.dataTransfer.dropEffect = refused ? 'none' : 'move';
      const target = dropTargetRef.current;
      if (target?.id !== id || target.refused !== refused) markDropTarget({ id, refused });
    },
    onDragLeave: (event: DragEvent) => {
      const target = dropTargetRef.current;
      if (target?.id !== id) return;
      // Moving on, the pointer enters another element first; let go, it enters none.
      if (target.refused && !event.relatedTarget) letGoOnRefusedRef.current = true;
      markDropTarget(null);
    },
    onDrop: (event: DragEvent) => {
      event.preventDefault();
      const entry = dragging;
      setDragging(null);
      markDropTarget(null);
      if (!entry) return;
      const at = movedTime(entry.at, date, timeZone, hour);
      // The minute may have turned since the cell was entered.
      if (isPastMove(at, new Date())) toast.error(ScheduleMessages.pastDate);
      else void reschedule(entry, at);
    },
  });

  const renderItems = (cell: string, date: CalendarDate, hour?: number): ReactNode => {
    const items = byCell.get(cell) ?? [];
    if (!items.length) return null;
    return (
      <ul className="calendar-items">
        {items.map((entry) => {
          const key = entryKey(entry);
          const movable = mayMove && canMove(entry);
          const platform = entryPlace(entry);
          const time = timeOfDay(entry.at, timeZone);
          const approval = approvalOf(entry);
          const statusLabel = approval ? reviewBadge[approval] : PLATFORM_STATUS_LABELS[entry.status];
          const tone = approval === 'expired' ? 'danger' : approval ? 'warning' : STATUS_TONES[entry.status];
          return (
            <li key={key}>
              <button
                type="button"
                className={`calendar-item calendar-item--${tone} calendar-item--${entry.channel}${
                  dragging && entryKey(dragging) === key ? ' is-dragging' : ''
                }`}
                data-focus-id={`item:${key}`}
                tabIndex={currentId === `item:${key}` ? 0 : -1}
                draggable={movable}
                aria-haspopup="dialog"
                aria-label={`${entry.title}, ${platform}, ${statusLabel} ${time}${movable ? ', can be moved' : ''}`}
                // The title is cut to the cell's width: a pointer shows it whole.
                title={movable ? `${entry.title}: drag to another day or time to reschedule` : entry.title}
                onDragStart={(event) => {
                  event.dataTransfer.setData('text/plain', key);
                  event.dataTransfer.effectAllowed = 'move';
                  setDragging(entry);
                }}
                onDragEnd={() => {
                  // Let go over a past cell: nothing was dropped, and the toast says why.
                  const refused = letGoOnRefusedRef.current || dropTargetRef.current?.refused;
                  letGoOnRefusedRef.current = false;
                  setDragging(null);
                  markDropTarget(null);
                  if (refused) toast.error(ScheduleMessages.pastDate);
                }}
                onFocus={() => setFocus({ kind: 'item', key })}
                onKeyDown={(event) => onItemKey(event, entry, cell, date, hour)}
                onClick={() => open(entry)}
              >
                <ChannelTag channel={entry.channel} className="calendar-item__platform" hidden />
                <span className="calendar-item__time">{time}</span>
                <span className="calendar-item__title">{entry.title}</span>
                {approval && (
                  <span className="calendar-item__review" aria-hidden>
                    {statusLabel}
                  </span>
                )}
              </button>
            </li>
          );
        })}
      </ul>
    );
  };

  /** A cell's look during a drag: under the pointer (taking the item, or refusing it), or in the past. */
  const dropClasses = (date: CalendarDate, id: string, hour?: number) =>
    `${dropTarget?.id === id ? (dropTarget.refused ? ' is-drop-refused' : ' is-drop-target') : ''}${
      refusesDrop(date, hour) ? ' is-past' : ''
    }`;

  const refusedLabel = (id: string) =>
    dropTarget?.id === id && dropTarget.refused ? (
      <span className="calendar-refused" aria-hidden>
        {CalendarMessages.pastCell}
      </span>
    ) : null;

  const nowPlace = placeOf(clock.toISOString(), timeZone);

  const cellProps = (date: CalendarDate, id: string, hour?: number) => ({
    role: 'gridcell',
    'data-focus-id': id,
    tabIndex: currentId === id ? 0 : -1,
    onFocus: (event: { target: EventTarget; currentTarget: EventTarget }) => {
      if (event.target === event.currentTarget) setFocus({ kind: 'cell', day: dayKey(date), hour });
    },
    onKeyDown: (event: KeyboardEvent) => {
      if (event.target === event.currentTarget) onCellKey(event, date, hour);
    },
    ...dropProps(date, id, hour),
  });

  const title = viewTitle(view, anchor);
  const names = weekdayNames('short');
  const weeks = Array.from({ length: days.length / 7 }, (_, i) => days.slice(i * 7, i * 7 + 7));
  const loaded = calendar.isSuccess;

  return (
    <div className="page calendar-page">
      <PageHeader
        title="Content Calendar"
        description={
          <>
            Your articles on their scheduled and published days, in your time zone ({timeZone}).{' '}
            {mayMove
              ? 'Drag a scheduled item to another day to move it, or open an item (click, or Enter) to reschedule or publish it.'
              : 'Open an item (click, or Enter) to see its article.'}
          </>
        }
      />

      {/* Not role="toolbar": that promises arrow keys between its buttons; each one is a Tab stop here. */}
      <div className="calendar-toolbar">
        <div className="calendar-toolbar__nav">
          <button type="button" className="btn btn--secondary btn--sm" onClick={() => step(-1)}>
            <span aria-hidden>‹</span> <span className="sr-only">Previous {view}</span>
            <span className="calendar-toolbar__word" aria-hidden>
              Previous
            </span>
          </button>
          <button
            type="button"
            className="btn btn--secondary btn--sm"
            onClick={() => {
              setFocus(null);
              setAnchor(today);
            }}
          >
            Today
          </button>
          <button type="button" className="btn btn--secondary btn--sm" onClick={() => step(1)}>
            <span className="calendar-toolbar__word" aria-hidden>
              Next
            </span>
            <span className="sr-only">Next {view}</span> <span aria-hidden>›</span>
          </button>
        </div>
        <h2 className="calendar-toolbar__title" aria-live="polite">
          {title}
        </h2>
        <div className="calendar-toolbar__views" role="group" aria-label="View">
          {(['month', 'week'] as const).map((v) => (
            <button
              key={v}
              type="button"
              className={`btn btn--sm ${view === v ? 'btn--primary' : 'btn--secondary'}`}
              aria-pressed={view === v}
              onClick={() => {
                setFocus(null);
                setAnchor(anchor, v);
              }}
            >
              {v === 'month' ? 'Month' : 'Week'}
            </button>
          ))}
        </div>
      </div>

      <div className="calendar-status">
        {calendar.isPending && (
          <span className="calendar-status__loading">
            <Spinner label="Loading the calendar" size="sm" /> Loading the calendar...
          </span>
        )}
        {calendar.isError && <LoadFailed text={CalendarMessages.loadFailed} query={calendar} />}
        {loaded && entries.length === 0 && (
          <p className="calendar-status__empty">
            {CalendarMessages.empty(view)} <Link to="/schedule">Schedule an article</Link>
          </p>
        )}
      </div>

      <div
        ref={scrollRef}
        className={`calendar-scroll calendar-scroll--${view}`}
        onScroll={
          view === 'week' ? (event) => setTopHour(firstHourInView(event.currentTarget) ?? WEEK_OPENS_AT) : undefined
        }
      >
        <div
          ref={gridRef}
          role="grid"
          aria-label={`${title}, ${view === 'month' ? 'month' : 'week'} view`}
          aria-busy={calendar.isFetching}
          className={`calendar-grid calendar-grid--${view}${dragging ? ' is-dragging' : ''}`}
        >
          {view === 'month' ? (
            <>
              <div role="row" className="calendar-grid__head">
                {names.map((name) => (
                  <div key={name} role="columnheader" className="calendar-grid__weekday">
                    {name}
                  </div>
                ))}
              </div>
              {weeks.map((week) => (
                <div key={dayKey(week[0]!)} role="row" className="calendar-grid__week">
                  {week.map((date) => {
                    const key = dayKey(date);
                    const id = cellId(key);
                    const isToday = sameDay(date, today);
                    return (
                      <div
                        key={key}
                        {...cellProps(date, id)}
                        aria-label={`${longDay(date)}${isToday ? ', today' : ''}`}
                        aria-current={isToday ? 'date' : undefined}
                        className={`calendar-day${date.month === anchor.month ? '' : ' is-outside'}${
                          isToday ? ' is-today' : ''
                        }${dropClasses(date, id)}`}
                      >
                        <span className="calendar-day__number" aria-hidden>
                          {date.day}
                        </span>
                        {renderItems(id, date)}
                        {refusedLabel(id)}
                      </div>
                    );
                  })}
                </div>
              ))}
            </>
          ) : (
            <>
              <div role="row" className="calendar-grid__head">
                <div role="columnheader" className="calendar-grid__corner">
                  <span className="sr-only">Hour</span>
                </div>
                {days.map((date) => {
                  const isToday = sameDay(date, today);
                  const hidden = earlier.get(dayKey(date));
                  return (
                    <div
                      key={dayKey(date)}
                      role="columnheader"
                      aria-label={`${longDay(date)}${isToday ? ', today' : ''}`}
                      className={`calendar-grid__weekday${isToday ? ' is-today' : ''}`}
                    >
                      <span aria-hidden>
                        {names[weekdayIndex(date)]} <strong>{date.day}</strong>
                      </span>
                      {hidden?.[0] && (
                        <button
                          type="button"
                          className="calendar-earlier"
                          // The grid is one tab stop: the keyboard reaches these hours with the arrow keys.
                          tabIndex={-1}
                          aria-label={CalendarMessages.earlierLabel(hidden.length, longDay(date))}
                          onClick={() => showEarlier(hidden[0]!)}
                        >
                          <span aria-hidden>↑ </span>
                          {CalendarMessages.earlier(hidden.length)}
                        </button>
                      )}
                    </div>
                  );
                })}
              </div>
              {HOURS.map((hour) => (
                <div key={hour} role="row" className="calendar-grid__hour-row">
                  <div role="rowheader" className="calendar-grid__hour">
                    {pad(hour)}:00
                  </div>
                  {days.map((date) => {
                    const key = dayKey(date);
                    const id = cellId(key, hour);
                    const isToday = sameDay(date, today);
                    return (
                      <div
                        key={key}
                        {...cellProps(date, id, hour)}
                        aria-label={`${longDay(date)}, ${pad(hour)}:00`}
                        className={`calendar-slot${isToday ? ' is-today' : ''}${dropClasses(date, id, hour)}`}
                      >
                        {key === nowPlace.key && hour === nowPlace.hour && (
                          <div
                            className="calendar-now"
                            role="img"
                            aria-label={`Now, ${timeOfDay(clock.toISOString(), timeZone)}`}
                            style={{ top: `${(nowPlace.minute / 60) * 100}%` }}
                          />
                        )}
                        {renderItems(id, date, hour)}
                        {refusedLabel(id)}
                      </div>
                    );
                  })}
                </div>
              ))}
            </>
          )}
        </div>
      </div>

      {opened && (
        <Modal
          title={`${entryPlace(opened.entry)} · ${formatDateTime(opened.entry.at, timeZone)}`}
          subtitle={(() => {
            const approval = approvalOf(opened.entry);
            return approval ? reviewBadge[approval] : PLATFORM_STATUS_LABELS[opened.entry.status];
          })()}
          onClose={() => setOpened(null)}
          className="calendar-dialog"
          size="xl"
        >
          <ArticleCard
            article={opened.article}
            now={now}
            timeZone={timeZone}
            onPublish={(article, platform) => {
              setOpened(null);
              setPublishing({ article, platform, from: entryKey(opened.entry) });
            }}
            onSchedule={(article, platforms) => {
              setOpened(null);
              setScheduling({ article, platforms, from: entryKey(opened.entry) });
            }}
          />
        </Modal>
      )}

      {scheduling && (
        <Suspense fallback={null}>
          <ScheduleModal
            article={scheduling.article}
            platforms={scheduling.platforms}
            timeZone={timeZone}
            onClose={() => {
              setScheduling(null);
              void refreshAndRefocus(scheduling.from);
            }}
          />
        </Suspense>
      )}

      {publishing && (
        <PublishConfirmModal
          article={publishing.article}
          platform={publishing.platform}
          onClose={() => setPublishing(null)}
          onPublished={(result: PublishResult) => {
            setPublishing(null);
            toast.success(result.message);
            void refreshAndRefocus(publishing.from);
          }}
          onFailed={() => void refreshArticleLists(queryClient)}
        />
      )}
    </div>
  );
}
