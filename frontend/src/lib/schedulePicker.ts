import { ScheduleMessages } from '@app/shared';

/**
 * The schedule modal's date-time rules (docs/product.md, Schedule), as pure functions of "now".
 * The picker works in the browser's local time (react-datepicker uses plain Dates); arithmetic on
 * instants is done in epoch milliseconds so daylight-saving changes cannot shift a result.
 */

/** Minute step of the picker. */
export const SCHEDULE_MINUTE_STEP = 5;
/** The default is one hour ahead. */
export const SCHEDULE_DEFAULT_AHEAD_MS = 60 * 60 * 1000;

const MINUTE_MS = 60 * 1000;

/**
 * Rounds up to the next multiple of `stepMinutes` (seconds dropped; an exact multiple stays).
 * Every time-zone offset in use is a multiple of 5 minutes, so a step in epoch time is a step on
 * the local clock too.
 */
export function roundUpToStep(date: Date, stepMinutes: number = SCHEDULE_MINUTE_STEP): Date {
  const step = stepMinutes * MINUTE_MS;
  return new Date(Math.ceil(date.getTime() / step) * step);
}

/** One hour from now, rounded up to the next 5 minutes. */
export function defaultScheduleTime(now: Date): Date {
  return roundUpToStep(new Date(now.getTime() + SCHEDULE_DEFAULT_AHEAD_MS), SCHEDULE_MINUTE_STEP);
}

/** A picked time earlier than now becomes now. */
export function clampToNow(picked: Date, now: Date): Date {
  return picked.getTime() < now.getTime() ? new Date(now.getTime()) : picked;
}

/** The first moment of today on the local clock (the picker's minDate). */
export function startOfToday(now: Date): Date {
  return new Date(now.getFullYear(), now.getMonth(), now.getDate());
}

const pad = (n: number) => String(n).padStart(2, '0');

/** YYYY-MM-DDTHH:mm on the local clock (the SPEC's schedule-date shape). */
export function toLocalInput(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

const LOCAL_INPUT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

/**
 * Reads YYYY-MM-DDTHH:mm as a local time; null when the shape is wrong or the calendar date does
 * not exist (2025-02-30). A time skipped by a daylight-saving change (02:30 on the night clocks go
 * forward) is moved forward by the browser, as any local clock would.
 */
export function parseLocalInput(value: string): Date | null {
  const match = LOCAL_INPUT.exec(value.trim());
  if (!match) return null;
  const [year, month, day, hours, minutes] = match.slice(1).map(Number) as [number, number, number, number, number];
  if (month < 1 || month > 12 || hours > 23 || minutes > 59) return null;
  const date = new Date(year, month - 1, day, hours, minutes);
  if (date.getFullYear() !== year || date.getMonth() !== month - 1 || date.getDate() !== day) return null;
  return date;
}

export type ScheduleInputCheck = { ok: true; date: Date } | { ok: false; message: string };

/**
 * docs/product.md (Schedule): the value must match YYYY-MM-DDTHH:mm ("Please select a valid date and time.") and
 * lie in the future ("Please choose a future date and time."). The value has minute precision, so
 * the current minute still counts as "now" (the picker clamps a past pick to the current moment).
 */
export function validateScheduleInput(value: string | null | undefined, now: Date): ScheduleInputCheck {
  const date = typeof value === 'string' ? parseLocalInput(value) : null;
  if (!date) return { ok: false, message: ScheduleMessages.invalidDate };
  const currentMinute = Math.floor(now.getTime() / MINUTE_MS) * MINUTE_MS;
  if (date.getTime() < currentMinute) return { ok: false, message: ScheduleMessages.pastDate };
  return { ok: true, date };
}
