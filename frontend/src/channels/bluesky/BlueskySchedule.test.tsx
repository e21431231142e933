import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Article, ChannelConnectionAnswer } from '@app/shared';
import SchedulePage from '../../pages/Schedule';
import { historyRows } from '../../pages/History';
import { makeArticle } from '../../test/articles';
import { mockApi, renderWithProviders, type MockRequest } from '../../test/utils';

const status = (channel: string, connected: boolean): ChannelConnectionAnswer => ({
  success: true,
  channel,
  connected,
  fields: connected && channel === 'bluesky' ? { handle: 'alice.test' } : {},
  updatedAt: null,
});
/** Bluesky connected, the other channels of the generic routes not. */
const onlyBluesky = (request: MockRequest<'channels.status'>) =>
  status(request.params.channel!, request.params.channel === 'bluesky');

const article = () =>
  makeArticle({
    _id: 'b1',
    id: 'b1',
    title: 'Skyward',
    scheduled: { blog: new Date(Date.now() + 3600_000).toISOString(), linkedin: null },
    versions: { bluesky: { content: 'Up we go #sky' } },
  });
const POST_URL = 'https://bsky.app/profile/did:plc:abc/post/3kabc';
const posted = (a: Article): Article => ({
  ...a,
  posts: {
    bluesky: {
      id: 'at://did:plc:abc/app.bsky.feed.post/3kabc',
      url: POST_URL,
      publishedAt: '2026-01-02T10:00:00.000Z',
    },
  },
});
const card = () => screen.getByRole('article', { name: 'Skyward' });
const blueskyRow = async () =>
  within(await screen.findByRole('article', { name: 'Skyward' })).findByRole('region', { name: 'Bluesky' });

