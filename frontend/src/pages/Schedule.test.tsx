import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QUOTA_BANNER, SCHEDULE_REFRESH_MS, type Article } from '@app/shared';
import SchedulePage from './Schedule';
import { ArticleCard } from '../components/schedule/ArticleCard';
import { ownVersionChannels } from '../channels/registry';
import { articleListKey } from '../hooks/useArticleLists';
import { timing } from '../lib/timing';
import { makeArticle } from '../test/articles';
import { deferred, mockApi, renderWithProviders, type MockRoutes, type Reply } from '../test/utils';

const HOUR = 3600_000;
const future = () => new Date(Date.now() + 2 * HOUR).toISOString();
const past = () => new Date(Date.now() - 2 * HOUR).toISOString();

const notScheduled = () =>
  makeArticle({ _id: 'a1', id: 'a1', title: 'Fresh idea', keyword: 'content automation', tags: ['ai', 'growth'] });
const blogScheduled = () =>
  makeArticle({ _id: 'a2', id: 'a2', title: 'Planned post', scheduled: { blog: future(), linkedin: null } });
const contentCreated = () =>
  makeArticle({ _id: 'a3', id: 'a3', title: 'Ready post', scheduled: { blog: past(), linkedin: past() } });
const halfPublished = () =>
  makeArticle({
    _id: 'a4',
    id: 'a4',
    title: 'Half out',
    blog: {
      content: 'Blog',
      publishedToWordPress: true,
      lastPublished: past(),
      wordpressPostUrl: 'https://blog.example.com/half-out/',
    },
    scheduled: { blog: past(), linkedin: null },
  });

const card = (title: string) => screen.getByRole('article', { name: title });
const row = (title: string, platform: 'Blog' | 'LinkedIn') =>
  within(card(title)).getByRole('region', { name: platform });
const listRoute = (articles: Article[]): MockRoutes => ({
  'articles.unpublished': { articles },
});

const savedNotice = { ms: timing.noticeMs, fade: timing.noticeFadeMs };
afterEach(() => {
  timing.noticeMs = savedNotice.ms;
  timing.noticeFadeMs = savedNotice.fade;
  vi.useRealTimers();
});

