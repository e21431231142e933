import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  SUMMARY_BUCKET_MS,
  SUMMARY_BUCKET_RETENTION_MS,
  applyChange,
  calendarDateIn,
  dashboardFromArticles,
  dashboardFromSummary,
  emptySummary,
  needsAttention,
  sameContribution,
  summaryOf,
  sumOfSummaries,
  type DashboardArticle,
  type DashboardSummary,
  type Platform,
} from '../src/index.js';

type Model = DashboardArticle & { id: string };

const article = (id: string, keyword = '', tags: string[] = []): Model => ({
  id,
  keyword,
  tags,
  blog: { content: '', publishedToWordPress: false, lastPublished: null },
  linkedin: { content: '', publishedToLinkedIn: false, lastPublished: null },
  scheduled: { blog: null, linkedin: null },
  lastError: null,
});

/** As the domain lists them (functions/src/domain/articles.ts): not published on both platforms. */
const unpublishedOf = (articles: Iterable<Model>) =>
  [...articles].filter((a) => !(a.blog.publishedToWordPress && a.linkedin.publishedToLinkedIn));

// Zones whose offsets are whole, half and quarter hours, east and west, with and without daylight saving.
const ZONES = [
  'UTC',
  'Asia/Kolkata', // +5:30
  'Asia/Kathmandu', // +5:45
  'Pacific/Chatham', // +12:45, +13:45 in summer
  'Australia/Lord_Howe', // +10:30, daylight saving of half an hour
  'America/St_Johns', // -3:30, -2:30 in summer
  'Asia/Tokyo',
  'America/Los_Angeles',
  'Europe/Paris',
  'Pacific/Kiritimati', // +14
  'Pacific/Pago_Pago', // -11
];

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

// Words Top Keywords counts and words it skips (short ones, punctuation, other scripts, a name of Object's prototype).
const WORDS = [
  'ai',
  'AI',
  'seo',
  'go',
  'serverless costs',
  'aws',
  'Café-Bar',
  'データ分析',
  'constructor',
  'x',
  '',
  '  ',
];

const step = fc.oneof(
  fc.record({
    kind: fc.constant('create' as const),
    keyword: fc.constantFrom(...WORDS),
    tags: fc.array(fc.constantFrom(...WORDS), { maxLength: 3 }),
  }),
  fc.record({
    kind: fc.constant('edit-content' as const),
    pick: fc.nat(),
    platform: fc.constantFrom<Platform>('blog', 'linkedin'),
    content: fc.constantFrom('', 'text', '  '),
  }),
  fc.record({
    kind: fc.constant('edit-keywords' as const),
    pick: fc.nat(),
    keyword: fc.constantFrom(...WORDS),
    tags: fc.array(fc.constantFrom(...WORDS), { maxLength: 3 }),
  }),
  // A schedule in the past or future of the clock, to the minute, up to two weeks either way.
  fc.record({
    kind: fc.constant('schedule' as const),
    pick: fc.nat(),
    platform: fc.constantFrom<Platform>('blog', 'linkedin'),
    offsetMinutes: fc.integer({ min: -20_160, max: 20_160 }),
  }),
  fc.record({
    kind: fc.constant('unschedule' as const),
    pick: fc.nat(),
    platform: fc.constantFrom<Platform>('blog', 'linkedin'),
  }),
  // Published now, or recorded with a time a little (or, for an approval, up to 50 days) earlier, to the second.
  fc.record({
    kind: fc.constant('publish' as const),
    pick: fc.nat(),
    platform: fc.constantFrom<Platform>('blog', 'linkedin'),
    secondsBefore: fc.oneof(
      fc.constant(0),
      fc.integer({ min: 0, max: 3600 }),
      fc.integer({ min: 0, max: 50 * 86_400 }),
    ),
  }),
  // Published just before or after the start of one of the zone's recent weeks (its Monday midnight).
  fc.record({
    kind: fc.constant('publish-at-week-start' as const),
    pick: fc.nat(),
    platform: fc.constantFrom<Platform>('blog', 'linkedin'),
    weeksBack: fc.integer({ min: 0, max: 5 }),
    msAfter: fc.oneof(fc.constantFrom(-1, 0, 1), fc.integer({ min: -20 * 60_000, max: 20 * 60_000 })),
  }),
  fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }),
  // The clock moves to just before one of the zone's next Monday midnights: the oldest week shown then began
  // almost four weeks earlier.
  fc.record({
    kind: fc.constant('wait-until-week-end' as const),
    weeks: fc.integer({ min: 1, max: 5 }),
    msBefore: fc.oneof(fc.constant(1), fc.integer({ min: 1, max: 20 * 60_000 })),
  }),
  // The clock moves on: by a little, to a quarter hour's edge, by days or by weeks (pruning).
  fc.record({
    kind: fc.constant('wait' as const),
    ms: fc.oneof(
      fc.integer({ min: 0, max: 20 * 60_000 }),
      fc.integer({ min: 0, max: 8 * DAY }),
      fc.integer({ min: 0, max: 60 * DAY }),
      // About four weeks: a publication at the start of the oldest week shown.
      fc.integer({ min: 26 * DAY, max: 29 * DAY }),
      fc.constantFrom(SUMMARY_BUCKET_MS - 1, SUMMARY_BUCKET_MS, 7 * DAY, SUMMARY_BUCKET_RETENTION_MS),
    ),
  }),
);

