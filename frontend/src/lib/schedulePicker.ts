import { toZonedTime } from 'date-fns-tz';
import { ScheduleMessages, wallClockIn, type WallClock } from '@app/shared';

export type { WallClock };

/**
 * The schedule modal's date-time rules (docs/product.md, Schedule), as pure functions of "now" and the
 * user's time zone.
 *
 * Three shapes of a time meet here:
 * - the instant (a Date as an instant; what is sent, as ISO);
 * - the wall clock in the user's zone (a `WallClock`, or its text "YYYY-MM-DD HH:mm", what the field shows);
 * - the picker's Date: react-datepicker only knows the browser's own clock, so it is given a Date whose
 *   browser-local fields are the user's wall clock (what date-fns-tz's toZonedTime gives).
 * Text and instants are converted with the zone's offsets, never through the browser's clock, so a
 * browser in another zone (or with its own daylight-saving change that day) cannot shift what is sent.
 */

/** Minute step of the picker. */
export const SCHEDULE_MINUTE_STEP = 5;
/** The default is one hour ahead. */
export const SCHEDULE_DEFAULT_AHEAD_MS = 60 * 60 * 1000;
/** The picker's text (date-fns tokens): 24-hour clock. */
export const SCHEDULE_FIELD_FORMAT = 'yyyy-MM-dd HH:mm';

const MINUTE_MS = 60 * 1000;
const DAY_MS = 24 * 60 * MINUTE_MS;

/**
 * Rounds up to the next multiple of `stepMinutes` (seconds dropped; an exact multiple stays).
 * Every time-zone offset in use is a multiple of 5 minutes (+05:45 and +12:45 included), so a step in
 * epoch time is a step on the user's clock too.
 */
export function roundUpToStep(date: Date, stepMinutes: number = SCHEDULE_MINUTE_STEP): Date {
  const step = stepMinutes * MINUTE_MS;
  return new Date(Math.ceil(date.getTime() / step) * step);
}

/** One hour from now, rounded up to the next 5 minutes (an instant). */
export function defaultScheduleTime(now: Date): Date {
  return roundUpToStep(new Date(now.getTime() + SCHEDULE_DEFAULT_AHEAD_MS), SCHEDULE_MINUTE_STEP);
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** "YYYY-MM-DD HH:mm", the field's text. */
export function formatWallClock(wall: WallClock): string {
  return `${pad(wall.year, 4)}-${pad(wall.month)}-${pad(wall.day)} ${pad(wall.hour)}:${pad(wall.minute)}`;
}

// The field's shape; the SPEC's YYYY-MM-DDTHH:mm (a "T" between) is read too.
const FIELD_TEXT = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})$/;

/**
 * Reads "YYYY-MM-DD HH:mm" (or YYYY-MM-DDTHH:mm); null when the shape is wrong or the date or time does
 * not exist on any calendar (2025-02-30, 24:00, 10:60). Whether the zone skips it is another question
 * (wallClockToInstant).
 */
export function parseWallClock(text: string | null | undefined): WallClock | null {
  const match = typeof text === 'string' ? FIELD_TEXT.exec(text.trim()) : null;
  if (!match) return null;
  const [year, month, day, hour, minute] = match.slice(1).map(Number) as [number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59) return null;
  // The month's length, from UTC (which has no daylight-saving changes).
  if (day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return null;
  return { year, month, day, hour, minute };
}

/** The zone's offset from UTC at `instant` (a whole minute), in milliseconds. */
function offsetAt(instant: number, timeZone: string): number {
  const wall = wallClockIn(new Date(instant), timeZone);
  return Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute) - instant;
}

/** The field's text for `instant` in `timeZone`. */
export function scheduleFieldText(instant: Date, timeZone: string): string {
  return formatWallClock(wallClockIn(instant, timeZone));
}

const sameWallClock = (a: WallClock, b: WallClock) => formatWallClock(a) === formatWallClock(b);

/**
 * The instant at which the clocks of `timeZone` show `wall`. Daylight-saving changes:
 * - a time the clocks skip (02:30 on the night they go forward) moves forward by the length of the gap
 *   (03:30), as a clock would: it is read with the offset in force before the change;
 * - a time the clocks show twice (01:30 on the night they go back) is the first of the two.
 * From the zone's offsets (Intl), not date-fns-tz's fromZonedTime: that moves a skipped time backward
 * (01:30), and which 01:30 it gives on the night the clocks go back depends on the browser's own zone.
 */
export function wallClockToInstant(wall: WallClock, timeZone: string): Date {
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute);
  // No zone changes its offset twice within two days: the offsets a day either side are the only candidates.
  const before = offsetAt(asUtc - DAY_MS, timeZone);
  const after = offsetAt(asUtc + DAY_MS, timeZone);
  // The larger offset gives the earlier instant: tried first, for a time shown twice.
  for (const offset of before >= after ? [before, after] : [after, before]) {
    if (offsetAt(asUtc - offset, timeZone) === offset) return new Date(asUtc - offset);
  }
  // Skipped (neither offset is in force at the time it gives): read with the offset before the change.
  return new Date(asUtc - before);
}