describe('Schedule page: list', () => {
  it('shows the title, a loading state, then one card per unpublished article', async () => {
    const list = deferred<Reply<'articles.unpublished'>>();
    const { requests } = mockApi({ 'articles.unpublished': () => list.promise });
    renderWithProviders(<SchedulePage />, { route: '/schedule' });
    expect(screen.getByRole('heading', { name: 'Article Schedule', level: 1 })).toBeInTheDocument();
    expect(screen.getByText('Loading articles...')).toBeInTheDocument();

    list.resolve({ articles: [notScheduled(), blogScheduled()] });
    expect(await screen.findByRole('article', { name: 'Fresh idea' })).toBeInTheDocument();
    expect(screen.getByRole('article', { name: 'Planned post' })).toBeInTheDocument();
    expect(screen.getAllByRole('article')).toHaveLength(2);
    expect(requests.filter((r) => r.path === '/api/articles/unpublished')[0]).toMatchObject({ credentials: 'include' });

    // Title, created date, keyword and tags.
    const fresh = card('Fresh idea');
    expect(within(fresh).getByText(/^Created/)).toHaveTextContent(/Mar 1, 2025/);
    const tags = within(fresh).getByRole('list', { name: 'Keyword and tags' });
    expect(
      within(tags)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['content automation', 'ai', 'growth']);
  });

  it('Create New Article goes to /create', async () => {
    mockApi(listRoute([notScheduled()]));
    renderWithProviders(<SchedulePage />, { route: '/schedule' });
    await screen.findByRole('article', { name: 'Fresh idea' });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Create New Article' }));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/create$/);
  });

  it('shows the empty state with the Create New Article button', async () => {
    mockApi(listRoute([]));
    renderWithProviders(<SchedulePage />, { route: '/schedule' });
    expect(await screen.findByText('No unpublished articles. Create one to get started.')).toBeInTheDocument();
    // One in the header, one in the empty state.
    expect(screen.getAllByRole('button', { name: 'Create New Article' })).toHaveLength(2);
    expect(screen.queryByRole('article')).not.toBeInTheDocument();
  });

  it('shows "Failed to load unpublished articles" and can try again', async () => {
    let calls = 0;
    mockApi({
      'articles.unpublished': () =>
        ++calls === 1 ? { status: 500, body: { error: 'Boom', message: 'Boom' } } : { articles: [notScheduled()] },
    });
    renderWithProviders(<SchedulePage />, { route: '/schedule' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load unpublished articles');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('article', { name: 'Fresh idea' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('refreshes the list every 15 seconds (refetchInterval 15000)', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { requests } = mockApi(listRoute([notScheduled()]));
    const { queryClient } = renderWithProviders(<SchedulePage />, { route: '/schedule' });
    await screen.findByRole('article', { name: 'Fresh idea' });
    const query = queryClient.getQueryCache().find({ queryKey: articleListKey.unpublished });
    expect(SCHEDULE_REFRESH_MS).toBe(15_000);
    expect((query?.options as { refetchInterval?: unknown }).refetchInterval).toBe(15_000);

    const count = () => requests.filter((r) => r.path === '/api/articles/unpublished').length;
    expect(count()).toBe(1);
    await act(() => vi.advanceTimersByTimeAsync(14_000));
    expect(count()).toBe(1);
    await act(() => vi.advanceTimersByTimeAsync(1_100));
    await waitFor(() => expect(count()).toBe(2));
    await act(() => vi.advanceTimersByTimeAsync(15_000));
    await waitFor(() => expect(count()).toBe(3));
  });
});

describe('Schedule page: card statuses and actions', () => {
  it('labels the overall badge across statuses and shows Edit unless not-scheduled', async () => {
    mockApi(listRoute([notScheduled(), blogScheduled(), contentCreated(), halfPublished()]));
    renderWithProviders(<SchedulePage />, { route: '/schedule' });
    await screen.findByRole('article', { name: 'Fresh idea' });

    const overall = (title: string) => within(card(title)).getByText(/^Overall status:/).parentElement!;
    expect(overall('Fresh idea')).toHaveTextContent('Not Scheduled');
    expect(overall('Planned post')).toHaveTextContent('Scheduled');
    expect(overall('Ready post')).toHaveTextContent('Content Created');
    // Blog published + LinkedIn never scheduled: the shared rule reads "All Content Published".
    expect(overall('Half out')).toHaveTextContent('All Content Published');

    expect(within(card('Fresh idea')).queryByRole('button', { name: /^Edit/ })).not.toBeInTheDocument();
    for (const title of ['Planned post', 'Ready post', 'Half out']) {
      expect(within(card(title)).getByRole('button', { name: `Edit ${title}` })).toBeInTheDocument();
    }

    // Per platform status.
    expect(within(row('Planned post', 'Blog')).getByText('Scheduled')).toBeInTheDocument();
    expect(within(row('Planned post', 'LinkedIn')).getByText('Not Scheduled')).toBeInTheDocument();
    expect(within(row('Ready post', 'LinkedIn')).getByText('Content Created')).toBeInTheDocument();
    expect(within(row('Half out', 'Blog')).getByText('Published')).toBeInTheDocument();
    const view = within(row('Half out', 'Blog')).getByRole('link', { name: /View on WordPress/ });
    expect(view).toHaveAttribute('href', 'https://blog.example.com/half-out/');
    expect(view).toHaveAttribute('target', '_blank');
  });

  it('Edit opens the article in the editor', async () => {
    mockApi(listRoute([blogScheduled()]));
    renderWithProviders(<SchedulePage />, { route: '/schedule' });
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Edit Planned post' }));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/create\?articleId=a2$/);
  });

  it('says what goes out: the blog image beside the title and the first lines of the text', async () => {
    const image = {
      url: '/api/image/preview/a1?platform=blog&t=1',
      linkedinUrl: '/api/image/preview/a1?platform=linkedin&t=1',
      description: 'A calendar',
      generatedAt: '1',
      source: 'generated' as const,
      focalPoint: null,
      original: null,
    };
    const excerpt = 'Small teams plan a month of posts in one sitting, then reuse each idea twice.';
    mockApi(listRoute([{ ...notScheduled(), image, excerpt }, blogScheduled()]));
    renderWithProviders(<SchedulePage />, { route: '/schedule' });
    const fresh = await screen.findByRole('article', { name: 'Fresh idea' });
    const thumb = fresh.querySelector('img.schedule-card__thumb');
    expect(thumb).toHaveAttribute('src', image.url);
    expect(thumb).toHaveAttribute('alt', ''); // beside the title, which names it
    expect(within(fresh).getByText(excerpt)).toBeInTheDocument();
    // Without an image or first lines (an older answer), neither is shown.
    const planned = card('Planned post');
    expect(planned.querySelector('img')).toBeNull();
    expect(planned.querySelector('.schedule-card__excerpt')).toBeNull();
  });

  it("the title opens the article's editor for any unpublished article, not-scheduled ones included (which have no Edit)", async () => {
    mockApi(listRoute([notScheduled(), halfPublished()]));
    renderWithProviders(<SchedulePage />, { route: '/schedule' });
    const fresh = await screen.findByRole('article', { name: 'Fresh idea' });
    expect(within(fresh).queryByRole('button', { name: /^Edit/ })).not.toBeInTheDocument();
    expect(within(card('Half out')).getByRole('link', { name: 'Half out' })).toHaveAttribute(
      'href',
      '/create?articleId=a4',
    );
    await userEvent.setup().click(within(fresh).getByRole('link', { name: 'Fresh idea' }));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/create\?articleId=a1$/);
  });

  it('the title of an article published on both platforms (a calendar card) is not a link', () => {
    const everywhere = {
      ...halfPublished(),
      linkedin: { content: 'l', publishedToLinkedIn: true, lastPublished: past(), linkedinPostUrl: null },
    };
    renderWithProviders(<ArticleCard article={everywhere} now={new Date()} timeZone="UTC" onPublish={vi.fn()} />);
    expect(screen.getByRole('heading', { name: 'Half out' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Half out' })).not.toBeInTheDocument();
  });

  it('shows Publish Now for a platform that is not not-scheduled, else only "Will be processed after scheduling" (and Schedule)', async () => {
    mockApi(listRoute([notScheduled(), blogScheduled(), contentCreated()]));
    renderWithProviders(<SchedulePage />, { route: '/schedule' });
    await screen.findByRole('article', { name: 'Fresh idea' });

    // docs/product.md (Schedule): a not-scheduled platform has no publish button of any kind, only the text and Schedule.
    const noPublish = (r: HTMLElement) => {
      expect(within(r).getByText('Will be processed after scheduling')).toBeInTheDocument();
      expect(within(r).queryByRole('button', { name: /publish/i })).not.toBeInTheDocument();
      expect(
        within(r)
          .getAllByRole('button')
          .map((b) => b.textContent),
      ).toEqual([`Schedule ${r.querySelector('h3')!.textContent}`]);
    };
    for (const platform of ['Blog', 'LinkedIn'] as const) noPublish(row('Fresh idea', platform));
    expect(
      within(row('Planned post', 'Blog')).getByRole('button', { name: 'Publish Now to WordPress' }),
    ).toBeInTheDocument();
    expect(within(row('Planned post', 'Blog')).getByRole('button', { name: 'Reschedule Blog' })).toBeInTheDocument();
    expect(
      within(row('Planned post', 'Blog')).queryByText('Will be processed after scheduling'),
    ).not.toBeInTheDocument();
    noPublish(row('Planned post', 'LinkedIn'));
    expect(
      within(row('Ready post', 'Blog')).getByRole('button', { name: 'Publish Now to WordPress' }),
    ).toBeInTheDocument();
    expect(
      within(row('Ready post', 'LinkedIn')).getByRole('button', { name: 'Publish Now to LinkedIn' }),
    ).toBeInTheDocument();
  });

  it('a published blog can be published again (updates the post); a published LinkedIn post cannot', async () => {
    const linkedinDone = makeArticle({
      _id: 'a5',
      id: 'a5',
      title: 'LinkedIn out',
      linkedin: {
        content: 'l',
        publishedToLinkedIn: true,
        lastPublished: past(),
        linkedinPostUrl: 'https://www.linkedin.com/feed/update/urn:li:share:9/',
      },
      scheduled: { blog: future(), linkedin: past() },
    });
    mockApi(listRoute([halfPublished(), linkedinDone]));
    renderWithProviders(<SchedulePage />, { route: '/schedule' });
    await screen.findByRole('article', { name: 'Half out' });
    expect(
      within(row('Half out', 'Blog')).getByRole('button', { name: 'Publish Now to WordPress again' }),
    ).toBeInTheDocument();
    const li = row('LinkedIn out', 'LinkedIn');
    expect(within(li).getByText('Published')).toBeInTheDocument();
    expect(within(li).queryByRole('button', { name: /Publish/i })).not.toBeInTheDocument();
    expect(within(li).getByRole('link', { name: /View on LinkedIn/ })).toHaveAttribute('target', '_blank');
    // The posting mode no longer matters once LinkedIn is published.
    expect(within(li).getByRole('group', { name: 'LinkedIn posting mode' })).toBeDisabled();
    expect(
      within(row('LinkedIn out', 'Blog')).getByRole('button', { name: 'Publish Now to WordPress' }),
    ).toBeInTheDocument();
  });

  it('insufficient_quota: "Not enough credit" on unpublished platforms with the error as tooltip, and the banner', async () => {
    const quota = { code: 'insufficient_quota', message: 'You exceeded your current quota, please check your plan.' };
    mockApi(
      listRoute([
        { ...halfPublished(), lastError: quota },
        makeArticle({
          _id: 'q2',
          id: 'q2',
          title: 'No message',
          lastError: { code: 'insufficient_quota', message: '' },
        }),
      ]),
    );
    renderWithProviders(<SchedulePage />, { route: '/schedule' });
    await screen.findByRole('article', { name: 'Half out' });

    expect(screen.getByRole('alert')).toHaveTextContent(QUOTA_BANNER);
    const badge = within(row('Half out', 'LinkedIn')).getByText('Not enough credit');
    expect(badge).toHaveAccessibleDescription(quota.message);
    expect(badge).toHaveAttribute('tabindex', '0');
    expect(screen.getAllByRole('tooltip', { hidden: true }).map((t) => t.textContent)).toContain(quota.message);
    // The card's own badge says so too (LinkedIn is unpublished), still opening scheduling.
    const overall = within(card('Half out')).getByRole('button', { name: 'Overall status: Not enough credit' });
    expect(overall).toHaveAccessibleDescription(quota.message);
    expect(overall).toHaveClass('status-badge--danger');
    // The published platform keeps its status.
    expect(within(row('Half out', 'Blog')).getByText('Published')).toBeInTheDocument();
    expect(within(row('Half out', 'Blog')).queryByText('Not enough credit')).not.toBeInTheDocument();
    // Without a message the tooltip falls back.
    expect(within(row('No message', 'Blog')).getByText('Not enough credit')).toHaveAccessibleDescription(
      'OpenAI credits insufficient',
    );
  });

  it('shows no banner without a quota error, and shows another last error on its card', async () => {
    mockApi(
      listRoute([{ ...notScheduled(), lastError: { code: 'publish_failed', message: 'WordPress answered 500.' } }]),
    );
    renderWithProviders(<SchedulePage />, { route: '/schedule' });
    await screen.findByRole('article', { name: 'Fresh idea' });
    expect(screen.queryByText(QUOTA_BANNER)).not.toBeInTheDocument();
    expect(within(card('Fresh idea')).getByText('Last attempt failed: WordPress answered 500.')).toBeInTheDocument();
    expect(within(card('Fresh idea')).queryByRole('link', { name: 'Open Settings' })).not.toBeInTheDocument();
  });

  it('a blog-first bundle says so on its card, and a partial failure names the channel that failed', async () => {
    mockApi(
      listRoute([
        {
          ...blogScheduled(),
          bundle: true,
          lastError: { code: 'publish_partly_failed', message: 'Social: the service answered 500.' },
        },
      ]),
    );
    renderWithProviders(<SchedulePage />, { route: '/schedule' });
    const title = blogScheduled().title;
    await screen.findByRole('article', { name: title });
    expect(
      within(card(title)).getByText('Blog first: the social posts go out after the blog post, with its link.'),
    ).toBeInTheDocument();
    expect(within(card(title)).getByText('Last attempt failed: Social: the service answered 500.')).toBeInTheDocument();
    expect(
      within(card(title)).getByText('Goes out with the blog post’s approval, after it, carrying its link.'),
    ).toBeInTheDocument();
  });

  it('a bundle’s card: a badge per channel (WordPress published, LinkedIn failed with its reason); Retry LinkedIn asks to publish LinkedIn alone', async () => {
    const reason = 'LinkedIn is not available right now (HTTP 503).';
    const bundled = makeArticle({
      ...halfPublished(),
      bundle: true,
      lastError: { code: 'linkedin_unreachable', message: `LinkedIn: ${reason}`, channels: { linkedin: reason } },
    });
    const { requests } = mockApi(listRoute([bundled]));
    renderWithProviders(<SchedulePage />, { route: '/schedule' });
    await screen.findByRole('article', { name: 'Half out' });
    expect(within(row('Half out', 'Blog')).getByText('Published')).toBeInTheDocument();
    const linkedin = row('Half out', 'LinkedIn');
    expect(within(linkedin).getByText('Failed')).toBeInTheDocument();
    expect(within(linkedin).getByText(`LinkedIn failed: ${reason}`)).toBeInTheDocument();
    // The card says some channel failed; the reason is on the channel's row only.
    expect(within(card('Half out')).getByText('Partly failed')).toBeInTheDocument();
    expect(within(card('Half out')).queryByText(/^Last attempt failed/)).not.toBeInTheDocument();
    expect(within(linkedin).queryByRole('button', { name: /^Schedule/ })).not.toBeInTheDocument();

    await userEvent.setup().click(within(linkedin).getByRole('button', { name: 'Retry LinkedIn' }));
    expect(await screen.findByRole('dialog', { name: 'Publish to LinkedIn now?' })).toBeInTheDocument();
    expect(requests.filter((r) => r.route === 'linkedin.publish')).toHaveLength(0);
  });

  it('a bundle’s social row waits for the blog post: the badge Waiting', async () => {
    mockApi(listRoute([{ ...blogScheduled(), bundle: true }]));
    renderWithProviders(<SchedulePage />, { route: '/schedule' });
    const title = blogScheduled().title;
    await screen.findByRole('article', { name: title });
    expect(within(row(title, 'LinkedIn')).getByText('Waiting')).toBeInTheDocument();
  });

  it('links to Settings when the approval e-mail could not be sent', async () => {
    const message = 'The approval e-mail could not be sent: reconnect Gmail in Settings.';
    mockApi(listRoute([{ ...notScheduled(), lastError: { code: 'email_failed', message } }]));
    renderWithProviders(<SchedulePage />, { route: '/schedule' });
    await screen.findByRole('article', { name: 'Fresh idea' });
    expect(
      within(card('Fresh idea')).getByText(`Last attempt failed: ${message}`, { exact: false }),
    ).toBeInTheDocument();
    expect(within(card('Fresh idea')).getByRole('link', { name: 'Open Settings' })).toHaveAttribute(
      'href',
      '/settings',
    );
  });
});

describe('Schedule page: connection health', () => {
  it('a card shows what the check before its slot found, each with its fix: Settings or the editor', async () => {
    const article = blogScheduled();
    const slot = article.scheduled.blog!;
    mockApi(
      listRoute([
        {
          ...article,
          health: {
            blog: {
              scheduledFor: slot,
              windows: ['24h'],
              checkedAt: new Date().toISOString(),
              problems: [
                {
                  channel: 'wordpress',
                  code: 'wordpress_wrong_password',
                  message: 'The site refused the password.',
                  fix: 'settings',
                },
                { channel: 'wordpress', code: 'offline_draft_note', message: 'Remove the note.', fix: 'editor' },
              ],
            },
          },
        },
      ]),
    );
    renderWithProviders(<SchedulePage />, { route: '/schedule' });
    await screen.findByRole('article', { name: 'Planned post' });
    const first = within(card('Planned post')).getByText('Needs attention: The site refused the password.', {
      exact: false,
    });
    expect(within(first).getByRole('link', { name: 'Open Settings' })).toHaveAttribute('href', '/settings');
    const second = within(card('Planned post')).getByText('Needs attention: Remove the note.', { exact: false });
    expect(within(second).getByRole('link', { name: 'Open the editor' })).toHaveAttribute(
      'href',
      '/create?articleId=a2',
    );
  });

  it('a note keyed by a channel’s own version shows on the card as the versions’ do', async () => {
    const article = blogScheduled();
    const slot = article.scheduled.blog!;
    // A channel with a version of its own, from the registry (no channel is named outside its folder).
    const own = ownVersionChannels()[0]!;
    const problem = {
      channel: own.id,
      code: `${own.id}_text_too_long`,
      message: `The ${own.label} version is too long.`,
      fix: 'editor' as const,
    };
    mockApi(
      listRoute([
        {
          ...article,
          health: { [own.id]: { scheduledFor: slot, windows: ['1h'], checkedAt: slot, problems: [problem] } },
        },
      ]),
    );
    renderWithProviders(<SchedulePage />, { route: '/schedule' });
    await screen.findByRole('article', { name: 'Planned post' });
    const note = within(card('Planned post')).getByText(`Needs attention: The ${own.label} version is too long.`, {
      exact: false,
    });
    expect(within(note).getByRole('link', { name: 'Open the editor' })).toHaveAttribute('href', '/create?articleId=a2');
  });
});

describe('Schedule page: publishing', () => {
  beforeEach(() => {
    timing.noticeMs = 300;
    timing.noticeFadeMs = 30;
  });

  it('a post link that is not http(s) is shown neither in the success message nor on the card', async () => {
    const freshScheduled = () => ({ ...notScheduled(), scheduled: { blog: future(), linkedin: null } });
    const published = {
      ...freshScheduled(),
      blog: {
        ...notScheduled().blog,
        publishedToWordPress: true,
        lastPublished: new Date().toISOString(),
        wordpressPostUrl: 'javascript:alert(1)',
      },
    };
    let listCalls = 0;
    mockApi({
      'articles.unpublished': () => ({ articles: [++listCalls === 1 ? freshScheduled() : published] }),
      'wordpress.publish': {
        success: true,
        post: { link: 'javascript:alert(1)' },
        article: published,
        message: 'Successfully published to WordPress!',
      },
    });
    const { container } = renderWithProviders(<SchedulePage />, { route: '/schedule' });
    const user = userEvent.setup();
    await user.click(
      within(await screen.findByRole('region', { name: 'Blog' })).getByRole('button', {
        name: 'Publish Now to WordPress',
      }),
    );
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Confirm' }));
    const message = await screen.findByText('Successfully published to WordPress!');
    expect(within(message).queryByRole('link')).not.toBeInTheDocument();
    expect(within(row('Fresh idea', 'Blog')).getAllByText('Published').length).toBeGreaterThan(0);
    expect(screen.queryByRole('link', { name: /View on WordPress/ })).not.toBeInTheDocument();
    expect(container.querySelector('[href^="javascript" i]')).toBeNull();
  });

  it('confirm → POST /api/wordpress/publish/{id} → "Successfully published to WordPress!" with View on WordPress, which hides after a while', async () => {
    const publish = deferred<Reply<'wordpress.publish'>>();
    // Publish Now exists once the platform is scheduled (docs/product.md, Schedule).
    const freshScheduled = () => ({ ...notScheduled(), scheduled: { blog: future(), linkedin: null } });
    const published = {
      ...freshScheduled(),
      blog: {
        ...notScheduled().blog,
        publishedToWordPress: true,
        lastPublished: new Date().toISOString(),
        wordpressPostUrl: 'https://blog.example.com/fresh-idea/',
      },
    };
    let listCalls = 0;
    const { requests } = mockApi({
      'articles.unpublished': () => ({ articles: [++listCalls === 1 ? freshScheduled() : published] }),
      'wordpress.publish': () => publish.promise,
    });
    renderWithProviders(<SchedulePage />, { route: '/schedule' });
    const user = userEvent.setup();
    await user.click(
      within(await screen.findByRole('region', { name: 'Blog' })).getByRole('button', {
        name: 'Publish Now to WordPress',
      }),
    );

    const dialog = screen.getByRole('dialog', { name: 'Publish to WordPress now?' });
    expect(within(dialog).getByText('Fresh idea')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));

    const busy = within(dialog).getByRole('button', { name: /Publishing\.\.\./ });
    expect(busy).toBeDisabled();
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeDisabled();
    expect(requests.find((r) => r.method === 'POST')).toMatchObject({
      path: '/api/wordpress/publish/a1',
      credentials: 'include',
    });

    publish.resolve({
      success: true,
      post: { link: 'https://blog.example.com/fresh-idea/' },
      article: published,
      message: 'Successfully published to WordPress!',
    });
    const message = await screen.findByText('Successfully published to WordPress!');
    const link = within(message).getByRole('link', { name: /View on WordPress/ });
    expect(link).toHaveAttribute('href', 'https://blog.example.com/fresh-idea/');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link.getAttribute('rel')).toContain('noopener');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    // The card shows the new state at once, and the list is fetched again.
    expect(within(row('Fresh idea', 'Blog')).getByText('Published')).toBeInTheDocument();
    await waitFor(() => expect(listCalls).toBeGreaterThanOrEqual(2));

    // docs/product.md (Schedule): inline notifications hide after a while with a fade (shortened here).
    await waitFor(() => expect(screen.queryByText('Successfully published to WordPress!')).not.toBeInTheDocument());
  });

  it('Cancel closes the confirmation without publishing', async () => {
    const { requests } = mockApi(listRoute([blogScheduled()]));
    renderWithProviders(<SchedulePage />, { route: '/schedule' });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Publish Now to WordPress' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(requests.some((r) => r.method === 'POST')).toBe(false);
  });

  it('shows "Error publishing blog content: {message}" in the confirmation and keeps it open', async () => {
    mockApi({
      ...listRoute([blogScheduled()]),
      'wordpress.publish': {
        status: 502,
        body: {
          error: 'x',
          message: 'WordPress refused the upload: the file is too large.',
          code: 'wordpress_upload_failed',
        },
      },
    });
    renderWithProviders(<SchedulePage />, { route: '/schedule' });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Publish Now to WordPress' }));
    const dialog = screen.getByRole('dialog', { name: 'Publish to WordPress now?' });
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Error publishing blog content: WordPress refused the upload: the file is too large.',
    );
    expect(within(dialog).getByRole('button', { name: 'Try again' })).toBeEnabled();
    expect(screen.queryByText('Successfully published to WordPress!')).not.toBeInTheDocument();
  });

  it('falls back to "Failed to publish to WordPress" when the server gives no message', async () => {
    mockApi({
      ...listRoute([blogScheduled()]),
      'wordpress.publish': () => Promise.reject(new TypeError('Failed to fetch')),
    });
    renderWithProviders(<SchedulePage />, { route: '/schedule' });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Publish Now to WordPress' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Error publishing blog content: Failed to publish to WordPress',
    );
  });

  it('a WordPress that is not connected links to Settings', async () => {
    mockApi({
      ...listRoute([blogScheduled()]),
      'wordpress.publish': {
        status: 400,
        body: {
          error: 'Connect WordPress in Settings first (WordPress Integration).',
          message: 'Connect WordPress in Settings first (WordPress Integration).',
          code: 'wordpress_not_connected',
        },
      },
    });
    renderWithProviders(<SchedulePage />, { route: '/schedule' });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Publish Now to WordPress' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Confirm' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Error publishing blog content: Connect WordPress in Settings first');
    expect(within(alert).getByRole('link', { name: 'Connect WordPress in Settings' })).toHaveAttribute(
      'href',
      '/settings',
    );
  });

  it('LinkedIn: success shows View on LinkedIn; linkedin_token_invalid says to reconnect in Settings', async () => {
    let attempt = 0;
    const { requests } = mockApi({
      ...listRoute([contentCreated()]),
      'linkedin.publish': () =>
        ++attempt === 1
          ? {
              status: 502,
              body: {
                error: 'LinkedIn did not accept the access token.',
                message: 'LinkedIn did not accept the access token.',
                code: 'linkedin_token_invalid',
              },
            }
          : {
              success: true,
              post: { url: 'https://www.linkedin.com/feed/update/urn:li:share:1/' },
              article: contentCreated(),
              message: 'Successfully published to LinkedIn!',
            },
    });
    renderWithProviders(<SchedulePage />, { route: '/schedule' });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Publish Now to LinkedIn' }));
    const dialog = screen.getByRole('dialog', { name: 'Publish to LinkedIn now?' });
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('Error publishing LinkedIn content: LinkedIn did not accept the access token.');
    expect(within(alert).getByRole('link', { name: 'Reconnect LinkedIn in Settings' })).toHaveAttribute(
      'href',
      '/settings',
    );

    await user.click(within(dialog).getByRole('button', { name: 'Try again' }));
    const message = await screen.findByText('Successfully published to LinkedIn!');
    const link = within(message).getByRole('link', { name: /View on LinkedIn/ });
    expect(link).toHaveAttribute('href', 'https://www.linkedin.com/feed/update/urn:li:share:1/');
    expect(link).toHaveAttribute('target', '_blank');
    expect(requests.filter((r) => r.path === '/api/linkedin/publish/a3')).toHaveLength(2);
  });

  it('the Settings link of linkedin_token_invalid goes to /settings', async () => {
    mockApi({
      ...listRoute([contentCreated()]),
      'linkedin.publish': {
        status: 502,
        body: { error: 'Token invalid', message: 'Token invalid', code: 'linkedin_token_invalid' },
      },
    });
    renderWithProviders(<SchedulePage />, { route: '/schedule' });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Publish Now to LinkedIn' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Confirm' }));
    await user.click(await screen.findByRole('link', { name: 'Reconnect LinkedIn in Settings' }));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/settings$/);
  });

  it('an article published everywhere keeps its card for the visit: View on LinkedIn there, after the notice and the list refresh', async () => {
    timing.noticeMs = 30;
    timing.noticeFadeMs = 10;
    // LinkedIn is scheduled, so it has Publish Now (docs/product.md, Schedule).
    const half = () => ({ ...halfPublished(), scheduled: { blog: past(), linkedin: future() } });
    const done = {
      ...half(),
      linkedin: {
        content: 'x',
        publishedToLinkedIn: true,
        lastPublished: new Date().toISOString(),
        linkedinPostUrl: 'https://www.linkedin.com/feed/update/urn:li:share:1',
      },
    };
    let listCalls = 0;
    const { requests } = mockApi({
      // After the publish the server lists only what is still unpublished.
      'articles.unpublished': () => ({
        articles: ++listCalls === 1 ? [notScheduled(), half(), blogScheduled()] : [notScheduled(), blogScheduled()],
      }),
      'linkedin.publish': {
        success: true,
        post: { url: 'https://www.linkedin.com/feed/update/urn:li:share:1' },
        article: done,
        message: 'Successfully published to LinkedIn!',
      },
    });
    const page = renderWithProviders(<SchedulePage />, { route: '/schedule' });
    const user = userEvent.setup();
    await user.click(
      within(await screen.findByRole('article', { name: 'Half out' })).getByRole('button', {
        name: 'Publish Now to LinkedIn',
      }),
    );
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Confirm' }));
    const notice = await screen.findByText('Successfully published to LinkedIn!');
    expect(within(notice).getByRole('link', { name: /View on LinkedIn/ })).toHaveAttribute(
      'href',
      'https://www.linkedin.com/feed/update/urn:li:share:1',
    );

    // The notice goes and the list is read again without it: the card stays, in its place, with the post's link.
    await waitFor(() => expect(screen.queryByText('Successfully published to LinkedIn!')).not.toBeInTheDocument());
    await waitFor(() =>
      expect(requests.filter((r) => r.path === '/api/articles/unpublished').length).toBeGreaterThan(1),
    );
    expect(screen.getAllByRole('article').map((a) => a.querySelector('h2')!.textContent)).toEqual([
      'Fresh idea',
      'Half out',
      'Planned post',
    ]);
    const linkedin = row('Half out', 'LinkedIn');
    expect(within(linkedin).getByText('Published', { exact: true })).toBeInTheDocument();
    const link = within(linkedin).getByRole('link', { name: /View on LinkedIn/ });
    expect(link).toHaveAttribute('href', 'https://www.linkedin.com/feed/update/urn:li:share:1');
    expect(link).toHaveAttribute('target', '_blank');
    expect(within(row('Half out', 'Blog')).getByRole('link', { name: /View on WordPress/ })).toBeInTheDocument();
    expect(
      within(card('Half out')).getByText(/^Published on WordPress and LinkedIn: this article now lives in History\./),
    ).toBeInTheDocument();
    expect(within(card('Half out')).getByRole('link', { name: 'Open History' })).toHaveAttribute('href', '/history');
    expect(within(card('Half out')).getByText('All Content Published')).toBeInTheDocument();

    // Coming back to the page later, it is no longer listed (the list holds what is unpublished).
    page.unmount();
    renderWithProviders(<SchedulePage />, { route: '/schedule' });
    await screen.findByRole('article', { name: 'Fresh idea' });
    expect(screen.queryByRole('article', { name: 'Half out' })).not.toBeInTheDocument();
  });
});