// Starts near the turn of a year (2026 has 53 ISO weeks), so weeks and years change during a run.
const start = fc.oneof(
  fc.integer({ min: Date.parse('2026-12-20T00:00:00Z'), max: Date.parse('2027-01-06T00:00:00Z') }),
  fc.integer({ min: Date.parse('2020-12-24T00:00:00Z'), max: Date.parse('2021-01-06T00:00:00Z') }),
  fc.integer({ min: Date.parse('2024-03-20T00:00:00Z'), max: Date.parse('2030-12-31T00:00:00Z') }),
);

/** The instant the ISO week `weeksBack` weeks before the one of `now` began in `zone` (its Monday's midnight there). */
function weekStart(now: Date, zone: string, weeksBack: number): Date {
  const today = calendarDateIn(now, zone);
  const weekday = new Date(Date.UTC(today.year, today.month - 1, today.day)).getUTCDay() || 7;
  const monday = Date.UTC(today.year, today.month - 1, today.day - (weekday - 1) - 7 * weeksBack);
  const mondayDate = calendarDateIn(new Date(monday), 'UTC');
  // Midnight there is UTC midnight minus the offset (at most 14 hours either way, a multiple of 15 minutes):
  // the first quarter hour of the window that is on that Monday there.
  for (let at = monday - 14 * HOUR; at <= monday + 14 * HOUR; at += SUMMARY_BUCKET_MS) {
    const date = calendarDateIn(new Date(at), zone);
    if (date.year === mondayDate.year && date.month === mondayDate.month && date.day === mondayDate.day) {
      return new Date(at);
    }
  }
  throw new Error(`no midnight found in ${zone}`);
}

function run(
  steps: (typeof step extends fc.Arbitrary<infer T> ? T : never)[],
  startAt: number,
  zone: string,
  askLater: number[],
) {
  const articles = new Map<string, Model>();
  let summary: DashboardSummary = emptySummary();
  let clock = startAt;
  let writtenAt = startAt;
  let nextId = 0;
  const pick = (n: number) => [...articles.values()][n % articles.size];
  const write = (before: Model | undefined, after: Model | undefined) => {
    summary = applyChange(summary, before, after, new Date(clock));
    writtenAt = clock;
    if (after) articles.set(after.id, after);
    else if (before) articles.delete(before.id);
  };

  steps.forEach((s, i) => {
    if (s.kind === 'create') write(undefined, article(`a${nextId++}`, s.keyword, s.tags));
    else if (s.kind === 'wait') clock += s.ms;
    else if (s.kind === 'wait-until-week-end') {
      clock = Math.max(clock, weekStart(new Date(clock), zone, -s.weeks).getTime() - s.msBefore);
    } else if (articles.size) {
      const before = pick(s.pick)!;
      const after = structuredClone(before);
      if (s.kind === 'edit-content') after[s.platform].content = s.content;
      else if (s.kind === 'edit-keywords') Object.assign(after, { keyword: s.keyword, tags: s.tags });
      else if (s.kind === 'schedule')
        after.scheduled[s.platform] = new Date(clock + s.offsetMinutes * 60_000).toISOString();
      else if (s.kind === 'unschedule') after.scheduled[s.platform] = null;
      else if (s.kind === 'publish' || s.kind === 'publish-at-week-start') {
        // As domain/publishing.ts records a post: the flag and the time together.
        const at = new Date(
          s.kind === 'publish'
            ? clock - s.secondsBefore * 1000
            : weekStart(new Date(clock), zone, s.weeksBack).getTime() + s.msAfter,
        ).toISOString();
        if (s.platform === 'blog') after.blog = { ...after.blog, publishedToWordPress: true, lastPublished: at };
        else after.linkedin = { ...after.linkedin, publishedToLinkedIn: true, lastPublished: at };
      }
      write(before, s.kind === 'delete' ? undefined : after);
    }

    // The dashboard, asked now or somewhat later, equals the full list's.
    const askedAt = new Date(clock + askLater[i % askLater.length]!);
    const all = [...articles.values()];
    expect(dashboardFromSummary(summary, unpublishedOf(all), zone, askedAt)).toEqual(
      dashboardFromArticles(all, zone, askedAt),
    );
    // And the summary is what a backfill at the last write would compute: no zero entries, old intervals dropped.
    expect(summary).toEqual(summaryOf(all, new Date(writtenAt)));
  });
}

