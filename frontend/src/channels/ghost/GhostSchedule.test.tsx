import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Article, ChannelConnectionAnswer } from '@app/shared';
import SchedulePage from '../../pages/Schedule';
import { historyRows } from '../../pages/History';
import { makeArticle } from '../../test/articles';
import { mockApi, renderWithProviders } from '../../test/utils';

const connected = (yes: boolean): ChannelConnectionAnswer => ({
  success: true,
  channel: 'ghost',
  connected: yes,
  fields: { siteUrl: yes ? 'https://news.example.com' : null, adminApiKey: null },
  updatedAt: null,
});
const article = () =>
  makeArticle({
    _id: 'g1',
    id: 'g1',
    title: 'Ghost bound',
    blog: {
      content: '# Ghost bound\n\nHello.',
      publishedToWordPress: false,
      lastPublished: null,
      wordpressPostUrl: null,
    },
    scheduled: { blog: new Date(Date.now() + 3600_000).toISOString(), linkedin: null },
  });
const POST_URL = 'https://news.example.com/ghost-bound/';
const posted = (a: Article): Article => ({
  ...a,
  posts: { ghost: { id: '65f0', url: POST_URL, publishedAt: '2026-01-02T10:00:00.000Z' } },
});

const card = () => screen.getByRole('article', { name: 'Ghost bound' });

describe('Ghost on the Schedule card and in History', () => {
  it('connected: its own row, Publish Now through the confirmation, then "View on Ghost" in the notice and the row', async () => {
    let done = false;
    const { requests } = mockApi({
      'articles.unpublished': () => ({ articles: [done ? posted(article()) : article()] }),
      'channels.status': connected(true),
      'channels.publish': () => {
        done = true;
        return { success: true, post: { url: POST_URL }, article: posted(article()), message: 'Published to Ghost' };
      },
    });
    renderWithProviders(<SchedulePage />, { route: '/schedule' });
    const user = userEvent.setup();
    const row = await within(await screen.findByRole('article', { name: 'Ghost bound' })).findByRole('region', {
      name: 'Ghost',
    });
    expect(within(row).getByText('Not published')).toBeInTheDocument();
    await user.click(within(row).getByRole('button', { name: 'Publish Now to Ghost' }));

    const dialog = screen.getByRole('dialog', { name: 'Publish to Ghost now?' });
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(requests.filter((r) => r.route === 'channels.publish').map((r) => r.params)).toEqual([
      { channel: 'ghost', id: 'g1' },
    ]);

    const message = await screen.findByText('Published to Ghost');
    expect(within(message).getByRole('link', { name: /View on Ghost/ })).toHaveAttribute('href', POST_URL);
    const after = within(card()).getByRole('region', { name: 'Ghost' });
    expect(within(after).getByText('Published', { exact: true })).toBeInTheDocument();
    expect(within(after).getByRole('link', { name: /View on Ghost/ })).toHaveAttribute('href', POST_URL);
    expect(within(after).queryByRole('button', { name: /Publish Now/ })).not.toBeInTheDocument();
    // The WordPress row is untouched: Ghost's post is its own.
    expect(within(card()).getByRole('region', { name: 'Blog' })).toBeInTheDocument();
  });

  it('the blog version not scheduled: no Publish Now yet, as on its own row', async () => {
    mockApi({
      'articles.unpublished': { articles: [{ ...article(), scheduled: { blog: null, linkedin: null } }] },
      'channels.status': connected(true),
    });
    renderWithProviders(<SchedulePage />, { route: '/schedule' });
    const row = await within(await screen.findByRole('article', { name: 'Ghost bound' })).findByRole('region', {
      name: 'Ghost',
    });
    expect(within(row).getByText('Will be processed after scheduling')).toBeInTheDocument();
    expect(within(row).queryByRole('button', { name: /Publish Now/ })).not.toBeInTheDocument();
  });

  it('not connected: no Ghost row', async () => {
    mockApi({ 'articles.unpublished': { articles: [article()] }, 'channels.status': connected(false) });
    renderWithProviders(<SchedulePage />, { route: '/schedule' });
    await screen.findByRole('article', { name: 'Ghost bound' });
    await within(card()).findByRole('region', { name: 'Blog' });
    expect(within(card()).queryByRole('region', { name: 'Ghost' })).not.toBeInTheDocument();
  });

  it('a Ghost-only owner (WordPress and LinkedIn not connected) schedules the blog version from its Schedule modal', async () => {
    const { requests } = mockApi({
      'articles.unpublished': { articles: [{ ...article(), scheduled: { blog: null, linkedin: null } }] },
      'channels.status': connected(true),
      'wordpress.status': { configured: false, hasCredentials: false } as never,
      'linkedin.status': { connected: false } as never,
      'schedule.set': (request) =>
        ({
          success: true,
          article: { ...article(), scheduled: { blog: request.body!.datetime, linkedin: null } },
        }) as never,
    });
    renderWithProviders(<SchedulePage />, { route: '/schedule' });
    const user = userEvent.setup();
    const blog = await within(await screen.findByRole('article', { name: 'Ghost bound' })).findByRole('region', {
      name: 'Blog',
    });
    await user.click(within(blog).getByRole('button', { name: /^Schedule/ }));
    const dialog = await screen.findByRole('dialog', { name: /^Schedule/ });
    await user.click(within(dialog).getByRole('button', { name: /^Schedule$/ }));
    await waitFor(() => expect(requests.filter((r) => r.route === 'schedule.set')).toHaveLength(1));
    expect(requests.find((r) => r.route === 'schedule.set')!.body).toMatchObject({ platform: 'blog' });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByText(/^Successfully scheduled blog for /)).toBeInTheDocument();
  });

  it('History: a row for the Ghost post with its address', () => {
    const rows = historyRows([posted(article())]);
    expect(rows).toEqual([
      expect.objectContaining({ platform: 'Ghost', url: POST_URL, publishedAt: '2026-01-02T10:00:00.000Z' }),
    ]);
  });
});
