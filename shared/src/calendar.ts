import * as z from 'zod/mini';
import { lazySchema } from './lazy-schema.js';
import type { Article, VersionId } from './articles.js';
import type { PlatformStatus } from './status.js';

/**
 * The longest range GET /api/calendar answers: a month view shows six weeks (42 days); a day more on
 * each side covers any time zone's edges, and one more a daylight-saving change inside the range.
 */
export const CALENDAR_MAX_DAYS = 45;
const DAY_MS = 24 * 60 * 60 * 1000;

export const CalendarMessages = {
  invalidFrom: '`from` must be a date and time in ISO 8601 form, e.g. 2030-03-01T00:00:00.000Z',
  invalidTo: '`to` must be a date and time in ISO 8601 form, e.g. 2030-04-12T00:00:00.000Z',
  order: '`from` must be before `to`',
  tooLong: `The calendar shows at most ${CALENDAR_MAX_DAYS} days at a time: ask for a shorter range`,
} as const;

const instant = (message: string) =>
  z.string({ error: message }).check(
    z.maxLength(40, message),
    z.refine((v) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(v) && !Number.isNaN(Date.parse(v)), message),
  );

/** GET /api/calendar?from&to: the instants the view starts at (included) and ends at (excluded). */
export const CalendarQuerySchema = lazySchema(() =>
  z.strictObject({ from: instant(CalendarMessages.invalidFrom), to: instant(CalendarMessages.invalidTo) }).check(
    z.superRefine(({ from, to }, ctx) => {
      const span = Date.parse(to) - Date.parse(from);
      if (span <= 0) ctx.addIssue({ code: 'custom', message: CalendarMessages.order, path: ['to'] });
      else if (span > CALENDAR_MAX_DAYS * DAY_MS)
        ctx.addIssue({ code: 'custom', message: CalendarMessages.tooLong, path: ['to'] });
    }),
  ),
);
export type CalendarQuery = z.infer<ReturnType<typeof CalendarQuerySchema>>;

/**
 * One channel of one article on the calendar: at its post's time once published there, else at its version's
 * scheduled time (one entry per channel that schedule publishes to). `status` is the version's status as the
 * Schedule page shows it (platformStatus); a channel's post is `published`.
 */
export interface CalendarEntry {
  articleId: string;
  /**
   * The version's schedule that places the entry: the schedule a drag moves (a second blog channel follows the blog's;
   * a channel's own version has its own, `scheduled.<id>`).
   */
  platform: VersionId;
  /** The version the channel publishes: the blog or LinkedIn one, or the channel's own (its id). */
  version: VersionId;
  /** ISO instant. */
  at: string;
  kind: 'scheduled' | 'published';
  status: PlatformStatus;
  title: string;
  /** The published post, when the channel gave one. */
  url: string | null;
  /** The channel (its id): where the post went, or where the schedule publishes it. */
  channel: string;
}

/** GET /api/calendar: the entries in [from, to), by time, and their articles (for their card actions). */
export interface CalendarAnswer {
  from: string;
  to: string;
  entries: CalendarEntry[];
  articles: Article[];
}
