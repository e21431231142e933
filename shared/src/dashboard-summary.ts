import * as z from 'zod/mini';
import { lazySchema } from './lazy-schema.js';
import { publicationsOf } from './channels.js';
import { TimeZoneSchema } from './auth.js';
import {
  channelsShown,
  isoWeek,
  keywordWords,
  lastIsoWeeks,
  platformDistribution,
  publishingTrends,
  statusCounts,
  topKeywords,
  topOfCounts,
  trendPoint,
  utcIsoWeek,
  utcStartOfIsoWeek,
  utcWeekStart,
  type DashboardArticle,
  type KeywordCount,
  type StatusCount,
  type TrendPoint,
} from './dashboard.js';

/**
 * The dashboard's four cards kept as sums over a user's articles, so that showing them does not read every
 * article (docs/data-model.md, dashboard summary). Each article contributes a few counts; a write that changes
 * an article adds contribution(new) − contribution(old). Status is not in it: it depends on the time of
 * asking, so it is counted live over the articles not yet published everywhere, and every other article
 * is published everywhere, whatever the time.
 */
export interface DashboardSummary {
  /** All articles. */
  articles: number;
  /** Articles published on both platforms (the flags): those not in the unpublished list. */
  fullyPublished: number;
  /** Articles published per channel, by channel id (Platform Distribution; publicationsOf); no zero entries. */
  published: Record<string, number>;
  /** Occurrences of each word Top Keywords counts (keywordWords); no zero entries. */
  keywords: Record<string, number>;
  /**
   * Per channel, publications whose time is outside every week-start window (inWeekStartWindow)
   * by their UTC ISO week (YYYY-Www): the week every time zone puts them in. At most one key per week.
   */
  weeks: Record<string, Record<string, number>>;
  /**
   * Per channel, publications inside a week-start window by the 15-minute UTC interval of their
   * time: key = start of the interval in ms since 1970 / SUMMARY_BUCKET_MS. Every UTC offset in
   * use since 2000 is a multiple of 15 minutes, so a local midnight never falls inside an interval and
   * the ISO weeks of any time zone are exact sums of them. At most 104 keys per week (26 hours).
   */
  buckets: Record<string, Record<string, number>>;
  // Neither holds zero entries; keys that ended more than SUMMARY_BUCKET_RETENTION_MS ago are dropped.
}

export const SUMMARY_BUCKET_MS = 15 * 60_000;

const HOUR_MS = 3_600_000;
const WEEK_MS = 7 * 24 * HOUR_MS;

/**
 * The extreme UTC offsets of the zones Intl knows (checked over all of them, 2000–2040, in
 * shared/test/dashboard-summary.test.ts): +14 h (Pacific/Kiritimati, Etc/GMT-14; Pacific/Apia in summer
 * until 2021) and −12 h (Etc/GMT+12).
 */
export const MAX_UTC_OFFSET_MS = 14 * HOUR_MS;
export const MIN_UTC_OFFSET_MS = -12 * HOUR_MS;

/**
 * A week starts at Monday 00:00 local time, i.e. at UTC Monday 00:00 minus the zone's offset: between
 * Sunday 10:00 UTC (+14 h) and Monday 12:00 UTC (−12 h). The window around each UTC week start is
 * [Monday 00:00 UTC − MAX_UTC_OFFSET_MS, Monday 00:00 UTC − MIN_UTC_OFFSET_MS): outside it, an instant's
 * local wall time (instant + offset) lies in the same Monday-to-Sunday span as its UTC one, so every zone
 * gives it the UTC ISO week (year included).
 */
const WINDOW_BEFORE_WEEK_START_MS = MAX_UTC_OFFSET_MS;
const WINDOW_AFTER_WEEK_START_MS = -MIN_UTC_OFFSET_MS;

/** Whether some zone may put the instant in another ISO week than UTC does (see the window above). */
export function inWeekStartWindow(ms: number): boolean {
  const sinceWeekStart = ms - utcWeekStart(ms);
  return sinceWeekStart < WINDOW_AFTER_WEEK_START_MS || sinceWeekStart >= WEEK_MS - WINDOW_BEFORE_WEEK_START_MS;
}

/**
 * Publishing Trends shows the last 4 ISO weeks of the user's zone, which start at most 28 days and a daylight
 * saving hour before the time of asking. Six weeks leaves two for clocks that differ between servers.
 */
export const SUMMARY_BUCKET_RETENTION_MS = 42 * 86_400_000;

export function emptySummary(): DashboardSummary {
  return { articles: 0, fullyPublished: 0, published: {}, keywords: {}, weeks: {}, buckets: {} };
}

/** The interval key of an instant (see DashboardSummary.buckets). */
export const bucketOf = (instant: string | Date): string =>
  String(Math.floor(new Date(instant).getTime() / SUMMARY_BUCKET_MS));

/** The first instant after what a week key counts: its UTC week's end, less the window before the next one. */
export const weekKeyEnd = (week: string): number => utcStartOfIsoWeek(week) + WEEK_MS - WINDOW_BEFORE_WEEK_START_MS;