describe('the dashboard summary, maintained write by write', () => {
  it('gives the cards of the full list after every step of random histories, in any time zone', () => {
    let checked = 0;
    fc.assert(
      fc.property(
        fc.array(step, { minLength: 1, maxLength: 40 }),
        start,
        fc.constantFrom(...ZONES),
        // When the dashboard is asked after the last write: at once, within the hour, days later.
        fc.array(fc.oneof(fc.constant(0), fc.integer({ min: 0, max: HOUR }), fc.integer({ min: 0, max: 10 * DAY })), {
          minLength: 1,
          maxLength: 5,
        }),
        (steps, startAt, zone, askLater) => {
          run(steps, startAt, zone, askLater);
          checked++;
        },
      ),
      { numRuns: 400 },
    );
    expect(checked).toBeGreaterThanOrEqual(400);
  });

  it('counts a quarter-hour zone’s weeks exactly at its midnight (Kathmandu, +5:45)', () => {
    // Monday 4 January 2027 00:00 in Kathmandu is Sunday 3 January 18:15 UTC.
    const published = (at: string): Model => ({
      ...article('k'),
      blog: { content: 'x', publishedToWordPress: true, lastPublished: at },
    });
    const before = published('2027-01-03T18:14:59.999Z'); // Sunday 23:59:59.999 there: 2026-W53
    const after = published('2027-01-03T18:15:00.000Z'); // Monday 00:00 there: 2027-W01
    const now = new Date('2027-01-05T00:00:00Z');
    const cards = dashboardFromSummary(summaryOf([before, after], now), [before, after], 'Asia/Kathmandu', now);
    expect(cards.trends.slice(-2)).toEqual([
      { week: '2026-W53', blog: 1, linkedin: 0 },
      { week: '2027-W01', blog: 1, linkedin: 0 },
    ]);
  });

  it('leaves the summary alone for a content edit or a schedule, and not for a keyword or a publish', () => {
    const a = article('a', 'serverless');
    expect(sameContribution(a, { ...a, blog: { ...a.blog, content: 'new text' } })).toBe(true);
    expect(sameContribution(a, { ...a, scheduled: { blog: '2030-01-01T00:00:00Z', linkedin: null } })).toBe(true);
    expect(sameContribution(a, { ...a, keyword: 'costs' })).toBe(false);
    expect(
      sameContribution(a, {
        ...a,
        blog: { ...a.blog, publishedToWordPress: true, lastPublished: '2030-01-01T00:00:00Z' },
      }),
    ).toBe(false);
    expect(sameContribution(a, undefined)).toBe(false);
  });

  it('sums summaries kept apart (shards) into the summary of all their articles', () => {
    const published = (id: string, at: string): Model => ({
      ...article(id, 'ai costs', ['aws']),
      blog: { content: 'x', publishedToWordPress: true, lastPublished: at },
    });
    const articles = [
      published('a', '2026-11-20T10:00:00Z'),
      published('b', '2026-11-20T10:05:00Z'),
      article('c', 'ai'),
    ];
    const now = new Date('2026-11-21T00:00:00Z');
    expect(sumOfSummaries([summaryOf(articles.slice(0, 1), now), summaryOf(articles.slice(1), now)])).toEqual(
      summaryOf(articles, now),
    );
    expect(sumOfSummaries([])).toEqual(emptySummary());
  });

  it('keeps no interval older than six weeks', () => {
    const old = {
      ...article('o'),
      blog: { content: 'x', publishedToWordPress: true, lastPublished: '2026-01-01T00:00:00Z' },
    };
    const summary = summaryOf([old], new Date('2026-03-01T00:00:00Z'));
    expect(summary.buckets.blog).toEqual({});
    expect(summary.published.blog).toBe(1);
  });
});

describe('needs attention', () => {
  it('lists the failed articles, newest change first, and counts them all', () => {
    const failed = (id: string, updatedAt: string) => ({
      ...article(id),
      title: id,
      updatedAt,
      lastError: { code: 'draft_failed', message: 'Drafting did not finish.' },
    });
    const fine = { ...article('fine'), title: 'fine', updatedAt: '2026-01-09T00:00:00Z' };
    const result = needsAttention(
      [
        failed('old', '2026-01-01T00:00:00Z'),
        fine,
        failed('new', '2026-01-03T00:00:00Z'),
        failed('mid', '2026-01-02T00:00:00Z'),
      ],
      2,
    );
    expect(result.count).toBe(3);
    expect(result.articles.map((a) => a.id)).toEqual(['new', 'mid']);
  });
});
