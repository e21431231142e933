import { useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import DatePicker from 'react-datepicker';
import 'react-datepicker/dist/react-datepicker.css';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useController } from 'react-hook-form';
import * as z from 'zod/mini';
import { CHANNELS, PLATFORMS, ScheduleSchema, type Article, type ScheduleInput, type VersionId } from '@app/shared';
import type { ScheduleAnswer } from '@app/shared/api';
import { errorText, request } from '../../api/client';
import { articleListKey, refreshArticleLists } from '../../hooks/useArticleLists';
import {
  SCHEDULE_MINUTE_STEP,
  defaultScheduleTime,
  formatWallClock,
  fromPickerDate,
  parseWallClock,
  pickerNow,
  pickerToday,
  scheduleFieldText,
  slotFilter,
  toPickerDate,
  validateScheduleInput,
} from '../../lib/schedulePicker';
import { useZodForm } from '../../lib/form';
import { toast } from '../../lib/toast';
import { formatDateTime, resolveUserTimeZone } from '../../lib/userTime';
import { Modal } from '../Modal';
import { BusyButton } from '../Spinner';
import { articleIdOf } from '../create/articleQuery';
import { versionNames } from '../../channels/registry';
import { ScheduleMessages } from './messages';
import '../../styles/schedule-modal.css';

export interface ScheduleModalProps {
  article: Article;
  /**
   * The unpublished platforms from the card's badge, one version from a row's Schedule button (one of PLATFORMS or a
   * channel's own).
   */
  platforms: VersionId[];
  /** The user's time zone: the picker's days and times, and the times shown back, are on its clock. */
  timeZone: string;
  onClose: () => void;
  /** The clock, for tests. */
  now?: () => Date;
}

const systemNow = () => new Date();

/** The versions' nouns joined by "and" (shared/src/channels.ts, versionNoun). */
const platformWords = (platforms: readonly VersionId[]) => platforms.map((p) => versionNames(p).content).join(' and ');
/** Every version, with the channel's name where it differs from the version's: "blog (<channel>) and the …". */
const BOTH_VERSIONS = CHANNELS.map(({ versionNoun, label }) =>
  versionNoun === label ? versionNoun : `${versionNoun} (${label})`,
).join(' and the ');

/**
 * The field's text, checked as docs/product.md (Schedule) says at `moment`, becomes the ISO time sent: the
 * wall-clock time it reads in the user's zone. It may be the minute already under way (the server takes
 * it as now); nothing is clamped or kept from an earlier pick.
 */
const pickedTimeSchema = (moment: Date, timeZone: string) =>
  z.pipe(
    z.object({ when: z.string() }),
    z.transform(({ when }: { when: string }, ctx) => {
      const check = validateScheduleInput(when, moment, timeZone);
      if (check.ok) return { datetime: check.date.toISOString(), text: check.text };
      ctx.issues.push({ code: 'custom', path: ['when'], message: check.message, input: when });
      return z.NEVER;
    }),
  );

/** The calendar's box: a labelled group (react-datepicker's own is a bare div with a label, or a dialog in a pop-up). */
function PickerGroup({ className, children }: { className?: string; children?: ReactNode }) {
  return (
    <div className={className} role="group" aria-label="Choose date and time" translate="no">
      {children}
    </div>
  );
}

/**
 * The schedule modal (docs/product.md, Schedule): a date-time picker on the user's clock (their profile's
 * zone, not the browser's) with a 24-hour clock and 5-minute steps, one hour ahead by default; past slots
 * are disabled, and a past or unreadable time, or one between the steps, is refused. The field's text is the
 * value: what is sent is what it shows. Submitting sends PUT /api/articles/{id}/schedule with the ISO time,
 * for both platforms in parallel. At that time the server makes the content ready and e-mails the user to
 * approve it.
 *
 * react-datepicker knows only the browser's clock (its own timeZone prop loads date-fns-tz with a require()
 * our ESM build cannot run), so it is given Dates whose browser-local fields are the user's wall clock
 * (lib/schedulePicker), and the text is converted to an instant with the user's zone.
 */
