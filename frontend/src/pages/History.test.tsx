import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import HistoryPage, { historyRows } from './History';
import { CHANNEL_REGISTRY } from '../channels/registry';
import { makeArticle } from '../test/articles';

/** WCAG 2's contrast ratio of two #rrggbb colours. */
function contrastRatio(a: string, b: string): number {
  const luminance = (hex: string) => {
    const [r, g, bl] = [1, 3, 5].map((i) => {
      const v = parseInt(hex.slice(i, i + 2), 16) / 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light! + 0.05) / (dark! + 0.05);
}
import { deferred, makeUser, mockApi, renderWithProviders, type MockRoutes, type Reply } from '../test/utils';

const both = makeArticle({
  _id: 'h1',
  id: 'h1',
  title: 'Both platforms',
  blog: {
    content: 'b',
    publishedToWordPress: true,
    lastPublished: '2025-03-04T15:05:00.000Z',
    wordpressPostUrl: 'https://blog.example.com/both/',
  },
  linkedin: {
    content: 'l',
    publishedToLinkedIn: true,
    lastPublished: '2025-03-06T09:30:00.000Z',
    linkedinPostUrl: 'https://www.linkedin.com/feed/update/urn:li:share:7/',
  },
});
const blogOnly = makeArticle({
  _id: 'h2',
  id: 'h2',
  title: 'Blog only',
  blog: {
    content: 'b',
    publishedToWordPress: true,
    lastPublished: '2025-03-05T23:45:00.000Z',
    wordpressPostUrl: 'https://blog.example.com/only/',
  },
});
// Flag without a time: not published by the shared rule (docs/product.md, Schedule), so no row.
const flagOnly = makeArticle({
  _id: 'h3',
  id: 'h3',
  title: 'Flag only',
  linkedin: { content: 'l', publishedToLinkedIn: true, lastPublished: null, linkedinPostUrl: null },
});

// Published only on channels with no fields of their own (Article.posts), ones the SPA has no entry for: each has
// its row, by its label or else its id.
const postsOnly = makeArticle({
  _id: 'h4',
  id: 'h4',
  title: 'Posts only',
  posts: {
    extra: { id: 'g1', url: 'https://blog.example.com/posts-only/', publishedAt: '2025-03-07T08:00:00.000Z' },
    'new-channel': { id: 'n1', url: null, publishedAt: '2025-03-01T08:00:00.000Z' },
  },
});

const session = (timezone: string): MockRoutes => ({
  'auth.me': { user: makeUser({ timezone }) },
});

const bodyRows = () => screen.getAllByRole('row').slice(1);

describe('History page', () => {
  it('lists one row per published platform, newest first, with View Post links', async () => {
    mockApi({ ...session('UTC'), 'articles.published': { articles: [blogOnly, both, flagOnly], nextCursor: null } });
    renderWithProviders(<HistoryPage />, { route: '/history' });
    expect(screen.getByRole('heading', { name: 'Published Articles History', level: 1 })).toBeInTheDocument();

    await screen.findByRole('table');
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual([
      'Title',
      'Platform',
      'Published Date',
      'Actions',
    ]);
    const rows = bodyRows();
    expect(
      rows.map((tr) => [
        within(tr).getAllByRole('cell')[0]!.textContent,
        within(tr).getAllByRole('cell')[1]!.textContent,
      ]),
    ).toEqual([
      ['Both platforms', 'LinkedIn'],
      ['Blog only', 'WordPress'],
      ['Both platforms', 'WordPress'],
    ]);

    const linkedinView = within(rows[0]!).getByRole('link', { name: /^View Post/ });
    expect(linkedinView).toHaveAttribute('href', 'https://www.linkedin.com/feed/update/urn:li:share:7/');
    expect(linkedinView).toHaveAttribute('target', '_blank');
    expect(linkedinView).toHaveAttribute('rel', 'noopener noreferrer');
    expect(linkedinView).toHaveAccessibleName('View Post Both platforms on LinkedIn (opens in a new tab)');
    expect(within(rows[2]!).getByRole('link', { name: /^View Post/ })).toHaveAttribute(
      'href',
      'https://blog.example.com/both/',
    );
  });

  it('lists a row per channel of the registry and of `posts`, an article published on those only included', async () => {
    mockApi({ ...session('UTC'), 'articles.published': { articles: [postsOnly, both], nextCursor: null } });
    renderWithProviders(<HistoryPage />, { route: '/history' });
    await screen.findByRole('table');
    const rows = bodyRows();
    expect(
      rows.map((tr) =>
        within(tr)
          .getAllByRole('cell')
          .slice(0, 2)
          .map((td) => td.textContent),
      ),
    ).toEqual([
      ['Posts only', 'extra'],
      ['Both platforms', 'LinkedIn'],
      ['Both platforms', 'WordPress'],
      ['Posts only', 'new-channel'],
    ]);
    const view = within(rows[0]!).getByRole('link', { name: /^View Post/ });
    expect(view).toHaveAttribute('href', 'https://blog.example.com/posts-only/');
    expect(view).toHaveAccessibleName('View Post Posts only on extra (opens in a new tab)');
    expect(within(rows[3]!).getByText('No link')).toBeInTheDocument();
    // Every channel of the registry is named in the page's description.
    const labels = CHANNEL_REGISTRY.map((channel) => channel.label);
    expect(
      screen.getByText(`Everything you have published on ${labels.slice(0, -1).join(', ')} and ${labels.at(-1)}.`, {
        exact: false,
      }),
    ).toBeInTheDocument();
  });

  it("tags each channel's row in its own colours from its registry entry, readable in both themes", async () => {
    // Published on every channel of the registry: the versions' own by their flags, the others by their posts.
    const others = CHANNEL_REGISTRY.filter((channel) => channel.also || channel.ownVersion);
    const everywhere = makeArticle({
      _id: 'h6',
      id: 'h6',
      title: 'Everywhere',
      blog: { ...both.blog },
      linkedin: { ...both.linkedin },
      posts: Object.fromEntries(
        others.map((channel, i) => [
          channel.id,
          { id: `p${i}`, url: `https://posts.example.com/${i}`, publishedAt: `2025-03-0${7 + i}T08:00:00.000Z` },
        ]),
      ),
    });
    mockApi({ ...session('UTC'), 'articles.published': { articles: [everywhere], nextCursor: null } });
    renderWithProviders(<HistoryPage />, { route: '/history' });
    await screen.findByRole('table');
    const tags = new Map(
      bodyRows().map((tr) => {
        const tag = within(tr).getAllByRole('cell')[1]!.querySelector<HTMLElement>('.channel-tag')!;
        return [tag.textContent, tag] as const;
      }),
    );
    expect([...tags.keys()].sort()).toEqual(CHANNEL_REGISTRY.map((channel) => channel.label).sort());
    const looks = [...tags].map(([label, tag]) => {
      const entry = CHANNEL_REGISTRY.find((channel) => channel.label === label)!;
      // The colours are the registry entry's, for each theme (styles/base.css picks them).
      expect(tag.style.getPropertyValue('--tag-text')).toBe(entry.tag.light.text);
      expect(tag.style.getPropertyValue('--tag-bg')).toBe(entry.tag.light.background);
      expect(tag.style.getPropertyValue('--tag-text-dark')).toBe(entry.tag.dark.text);
      expect(tag.style.getPropertyValue('--tag-bg-dark')).toBe(entry.tag.dark.background);
      for (const theme of [entry.tag.light, entry.tag.dark])
        expect(
          contrastRatio(theme.text, theme.background),
          `${label}: ${JSON.stringify(theme)}`,
        ).toBeGreaterThanOrEqual(4.5);
      return `${entry.tag.light.background}/${entry.tag.dark.background}`;
    });
    // A second channel of the blog version has a tag of its own, not the version's channel's.
    expect(new Set(looks).size).toBe(looks.length);
  });

  it('a stored post address that is not http(s) (javascript:, data:) is never a link', async () => {
    const hostile = makeArticle({
      _id: 'h4',
      id: 'h4',
      title: 'Odd links',
      blog: {
        content: 'b',
        publishedToWordPress: true,
        lastPublished: '2025-03-07T10:00:00.000Z',
        wordpressPostUrl: 'javascript:alert(1)',
      },
      linkedin: {
        content: 'l',
        publishedToLinkedIn: true,
        lastPublished: '2025-03-07T11:00:00.000Z',
        linkedinPostUrl: 'data:text/html,<script>alert(2)</script>',
      },
    });
    mockApi({ ...session('UTC'), 'articles.published': { articles: [hostile], nextCursor: null } });
    const { container } = renderWithProviders(<HistoryPage />, { route: '/history' });
    await screen.findByRole('table');
    expect(bodyRows()).toHaveLength(2);
    expect(screen.queryByRole('link', { name: /^View Post/ })).not.toBeInTheDocument();
    expect(container.querySelector('[href^="javascript" i], [href^="data" i]')).toBeNull();
    expect(historyRows([hostile]).map((r) => r.url)).toEqual([null, null]);
  });

  it("shows dates in the user's time zone (not the browser's), 24-hour, with the zone's name", async () => {
    mockApi({ ...session('America/New_York'), 'articles.published': { articles: [both, blogOnly], nextCursor: null } });
    renderWithProviders(<HistoryPage />, { route: '/history' });
    await screen.findByRole('table');
    // The description names the zone once the session is known.
    expect(await screen.findByText(/Times are shown in America\/New_York/)).toBeInTheDocument();
    const dates = bodyRows().map((tr) => within(tr).getAllByRole('cell')[2]!);

    // 2025-03-06T09:30Z is 04:30 in New York (EST, UTC-5).
    expect(dates[0]).toHaveTextContent(/Mar 6, 2025/);
    expect(dates[0]).toHaveTextContent(/04:30/);
    expect(dates[0]).toHaveTextContent(/EST/);
    // 2025-03-05T23:45Z is 18:45 on the 5th in New York; 24-hour clock, no AM/PM.
    expect(dates[1]).toHaveTextContent(/Mar 5, 2025/);
    expect(dates[1]).toHaveTextContent(/18:45/);
    expect(dates[1]).not.toHaveTextContent(/PM/);
    expect(within(dates[1]!).getByText(/18:45/).closest('time')).toHaveAttribute(
      'dateTime',
      '2025-03-05T23:45:00.000Z',
    );
  });

  it('uses another zone when the user has one: Asia/Tokyo moves the date to the next day', async () => {
    mockApi({ ...session('Asia/Tokyo'), 'articles.published': { articles: [blogOnly], nextCursor: null } });
    renderWithProviders(<HistoryPage />, { route: '/history' });
    await screen.findByText(/Times are shown in Asia\/Tokyo/);
    const date = within(bodyRows()[0]!).getAllByRole('cell')[2]!;
    // 2025-03-05T23:45Z is 08:45 on the 6th in Tokyo (UTC+9).
    expect(date).toHaveTextContent(/Mar 6, 2025/);
    expect(date).toHaveTextContent(/08:45/);
    expect(date).toHaveTextContent(/GMT\+9/);
  });

  it('shows a loading state, then "Nothing published yet." when nothing is published', async () => {
    const list = deferred<Reply<'articles.published'>>();
    mockApi({ 'articles.published': () => list.promise });
    renderWithProviders(<HistoryPage />, { route: '/history' });
    expect(screen.getByText('Loading published articles...')).toBeInTheDocument();
    list.resolve({ articles: [], nextCursor: null });
    expect(await screen.findByText('Nothing published yet.')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('with nothing published offers a link to the Create page', async () => {
    mockApi({ 'articles.published': { articles: [], nextCursor: null } });
    const user = userEvent.setup();
    renderWithProviders(<HistoryPage />, { route: '/history' });
    const create = await screen.findByRole('link', { name: 'Create New Article' });
    expect(create).toHaveAttribute('href', '/create');

    await user.click(create);
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/create$/);
  });

  it('shows "Failed to load published articles" when the list cannot be loaded', async () => {
    mockApi({
      'articles.published': {
        status: 500,
        body: { error: 'Failed to fetch published articles', message: 'Failed to fetch published articles' },
      },
    });
    renderWithProviders(<HistoryPage />, { route: '/history' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load published articles');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('historyRows keeps a row without a link, which shows "No link"', async () => {
    const noLink = makeArticle({
      _id: 'n1',
      id: 'n1',
      title: 'No link',
      blog: {
        content: 'b',
        publishedToWordPress: true,
        lastPublished: '2025-03-04T15:05:00.000Z',
        wordpressPostUrl: null,
      },
    });
    expect(historyRows([noLink])).toEqual([
      {
        key: 'n1-wordpress',
        title: 'No link',
        platform: 'WordPress',
        channel: 'wordpress',
        publishedAt: '2025-03-04T15:05:00.000Z',
        url: null,
      },
    ]);
    mockApi({ 'articles.published': { articles: [noLink], nextCursor: null } });
    renderWithProviders(<HistoryPage />, { route: '/history' });
    await screen.findByRole('table');
    expect(within(bodyRows()[0]!).queryByRole('link')).not.toBeInTheDocument();
  });

  it('loads the next page with "Load more" (busy while it loads), until the last page', async () => {
    const older = makeArticle({
      _id: 'h5',
      id: 'h5',
      title: 'Older post',
      blog: {
        content: 'b',
        publishedToWordPress: true,
        lastPublished: '2025-02-01T12:00:00.000Z',
        wordpressPostUrl: 'https://blog.example.com/older/',
      },
    });
    const next = deferred<Reply<'articles.published'>>();
    const api = mockApi({
      ...session('Asia/Tokyo'),
      'articles.published': (req) =>
        req.path.includes('cursor=page-2') ? next.promise : { articles: [both, blogOnly], nextCursor: 'page-2' },
    });
    const user = userEvent.setup();
    renderWithProviders(<HistoryPage />, { route: '/history' });
    await screen.findByRole('table');
    expect(bodyRows()).toHaveLength(3);

    await user.click(screen.getByRole('button', { name: 'Load more' }));
    const busy = screen.getByRole('button', { name: 'Loading more' });
    expect(busy).toBeDisabled();
    expect(busy).toHaveAttribute('aria-busy', 'true');
    expect(api.requests.filter((r) => r.route === 'articles.published').map((r) => r.path)).toEqual([
      '/api/articles/published',
      '/api/articles/published?cursor=page-2',
    ]);

    next.resolve({ articles: [older], nextCursor: null });
    await screen.findByText('Older post');
    const rows = bodyRows();
    expect(rows).toHaveLength(4);
    // Still in the user's zone: 2025-02-01T12:00Z is 21:00 in Tokyo.
    expect(within(rows[3]!).getAllByRole('cell')[2]!).toHaveTextContent(/Feb 1, 2025.*21:00/);
    // The last page: nothing more to load.
    expect(screen.queryByRole('button', { name: /Load more|Loading more/ })).not.toBeInTheDocument();
  });
});
