import type { ChannelPostRecord } from './articles.js';
import { publicationsOf } from './channels.js';
import { overallStatus, type OverallStatus, type StatusInput } from './status.js';

export interface CalendarDate {
  year: number;
  /** 1–12 */
  month: number;
  day: number;
}

/** A time on a clock, with no zone. */
export interface WallClock extends CalendarDate {
  hour: number;
  minute: number;
}

const wallClockFormats = new Map<string, Intl.DateTimeFormat>();
/** Zone names come from requests (`?timeZone=`, in any letter case): the cache is bounded. */
const WALL_CLOCK_FORMATS_KEPT = 64;

/**
 * What a clock in an IANA time zone shows at an instant, from Intl (the Gregorian calendar, Latin
 * digits and a 0–23 hour, whatever the locale defaults).
 */
export function wallClockIn(instant: Date, timeZone: string): WallClock {
  let format = wallClockFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      calendar: 'gregory',
      numberingSystem: 'latn',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      hourCycle: 'h23',
    });
    if (wallClockFormats.size >= WALL_CLOCK_FORMATS_KEPT) wallClockFormats.clear();
    wallClockFormats.set(timeZone, format);
  }
  const parts: Partial<Record<Intl.DateTimeFormatPartTypes, number>> = {};
  for (const part of format.formatToParts(instant)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return { year: parts.year!, month: parts.month!, day: parts.day!, hour: parts.hour!, minute: parts.minute! };
}

/** The calendar date an instant falls on in an IANA time zone (what a wall calendar there shows). */
export function calendarDateIn(instant: Date, timeZone: string): CalendarDate {
  const { year, month, day } = wallClockIn(instant, timeZone);
  return { year, month, day };
}

/** ISO 8601 week label YYYY-Www of a calendar date (weeks start on Monday; week 1 holds the year's first Thursday). */
function isoWeekOfDate({ year, month, day }: CalendarDate): string {
  // Date arithmetic on a UTC midnight: a calendar date has no daylight saving changes.
  const d = new Date(Date.UTC(year, month - 1, day));
  const weekday = d.getUTCDay() || 7;
  d.setUTCDate(d.getUTCDate() + 4 - weekday); // the Thursday of this week decides the year
  const yearStart = Date.UTC(d.getUTCFullYear(), 0, 1);
  const week = Math.ceil(((d.getTime() - yearStart) / 86_400_000 + 1) / 7);
  return `${d.getUTCFullYear()}-W${String(week).padStart(2, '0')}`;
}

const DAY_MS = 86_400_000;
const WEEK_MS = 7 * DAY_MS;
/** 1970-01-01 was a Thursday: the UTC Monday 00:00 that began its ISO week was three days earlier. */
const FIRST_MONDAY_MS = -3 * DAY_MS;

/** The UTC Monday 00:00 (ms since 1970) that began the UTC ISO week of an instant. */
export function utcWeekStart(ms: number): number {
  return ms - ((((ms - FIRST_MONDAY_MS) % WEEK_MS) + WEEK_MS) % WEEK_MS);
}

/** The ISO week of an instant in UTC, by arithmetic (no Intl): isoWeek(instant, 'UTC'). */
export function utcIsoWeek(ms: number): string {
  const d = new Date(ms);
  return isoWeekOfDate({ year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() });
}

/** The UTC Monday 00:00 (ms since 1970) of an ISO week label YYYY-Www: week 1 holds 4 January. */
export function utcStartOfIsoWeek(week: string): number {
  const match = /^(\d{4})-W(\d{2})$/.exec(week);
  if (!match) throw new Error(`Not an ISO week: ${week}`);
  const january4 = Date.UTC(Number(match[1]), 0, 4);
  return utcWeekStart(january4) + (Number(match[2]) - 1) * WEEK_MS;
}

/**
 * The ISO week an instant falls in for someone in `timeZone`: the week of its calendar date there, so a post
 * published late on Sunday in UTC belongs to the next week in Tokyo. A pure function of (instant, zone) so
 * that server-side aggregates can count the same weeks.
 */
export function isoWeek(instant: Date, timeZone: string): string {
  return isoWeekOfDate(calendarDateIn(instant, timeZone));
}

/**
 * The last `count` ISO weeks in `timeZone` ending with the current one, oldest first. Counted back on the
 * calendar date, not in multiples of 168 hours: weeks with a daylight saving change are an hour shorter or longer.
 */
export function lastIsoWeeks(now: Date, timeZone: string, count = 4): string[] {
  const today = calendarDateIn(now, timeZone);
  return Array.from({ length: count }, (_, i) => isoWeekOfDate({ ...today, day: today.day - (count - 1 - i) * 7 }));
}

export interface DashboardArticle extends StatusInput {
  keyword: string;
  tags: string[];
  /** The other channels' posts (Article.posts): each counts for its channel. */
  posts?: Record<string, ChannelPostRecord>;
}

/** One ISO week of Publishing Trends: the publications of each channel, by channel id. */
export interface TrendPoint {
  week: string;
  counts: Record<string, number>;
}