export default function ScheduleModal({
  article,
  platforms,
  timeZone: profileZone,
  onClose,
  now = systemNow,
}: ScheduleModalProps) {
  const queryClient = useQueryClient();
  const fieldId = useId();
  const hintId = useId();
  const errorId = useId();
  const id = articleIdOf(article);

  // Platforms still to schedule: after a partial failure only the failed ones are left.
  const [pending, setPending] = useState<VersionId[]>(platforms);
  const [failure, setFailure] = useState<string | null>(null);
  // The blog-first bundle (docs/product.md, Approve): one schedule of the blog version carries the social posts.
  const [bundle, setBundle] = useState(article.bundle === true);
  const bundleId = useId();
  const timeZone = resolveUserTimeZone(profileZone);
  const form = useZodForm(
    () => pickedTimeSchema(now(), timeZone),
    {
      when: scheduleFieldText(defaultScheduleTime(now()), timeZone),
    },
    { mode: 'onTouched' },
  );
  const {
    field: { value: text, onChange: changeField, onBlur: blurField, ref: fieldRef },
  } = useController({ control: form.control, name: 'when' });
  const fieldError = form.formState.errors.when?.message;
  // What the text means: the picker's Date (the user's wall clock), and, only when the time can be sent (the
  // rule Schedule applies), the instant it goes out at: a refused time has its error and no "Goes out".
  const wall = parseWallClock(text);
  const selected = wall ? toPickerDate(wall) : null;
  const check = validateScheduleInput(text, now(), timeZone);
  const goesOut = check.ok ? check.date : null;

  const current = pending
    .map((p) => ({ platform: p, at: article.scheduled?.[p] }))
    .filter((c): c is { platform: VersionId; at: string } => !!c.at && Date.parse(c.at) > now().getTime());

  const setText = (value: string) => {
    setFailure(null);
    changeField(value);
  };

  // A typed time is brought into view in the time list too (a picked one is under the pointer already).
  const calendarRef = useRef<HTMLDivElement>(null);
  const showTypedTime = () =>
    requestAnimationFrame(() => {
      const list = calendarRef.current?.querySelector<HTMLElement>('.react-datepicker__time-list');
      const item = list?.querySelector<HTMLElement>('[aria-selected="true"]');
      if (list && item) list.scrollTop = item.offsetTop - (list.clientHeight - item.clientHeight) / 2;
    });

  // A time skipped by a daylight-saving change reads as the time the clocks show then (02:30 → 03:30).
  const leaveField = () => {
    if (check.ok && check.text !== text) setText(check.text);
    blurField();
  };

  const today = pickerToday(now(), timeZone);
  const isToday = (day: Date) =>
    day.getFullYear() === today.getFullYear() &&
    day.getMonth() === today.getMonth() &&
    day.getDate() === today.getDate();

  // Both platforms: two calls in parallel; each platform's outcome is its own.
  const schedule = useMutation({
    mutationFn: (payloads: ScheduleInput[]) =>
      Promise.allSettled(payloads.map((body) => request('schedule.set', { params: { id }, body }))),
    onSuccess: (results, payloads) => {
      const { datetime } = payloads[0]!;
      const done: { platform: VersionId; answer: ScheduleAnswer }[] = [];
      const failed: { platform: VersionId; err: unknown }[] = [];
      results.forEach((result, index) => {
        const platform = payloads[index]!.platform;
        if (result.status === 'fulfilled') done.push({ platform, answer: result.value });
        else failed.push({ platform, err: result.reason });
      });

      if (done.length > 0) {
        // Show the new state at once: each answer carries the article as its own write left it.
        const base = done[0]!.answer.article;
        const scheduled = { ...base.scheduled };
        for (const d of done) scheduled[d.platform] = d.answer.scheduledFor;
        const updated: Article = { ...base, scheduled };
        queryClient.setQueryData<Article[]>(articleListKey.unpublished, (list) =>
          list?.map((a) => (articleIdOf(a) === id ? updated : a)),
        );
        const when = done[0]!.answer.scheduledFor ?? datetime;
        toast.success(
          ScheduleMessages.scheduled(
            done.map((d) => d.platform),
            formatDateTime(when, timeZone),
          ),
        );
        void refreshArticleLists(queryClient);
      }
      const first = failed[0];
      if (!first) return onClose();
      setPending(failed.map((f) => f.platform));
      setFailure(ScheduleMessages.scheduleError(errorText(first.err, ScheduleMessages.scheduleFailed(first.platform))));
    },
  });
  const busy = schedule.isPending;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setFailure(null);
    void form.handleSubmit(({ datetime, text: shown }) => {
      // What is sent is what the field shows (a skipped time is shown moved forward first).
      if (shown !== text) changeField(shown);
      const payloads: ScheduleInput[] =
        bundle && pending.includes('blog')
          ? [{ platform: 'blog', datetime, bundle: true }]
          : pending.map((platform) => ({ platform, datetime }));
      if (!id || payloads.length === 0 || payloads.some((p) => !ScheduleSchema().safeParse(p).success)) {
        setFailure(ScheduleMessages.invalidData);
        return;
      }
      schedule.mutate(payloads);
    })(event);
  };

  const title =
    pending.length > 1 ? `Schedule ${platformWords(PLATFORMS)}` : `Schedule ${versionNames(pending[0] ?? 'blog').row}`;

  return (
    <Modal
      title={title}
      subtitle={article.title}
      onClose={onClose}
      closeDisabled={busy}
      className="schedule-modal"
      initialFocus={() => document.getElementById(fieldId)}
    >
      <form className="schedule-modal__form" onSubmit={(event) => void submit(event)} noValidate>
        <p className="schedule-modal__text">
          {pending.length > 1
            ? `Both the ${BOTH_VERSIONS} versions go out at this time.`
            : `The ${platformWords(pending)} version goes out at this time.`}{' '}
          The content is made ready then, and you get an e-mail to approve it before it is published.
        </p>

        <div className={`field schedule-modal__field${fieldError ? ' has-error' : ''}`}>
          <label className="field__label" htmlFor={fieldId}>
            Date and time
          </label>
          <input
            id={fieldId}
            ref={fieldRef}
            name="datetime"
            type="text"
            className="input schedule-modal__input"
            value={text}
            onChange={(event) => {
              setText(event.target.value);
              showTypedTime();
            }}
            onBlur={leaveField}
            placeholder="YYYY-MM-DD HH:mm"
            autoComplete="off"
            spellCheck={false}
            aria-describedby={fieldError ? `${errorId} ${hintId}` : hintId}
            aria-invalid={fieldError ? 'true' : undefined}
            disabled={busy}
          />
          {fieldError && (
            <p id={errorId} className="field__error" role="alert">
              {fieldError}
            </p>
          )}
          <p id={hintId} className="field__hint">
            24-hour clock, 5-minute steps, in your time zone ({timeZone}).
            {goesOut && (
              <>
                {' '}
                Goes out <strong>{formatDateTime(goesOut.toISOString(), timeZone)}</strong>.
              </>
            )}
          </p>
        </div>

        {/* The calendar is part of the dialog, not a pop-up over it: a pop-up covered the dialog's own
            buttons (a click on Cancel picked a time), and nothing below it moves when it opens or closes. */}
        <div ref={calendarRef}>
          <DatePicker
            inline
            // A day or a time picked in the calendar writes the field; the field's text is what is sent.
            onChange={(date: Date | null) => {
              if (date && !busy) setText(formatWallClock(fromPickerDate(date)));
            }}
            selected={selected}
            openToDate={selected ? undefined : pickerNow(now(), timeZone)}
            showTimeSelect
            timeFormat="HH:mm"
            timeIntervals={SCHEDULE_MINUTE_STEP}
            timeCaption="Time"
            filterTime={slotFilter(now(), timeZone)}
            minDate={today}
            dayClassName={(day) => (isToday(day) ? 'schedule-modal__today' : '')}
            calendarStartDay={1}
            calendarContainer={PickerGroup}
          />
        </div>

        {pending.includes('blog') && (
          <label className="schedule-modal__bundle" htmlFor={bundleId}>
            <input
              id={bundleId}
              type="checkbox"
              checked={bundle}
              onChange={(event) => setBundle(event.target.checked)}
              disabled={busy}
            />{' '}
            {ScheduleMessages.bundleChoice}
          </label>
        )}

        {current.length > 0 && (
          <ul className="schedule-modal__current">
            {current.map((c) => (
              <li key={c.platform}>
                {versionNames(c.platform).row} is scheduled for{' '}
                <time dateTime={c.at}>{formatDateTime(c.at, timeZone)}</time> at present.
              </li>
            ))}
          </ul>
        )}

        {failure && (
          <div className="alert alert--error schedule-modal__error" role="alert">
            {failure}
          </div>
        )}

        <div className="modal__footer">
          <button type="button" className="btn btn--secondary" onClick={onClose} disabled={busy}>
            Cancel
          </button>
          <BusyButton
            type="submit"
            className="btn btn--primary"
            disabled={busy}
            busy={busy}
            label={failure ? 'Try again' : 'Schedule'}
            busyLabel="Scheduling..."
          />
        </div>
      </form>
    </Modal>
  );
}