/** The first instant after an interval key's interval. */
export const bucketKeyEnd = (key: string): number => (Number(key) + 1) * SUMMARY_BUCKET_MS;

/**
 * Keys that ended at or before this instant are dropped at `now` (the start of the 15-minute interval
 * SUMMARY_BUCKET_RETENTION_MS before it). It only grows with `now`, so a key dropped stays dropped.
 */
export const summaryCutoff = (now: Date): number =>
  Math.floor((now.getTime() - SUMMARY_BUCKET_RETENTION_MS) / SUMMARY_BUCKET_MS) * SUMMARY_BUCKET_MS;

const countOf = (counts: Record<string, number>, key: string) => (Object.hasOwn(counts, key) ? counts[key]! : 0);

function addCount(counts: Record<string, number>, key: string, n: number): void {
  const next = countOf(counts, key) + n;
  if (next === 0) delete counts[key];
  else counts[key] = next;
}

/** A channel's counts in a per-channel map, made when first needed (`own` stays an own property). */
const countsOf = (byChannel: Record<string, Record<string, number>>, channel: string): Record<string, number> =>
  Object.hasOwn(byChannel, channel) ? byChannel[channel]! : (byChannel[channel] = {});

/** Drops the channels left with no counts, in place (a summary holds no empty entries). */
function dropEmpty(byChannel: Record<string, Record<string, number>>): void {
  for (const channel of Object.keys(byChannel)) if (!Object.keys(byChannel[channel]!).length) delete byChannel[channel];
}

/** What one article adds to its owner's summary (undefined: no article). */
export function contribution(article: DashboardArticle | undefined): DashboardSummary {
  const c = emptySummary();
  if (!article) return c;
  c.articles = 1;
  for (const { channel, at } of publicationsOf(article)) {
    c.published[channel] = 1;
    // As publishingTrends: a publication without its time is in no week.
    if (!at) continue;
    const ms = new Date(at).getTime();
    if (Number.isNaN(ms)) continue;
    if (inWeekStartWindow(ms)) addCount(countsOf(c.buckets, channel), bucketOf(at), 1);
    else addCount(countsOf(c.weeks, channel), utcIsoWeek(ms), 1);
  }
  if (article.blog.publishedToWordPress && article.linkedin.publishedToLinkedIn) c.fullyPublished = 1;
  for (const word of keywordWords(article)) addCount(c.keywords, word, 1);
  return c;
}

/** Whether two articles contribute the same (then a write from one to the other leaves the summary). */
export function sameContribution(a: DashboardArticle | undefined, b: DashboardArticle | undefined): boolean {
  return JSON.stringify(contribution(a)) === JSON.stringify(contribution(b));
}

/** `summary` + sign × `delta`, in place. */
function addInto(summary: DashboardSummary, delta: DashboardSummary, sign: 1 | -1): void {
  summary.articles += sign * delta.articles;
  summary.fullyPublished += sign * delta.fullyPublished;
  for (const [channel, n] of Object.entries(delta.published)) addCount(summary.published, channel, sign * n);
  for (const kind of ['weeks', 'buckets'] as const) {
    for (const [channel, counts] of Object.entries(delta[kind])) {
      for (const [key, n] of Object.entries(counts)) addCount(countsOf(summary[kind], channel), key, sign * n);
    }
    dropEmpty(summary[kind]);
  }
  for (const [word, n] of Object.entries(delta.keywords)) addCount(summary.keywords, word, sign * n);
}

/**
 * The summary after an article changed from `before` to `after` (undefined: created or deleted), at `now`:
 * summary + contribution(after) − contribution(before), without the intervals too old to be shown. Dropping
 * them after adding keeps every interval still shown exact (a later change to an old publication only
 * touches dropped intervals), as long as the dashboard is asked at `now` or later.
 */
export function applyChange(
  summary: DashboardSummary,
  before: DashboardArticle | undefined,
  after: DashboardArticle | undefined,
  now: Date,
): DashboardSummary {
  const next = structuredClone(summary);
  addInto(next, contribution(after), 1);
  addInto(next, contribution(before), -1);
  return pruneOldCounts(next, now);
}

/** Drops the week and interval keys that ended by summaryCutoff(now), in place. */
export function pruneOldCounts(summary: DashboardSummary, now: Date): DashboardSummary {
  const cutoff = summaryCutoff(now);
  for (const weeks of Object.values(summary.weeks)) {
    for (const week of Object.keys(weeks)) if (weekKeyEnd(week) <= cutoff) delete weeks[week];
  }
  for (const buckets of Object.values(summary.buckets)) {
    for (const key of Object.keys(buckets)) if (bucketKeyEnd(key) <= cutoff) delete buckets[key];
  }
  dropEmpty(summary.weeks);
  dropEmpty(summary.buckets);
  return summary;
}

