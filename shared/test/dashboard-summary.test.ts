import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MAX_UTC_OFFSET_MS,
  MIN_UTC_OFFSET_MS,
  SUMMARY_BUCKET_MS,
  SUMMARY_BUCKET_RETENTION_MS,
  applyChange,
  calendarDateIn,
  dashboardFromArticles,
  dashboardFromSummary,
  emptySummary,
  inWeekStartWindow,
  isoWeek,
  needsAttention,
  sameContribution,
  summaryOf,
  sumOfSummaries,
  utcIsoWeek,
  utcStartOfIsoWeek,
  utcWeekStart,
  type DashboardArticle,
  type DashboardSummary,
  type Platform,
} from '../src/index.js';

type Model = DashboardArticle & { id: string };

/** The channels the cards show, as the server's registry gives them. */
const CHANNEL_IDS = ['wordpress', 'linkedin', 'ghost'];

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
  'Etc/GMT+12', // -12, the furthest west (POSIX sign: GMT+12 is twelve hours behind)
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
    // A channel of `posts` (Ghost) as well as the versions' own ones.
    platform: fc.constantFrom<Platform | 'ghost'>('blog', 'linkedin', 'ghost'),
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
    // A channel of `posts` (Ghost) as well as the versions' own ones.
    platform: fc.constantFrom<Platform | 'ghost'>('blog', 'linkedin', 'ghost'),
    weeksBack: fc.integer({ min: 0, max: 5 }),
    msAfter: fc.oneof(fc.constantFrom(-1, 0, 1), fc.integer({ min: -20 * 60_000, max: 20 * 60_000 })),
  }),
  // Published at an edge of the window around a recent UTC week start where zones disagree on the week
  // (dashboard-summary.ts, inWeekStartWindow): Sunday 10:00 UTC and Monday 12:00 UTC, to the millisecond.
  fc.record({
    kind: fc.constant('publish-at-window-edge' as const),
    pick: fc.nat(),
    // A channel of `posts` (Ghost) as well as the versions' own ones.
    platform: fc.constantFrom<Platform | 'ghost'>('blog', 'linkedin', 'ghost'),
    weeksBack: fc.integer({ min: 0, max: 5 }),
    edge: fc.constantFrom(-MAX_UTC_OFFSET_MS, -MIN_UTC_OFFSET_MS),
    msAfter: fc.oneof(fc.constantFrom(-1, 0), fc.integer({ min: -30 * 60_000, max: 30 * 60_000 })),
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
      else if (s.kind === 'publish' || s.kind === 'publish-at-week-start' || s.kind === 'publish-at-window-edge') {
        // As domain/publishing.ts records a post: the flag and the time together.
        const at = new Date(
          s.kind === 'publish'
            ? clock - s.secondsBefore * 1000
            : s.kind === 'publish-at-week-start'
              ? weekStart(new Date(clock), zone, s.weeksBack).getTime() + s.msAfter
              : utcWeekStart(clock) - s.weeksBack * 7 * DAY + s.edge + s.msAfter,
        ).toISOString();
        if (s.platform === 'ghost') after.posts = { ...after.posts, ghost: { id: 'g', url: null, publishedAt: at } };
        else if (s.platform === 'blog') after.blog = { ...after.blog, publishedToWordPress: true, lastPublished: at };
        else after.linkedin = { ...after.linkedin, publishedToLinkedIn: true, lastPublished: at };
      }
      write(before, s.kind === 'delete' ? undefined : after);
    }

    // The dashboard, asked now or somewhat later, equals the full list's.
    const askedAt = new Date(clock + askLater[i % askLater.length]!);
    const all = [...articles.values()];
    expect(dashboardFromSummary(summary, unpublishedOf(all), zone, askedAt, CHANNEL_IDS)).toEqual(
      dashboardFromArticles(all, zone, askedAt, CHANNEL_IDS),
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
    const cards = dashboardFromSummary(
      summaryOf([before, after], now),
      [before, after],
      'Asia/Kathmandu',
      now,
      CHANNEL_IDS,
    );
    expect(cards.trends.slice(-2)).toEqual([
      { week: '2026-W53', counts: { wordpress: 1, linkedin: 0, ghost: 0 } },
      { week: '2027-W01', counts: { wordpress: 1, linkedin: 0, ghost: 0 } },
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
    expect(summary.buckets).toEqual({});
    expect(summary.published).toEqual({ wordpress: 1 });
  });
});