describe('Schedule page: LinkedIn posting mode', () => {
  it('POSTs the chosen mode and toasts the server message', async () => {
    const { requests } = mockApi({
      ...listRoute([notScheduled()]),
      'linkedin.setPostingMode': ({ body }) => ({
        success: true,
        mode: body.mode,
        message:
          body.mode === 'company'
            ? 'LinkedIn posting mode set to Business Page'
            : 'LinkedIn posting mode set to Personal Profile',
      }),
    });
    renderWithProviders(<SchedulePage />, { route: '/schedule' });
    const user = userEvent.setup();
    const group = await screen.findByRole('group', { name: 'LinkedIn posting mode' });
    expect(within(group).getByRole('radio', { name: 'Personal Profile' })).toBeChecked();

    await user.click(within(group).getByRole('radio', { name: 'Business Page' }));
    expect(await screen.findByText('LinkedIn posting mode set to Business Page')).toBeInTheDocument();
    expect(within(group).getByRole('radio', { name: 'Business Page' })).toBeChecked();
    expect(requests.filter((r) => r.method === 'POST')).toEqual([
      expect.objectContaining({
        path: '/api/linkedin/article/a1/posting-mode',
        body: { mode: 'company' },
        credentials: 'include',
      }),
    ]);

    await user.click(within(group).getByRole('radio', { name: 'Personal Profile' }));
    expect(await screen.findByText('LinkedIn posting mode set to Personal Profile')).toBeInTheDocument();
    expect(within(group).getByRole('radio', { name: 'Personal Profile' })).toBeChecked();
  });

  it("starts from the article's saved mode", async () => {
    mockApi(listRoute([{ ...notScheduled(), linkedInMode: 'company' }]));
    renderWithProviders(<SchedulePage />, { route: '/schedule' });
    expect(await screen.findByRole('radio', { name: 'Business Page' })).toBeChecked();
  });

  it('shows "Error updating LinkedIn mode: {message}" and puts the choice back', async () => {
    mockApi({
      ...listRoute([notScheduled()]),
      'linkedin.setPostingMode': {
        status: 400,
        body: {
          error: 'Valid mode (personal or company) is required',
          message: 'Valid mode (personal or company) is required',
        },
      },
    });
    renderWithProviders(<SchedulePage />, { route: '/schedule' });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('radio', { name: 'Business Page' }));
    expect(
      await screen.findByText('Error updating LinkedIn mode: Valid mode (personal or company) is required'),
    ).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Personal Profile' })).toBeChecked();
  });
});