/** The sum of several summaries (the shards a user's summary is kept in: adapters/dynamo/summary-store.ts). */
export function sumOfSummaries(summaries: Iterable<DashboardSummary>): DashboardSummary {
  const total = emptySummary();
  for (const summary of summaries) addInto(total, summary, 1);
  return total;
}

/** The summary of a whole list of articles (the backfill, and what the maintained one must equal). */
export function summaryOf(articles: Iterable<DashboardArticle>, now: Date): DashboardSummary {
  const summary = emptySummary();
  for (const article of articles) addInto(summary, contribution(article), 1);
  return pruneOldCounts(summary, now);
}

/** The four cards of the dashboard (docs/product.md, Dashboard) and the number of articles. */
export interface DashboardCards {
  trends: TrendPoint[];
  distribution: ReturnType<typeof platformDistribution>;
  keywords: { keywords: KeywordCount[]; demo: boolean };
  status: StatusCount[];
  total: number;
}

/**
 * The cards counted over every article: what the dashboard showed from the full list, and the reference. `channels`:
 * the registry's channel ids, in its order (each has its bar and its series, at 0 too).
 */
export function dashboardFromArticles(
  articles: DashboardArticle[],
  timeZone: string,
  now: Date,
  channels: readonly string[],
): DashboardCards {
  return {
    trends: publishingTrends(articles, now, timeZone, channels),
    distribution: platformDistribution(articles, channels),
    keywords: topKeywords(articles),
    status: statusCounts(articles, now),
    total: articles.length,
  };
}

/**
 * The same cards from the summary and the articles not yet published everywhere (their statuses depend on
 * `now`; every other article is published). Equal to dashboardFromArticles over all the articles.
 */
export function dashboardFromSummary(
  summary: DashboardSummary,
  unpublished: DashboardArticle[],
  timeZone: string,
  now: Date,
  channels: readonly string[],
): DashboardCards {
  const weeks = lastIsoWeeks(now, timeZone);
  const shown = channelsShown(channels, [summary.published, summary.weeks, summary.buckets]);
  const trends = new Map(weeks.map((week) => [week, trendPoint(week, shown)]));
  // The first week shown began in this zone no earlier than its UTC Monday minus the largest offset.
  const shownFrom = utcStartOfIsoWeek(weeks[0]!) - WINDOW_BEFORE_WEEK_START_MS;
  const weekOfBucket = new Map<string, string>();
  for (const channel of shown) {
    // Outside the windows every zone counts the UTC week.
    for (const [week, n] of Object.entries(summary.weeks[channel] ?? {})) {
      const point = trends.get(week);
      if (point) point.counts[channel]! += n;
    }
    for (const [key, n] of Object.entries(summary.buckets[channel] ?? {})) {
      if (bucketKeyEnd(key) <= shownFrom) continue;
      let week = weekOfBucket.get(key);
      if (week === undefined) {
        week = isoWeek(new Date(Number(key) * SUMMARY_BUCKET_MS), timeZone);
        weekOfBucket.set(key, week);
      }
      const point = trends.get(week);
      if (point) point.counts[channel]! += n;
    }
  }
  const bars = shown.map((channel) => ({ channel, count: countOf(summary.published, channel) }));
  return {
    trends: [...trends.values()],
    distribution: { bars, total: bars.reduce((sum, bar) => sum + bar.count, 0) },
    keywords: topOfCounts(Object.entries(summary.keywords)),
    status: statusCounts(unpublished, now, summary.fullyPublished),
    total: summary.articles,
  };
}

/** An article whose last background run failed (drafting, an image, a scheduled e-mail). */
export interface AttentionItem {
  id: string;
  title: string;
  updatedAt: string;
  lastError: { code: string; message: string };
}

/** How many articles the Needs attention card lists. */
export const ATTENTION_SHOWN = 5;

/** The articles with a lastError, newest change first: how many, and the first `shown`. */
export function needsAttention(
  articles: (DashboardArticle & { id: string; title: string; updatedAt: string })[],
  shown = ATTENTION_SHOWN,
): { count: number; articles: AttentionItem[] } {
  const failed = articles
    .filter((a) => a.lastError)
    .sort((a, b) => (b.updatedAt ?? '').localeCompare(a.updatedAt ?? ''));
  return {
    count: failed.length,
    articles: failed
      .slice(0, shown)
      .map((a) => ({ id: a.id, title: a.title, updatedAt: a.updatedAt, lastError: a.lastError! })),
  };
}

/** GET /api/dashboard: the zone whose weeks to count (the one the SPA shows); without it, the user's own. */
export const DashboardQuerySchema = lazySchema(() => z.strictObject({ timeZone: z.optional(TimeZoneSchema()) }));

/** GET /api/dashboard: the four cards, and the articles that need attention, counted at one moment. */
export interface DashboardAnswer extends DashboardCards {
  /** The zone whose ISO weeks `trends` counts. */
  timeZone: string;
  attention: { count: number; articles: AttentionItem[] };
}
