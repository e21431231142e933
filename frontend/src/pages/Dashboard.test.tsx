import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { dashboardFromArticles, isoWeek, lastIsoWeeks, needsAttention, type Article } from '@app/shared';
import DashboardPage from './Dashboard';
import { setCurrentWorkspaceId } from '../lib/workspace';
import { makeArticle } from '../test/articles';
import { deferred, makeUser, mockApi, renderWithProviders, type RecordedRequest, type Reply } from '../test/utils';

/** The initial size each chart's container was given (ResponsiveContainer's `initialDimension`), in render order. */
const initialSizes = vi.hoisted(() => [] as unknown[]);

// jsdom has no layout: give the charts a fixed size instead of ResponsiveContainer's measurement.
vi.mock('recharts', async (importOriginal) =>
  (await import('../test/recharts')).fixedSizeRecharts(importOriginal, (size) => initialSizes.push(size)),
);

const now = new Date();
const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000).toISOString();
const inFuture = new Date(now.getTime() + 3 * 3600_000).toISOString();

function articles(): Article[] {
  return [
    // Published on both this week.
    makeArticle({
      _id: 'd1',
      id: 'd1',
      keyword: 'serverless costs',
      tags: ['aws', 'ai'],
      blog: {
        content: 'b',
        publishedToWordPress: true,
        lastPublished: now.toISOString(),
        wordpressPostUrl: 'https://b/1',
      },
      linkedin: {
        content: 'l',
        publishedToLinkedIn: true,
        lastPublished: now.toISOString(),
        linkedinPostUrl: 'https://l/1',
      },
      scheduled: { blog: daysAgo(1), linkedin: daysAgo(1) },
    }),
    // Blog published a week ago, LinkedIn scheduled.
    makeArticle({
      _id: 'd2',
      id: 'd2',
      keyword: 'serverless',
      tags: ['aws'],
      blog: { content: 'b', publishedToWordPress: true, lastPublished: daysAgo(7), wordpressPostUrl: 'https://b/2' },
      scheduled: { blog: daysAgo(8), linkedin: inFuture },
    }),
    // Not scheduled.
    makeArticle({ _id: 'd3', id: 'd3', keyword: 'costs', tags: [] }),
    makeArticle({ _id: 'd4', id: 'd4', keyword: 'ai', tags: [] }),
  ];
}

/**
 * GET /api/dashboard as the server answers it for these articles: the cards of the full list (which the
 * server's summary equals: shared/test/dashboard-summary.test.ts), in the zone the page asked for, now.
 */
const dashboardOf =
  (list: Article[]) =>
  (request: Pick<RecordedRequest, 'path'>): Reply<'dashboard.get'> => {
    const timeZone = new URLSearchParams(request.path.split('?')[1]).get('timeZone') ?? 'UTC';
    return {
      timeZone,
      ...dashboardFromArticles(list, timeZone, new Date(), CHANNEL_IDS),
      attention: needsAttention(list),
    };
  };

/**
 * The server's registry: each channel has its bar and series; `extra`, which the SPA has no entry for, shows (by its id)
 * once it has posts.
 */
const CHANNEL_IDS = ['wordpress', 'linkedin', 'extra'];

const card = (title: string) => screen.getByRole('region', { name: title });

