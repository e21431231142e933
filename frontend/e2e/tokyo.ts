/**
 * The calendar journeys' clock: the user's zone is Tokyo (UTC+9 all year, no daylight saving), the browser's
 * another one, so every day and hour the page shows must be Tokyo's.
 */

export const TOKYO_MS = 9 * 60 * 60_000;
export const DAY_MS = 24 * 60 * 60_000;

/** The UTC-midnight Date of the Tokyo calendar day `days` after today's. */
export function tokyoDay(days: number): Date {
  const tokyo = new Date(Date.now() + TOKYO_MS);
  return new Date(Date.UTC(tokyo.getUTCFullYear(), tokyo.getUTCMonth(), tokyo.getUTCDate() + days));
}

/** The instant (ISO) of `hour`:00 in Tokyo on `day` (a tokyoDay). */
export const tokyoAt = (day: Date, hour: number): string =>
  new Date(day.getTime() + hour * 60 * 60_000 - TOKYO_MS).toISOString();

/** A tokyoDay as the calendar's `date` parameter ("YYYY-MM-DD"). */
export const dayParam = (day: Date): string => day.toISOString().slice(0, 10);

/** A calendar day cell's accessible name as the page writes it (en-US), e.g. "Thursday, November 26, 2026". */
export const cellName = (day: Date): string =>
  new Intl.DateTimeFormat('en-US', {
    weekday: 'long',
    month: 'long',
    day: 'numeric',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(day);