describe('Bluesky on the Schedule card and in History', () => {
  it('its own row: not scheduled, it offers Schedule, whose modal schedules the Bluesky version alone', async () => {
    const { requests } = mockApi({
      'articles.unpublished': { articles: [article()] },
      'channels.status': onlyBluesky,
      'schedule.set': ({ body }) => ({
        success: true,
        article: { ...article(), scheduled: { ...article().scheduled, [body.platform]: body.datetime } },
        scheduledFor: body.datetime,
      }),
    });
    renderWithProviders(<SchedulePage />, { route: '/schedule' });
    const user = userEvent.setup();
    const row = await blueskyRow();
    expect(within(row).getByText('Not Scheduled')).toBeInTheDocument();
    // As the blog's and LinkedIn's rows: no Publish Now before it is scheduled.
    expect(within(row).queryByRole('button', { name: /Publish Now/ })).not.toBeInTheDocument();
    await user.click(within(row).getByRole('button', { name: 'Schedule Bluesky' }));

    const dialog = await screen.findByRole('dialog', { name: 'Schedule Bluesky' });
    expect(within(dialog).getByText(/The Bluesky version goes out at this time\./)).toBeInTheDocument();
    // The blog-first choice belongs to the blog version's schedule.
    expect(within(dialog).queryByRole('checkbox')).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Schedule' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const sent = requests.filter((r) => r.route === 'schedule.set');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.params).toEqual({ id: 'b1' });
    expect(sent[0]!.body).toMatchObject({ platform: 'bluesky' });
    expect(await screen.findByText(/^Successfully scheduled Bluesky for /)).toBeInTheDocument();
  });

  it('a blog-first bundle: the row waits for the blog post (no Publish Now); failed, its reason and Retry Bluesky', async () => {
    const reason = 'Bluesky is not reachable right now.';
    let failed = false;
    mockApi({
      'articles.unpublished': () => ({
        articles: [
          {
            ...article(),
            bundle: true,
            ...(failed
              ? { lastError: { code: 'bluesky_unreachable', message: reason, channels: { bluesky: reason } } }
              : {}),
          },
        ],
      }),
      'channels.status': onlyBluesky,
    });
    const { unmount } = renderWithProviders(<SchedulePage />, { route: '/schedule' });
    let row = await blueskyRow();
    await within(row).findByText('Waiting');
    expect(within(row).queryByRole('button', { name: /Publish Now/ })).not.toBeInTheDocument();
    unmount();

    failed = true;
    renderWithProviders(<SchedulePage />, { route: '/schedule' });
    row = await blueskyRow();
    await within(row).findByText('Failed');
    expect(within(row).getByText(`Bluesky failed: ${reason}`)).toBeInTheDocument();
    await userEvent.setup().click(within(row).getByRole('button', { name: 'Retry Bluesky' }));
    expect(await screen.findByRole('dialog', { name: 'Publish to Bluesky now?' })).toBeInTheDocument();
  });

  it('scheduled: its own time, Reschedule and Publish Now with its sentence, then "View on Bluesky"', async () => {
    const at = new Date(Date.now() + 7200_000).toISOString();
    const scheduled = (a: Article): Article => ({ ...a, scheduled: { ...a.scheduled, bluesky: at } });
    let done = false;
    const { requests } = mockApi({
      'articles.unpublished': () => ({ articles: [done ? posted(scheduled(article())) : scheduled(article())] }),
      'channels.status': onlyBluesky,
      'channels.publish': () => {
        done = true;
        return {
          success: true,
          post: { url: POST_URL },
          article: posted(scheduled(article())),
          message: 'Published to Bluesky',
        };
      },
    });
    renderWithProviders(<SchedulePage />, { route: '/schedule' });
    const user = userEvent.setup();
    const row = await blueskyRow();
    expect(within(row).getByText('Scheduled', { exact: true })).toBeInTheDocument();
    expect(
      within(row)
        .getByText(/^Scheduled for/)
        .querySelector('time'),
    ).toHaveAttribute('dateTime', at);
    expect(within(row).getByRole('button', { name: 'Reschedule Bluesky' })).toBeInTheDocument();
    await user.click(within(row).getByRole('button', { name: 'Publish Now to Bluesky' }));

    const dialog = screen.getByRole('dialog', { name: 'Publish to Bluesky now?' });
    expect(within(dialog).getByText(/goes out as a post of your Bluesky account straight away/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(requests.filter((r) => r.route === 'channels.publish').map((r) => r.params)).toEqual([
      { channel: 'bluesky', id: 'b1' },
    ]);

    const message = await screen.findByText('Published to Bluesky');
    expect(within(message).getByRole('link', { name: /View on Bluesky/ })).toHaveAttribute('href', POST_URL);
    const after = within(card()).getByRole('region', { name: 'Bluesky' });
    expect(within(after).getByText('Published', { exact: true })).toBeInTheDocument();
    expect(within(after).getByRole('link', { name: /View on Bluesky/ })).toHaveAttribute('href', POST_URL);
    expect(within(after).queryByRole('button', { name: /Publish Now/ })).not.toBeInTheDocument();
  });

  it('only the Bluesky version scheduled: the card reads Scheduled, with Edit', async () => {
    const a = article();
    const at = new Date(Date.now() + 7200_000).toISOString();
    mockApi({
      'articles.unpublished': { articles: [{ ...a, scheduled: { blog: null, linkedin: null, bluesky: at } }] },
      'channels.status': (request) => status(request.params.channel!, false),
    });
    renderWithProviders(<SchedulePage />, { route: '/schedule' });
    // Kept after a disconnect: its slot shows the row.
    const row = await blueskyRow();
    expect(within(row).getByText('Scheduled', { exact: true })).toBeInTheDocument();
    expect(within(card()).getByRole('button', { name: /Overall status: Scheduled/ })).toBeInTheDocument();
    expect(within(card()).getByRole('button', { name: 'Edit Skyward' })).toBeInTheDocument();
  });

  it('opened with ?articleId=…&schedule=bluesky (its Schedule action on Create): its Schedule modal, once', async () => {
    mockApi({ 'articles.unpublished': { articles: [article()] }, 'channels.status': onlyBluesky });
    renderWithProviders(<SchedulePage />, { route: '/schedule?articleId=b1&schedule=bluesky' });
    const user = userEvent.setup();
    const dialog = await screen.findByRole('dialog', { name: 'Schedule Bluesky' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/schedule$/);
  });

  it("a refusal stays in the dialog in the server's words, naming the Bluesky text", async () => {
    const refusal = 'The Bluesky post is 312 characters long; Bluesky allows 300. Shorten it by 12.';
    const a = article();
    mockApi({
      'articles.unpublished': { articles: [{ ...a, scheduled: { ...a.scheduled, bluesky: a.scheduled.blog } }] },
      'channels.status': onlyBluesky,
      'channels.publish': {
        status: 400,
        body: { error: 'Bad Request', message: refusal, code: 'bluesky_text_too_long' },
      },
    });
    renderWithProviders(<SchedulePage />, { route: '/schedule' });
    const user = userEvent.setup();
    await user.click(within(await blueskyRow()).getByRole('button', { name: 'Publish Now to Bluesky' }));
    const dialog = screen.getByRole('dialog', { name: 'Publish to Bluesky now?' });
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent(`Error publishing Bluesky content: ${refusal}`);
    expect(within(dialog).getByRole('button', { name: 'Try again' })).toBeInTheDocument();
    // The blog version's row is untouched.
    expect(within(card()).getByRole('region', { name: 'Blog' })).toBeInTheDocument();
  });

  it('not connected and never posted: no Bluesky row', async () => {
    mockApi({
      'articles.unpublished': { articles: [article()] },
      'channels.status': (request) => status(request.params.channel!, false),
    });
    renderWithProviders(<SchedulePage />, { route: '/schedule' });
    await within(await screen.findByRole('article', { name: 'Skyward' })).findByRole('region', { name: 'Blog' });
    expect(within(card()).queryByRole('region', { name: 'Bluesky' })).not.toBeInTheDocument();
  });

  it('History: a row for the Bluesky post with its address', () => {
    expect(historyRows([posted(article())])).toEqual([
      expect.objectContaining({ platform: 'Bluesky', url: POST_URL, publishedAt: '2026-01-02T10:00:00.000Z' }),
    ]);
  });
});