describe('Dashboard page', () => {
  it('renders the four cards from the full article list', async () => {
    const { requests } = mockApi({
      'auth.me': { user: makeUser({ timezone: 'UTC' }) },
      'dashboard.get': dashboardOf(articles()),
    });
    renderWithProviders(<DashboardPage />, { route: '/dashboard' });
    expect(await screen.findByRole('region', { name: 'Publishing Trends' })).toBeInTheDocument();
    // One call, for the user's zone (the workspace list is the shell's, which tells the role: one query for both).
    expect(requests.filter((r) => r.route !== 'workspaces.list').map((r) => r.path)).toEqual([
      '/api/auth/me',
      '/api/dashboard?timeZone=UTC',
    ]);

    // Publishing Trends: the last 4 ISO weeks, Blog and LinkedIn, and a Schedule link.
    const trends = card('Publishing Trends');
    expect(within(trends).getByRole('link', { name: 'Schedule' })).toHaveAttribute('href', '/schedule');
    expect(within(trends).getByText(/2 WordPress posts and 1 LinkedIn post published from/)).toBeInTheDocument();
    const weeks = lastIsoWeeks(now, 'UTC');
    const trendsChart = await within(trends).findByRole('img', { name: /^Publishing trends, area chart\./ });
    expect(trendsChart.getAttribute('aria-label')).toContain(`${isoWeek(now, 'UTC')}: WordPress 1, LinkedIn 1`);
    expect(trendsChart.getAttribute('aria-label')).toContain(
      `${isoWeek(new Date(daysAgo(7)), 'UTC')}: WordPress 1, LinkedIn 0`,
    );
    for (const week of weeks) expect(week).toMatch(/^\d{4}-W\d{2}$/);
    // recharts drew the area chart with its axis labels.
    expect(trendsChart.querySelector('.recharts-area')).not.toBeNull();
    expect(within(trendsChart).getByText(weeks[3]!)).toBeInTheDocument();

    // Platform Distribution: horizontal bars and the total; New Article goes to the create screen.
    const distribution = card('Platform Distribution');
    expect(within(distribution).getByTestId('distribution-total')).toHaveTextContent('3');
    expect(within(distribution).getByText('published posts in total')).toBeInTheDocument();
    expect(within(distribution).getByRole('link', { name: 'New Article' })).toHaveAttribute('href', '/create');
    const bars = await within(distribution).findByRole('img', {
      name: /Platform distribution, bar chart\. WordPress 2, LinkedIn 1\. Total 3\./,
    });
    expect(bars.querySelector('.recharts-bar')).not.toBeNull();

    // Top Keywords: from keyword and tags, no demo note.
    const keywords = card('Top Keywords');
    expect(within(keywords).queryByText('Demo data')).not.toBeInTheDocument();
    const legend = within(keywords).getByRole('list', { name: 'Top keywords' });
    expect(
      within(legend)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['ai2', 'aws2', 'costs2', 'serverless2']);
    const donut = await within(keywords).findByRole('img', { name: /^Top keywords, donut chart\. ai 2, aws 2/ });
    expect(donut.querySelector('.recharts-pie')).not.toBeNull();

    // Content Status: four statistics with their share of the 4 articles.
    const status = card('Content Status');
    expect(within(status).getByText('4 articles in total.')).toBeInTheDocument();
    const stat = (label: string) => within(status).getByText(label).closest('div')!;
    expect(stat('All Content Published')).toHaveTextContent(/^All Content Published1 article, 25%$/);
    expect(stat('Scheduled')).toHaveTextContent(/^Scheduled1 article, 25%$/);
    expect(stat('Content Created')).toHaveTextContent(/^Content Created0 articles, 0%$/);
    expect(stat('Not Scheduled')).toHaveTextContent(/^Not Scheduled2 articles, 50%$/);
  });

  it('shows demo keywords with a "Demo data" note when articles have none', async () => {
    mockApi({ 'dashboard.get': dashboardOf([makeArticle({ keyword: '', tags: [] })]) });
    renderWithProviders(<DashboardPage />, { route: '/dashboard' });
    const keywords = await screen.findByRole('region', { name: 'Top Keywords' });
    expect(within(keywords).getByText('Demo data')).toBeInTheDocument();
    const legend = within(keywords).getByRole('list', { name: 'Top keywords' });
    expect(within(legend).getAllByRole('listitem')).toHaveLength(5);
    expect(within(legend).getAllByRole('listitem')[0]).toHaveTextContent('marketing5');
    expect(await within(keywords).findByRole('img', { name: /^Top keywords \(demo data\)/ })).toBeInTheDocument();
    // An empty account: zero everywhere, 100 % not scheduled.
    expect(within(card('Platform Distribution')).getByTestId('distribution-total')).toHaveTextContent('0');
    expect(within(card('Content Status')).getByText('Not Scheduled').closest('div')).toHaveTextContent('100%');
  });

  it('shows a loading state, then "Failed to fetch articles. Please try again later." on failure', async () => {
    const list = deferred<Reply<'dashboard.get'>>();
    let calls = 0;
    mockApi({ 'dashboard.get': (request) => (++calls === 1 ? list.promise : dashboardOf(articles())(request)) });
    renderWithProviders(<DashboardPage />, { route: '/dashboard' });
    expect(screen.getByText('Loading dashboard...')).toBeInTheDocument();
    list.resolve({
      status: 500,
      body: { error: 'Failed to fetch articles: 500', message: 'Failed to fetch articles: 500' },
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to fetch articles. Please try again later.');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('region', { name: 'Content Status' })).toBeInTheDocument();
  });
});

describe('Dashboard: weeks in the user’s time zone', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  // Sunday 29 November 2026 23:00 in UTC: Monday 08:00 in Tokyo (2026-W49), Sunday 15:00 in Los Angeles (2026-W48).
  const sundayNightUtc = '2026-11-29T23:00:00.000Z';
  const published = makeArticle({
    _id: 'tz1',
    id: 'tz1',
    blog: { content: 'b', publishedToWordPress: true, lastPublished: sundayNightUtc, wordpressPostUrl: 'https://b/9' },
    linkedin: {
      content: 'l',
      publishedToLinkedIn: true,
      lastPublished: sundayNightUtc,
      linkedinPostUrl: 'https://l/9',
    },
  });

  it.each([
    ['Asia/Tokyo', ['2026-W46', '2026-W47', '2026-W48', '2026-W49'], '2026-W49'],
    ['America/Los_Angeles', ['2026-W45', '2026-W46', '2026-W47', '2026-W48'], '2026-W48'],
  ])('counts and labels the weeks of a user in %s', async (timezone, weeks, weekOfPost) => {
    // Half an hour after the post: whatever the browser's zone, the two users see different weeks.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-29T23:30:00.000Z'));
    mockApi({ 'auth.me': { user: makeUser({ timezone }) }, 'dashboard.get': dashboardOf([published]) });
    renderWithProviders(<DashboardPage />, { route: '/dashboard' });

    const trends = await screen.findByRole('region', { name: 'Publishing Trends' });
    const chart = await within(trends).findByRole('img', {
      name: new RegExp(`${weekOfPost}: WordPress 1, LinkedIn 1\\.$`),
    });
    expect(chart.getAttribute('aria-label')).toBe(
      `Publishing trends, area chart. ${weeks
        .map((week) => {
          const n = week === weekOfPost ? 1 : 0;
          return `${week}: WordPress ${n}, LinkedIn ${n}`;
        })
        .join('; ')}.`,
    );
    for (const week of weeks) expect(within(chart).getByText(week)).toBeInTheDocument();
    expect(
      within(trends).getByText(
        `1 WordPress post and 1 LinkedIn post published from ${weeks[0]} to ${weekOfPost} (weeks from Monday to Sunday, ${timezone} time).`,
      ),
    ).toBeInTheDocument();
  });
});

describe('Dashboard: every channel', () => {
  it('counts a post of a channel of `posts` for that channel, not as a WordPress one, in both charts and the figures', async () => {
    const onExtra = makeArticle({
      _id: 'g1',
      id: 'g1',
      posts: { extra: { id: 'p1', url: 'https://blog.example/p/', publishedAt: now.toISOString() } },
    });
    mockApi({ 'auth.me': { user: makeUser({ timezone: 'UTC' }) }, 'dashboard.get': dashboardOf([onExtra]) });
    renderWithProviders(<DashboardPage />, { route: '/dashboard' });
    const trends = await screen.findByRole('region', { name: 'Publishing Trends' });
    expect(
      within(trends).getByText(/^0 WordPress posts, 0 LinkedIn posts and 1 extra post published from/),
    ).toBeInTheDocument();
    const chart = await within(trends).findByRole('img', { name: /^Publishing trends, area chart\./ });
    expect(chart.getAttribute('aria-label')).toContain(`${isoWeek(now, 'UTC')}: WordPress 0, LinkedIn 0, extra 1`);
    const distribution = card('Platform Distribution');
    expect(within(distribution).getByTestId('distribution-total')).toHaveTextContent('1');
    expect(
      await within(distribution).findByRole('img', {
        name: 'Platform distribution, bar chart. WordPress 0, LinkedIn 0, extra 1. Total 1.',
      }),
    ).toBeInTheDocument();
  });
});

describe('Dashboard: needs attention', () => {
  it('lists the articles whose last run failed, with the way to fix each, and is absent when none did', async () => {
    const failed = [
      makeArticle({
        _id: 'f1',
        id: 'f1',
        title: 'Mail broke',
        updatedAt: daysAgo(1),
        lastError: {
          code: 'email_failed',
          message: 'The approval e-mail could not be sent: reconnect Gmail in Settings.',
        },
      }),
      makeArticle({
        _id: 'f2',
        id: 'f2',
        title: 'Draft broke',
        updatedAt: daysAgo(0),
        lastError: { code: 'draft_failed', message: 'Drafting did not finish.' },
      }),
      makeArticle({ _id: 'ok', id: 'ok', title: 'Fine one', lastError: null }),
    ];
    mockApi({ 'dashboard.get': dashboardOf(failed) });
    renderWithProviders(<DashboardPage />, { route: '/dashboard' });
    const region = await screen.findByRole('region', { name: 'Needs attention' });
    expect(
      within(region).getByText('2 articles could not be processed. Fix the cause, then try again.'),
    ).toBeInTheDocument();
    const items = within(region).getAllByRole('listitem');
    expect(items.map((li) => li.querySelector('.attention-list__title')!.textContent)).toEqual([
      'Draft broke',
      'Mail broke',
    ]);
    expect(within(items[1]!).getByRole('link', { name: 'Open Settings for Mail broke' })).toHaveAttribute(
      'href',
      '/settings',
    );
    expect(within(items[0]!).getByRole('link', { name: 'Open Draft broke' })).toHaveAttribute(
      'href',
      '/create?articleId=f2',
    );
    expect(within(region).queryByText('Fine one')).not.toBeInTheDocument();
  });

  it('shows no such card when every run went well', async () => {
    mockApi({ 'dashboard.get': dashboardOf(articles()) });
    renderWithProviders(<DashboardPage />, { route: '/dashboard' });
    await screen.findByRole('region', { name: 'Content Status' });
    expect(screen.queryByRole('region', { name: 'Needs attention' })).not.toBeInTheDocument();
  });
});

describe('Dashboard: the cards paint before the charts', () => {
  it('shows every card and figure with the charts’ places held, then draws the charts after that paint', async () => {
    // The chart code is at hand before the answer comes (as when it loads beside the dashboard's call).
    await import('../components/dashboard/charts');
    mockApi({ 'auth.me': { user: makeUser({ timezone: 'UTC' }) }, 'dashboard.get': dashboardOf(articles()) });
    renderWithProviders(<DashboardPage />, { route: '/dashboard' });

    // The first paint with the cards has their figures, and no chart drawn yet: each chart's place is held
    // at its height by a placeholder.
    const trends = await screen.findByRole('region', { name: 'Publishing Trends' });
    expect(within(trends).getByText(/2 WordPress posts and 1 LinkedIn post published from/)).toBeInTheDocument();
    expect(within(card('Platform Distribution')).getByTestId('distribution-total')).toHaveTextContent('3');
    expect(within(card('Content Status')).getByText('4 articles in total.')).toBeInTheDocument();
    expect(document.querySelector('.recharts-wrapper')).toBeNull();
    const places = screen.getAllByRole('status', { name: 'Loading chart' });
    expect(places).toHaveLength(3);

    // Then the charts, each in its place.
    expect(await within(trends).findByRole('img', { name: /^Publishing trends, area chart\./ })).toBeInTheDocument();
    await waitFor(() => expect(document.querySelectorAll('.recharts-wrapper')).toHaveLength(3));
    expect(screen.queryByRole('status', { name: 'Loading chart' })).not.toBeInTheDocument();
  });

  // Publishing Trends' legend is not drawn by recharts: once drawn, recharts' legend measured itself and the chart was
  // drawn again in the same task. It is in the placeholder too, so nothing moves when the chart comes.
  it('shows the trends legend with the cards, in the chart’s place, and once when the chart is drawn', async () => {
    await import('../components/dashboard/charts');
    mockApi({ 'auth.me': { user: makeUser({ timezone: 'UTC' }) }, 'dashboard.get': dashboardOf(articles()) });
    renderWithProviders(<DashboardPage />, { route: '/dashboard' });
    const trends = await screen.findByRole('region', { name: 'Publishing Trends' });
    const legend = () => [...trends.querySelectorAll('.trends-legend__item')].map((li) => li.textContent);
    expect(document.querySelector('.recharts-wrapper')).toBeNull();
    expect(legend()).toEqual(expect.arrayContaining(['WordPress', 'LinkedIn']));
    const before = legend();
    await within(trends).findByRole('img', { name: /^Publishing trends, area chart\./ });
    expect(legend()).toEqual(before);
  });

  // Measured by its container after it is shown, a chart was drawn whole in the update that measurement makes,
  // which React does not interrupt; drawn at its place's size, it is drawn in the transition that shows it.
  it('draws each chart at the size of its place from its first render', async () => {
    const box = vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockReturnValue(new DOMRect(0, 0, 512.4, 240));
    try {
      initialSizes.length = 0;
      await import('../components/dashboard/charts');
      mockApi({ 'auth.me': { user: makeUser({ timezone: 'UTC' }) }, 'dashboard.get': dashboardOf(articles()) });
      renderWithProviders(<DashboardPage />, { route: '/dashboard' });
      await waitFor(() => expect(document.querySelectorAll('.recharts-wrapper')).toHaveLength(3));
      expect(initialSizes).toContainEqual({ width: 512, height: 240 });
      expect(initialSizes).not.toContain(undefined);
    } finally {
      box.mockRestore();
    }
  });
});

describe('Dashboard in a team workspace (docs/product.md, Workspaces)', () => {
  afterEach(() => setCurrentWorkspaceId(undefined));
  it.each([
    ['writer', true],
    ['reviewer', false],
  ] as const)('New Article is there only for a role that creates (%s)', async (role, shown) => {
    setCurrentWorkspaceId('team-1');
    const user = makeUser();
    mockApi({
      'auth.me': { user },
      'workspaces.list': {
        workspaces: [
          { id: user._id, name: 'Personal', personal: true, role: 'owner' },
          { id: 'team-1', name: 'Acme Marketing', personal: false, role },
        ],
      },
      'dashboard.get': dashboardOf(articles()),
    });
    renderWithProviders(<DashboardPage />, { route: '/dashboard' });
    const distribution = await screen.findByRole('region', { name: 'Platform Distribution' });
    // Settled once the workspace list is in: a writer's link appears then.
    await screen.findByRole('region', { name: 'Top Keywords' });
    await waitFor(() => expect(within(distribution).queryByRole('link', { name: 'New Article' }) !== null).toBe(shown));
    expect(within(distribution).getByTestId('distribution-total')).toBeVisible();
  });
});