/** The channels a card shows: the registry's (`channels`, in its order), then any other that has a count. */
export function channelsShown(channels: readonly string[], counted: readonly Record<string, unknown>[]): string[] {
  const extra = counted.flatMap((byChannel) => Object.keys(byChannel)).filter((id) => !channels.includes(id));
  return [...channels, ...new Set(extra)];
}

export const trendPoint = (week: string, channels: readonly string[]): TrendPoint => ({
  week,
  counts: Object.fromEntries(channels.map((channel) => [channel, 0])),
});

/** Publications per channel per ISO week of the user's time zone over the last 4 weeks. */
export function publishingTrends(
  articles: DashboardArticle[],
  now: Date,
  timeZone: string,
  channels: readonly string[],
): TrendPoint[] {
  const publications = articles.flatMap((a) => publicationsOf(a));
  const shown = channelsShown(channels, [Object.fromEntries(publications.map((p) => [p.channel, 1]))]);
  const weeks = lastIsoWeeks(now, timeZone);
  const points = new Map(weeks.map((week) => [week, trendPoint(week, shown)]));
  for (const { channel, at } of publications) {
    if (!at || Number.isNaN(Date.parse(at))) continue;
    const p = points.get(isoWeek(new Date(at), timeZone));
    if (p) p.counts[channel]!++;
  }
  return [...points.values()];
}

/** Published posts per channel (by channel id), with the total. */
export function platformDistribution(articles: DashboardArticle[], channels: readonly string[]) {
  const counts: Record<string, number> = {};
  for (const a of articles) for (const { channel } of publicationsOf(a)) counts[channel] = (counts[channel] ?? 0) + 1;
  const bars = channelsShown(channels, [counts]).map((channel) => ({ channel, count: counts[channel] ?? 0 }));
  return { bars, total: bars.reduce((sum, bar) => sum + bar.count, 0) };
}

export const DEMO_KEYWORDS = [
  { keyword: 'marketing', count: 5 },
  { keyword: 'ai', count: 4 },
  { keyword: 'content', count: 3 },
  { keyword: 'strategy', count: 2 },
  { keyword: 'growth', count: 1 },
];

/** The words of an article's keyword and tags that Top Keywords counts: longer than 2 characters, or "ai"; once per occurrence. */
export function keywordWords(article: Pick<DashboardArticle, 'keyword' | 'tags'>): string[] {
  const words: string[] = [];
  for (const source of [article.keyword, ...article.tags]) {
    // new RegExp, not a literal: a \p{…} literal costs every Lambda cold start (shared/src/unicode-regexp.ts).
    for (const word of (source ?? '').toLowerCase().split(new RegExp(String.raw`[^\p{L}\p{N}]+`, 'u'))) {
      if (word.length > 2 || word === 'ai') words.push(word);
    }
  }
  return words;
}

export interface KeywordCount {
  keyword: string;
  count: number;
}

/** The `limit` most counted words (ties alphabetically), or demo data when there are none. */
export function topOfCounts(
  counts: Iterable<[string, number]>,
  limit = 5,
): { keywords: KeywordCount[]; demo: boolean } {
  const keywords = [...counts].filter(([, count]) => count > 0).map(([keyword, count]) => ({ keyword, count }));
  if (!keywords.length) return { keywords: DEMO_KEYWORDS.slice(0, limit), demo: true };
  keywords.sort((x, y) => y.count - x.count || x.keyword.localeCompare(y.keyword));
  return { keywords: keywords.slice(0, limit), demo: false };
}

/** Top keywords from keyword and tags: words longer than 2 characters, or "ai". Demo data when there are none. */
export function topKeywords(articles: DashboardArticle[], limit = 5): { keywords: KeywordCount[]; demo: boolean } {
  const counts = new Map<string, number>();
  for (const a of articles) for (const word of keywordWords(a)) counts.set(word, (counts.get(word) ?? 0) + 1);
  return topOfCounts(counts, limit);
}

export interface StatusCount {
  status: OverallStatus;
  count: number;
  /** Share of all articles, rounded to a whole percent. */
  percent: number;
}

const STATUS_ORDER: readonly OverallStatus[] = ['published', 'scheduled', 'content-created', 'not-scheduled'];

/**
 * The four statistics from the statuses of `articles` at `now`, plus `alsoPublished` articles known to be
 * published everywhere without being listed (the dashboard's summary counts those: dashboard-summary.ts).
 */
export function statusCounts(articles: StatusInput[], now: Date, alsoPublished = 0): StatusCount[] {
  const counts = new Map<OverallStatus, number>(STATUS_ORDER.map((s) => [s, 0]));
  counts.set('published', alsoPublished);
  for (const a of articles) {
    const s = overallStatus(a, now);
    counts.set(s, counts.get(s)! + 1);
  }
  const total = articles.length + alsoPublished;
  return STATUS_ORDER.map((status) => {
    const count = counts.get(status)!;
    return { status, count, percent: total ? Math.round((count / total) * 100) : 0 };
  });
}

/** The four Content Status statistics, each with its share of all articles. */
export function contentStatus(articles: DashboardArticle[], now: Date = new Date()): StatusCount[] {
  return statusCounts(articles, now);
}
