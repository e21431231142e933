import { describe, expect, it } from 'vitest';
import {
  contentStatus,
  isoWeek,
  lastIsoWeeks,
  overallStatus,
  platformBadge,
  platformDistribution,
  platformStatus,
  publishingTrends,
  topKeywords,
  type DashboardArticle,
} from '../src/index.js';

const now = new Date('2026-11-21T12:00:00Z');
const past = '2026-11-20T10:00:00Z';
const future = '2026-11-22T10:00:00Z';

function article(patch: Partial<Record<string, unknown>> = {}): DashboardArticle {
  return {
    keyword: '',
    tags: [],
    blog: { content: '', publishedToWordPress: false, lastPublished: null },
    linkedin: { content: '', publishedToLinkedIn: false, lastPublished: null },
    scheduled: { blog: null, linkedin: null },
    lastError: null,
    ...patch,
  } as DashboardArticle;
}

describe('per-platform status', () => {
  it.each([
    ['no time', article(), 'not-scheduled'],
    ['future time', article({ scheduled: { blog: future, linkedin: null } }), 'scheduled'],
    [
      'past time with content',
      article({
        scheduled: { blog: past, linkedin: null },
        blog: { content: 'x', publishedToWordPress: false, lastPublished: null },
      }),
      'content-created',
    ],
    ['past time without content yet', article({ scheduled: { blog: past, linkedin: null } }), 'scheduled'],
    [
      'published',
      article({
        scheduled: { blog: past, linkedin: null },
        blog: { content: 'x', publishedToWordPress: true, lastPublished: past },
      }),
      'published',
    ],
    [
      'flag without date is not published',
      article({ blog: { content: 'x', publishedToWordPress: true, lastPublished: null } }),
      'not-scheduled',
    ],
  ])('%s', (_name, a, expected) => {
    expect(platformStatus(a, 'blog', now)).toBe(expected);
  });
});

describe('overall status', () => {
  const pub = { content: 'x', publishedToWordPress: true, publishedToLinkedIn: true, lastPublished: past };
  it('follows the SPEC order', () => {
    expect(overallStatus(article(), now)).toBe('not-scheduled');
    expect(
      overallStatus(
        article({
          scheduled: { blog: future, linkedin: past },
          linkedin: { content: 'x', publishedToLinkedIn: false, lastPublished: null },
        }),
        now,
      ),
    ).toBe('scheduled');
    expect(
      overallStatus(
        article({
          scheduled: { blog: past, linkedin: null },
          blog: { content: 'x', publishedToWordPress: false, lastPublished: null },
        }),
        now,
      ),
    ).toBe('content-created');
    expect(overallStatus(article({ blog: pub, linkedin: pub, scheduled: { blog: past, linkedin: past } }), now)).toBe(
      'published',
    );
  });
  it('shows Not enough credit for unpublished platforms when credit ran out', () => {
    const a = article({ lastError: { code: 'insufficient_quota', message: '' }, blog: pub });
    expect(platformBadge(a, 'linkedin', now)).toEqual({
      label: 'Not enough credit',
      tooltip: 'OpenAI credits insufficient',
    });
    expect(platformBadge(a, 'blog', now).label).toBe('All Content Published');
  });
});

describe('ISO weeks', () => {
  it.each([
    ['2026-01-01T12:00:00Z', '2026-W01'], // Thursday
    ['2027-01-01T12:00:00Z', '2026-W53'], // Friday: still the last week of 2026
    ['2024-12-30T12:00:00Z', '2025-W01'], // Monday of the week that holds 2 Jan 2025
    ['2021-01-03T12:00:00Z', '2020-W53'], // Sunday
    ['2026-11-23T00:00:00Z', '2026-W48'], // weeks start on Monday
    ['2026-11-22T23:59:59Z', '2026-W47'],
  ])('%s is %s', (date, week) => {
    expect(isoWeek(new Date(date), 'UTC')).toBe(week);
  });
  it('lists the last four weeks across New Year, oldest first', () => {
    expect(lastIsoWeeks(new Date('2027-01-06T00:00:00Z'), 'UTC')).toEqual([
      '2026-W51',
      '2026-W52',
      '2026-W53',
      '2027-W01',
    ]);
  });
});