/** Whether the clocks of `timeZone` ever show `wall` (false inside a daylight-saving gap). */
export function wallClockExists(wall: WallClock, timeZone: string): boolean {
  return sameWallClock(wallClockIn(wallClockToInstant(wall, timeZone), timeZone), wall);
}

/** The picker's Date for a wall clock: its browser-local fields are the wall clock. */
export function toPickerDate(wall: WallClock): Date {
  return new Date(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute);
}

/** The wall clock a picker's Date stands for (its browser-local fields). */
export function fromPickerDate(date: Date): WallClock {
  return {
    year: date.getFullYear(),
    month: date.getMonth() + 1,
    day: date.getDate(),
    hour: date.getHours(),
    minute: date.getMinutes(),
  };
}

/** Now on the user's clock, as the picker's Date. */
export function pickerNow(now: Date, timeZone: string): Date {
  return toZonedTime(now, timeZone);
}

/** The first moment of today on the user's clock, as the picker's Date (its minDate). */
export function pickerToday(now: Date, timeZone: string): Date {
  const wall = wallClockIn(now, timeZone);
  return new Date(wall.year, wall.month - 1, wall.day);
}

/** The start of the minute under way: the earliest instant that still counts as "now". */
export const currentMinute = (now: Date) => Math.floor(now.getTime() / MINUTE_MS) * MINUTE_MS;

/**
 * Whether a slot of the picker's time list (a picker's Date) can be chosen: it exists on the user's clock
 * and is not in the past (the minute under way still counts as now).
 */
export function isSelectableSlot(slot: Date, now: Date, timeZone: string): boolean {
  const wall = fromPickerDate(slot);
  const instant = wallClockToInstant(wall, timeZone);
  return sameWallClock(wallClockIn(instant, timeZone), wall) && instant.getTime() >= currentMinute(now);
}

/**
 * isSelectableSlot for one render of the time list, which asks several times about each of its 288 slots:
 * on a day without a change of offset (nearly all), a slot's instant is plain arithmetic.
 */
export function slotFilter(now: Date, timeZone: string): (slot: Date) => boolean {
  const earliest = currentMinute(now);
  // A day's one offset, or null when the zone changes it around that day. The wall day lies within
  // 14 hours of the same day in UTC, so a change shows between the offsets 14 hours either side.
  const dayOffsets = new Map<number, number | null>();
  const SPAN_MS = 14 * 60 * MINUTE_MS;
  return (slot) => {
    const wall = fromPickerDate(slot);
    const day = Date.UTC(wall.year, wall.month - 1, wall.day);
    let offset = dayOffsets.get(day);
    if (offset === undefined) {
      const first = offsetAt(day - SPAN_MS, timeZone);
      offset = first === offsetAt(day + DAY_MS + SPAN_MS, timeZone) ? first : null;
      dayOffsets.set(day, offset);
    }
    if (offset === null) return isSelectableSlot(slot, now, timeZone);
    return Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute) - offset >= earliest;
  };
}

/** A valid time: the instant to send and the field's text for it (a skipped time moved forward). */
export type ScheduleInputCheck = { ok: true; date: Date; text: string } | { ok: false; message: string };

/**
 * docs/product.md (Schedule): the field's text, a wall-clock time in the user's zone, must read as
 * YYYY-MM-DD HH:mm ("Please select a valid date and time."), lie in the future ("Please choose a future
 * date and time.") and be one of the time list's 5-minute steps ("Please choose a time in 5-minute steps,
 * such as 07:05."): typed or picked, the same times are accepted. The value has minute precision, so the
 * current minute still counts as "now" (the server takes a time a few moments past as now). Nothing is
 * clamped or rounded: what is sent is what the field says.
 */
export function validateScheduleInput(
  value: string | null | undefined,
  now: Date,
  timeZone: string,
): ScheduleInputCheck {
  const wall = parseWallClock(value);
  if (!wall) return { ok: false, message: ScheduleMessages.invalidDate };
  const date = wallClockToInstant(wall, timeZone);
  if (date.getTime() < currentMinute(now)) return { ok: false, message: ScheduleMessages.pastDate };
  if (wall.minute % SCHEDULE_MINUTE_STEP !== 0) {
    const next = Math.ceil(wall.minute / SCHEDULE_MINUTE_STEP) * SCHEDULE_MINUTE_STEP;
    const hour = (wall.hour + Math.floor(next / 60)) % 24;
    return { ok: false, message: ScheduleMessages.offStep(`${pad(hour)}:${pad(next % 60)}`) };
  }
  return { ok: true, date, text: scheduleFieldText(date, timeZone) };
}