/** Every zone a user may have: Intl's canonical ones and the fixed-offset Etc/GMT±N it also accepts. */
const ALL_ZONES = [
  ...Intl.supportedValuesOf('timeZone'),
  ...Array.from({ length: 27 }, (_, i) => i - 14)
    .filter((n) => n !== 0)
    .map((n) => `Etc/GMT${n > 0 ? '+' : ''}${n}`),
];

const offsetFormats = new Map<string, Intl.DateTimeFormat>();

/** A zone's UTC offset at an instant, in ms (from its "GMT+hh:mm" name). */
function offsetAt(zone: string, at: Date): number {
  let format = offsetFormats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' });
    offsetFormats.set(zone, format);
  }
  const name = format.formatToParts(at).find((p) => p.type === 'timeZoneName')!.value;
  const match = /^GMT(?:([+-])(\d{2}):(\d{2}))?$/.exec(name);
  if (!match) throw new Error(`${zone}: ${name}`);
  if (!match[1]) return 0;
  return (match[1] === '-' ? -1 : 1) * (Number(match[2]) * HOUR + Number(match[3]) * 60_000);
}

describe('the week-start window: where zones may disagree with UTC on the ISO week', () => {
  it('bounds every zone’s offset, winter and summer of 2000–2040, and both extremes are in use', () => {
    // The fixed-offset family stops at -12 and +14: nothing beyond it is a zone Intl accepts.
    for (const beyond of ['Etc/GMT+13', 'Etc/GMT-15']) {
      expect(() => new Intl.DateTimeFormat('en-US', { timeZone: beyond })).toThrow(RangeError);
    }
    const offsets = new Set<number>();
    for (const zone of ALL_ZONES) {
      for (let year = 2000; year <= 2040; year++) {
        for (const month of [0, 6]) offsets.add(offsetAt(zone, new Date(Date.UTC(year, month, 15))));
      }
    }
    expect(Math.max(...offsets)).toBe(MAX_UTC_OFFSET_MS); // Pacific/Kiritimati, +14
    expect(Math.min(...offsets)).toBe(MIN_UTC_OFFSET_MS); // Etc/GMT+12, -12
    expect(offsetAt('Pacific/Kiritimati', new Date('2026-11-24T00:00:00Z'))).toBe(14 * HOUR);
    // And every offset is a whole number of quarter hours (the intervals in the window).
    expect([...offsets].filter((o) => o % SUMMARY_BUCKET_MS !== 0)).toEqual([]);
  });

  it('is Sunday 10:00 UTC to Monday 12:00 UTC, and every zone counts the UTC week outside it', () => {
    // Mondays 00:00 UTC from 2020 to 2031, the 53-week 2020 and 2026 among them.
    const firstMonday = utcWeekStart(Date.parse('2020-01-01T00:00:00Z'));
    const weeks = Math.ceil((Date.parse('2031-01-01T00:00:00Z') - firstMonday) / (7 * DAY));
    fc.assert(
      fc.property(
        fc.constantFrom(...ALL_ZONES),
        fc.oneof(
          fc.integer({ min: 0, max: weeks }),
          // The turns of 2026/2027 (2026-W53) and 2020/2021 (2020-W53).
          fc.constantFrom(
            Math.round((Date.parse('2026-12-28T00:00:00Z') - firstMonday) / (7 * DAY)),
            Math.round((Date.parse('2027-01-04T00:00:00Z') - firstMonday) / (7 * DAY)),
            Math.round((Date.parse('2021-01-04T00:00:00Z') - firstMonday) / (7 * DAY)),
          ),
        ),
        // Within a week: the first and last instants outside the window, or any other.
        fc.oneof(
          fc.constantFrom(12 * HOUR, 7 * DAY - 14 * HOUR - 1),
          fc.integer({ min: 12 * HOUR, max: 7 * DAY - 14 * HOUR - 1 }),
        ),
        (zone, week, msAfterWeekStart) => {
          const start = firstMonday + week * 7 * DAY;
          const at = start + msAfterWeekStart;
          expect(inWeekStartWindow(at)).toBe(false);
          expect(utcIsoWeek(at)).toBe(isoWeek(new Date(at), 'UTC'));
          expect(isoWeek(new Date(at), zone)).toBe(utcIsoWeek(at));
          expect(utcStartOfIsoWeek(utcIsoWeek(at))).toBe(start);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('is no wider than needed: at its edges the extreme zones already disagree with UTC', () => {
    const monday = Date.parse('2027-01-04T00:00:00Z'); // 2027-W01; the week before is 2026-W53
    const sunday10 = monday - 14 * HOUR;
    const monday12 = monday + 12 * HOUR;
    expect(inWeekStartWindow(sunday10 - 1)).toBe(false);
    expect(inWeekStartWindow(sunday10)).toBe(true);
    expect(inWeekStartWindow(monday12 - 1)).toBe(true);
    expect(inWeekStartWindow(monday12)).toBe(false);
    // Monday 00:00 at +14 is Sunday 10:00 UTC; Monday 00:00 at -12 is Monday 12:00 UTC.
    expect(isoWeek(new Date(sunday10 - 1), 'Pacific/Kiritimati')).toBe('2026-W53');
    expect(isoWeek(new Date(sunday10), 'Pacific/Kiritimati')).toBe('2027-W01');
    expect(utcIsoWeek(sunday10)).toBe('2026-W53');
    expect(isoWeek(new Date(monday12 - 1), 'Etc/GMT+12')).toBe('2026-W53');
    expect(isoWeek(new Date(monday12), 'Etc/GMT+12')).toBe('2027-W01');
    expect(utcIsoWeek(monday12 - 1)).toBe('2027-W01');
  });

  it('keeps a summary’s size independent of the publishing rate: one week key, at most 104 intervals a week', () => {
    const now = new Date('2027-01-20T00:00:00Z');
    // A publication on both platforms every 7 minutes over the six weeks kept: 8,640 of them each.
    const articles: Model[] = [];
    for (let at = now.getTime() - SUMMARY_BUCKET_RETENTION_MS; at < now.getTime(); at += 7 * 60_000) {
      const iso = new Date(at).toISOString();
      articles.push({
        ...article(`p${at}`),
        blog: { content: 'x', publishedToWordPress: true, lastPublished: iso },
        linkedin: { content: 'x', publishedToLinkedIn: true, lastPublished: iso },
      });
    }
    const summary = summaryOf(articles, now);
    for (const platform of ['wordpress', 'linkedin']) {
      // Six weeks touch at most seven UTC weeks, and seven windows.
      expect(Object.keys(summary.weeks[platform]!).length).toBeLessThanOrEqual(7);
      expect(Object.keys(summary.buckets[platform]!).length).toBeLessThanOrEqual(7 * 104);
      const counted = [...Object.values(summary.weeks[platform]!), ...Object.values(summary.buckets[platform]!)];
      expect(counted.reduce((a, b) => a + b, 0)).toBe(articles.length);
    }
    for (const zone of ['UTC', 'Pacific/Kiritimati', 'Etc/GMT+12', 'Asia/Kathmandu']) {
      expect(dashboardFromSummary(summary, [], zone, now, CHANNEL_IDS).trends).toEqual(
        dashboardFromArticles(articles, zone, now, CHANNEL_IDS).trends,
      );
    }
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