describe('ArticleCard extension point for scheduling', () => {
  it('without onSchedule the badge is plain text; with it the badge and a Schedule button open scheduling', async () => {
    const onSchedule = vi.fn();
    const props = { article: notScheduled(), now: new Date(), timeZone: 'UTC', onPublish: vi.fn() };
    const { rerender } = renderWithProviders(<ArticleCard {...props} />);
    expect(screen.queryByRole('button', { name: /Overall status/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Schedule/ })).not.toBeInTheDocument();

    rerender(<ArticleCard {...props} onSchedule={onSchedule} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Overall status: Not Scheduled' }));
    expect(onSchedule).toHaveBeenLastCalledWith(props.article, ['blog', 'linkedin']);
    await user.click(screen.getByRole('button', { name: 'Schedule LinkedIn' }));
    expect(onSchedule).toHaveBeenLastCalledWith(props.article, ['linkedin']);
  });
});

describe('ArticleCard overall badge when AI credit ran out', () => {
  const quota = { code: 'insufficient_quota', message: 'You exceeded your current quota, please check your plan.' };
  const overallButton = () => screen.getByRole('button', { name: /^Overall status:/ });

  it('reads "Not enough credit" (danger, error as tooltip) and still opens scheduling for both platforms', async () => {
    const onSchedule = vi.fn();
    const article = { ...blogScheduled(), lastError: quota };
    renderWithProviders(
      <ArticleCard article={article} now={new Date()} timeZone="UTC" onPublish={vi.fn()} onSchedule={onSchedule} />,
    );
    const badge = overallButton();
    expect(badge).toHaveAccessibleName('Overall status: Not enough credit');
    expect(badge).toHaveAccessibleDescription(quota.message);
    expect(badge).toHaveClass('status-badge--danger');
    expect(badge).not.toHaveTextContent('Scheduled');
    await userEvent.setup().click(badge);
    expect(onSchedule).toHaveBeenLastCalledWith(article, ['blog', 'linkedin']);
  });

  it('falls back to "OpenAI credits insufficient" without a message; plain text without onSchedule', () => {
    renderWithProviders(
      <ArticleCard
        article={{ ...notScheduled(), lastError: { code: 'insufficient_quota', message: '' } }}
        now={new Date()}
        timeZone="UTC"
        onPublish={vi.fn()}
      />,
    );
    const label = screen.getByText(/^Overall status:/).parentElement!;
    expect(label).toHaveTextContent('Overall status: Not enough credit');
    expect(label).toHaveAccessibleDescription('OpenAI credits insufficient');
    expect(label).toHaveAttribute('tabindex', '0');
    expect(screen.queryByRole('button', { name: /^Overall status:/ })).not.toBeInTheDocument();
  });

  it('is unchanged for another error, or when every platform is published', () => {
    const { rerender } = renderWithProviders(
      <ArticleCard
        article={{ ...blogScheduled(), lastError: { code: 'publish_failed', message: 'WordPress answered 500.' } }}
        now={new Date()}
        timeZone="UTC"
        onPublish={vi.fn()}
        onSchedule={vi.fn()}
      />,
    );
    expect(overallButton()).toHaveAccessibleName('Overall status: Scheduled');
    expect(overallButton()).not.toHaveAccessibleDescription();
    expect(overallButton()).toHaveClass('status-badge--accent');

    const everywhere = {
      ...halfPublished(),
      linkedin: { content: 'l', publishedToLinkedIn: true, lastPublished: past(), linkedinPostUrl: 'https://li/2' },
      lastError: quota,
    };
    rerender(
      <ArticleCard article={everywhere} now={new Date()} timeZone="UTC" onPublish={vi.fn()} onSchedule={vi.fn()} />,
    );
    // Nothing is left to schedule, so the badge is plain text rather than a button.
    expect(screen.getByText(/^Overall status:/).parentElement).toHaveTextContent(
      'Overall status: All Content Published',
    );
    expect(screen.queryByRole('button', { name: /^Overall status:/ })).not.toBeInTheDocument();
    expect(screen.queryByText('Not enough credit')).not.toBeInTheDocument();
  });
});

describe('Schedule page: scheduling', () => {
  /** The server's answer to PUT /api/articles/{id}/schedule: the article with that platform's time. */
  function scheduling(start: Article) {
    let current = start;
    const routes: MockRoutes = {
      'articles.unpublished': () => ({ articles: [current] }),
      'schedule.set': ({ body: { platform, datetime } }) => {
        current = { ...current, scheduled: { ...current.scheduled, [platform]: datetime } };
        return { success: true, article: current, scheduledFor: datetime };
      },
    };
    return routes;
  }

  it('the badge opens the schedule modal for both platforms; scheduling turns the badge to Scheduled with each time shown', async () => {
    const { requests } = mockApi(scheduling(notScheduled()));
    renderWithProviders(<SchedulePage />, { route: '/schedule' });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Overall status: Not Scheduled' }));
    const dialog = await screen.findByRole('dialog', { name: 'Schedule blog and LinkedIn' });
    expect(within(dialog).getByText('Fresh idea')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Schedule' }));

    expect(
      await screen.findByText(/^Successfully scheduled blog and LinkedIn for .+ \d{2}:\d{2} \S+$/),
    ).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const puts = requests.filter((r) => r.method === 'PUT');
    expect(puts.map((r) => (r.body as { platform: string }).platform)).toEqual(['blog', 'linkedin']);
    const at = (puts[0]!.body as { datetime: string }).datetime;
    expect((puts[1]!.body as { datetime: string }).datetime).toBe(at);
    // One hour ahead (rounded up to 5 minutes) by default.
    const ahead = Date.parse(at) - Date.now();
    expect(ahead).toBeGreaterThan(55 * 60_000);
    expect(ahead).toBeLessThanOrEqual(65 * 60_000);

    expect(await screen.findByRole('button', { name: 'Overall status: Scheduled' })).toBeInTheDocument();
    for (const platform of ['Blog', 'LinkedIn'] as const) {
      const r = row('Fresh idea', platform);
      expect(within(r).getByText(/^Scheduled for/)).toBeInTheDocument();
      expect(within(r).getByRole('button', { name: /^Publish Now/ })).toBeInTheDocument();
      expect(within(r).getByRole('button', { name: `Reschedule ${platform}` })).toBeInTheDocument();
      expect(r.querySelector('time')).toHaveAttribute('dateTime', at);
    }
    // Edit still goes to the editor.
    await user.click(screen.getByRole('button', { name: 'Edit Fresh idea' }));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/create\?articleId=a1$/);
  });

  it('with the blog already published, the badge opens the modal for LinkedIn only and sends only its PUT', async () => {
    const { requests } = mockApi(scheduling(halfPublished()));
    renderWithProviders(<SchedulePage />, { route: '/schedule' });
    const user = userEvent.setup();
    await user.click(
      await within(await screen.findByRole('article', { name: 'Half out' })).findByRole('button', {
        name: /^Overall status:/,
      }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Schedule LinkedIn' });
    await user.click(within(dialog).getByRole('button', { name: 'Schedule' }));
    expect(await screen.findByText(/^Successfully scheduled LinkedIn for /)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(requests.filter((r) => r.method === 'PUT').map((r) => r.body)).toEqual([
      expect.objectContaining({ platform: 'linkedin' }),
    ]);
  });

  it("a platform row's Schedule button schedules that platform only", async () => {
    const { requests } = mockApi(scheduling(notScheduled()));
    renderWithProviders(<SchedulePage />, { route: '/schedule' });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Schedule LinkedIn' }));
    const dialog = await screen.findByRole('dialog', { name: 'Schedule LinkedIn' });
    await user.click(within(dialog).getByRole('button', { name: 'Schedule' }));
    expect(await screen.findByText(/^Successfully scheduled LinkedIn for /)).toBeInTheDocument();
    expect(requests.filter((r) => r.method === 'PUT').map((r) => r.body)).toEqual([
      expect.objectContaining({ platform: 'linkedin' }),
    ]);
    await waitFor(() => expect(within(row('Fresh idea', 'LinkedIn')).getByText(/^Scheduled for/)).toBeInTheDocument());
    expect(within(row('Fresh idea', 'Blog')).getByText('Will be processed after scheduling')).toBeInTheDocument();
  });

  it('Cancel closes the modal without a call', async () => {
    const { requests } = mockApi(scheduling(notScheduled()));
    renderWithProviders(<SchedulePage />, { route: '/schedule' });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Schedule Blog' }));
    const dialog = await screen.findByRole('dialog', { name: 'Schedule Blog' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(requests.filter((r) => r.method === 'PUT')).toHaveLength(0);
  });
});