describe('dashboard aggregations', () => {
  const published = (platform: 'blog' | 'linkedin', at: string) =>
    platform === 'blog'
      ? { blog: { content: 'x', publishedToWordPress: true, lastPublished: at } }
      : { linkedin: { content: 'x', publishedToLinkedIn: true, lastPublished: at } };

  it('counts publications per ISO week and platform', () => {
    const articles = [
      article(published('blog', '2026-11-20T10:00:00Z')),
      article(published('linkedin', '2026-11-02T10:00:00Z')),
      article(published('blog', '2026-10-01T10:00:00Z')),
    ];
    expect(publishingTrends(articles, now, 'UTC', ['wordpress', 'linkedin'])).toEqual([
      { week: '2026-W44', counts: { wordpress: 0, linkedin: 0 } },
      { week: '2026-W45', counts: { wordpress: 0, linkedin: 1 } }, // Monday 2 November opens W45
      { week: '2026-W46', counts: { wordpress: 0, linkedin: 0 } },
      { week: '2026-W47', counts: { wordpress: 1, linkedin: 0 } },
    ]);
    expect(platformDistribution(articles, ['wordpress', 'linkedin'])).toEqual({
      bars: [
        { channel: 'wordpress', count: 2 },
        { channel: 'linkedin', count: 1 },
      ],
      total: 3,
    });
  });

  it('counts each channel of `posts` for itself: a Ghost post is not a WordPress one', () => {
    const onGhost = article({ posts: { ghost: { id: 'g', url: null, publishedAt: '2026-11-20T10:00:00Z' } } });
    const both = article({
      ...published('blog', '2026-11-18T10:00:00Z'),
      posts: { ghost: { id: 'g', url: null, publishedAt: '2026-11-18T11:00:00Z' } },
    });
    expect(platformDistribution([onGhost, both], ['wordpress', 'linkedin', 'ghost'])).toEqual({
      bars: [
        { channel: 'wordpress', count: 1 },
        { channel: 'linkedin', count: 0 },
        { channel: 'ghost', count: 2 },
      ],
      total: 3,
    });
    expect(publishingTrends([onGhost, both], now, 'UTC', ['wordpress', 'linkedin']).at(-1)).toEqual({
      week: '2026-W47',
      // A channel the registry did not list is still counted, after its channels.
      counts: { wordpress: 1, linkedin: 0, ghost: 2 },
    });
  });

  it('takes keywords longer than 2 characters, or "ai", from keyword and tags', () => {
    const result = topKeywords([
      article({ keyword: 'AI in marketing', tags: ['SEO', 'ai', 'go'] }),
      article({ keyword: 'marketing automation', tags: ['seo'] }),
    ]);
    expect(result.demo).toBe(false);
    expect(result.keywords).toEqual([
      { keyword: 'ai', count: 2 },
      { keyword: 'marketing', count: 2 },
      { keyword: 'seo', count: 2 },
      { keyword: 'automation', count: 1 },
    ]);
    expect(topKeywords([article()]).demo).toBe(true);
  });

  it('gives the four statuses with percentages of the total', () => {
    const stats = contentStatus(
      [
        article(),
        article({ scheduled: { blog: future, linkedin: null } }),
        article(),
        article({
          blog: { content: 'x', publishedToWordPress: true, lastPublished: past },
          linkedin: { content: 'x', publishedToLinkedIn: true, lastPublished: past },
        }),
      ],
      now,
    );
    expect(stats).toEqual([
      { status: 'published', count: 1, percent: 25 },
      { status: 'scheduled', count: 1, percent: 25 },
      { status: 'content-created', count: 0, percent: 0 },
      { status: 'not-scheduled', count: 2, percent: 50 },
    ]);
  });
});
