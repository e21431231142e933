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

/** The days of one month, by their number (tokyoDay-like UTC midnights). */
export interface FixedMonth {
  /** The `n`th day of the month (past its last: the next month's days). */
  day(n: number): Date;
  /** Its last day. */
  last: Date;
  /** The next month's first day, shown at the end of this month's grid. */
  nextFirst: Date;
}

/**
 * A month ahead of the real clock whose shape the calendar journeys know, so the days they use fall in the same cells
 * whatever day the suite runs: it starts on a Sunday and has at least 30 days. Its six-week grid (Monday first) puts
 * the 1st at the end of the first row, the 9th to the 15th (Monday to Sunday) in the third, and its last day and the
 * next month's 1st side by side in the sixth, below the fold of a 1366×900 window. The journeys fix the browser's
 * clock inside it (page.clock); the server keeps its own clock, which the whole month is ahead of, so it refuses none
 * of its days. The first such month after the current one is at most 14 months away.
 */
export function fixedMonth(now = Date.now()): FixedMonth {
  const tokyo = new Date(now + TOKYO_MS);
  for (let ahead = 1; ; ahead++) {
    const first = new Date(Date.UTC(tokyo.getUTCFullYear(), tokyo.getUTCMonth() + ahead, 1));
    const length = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
    if (first.getUTCDay() !== 0 || length < 30) continue;
    const day = (n: number) => new Date(first.getTime() + (n - 1) * DAY_MS);
    return { day, last: day(length), nextFirst: day(length + 1) };
  }
}
