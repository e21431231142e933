import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import CreatePage from './Create';
import { timing } from '../lib/timing';
import { makeArticle, pendingArticle } from '../test/articles';
import { deferred, mockApi, renderWithProviders, type ErrorReply, type Reply } from '../test/utils';

const location = () => screen.getByTestId('location');
const submitButton = () => screen.getByRole('button', { name: 'Create & Schedule' });
const savedPoll = timing.articlePollMs;

beforeEach(() => {
  timing.articlePollMs = 20;
});
afterEach(() => {
  timing.articlePollMs = savedPoll;
});

describe('Create page: the Create Article form', () => {
  it('shows the five fields, the tips and the Google Sheets import button', async () => {
    mockApi({});
    renderWithProviders(<CreatePage />, { route: '/create' });
    expect(screen.getByRole('heading', { name: 'Create Article', level: 1 })).toBeInTheDocument();
    for (const label of ['Title', 'Topic', 'Keyword', 'Details', 'Image Description']) {
      expect(screen.getByLabelText(label)).toBeInTheDocument();
    }
    expect(screen.getByLabelText('Details').tagName).toBe('TEXTAREA');
    expect(screen.getByRole('complementary', { name: 'Writing tips' })).toBeInTheDocument();

    await userEvent.setup().click(screen.getByRole('button', { name: 'Import Articles from Google Sheets' }));
    expect(location()).toHaveTextContent(/^\/sheets-import$/);
  });

  it('keeps Create & Schedule disabled until title and topic are non-blank', async () => {
    mockApi({});
    renderWithProviders(<CreatePage />, { route: '/create' });
    const user = userEvent.setup();
    expect(submitButton()).toBeDisabled();
    await user.type(screen.getByLabelText('Title'), 'A title');
    expect(submitButton()).toBeDisabled();
    await user.type(screen.getByLabelText('Topic'), '   ');
    expect(submitButton()).toBeDisabled();
    await user.type(screen.getByLabelText('Keyword'), 'kw');
    await user.type(screen.getByLabelText('Details'), 'details');
    expect(submitButton()).toBeDisabled();
    await user.type(screen.getByLabelText('Topic'), 'A topic');
    expect(submitButton()).toBeEnabled();
    await user.clear(screen.getByLabelText('Title'));
    await user.type(screen.getByLabelText('Title'), '  ');
    expect(submitButton()).toBeDisabled();
  });

  it('keeps a draft of the five fields under "draft" and restores it', async () => {
    mockApi({});
    const first = renderWithProviders(<CreatePage />, { route: '/create' });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Title'), 'T1');
    await user.type(screen.getByLabelText('Topic'), 'Topic one');
    await user.type(screen.getByLabelText('Keyword'), 'k');
    await user.type(screen.getByLabelText('Details'), 'd');
    await user.type(screen.getByLabelText('Image Description'), 'img');
    expect(JSON.parse(window.localStorage.getItem('draft')!)).toEqual({
      title: 'T1',
      topic: 'Topic one',
      keyword: 'k',
      details: 'd',
      imageDescription: 'img',
    });
    first.unmount();

    window.localStorage.setItem('draft', JSON.stringify({ title: 'Saved title', topic: 'Saved topic', details: 42 }));
    renderWithProviders(<CreatePage />, { route: '/create' });
    expect(screen.getByLabelText('Title')).toHaveValue('Saved title');
    expect(screen.getByLabelText('Topic')).toHaveValue('Saved topic');
    expect(screen.getByLabelText('Details')).toHaveValue('');
    expect(submitButton()).toBeEnabled();
  });

  it('ignores a draft that is not valid JSON', () => {
    mockApi({});
    window.localStorage.setItem('draft', '{oops');
    renderWithProviders(<CreatePage />, { route: '/create' });
    expect(screen.getByLabelText('Title')).toHaveValue('');
  });

  it('creates the article: "Creating..." while loading, then clears the draft and opens the modal with ?articleId=', async () => {
    const created = deferred<Reply<'articles.create'>>();
    const article = pendingArticle({ _id: 'new1', id: 'new1', title: 'Fresh article' });
    const { requests } = mockApi({
      'articles.create': () => created.promise,
      'articles.get': { article: makeArticle({ _id: 'new1', id: 'new1', title: 'Fresh article' }) },
    });
    window.localStorage.setItem(
      'draft',
      JSON.stringify({
        title: ' Fresh article ',
        topic: 'Topic',
        keyword: 'kw',
        details: 'dd',
        imageDescription: 'pic',
      }),
    );
    renderWithProviders(<CreatePage />, { route: '/create' });
    const user = userEvent.setup();
    await user.click(submitButton());

    const busy = screen.getByRole('button', { name: /Creating\.\.\./ });
    expect(busy).toBeDisabled();
    expect(screen.getByLabelText('Title')).toBeDisabled();
    expect(requests.find((r) => r.method === 'POST')).toMatchObject({
      path: '/api/articles',
      credentials: 'include',
      body: { title: 'Fresh article', topic: 'Topic', keyword: 'kw', details: 'dd', imageDescription: 'pic' },
    });

    created.resolve({ success: true, article });
    const dialog = await screen.findByRole('dialog', { name: 'Generated Content' });
    expect(within(dialog).getByText('Fresh article')).toBeInTheDocument();
    expect(location()).toHaveTextContent(/^\/create\?articleId=new1$/);
    expect(window.localStorage.getItem('draft')).toBeNull();
    expect(screen.getByLabelText('Title')).toHaveValue('');
    expect(submitButton()).toBeDisabled();
  });

  it.each<[string, ErrorReply, string]>([
    [
      'the server message',
      { status: 400, body: { error: 'Bad', message: 'Title is required' } },
      'Error: Title is required',
    ],
    ['Failed to create article without one', { status: 500, body: null }, 'Error: Failed to create article'],
  ])('shows %s', async (_name, reply, text) => {
    mockApi({ 'articles.create': reply });
    window.localStorage.setItem('draft', JSON.stringify({ title: 'T', topic: 'P' }));
    renderWithProviders(<CreatePage />, { route: '/create' });
    await userEvent.setup().click(submitButton());
    expect(await screen.findByRole('alert')).toHaveTextContent(
      new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`),
    );
    // Nothing was lost: the draft and the fields are still there, the button usable again.
    expect(screen.getByLabelText('Title')).toHaveValue('T');
    expect(JSON.parse(window.localStorage.getItem('draft')!)).toMatchObject({ title: 'T' });
    expect(submitButton()).toBeEnabled();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('a network failure shows "Error: Failed to create article"', async () => {
    mockApi({ 'articles.create': () => Promise.reject(new TypeError('Failed to fetch')) });
    window.localStorage.setItem('draft', JSON.stringify({ title: 'T', topic: 'P' }));
    renderWithProviders(<CreatePage />, { route: '/create' });
    await userEvent.setup().click(submitButton());
    expect(await screen.findByRole('alert')).toHaveTextContent('Error: Failed to create article');
  });

  it('/create?articleId=X opens the modal for an existing article; closing it removes the query', async () => {
    mockApi({ 'articles.get': { article: makeArticle() } });
    renderWithProviders(<CreatePage />, { route: '/create?articleId=a1' });
    const dialog = await screen.findByRole('dialog', { name: 'Generated Content' });
    // The editor may render before the article's text arrives: wait for the value, not the field.
    await waitFor(() =>
      expect(within(dialog).getByLabelText('Blog content')).toHaveValue('# Automate\n\nBlog draft text'),
    );
    await userEvent.setup().click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(location()).toHaveTextContent(/^\/create$/);
  });

  it('closing the modal says where the article went: saved, on the Schedule page (a link), with a way back into it', async () => {
    mockApi({
      'articles.create': {
        success: true,
        article: pendingArticle({ _id: 'new1', id: 'new1', title: 'Fresh article' }),
      },
      'articles.get': { article: pendingArticle({ _id: 'new1', id: 'new1', title: 'Fresh article' }) },
    });
    window.localStorage.setItem('draft', JSON.stringify({ title: 'Fresh article', topic: 'Topic' }));
    renderWithProviders(<CreatePage />, { route: '/create' });
    const user = userEvent.setup();
    expect(screen.queryByText(/is saved/)).not.toBeInTheDocument();
    await user.click(submitButton());
    const dialog = await screen.findByRole('dialog', { name: 'Generated Content' });
    await within(dialog).findByText('Drafting your blog article and LinkedIn post…');
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    const note = screen.getByText(/is saved/).closest<HTMLElement>('[role="status"]')!;
    expect(note).toHaveTextContent(
      '“Fresh article” is saved and still being drafted: it is on the Schedule page, where you schedule or publish it. Open it again',
    );
    expect(within(note).getByRole('link', { name: 'Schedule page' })).toHaveAttribute('href', '/schedule');
    expect(screen.getByLabelText('Title')).toHaveValue('');

    await user.click(within(note).getByRole('link', { name: 'Open it again' }));
    expect(await screen.findByRole('dialog', { name: 'Generated Content' })).toBeInTheDocument();
    expect(location()).toHaveTextContent(/^\/create\?articleId=new1$/);
    expect(screen.queryByText(/is saved/)).not.toBeInTheDocument();
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Close' }));
    await user.click(await screen.findByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByText(/is saved/)).not.toBeInTheDocument();
  });

  it('shows "Error: …" in the modal when the article cannot be loaded', async () => {
    mockApi({ 'articles.get': { status: 404, body: { error: 'Article not found', message: 'Article not found' } } });
    renderWithProviders(<CreatePage />, { route: '/create?articleId=zz' });
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Error: Article not found');
  });
});
