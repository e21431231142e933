import { calendarDateIn, wallClockIn, type CalendarDate } from '@app/shared';
import { currentMinute, wallClockToInstant } from './schedulePicker';

/**
 * The content calendar's days, all on the user's clock (their profile's zone, never the browser's): a
 * calendar date is a plain {year, month, day}, and instants are found for it with the zone's offsets
 * (lib/schedulePicker.ts wallClockToInstant), so the browser's own zone plays no part.
 */
export type CalendarView = 'month' | 'week';

const DAY_MS = 24 * 60 * 60 * 1000;
/** A month view always shows six weeks, Monday first: its size never jumps between months. */
export const MONTH_VIEW_DAYS = 42;

/** 'YYYY-MM-DD' of a date: the key of its cell and of the URL's `date`. */
export const dayKey = ({ year, month, day }: CalendarDate): string =>
  `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;

/** The date of a 'YYYY-MM-DD' key, or null when it is not one. */
export function parseDayKey(key: string | null | undefined): CalendarDate | null {
  const match = key ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(key) : null;
  if (!match) return null;
  const date = { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) };
  const back = new Date(Date.UTC(date.year, date.month - 1, date.day));
  return back.getUTCMonth() === date.month - 1 && back.getUTCDate() === date.day ? date : null;
}

// Date arithmetic on UTC midnights: calendar dates have no daylight-saving changes.
const utc = ({ year, month, day }: CalendarDate) => Date.UTC(year, month - 1, day);
const fromUtc = (ms: number): CalendarDate => {
  const d = new Date(ms);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
};

export const addDays = (date: CalendarDate, days: number): CalendarDate => fromUtc(utc(date) + days * DAY_MS);

/** The same day of the month `months` later, or the month's last day when it has fewer. */
export function addMonths(date: CalendarDate, months: number): CalendarDate {
  const index = date.year * 12 + (date.month - 1) + months;
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return { year, month, day: Math.min(date.day, last) };
}

/** 0 for Monday … 6 for Sunday. */
export const weekdayIndex = (date: CalendarDate): number => (new Date(utc(date)).getUTCDay() + 6) % 7;

export const sameDay = (a: CalendarDate, b: CalendarDate): boolean =>
  a.year === b.year && a.month === b.month && a.day === b.day;

/** The days a view shows around `anchor`: the six weeks around its month, or its Monday-to-Sunday week. */
export function viewDays(view: CalendarView, anchor: CalendarDate): CalendarDate[] {
  const first = view === 'month' ? { ...anchor, day: 1 } : anchor;
  const start = addDays(first, -weekdayIndex(first));
  return Array.from({ length: view === 'month' ? MONTH_VIEW_DAYS : 7 }, (_, i) => addDays(start, i));
}

/** The instant a day starts in the zone (a midnight skipped by a clock change: the first instant of the day). */
export const startOfDay = (date: CalendarDate, timeZone: string): Date =>
  wallClockToInstant({ ...date, hour: 0, minute: 0 }, timeZone);

/** The instants a view covers, from the first day's start to the next day after the last (excluded). */
export function viewRange(view: CalendarView, anchor: CalendarDate, timeZone: string): { from: string; to: string } {
  const days = viewDays(view, anchor);
  return {
    from: startOfDay(days[0]!, timeZone).toISOString(),
    to: startOfDay(addDays(days.at(-1)!, 1), timeZone).toISOString(),
  };
}

/** Where an instant falls on the user's clock: its day's key and its hour. */
export function placeOf(at: string, timeZone: string): { key: string; hour: number; minute: number } {
  const wall = wallClockIn(new Date(at), timeZone);
  return { key: dayKey(wall), hour: wall.hour, minute: wall.minute };
}

/** Today on the user's clock. */
export const todayIn = (now: Date, timeZone: string): CalendarDate => calendarDateIn(now, timeZone);

/**
 * The new time of an item dropped on `day` (and, in the week view, `hour`): the same time of day on
 * another day (month), or the slot's hour with the item's own minutes (week), on the user's clock.
 */
export function movedTime(at: string, day: CalendarDate, timeZone: string, hour?: number): string {
  const wall = wallClockIn(new Date(at), timeZone);
  return wallClockToInstant({ ...day, hour: hour ?? wall.hour, minute: wall.minute }, timeZone).toISOString();
}

/**
 * Whether a move to `at` is refused before anything is sent: a time already gone, the minute under way still counting
 * as now (the schedule field's rule, lib/schedulePicker.ts validateScheduleInput; the server refuses it too).
 */
export const isPastMove = (at: string, now: Date): boolean => Date.parse(at) < currentMinute(now);

/** "November 2026" for the month view; "Nov 23 – 29, 2026" (or across months and years) for the week. */
export function viewTitle(view: CalendarView, anchor: CalendarDate): string {
  const asUtc = (date: CalendarDate) => new Date(utc(date));
  if (view === 'month') {
    return new Intl.DateTimeFormat(undefined, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
      asUtc(anchor),
    );
  }
  const days = viewDays('week', anchor);
  return new Intl.DateTimeFormat(undefined, {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    timeZone: 'UTC',
  }).formatRange(asUtc(days[0]!), asUtc(days[6]!));
}

/** "Monday, November 23, 2026": a cell's accessible name. */
export const longDay = (date: CalendarDate): string =>
  new Intl.DateTimeFormat(undefined, {
    weekday: 'long',
    month: 'long',
    day: 'numeric',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(utc(date)));

/** "Mon", "Tue", …: the week's column heads, Monday first. */
export const weekdayNames = (style: 'short' | 'long'): string[] =>
  Array.from({ length: 7 }, (_, i) =>
    new Intl.DateTimeFormat(undefined, { weekday: style, timeZone: 'UTC' }).format(new Date(Date.UTC(2024, 0, 1 + i))),
  );

/** "09:30", 24-hour, on the user's clock. */
export function timeOfDay(at: string, timeZone: string): string {
  const { hour, minute } = wallClockIn(new Date(at), timeZone);
  return `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;
}
