import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Article, ChannelConnectionAnswer } from '@app/shared';
import { blueskyTextProblem } from '@app/shared/channels/bluesky';
import CreatePage from '../../pages/Create';
import { timing } from '../../lib/timing';
import { makeArticle } from '../../test/articles';
import { mockApi, renderWithProviders, type MockRoutes } from '../../test/utils';

const saved = { ...timing };
beforeEach(() => {
  timing.articlePollMs = 20;
  timing.autosaveMs = 20;
});
afterEach(() => {
  Object.assign(timing, saved);
});

const FAMILY = '👨‍👩‍👧‍👦';
const status = (channel: string, connected: boolean): ChannelConnectionAnswer => ({
  success: true,
  channel,
  connected,
  fields: connected ? { handle: 'alice.test' } : {},
  updatedAt: null,
});
const editor = () => screen.getByRole('region', { name: 'Bluesky Post' });

function open(article: Article, connected: boolean, routes: MockRoutes = {}) {
  const api = mockApi({
    'articles.get': { article },
    'channels.status': (request) => status(request.params.channel!, connected && request.params.channel === 'bluesky'),
    ...routes,
  });
  renderWithProviders(<CreatePage />, { route: '/create?articleId=a1' });
  return { ...api, user: userEvent.setup() };
}

describe('the Bluesky editor on the content step', () => {
  it('connected, no Bluesky text yet: an empty editor; the counter counts graphemes (a family is 1); saved as typed', async () => {
    let article = makeArticle();
    const { requests, user } = open(article, true, {
      'articles.get': () => ({ article }),
      'articles.updateVersion': (request) => {
        article = { ...article, versions: { bluesky: { content: request.body.content } } };
        return { success: true, article };
      },
    });
    const text = await screen.findByLabelText('Bluesky text');
    expect(text).toHaveValue('');
    const counter = within(editor()).getByTestId('bluesky-counter');
    expect(counter).toHaveTextContent('0 / 300');

    await user.type(text, `Hi ${FAMILY}`);
    expect(counter).toHaveTextContent('4 / 300');
    expect(await within(editor()).findByText('Saved')).toBeInTheDocument();
    const puts = requests.filter((r) => r.route === 'articles.updateVersion');
    expect(puts.at(-1)).toMatchObject({
      method: 'PUT',
      path: '/api/articles/a1/versions/bluesky',
      params: { id: 'a1', channel: 'bluesky' },
      body: { content: `Hi ${FAMILY}` },
    });
    // The preview follows the text.
    const post = await screen.findByRole('article', { name: 'Bluesky post' });
    expect(within(post).getByText(`Hi ${FAMILY}`)).toBeInTheDocument();
  });

  it('over 300 graphemes: the counter turns red, the reason is announced, saving is blocked', async () => {
    const { requests, user } = open(makeArticle({ versions: { bluesky: { content: 'Short #one' } } }), true);
    const text = await screen.findByLabelText('Bluesky text');
    const counter = within(editor()).getByTestId('bluesky-counter');
    expect(counter).toHaveTextContent('10 / 300');

    fireEvent.change(text, { target: { value: 'x'.repeat(300) } });
    expect(counter).toHaveTextContent('300 / 300');
    expect(counter).not.toHaveClass('is-over');

    const over = `${'x'.repeat(299)}${FAMILY}${FAMILY}`;
    fireEvent.change(text, { target: { value: over } });
    expect(counter).toHaveTextContent('301 / 300');
    expect(counter).toHaveClass('is-over');
    expect(within(editor()).getByRole('alert')).toHaveTextContent(blueskyTextProblem(over)!);
    expect(text).toHaveAttribute('aria-invalid', 'true');
    expect(within(editor()).getByRole('button', { name: 'Save' })).toBeDisabled();
    fireEvent.blur(text);
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Next' }));
    expect(screen.getByLabelText('Bluesky text')).toBeVisible();
    expect(requests.filter((r) => r.route === 'articles.updateVersion')).toHaveLength(0);
  });

  it('not connected: no editor, unless the article has a Bluesky text (written before a disconnect)', async () => {
    open(makeArticle(), false);
    await screen.findByLabelText('Blog content');
    await waitFor(() =>
      expect(screen.getAllByRole('region').some((r) => r.getAttribute('aria-label') === 'Bluesky Post')).toBe(false),
    );
    expect(screen.queryByLabelText('Bluesky text')).not.toBeInTheDocument();
  });

  it('not connected but with a Bluesky text: its editor and preview show', async () => {
    open(makeArticle({ versions: { bluesky: { content: 'Kept #text' } } }), false);
    expect(await screen.findByLabelText('Bluesky text')).toHaveValue('Kept #text');
    const post = await screen.findByRole('article', { name: 'Bluesky post' });
    expect(within(post).getByRole('link', { name: '#text' })).toBeInTheDocument();
    // The members' comments on this text sit beside it, as on the other versions.
    expect(screen.getByRole('heading', { name: 'Comments on the Bluesky post' })).toBeInTheDocument();
  });

  it('Edit with AI: GPT mode sends its own version to /api/gpt-edit and shows the edited text', async () => {
    let article = makeArticle({ versions: { bluesky: { content: 'Plain words' } } });
    const edited = 'Punchier words #sky';
    const { requests, user } = open(article, true, {
      'articles.get': () => ({ article }),
      'articles.gptEdit': (request) => {
        article = { ...article, versions: { bluesky: { content: edited } } };
        expect(request.body.contentType).toBe('bluesky');
        return { success: true, article, editedContent: edited };
      },
    });
    const text = await screen.findByLabelText('Bluesky text');
    expect(text).toHaveValue('Plain words');
    await user.click(within(editor()).getByRole('button', { name: 'GPT' }));
    await user.type(within(editor()).getByLabelText('Edit request'), 'Make it punchier');
    await user.click(within(editor()).getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(text).toHaveValue(edited));
    expect(requests.filter((r) => r.route === 'articles.gptEdit').map((r) => r.body)).toEqual([
      { articleId: 'a1', contentType: 'bluesky', editRequest: 'Make it punchier' },
    ]);
    expect(within(editor()).getByTestId('bluesky-counter')).toHaveTextContent(`${edited.length} / 300`);
    // The blog version's text is as it was.
    expect(screen.getByLabelText(/blog/i, { selector: 'textarea' })).toHaveValue(makeArticle().blog.content);
  });

  it('its own Schedule action saves the text, then opens its Schedule modal on /schedule', async () => {
    let article = makeArticle({ versions: { bluesky: { content: 'Short #one' } } });
    const { requests, user } = open(article, true, {
      'articles.get': () => ({ article }),
      'articles.updateVersion': (request) => {
        article = { ...article, versions: { bluesky: { content: request.body.content } } };
        return { success: true, article };
      },
    });
    await screen.findByLabelText('Bluesky text');
    fireEvent.change(screen.getByLabelText('Bluesky text'), { target: { value: 'Short #two' } });
    await user.click(screen.getByRole('button', { name: 'Schedule Bluesky' }));
    // Saved first, then on to its Schedule modal on /schedule (pages/Schedule.tsx reads the parameters).
    await waitFor(() =>
      expect(screen.getByTestId('location')).toHaveTextContent('/schedule?articleId=a1&schedule=bluesky'),
    );
    expect(requests.filter((r) => r.route === 'articles.updateVersion').at(-1)?.body).toEqual({
      content: 'Short #two',
    });
  });
});
