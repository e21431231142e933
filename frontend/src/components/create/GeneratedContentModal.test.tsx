import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { BLOG_CONTENT_MAX, renderMarkdown, type Article, type ImageStatus } from '@app/shared';
import type { ImageStartAnswer } from '@app/shared/api';
import CreatePage from '../../pages/Create';
import { ContentEditor } from './ContentEditor';
import { useContentDraft } from './useContentDraft';
import { timing } from '../../lib/timing';
import { makeArticle, pendingArticle } from '../../test/articles';
import {
  deferred,
  mockApi,
  renderWithProviders,
  type MockRoutes,
  type RecordedRequest,
  type Reply,
} from '../../test/utils';

const saved = { ...timing };
beforeEach(() => {
  timing.articlePollMs = 20;
  timing.imagePollMs = 20;
});
afterEach(() => {
  Object.assign(timing, saved);
});

const dialog = () => screen.getByRole('dialog', { name: 'Generated Content' });
const region = (name: 'Blog Article' | 'LinkedIn Post') => within(dialog()).getByRole('region', { name });
const location = () => screen.getByTestId('location');

function openModal(routes: MockRoutes, article: Article = makeArticle()) {
  const api = mockApi({ 'articles.get': { article }, ...routes });
  renderWithProviders(<CreatePage />, { route: '/create?articleId=a1' });
  return { ...api, user: userEvent.setup() };
}

const calls = (requests: RecordedRequest[], method: string, path: string) =>
  requests.filter((r) => r.method === method && r.path === path);

describe('generated-content modal, step 1: content', () => {
  it('shows the drafting state while generation is pending and polls until the drafts are there', async () => {
    let polls = 0;
    const { requests } = mockApi({
      'articles.get': () => {
        polls += 1;
        return { article: polls < 3 ? pendingArticle() : makeArticle() };
      },
    });
    renderWithProviders(<CreatePage />, { route: '/create?articleId=a1' });
    expect(await screen.findByText('Drafting your blog article and LinkedIn post…')).toBeInTheDocument();
    expect(screen.queryByLabelText('Blog content')).not.toBeInTheDocument();

    await waitFor(() => expect(screen.getByLabelText('Blog content')).toHaveValue('# Automate\n\nBlog draft text'), {
      timeout: 3000,
    });
    expect(screen.getByLabelText('LinkedIn content')).toHaveValue('LinkedIn draft text');
    expect(screen.queryByText('Drafting your blog article and LinkedIn post…')).not.toBeInTheDocument();
    expect(calls(requests, 'GET', '/api/articles/a1').length).toBeGreaterThanOrEqual(3);

    // Polling stops once drafted.
    const count = calls(requests, 'GET', '/api/articles/a1').length;
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(calls(requests, 'GET', '/api/articles/a1').length).toBe(count);
  });

  it('on failure shows the quota message with Retry (POST generate) and still allows writing by hand', async () => {
    const failed = pendingArticle({
      generation: { status: 'failed', updatedAt: '2025-03-01T10:00:09.000Z' },
      lastError: { code: 'insufficient_quota', message: 'You exceeded your current quota.' },
    });
    let article: Article = failed;
    const { requests, user } = openModal(
      {
        'articles.get': () => ({ article }),
        'articles.retryGeneration': () => {
          article = makeArticle();
          return { success: true, article: pendingArticle() };
        },
      },
      failed,
    );
    const alert = await screen.findByText(/OpenAI credits are insufficient/);
    expect(alert).toHaveTextContent('OpenAI credits are insufficient. Please update your billing or try again later.');
    expect(screen.getByLabelText('Blog content')).not.toHaveAttribute('readonly');

    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(calls(requests, 'POST', '/api/articles/a1/generate')).toHaveLength(1);
    await waitFor(() => expect(screen.getByLabelText('Blog content')).toHaveValue('# Automate\n\nBlog draft text'));
    expect(screen.queryByText(/OpenAI credits are insufficient/)).not.toBeInTheDocument();
  });

  it('shows lastError.message for other failures', async () => {
    openModal(
      {},
      pendingArticle({
        generation: { status: 'failed', updatedAt: 'x' },
        lastError: { code: 'ai_error', message: 'The AI service failed. Please try again, or edit by hand.' },
      }),
    );
    expect(await screen.findByText('The AI service failed. Please try again, or edit by hand.')).toBeInTheDocument();
  });

  it('saves manual edits with PUT (Save button and on blur) and shows the saved state and word count', async () => {
    const { requests, user } = openModal({
      'articles.updateBlog': ({ body }) => ({
        success: true,
        article: makeArticle({ blog: { ...makeArticle().blog, content: body.content } }),
      }),
      'articles.updateLinkedIn': ({ body }) => ({
        success: true,
        article: makeArticle({ linkedin: { ...makeArticle().linkedin, content: body.content } }),
      }),
    });
    const blog = await screen.findByLabelText('Blog content');
    expect(within(region('Blog Article')).getByText('5 words')).toBeInTheDocument();
    const saveBlog = within(region('Blog Article')).getByRole('button', { name: 'Save' });
    expect(saveBlog).toBeDisabled();

    await user.clear(blog);
    await user.type(blog, 'Hand written blog');
    expect(within(region('Blog Article')).getByText('Unsaved changes')).toBeInTheDocument();
    expect(within(region('Blog Article')).getByText('3 words')).toBeInTheDocument();
    await user.click(saveBlog);
    await waitFor(() => expect(within(region('Blog Article')).getByText('Saved')).toBeInTheDocument());
    expect(calls(requests, 'PUT', '/api/articles/a1/blog').at(-1)).toMatchObject({
      body: { content: 'Hand written blog' },
      credentials: 'include',
    });
    expect(blog).toHaveValue('Hand written blog');

    // Leaving the LinkedIn editor saves it too.
    const linkedin = screen.getByLabelText('LinkedIn content');
    await user.type(linkedin, ' more');
    await user.click(screen.getByRole('heading', { name: 'LinkedIn Post' }));
    await waitFor(() => expect(calls(requests, 'PUT', '/api/articles/a1/linkedin')).toHaveLength(1));
    expect(calls(requests, 'PUT', '/api/articles/a1/linkedin')[0]!.body).toEqual({
      content: 'LinkedIn draft text more',
    });
    await waitFor(() => expect(within(region('LinkedIn Post')).getByText('Saved')).toBeInTheDocument());
  });

  it('saves while typing: one PUT once typing pauses, "Saved" with the focus still in the text; typing on during a save loses nothing', async () => {
    timing.autosaveMs = 300;
    const answers: ReturnType<typeof deferred<Reply<'articles.updateBlog'>>>[] = [];
    const { requests, user } = openModal({
      'articles.updateBlog': () => {
        answers.push(deferred());
        return answers.at(-1)!.promise;
      },
    });
    const blog = await screen.findByLabelText('Blog content');
    const state = () => within(region('Blog Article')).queryByText(/^(Saved|Saving\.\.\.|Unsaved changes)$/);
    const answer = (content: string) => ({
      success: true as const,
      article: makeArticle({ blog: { ...makeArticle().blog, content } }),
    });

    await user.type(blog, ' one');
    expect(state()).toHaveTextContent('Unsaved changes');
    await waitFor(() => expect(calls(requests, 'PUT', '/api/articles/a1/blog')).toHaveLength(1));
    expect(calls(requests, 'PUT', '/api/articles/a1/blog')[0]!.body).toEqual({
      content: '# Automate\n\nBlog draft text one',
    });
    expect(state()).toHaveTextContent('Saving...');

    // Typed while that save is under way: the answer (the text sent) does not replace it.
    await user.type(blog, ' two');
    answers[0]!.resolve(answer('# Automate\n\nBlog draft text one'));
    await waitFor(() => expect(calls(requests, 'PUT', '/api/articles/a1/blog')).toHaveLength(2));
    expect(blog).toHaveValue('# Automate\n\nBlog draft text one two');
    expect(calls(requests, 'PUT', '/api/articles/a1/blog')[1]!.body).toEqual({
      content: '# Automate\n\nBlog draft text one two',
    });
    answers[1]!.resolve(answer('# Automate\n\nBlog draft text one two'));
    await waitFor(() => expect(state()).toHaveTextContent('Saved'));
    expect(blog).toHaveFocus();
    expect(blog).toHaveValue('# Automate\n\nBlog draft text one two');

    // Nothing more to save: no further request.
    await new Promise((resolve) => setTimeout(resolve, 450));
    expect(calls(requests, 'PUT', '/api/articles/a1/blog')).toHaveLength(2);
  });

  it("a save's answer never undoes the other version's newer text (it may predate that version's own save)", async () => {
    const blogAnswer = deferred<Reply<'articles.updateBlog'>>();
    const { requests, user } = openModal({
      // Read before the LinkedIn save below: it carries the LinkedIn text of before.
      'articles.updateBlog': () => blogAnswer.promise,
      'articles.updateLinkedIn': ({ body }) => ({
        success: true,
        article: makeArticle({ linkedin: { ...makeArticle().linkedin, content: body.content } }),
      }),
    });
    const blog = await screen.findByLabelText('Blog content');
    await user.type(blog, '!');
    await user.click(within(region('Blog Article')).getByRole('button', { name: 'Save' }));
    const linkedin = screen.getByLabelText('LinkedIn content');
    await user.type(linkedin, ' edited');
    await user.click(within(region('LinkedIn Post')).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(within(region('LinkedIn Post')).getByText('Saved')).toBeInTheDocument());

    blogAnswer.resolve({
      success: true,
      article: makeArticle({ blog: { ...makeArticle().blog, content: '# Automate\n\nBlog draft text!' } }),
    });
    await waitFor(() => expect(within(region('Blog Article')).getByText('Saved')).toBeInTheDocument());
    expect(linkedin).toHaveValue('LinkedIn draft text edited');
    expect(calls(requests, 'PUT', '/api/articles/a1/linkedin')).toHaveLength(1);
  });

  it('shows "Failed to save {platform} content: {message}" and keeps the text', async () => {
    const { user } = openModal({
      'articles.updateBlog': { status: 500, body: { error: 'Internal', message: 'Database unavailable' } },
    });
    const blog = await screen.findByLabelText('Blog content');
    await user.type(blog, '!');
    await user.click(within(region('Blog Article')).getByRole('button', { name: 'Save' }));
    expect(await within(region('Blog Article')).findByRole('alert')).toHaveTextContent(
      'Failed to save blog content: Database unavailable',
    );
    expect(blog).toHaveValue('# Automate\n\nBlog draft text!');
    expect(within(region('Blog Article')).getByText('Unsaved changes')).toBeInTheDocument();
  });

  it('LinkedIn: n / 3000 counter, red with the message over 3000, and saving blocked', async () => {
    const { requests, user } = openModal({});
    const linkedin = await screen.findByLabelText('LinkedIn content');
    const counter = screen.getByTestId('linkedin-counter');
    expect(counter).toHaveTextContent('19 / 3000');
    expect(counter).not.toHaveClass('is-over');

    fireEvent.change(linkedin, { target: { value: 'x'.repeat(3000) } });
    expect(counter).toHaveTextContent('3000 / 3000');
    expect(counter).not.toHaveClass('is-over');
    expect(screen.queryByText(/LinkedIn posts must be under 3000 characters/)).not.toBeInTheDocument();

    fireEvent.change(linkedin, { target: { value: 'x'.repeat(3001) } });
    expect(counter).toHaveTextContent('3001 / 3000');
    expect(counter).toHaveClass('is-over');
    expect(
      within(region('LinkedIn Post')).getByText(
        'LinkedIn posts must be under 3000 characters. Please shorten your text.',
      ),
    ).toBeInTheDocument();
    expect(linkedin).toHaveAttribute('aria-invalid', 'true');
    expect(within(region('LinkedIn Post')).getByRole('button', { name: 'Save' })).toBeDisabled();
    fireEvent.blur(linkedin);
    await user.click(within(dialog()).getByRole('button', { name: 'Next' }));
    // Still on step 1, nothing sent.
    expect(screen.getByLabelText('LinkedIn content')).toBeVisible();
    expect(calls(requests, 'PUT', '/api/articles/a1/linkedin')).toHaveLength(0);
  });

  it("Blog: over the API's length limit the schema's message shows and saving is blocked", async () => {
    const { requests } = openModal({});
    const blog = await screen.findByLabelText('Blog content');
    fireEvent.change(blog, { target: { value: 'x'.repeat(BLOG_CONTENT_MAX + 1) } });
    expect(
      within(region('Blog Article')).getByText(`Blog content must be at most ${BLOG_CONTENT_MAX} characters`),
    ).toBeInTheDocument();
    expect(blog).toHaveAttribute('aria-invalid', 'true');
    expect(within(region('Blog Article')).getByRole('button', { name: 'Save' })).toBeDisabled();
    fireEvent.blur(blog);
    expect(calls(requests, 'PUT', '/api/articles/a1/blog')).toHaveLength(0);
  });

  it('GPT mode: read-only text; a blank request is refused without a call', async () => {
    const { requests, user } = openModal({});
    const blog = await screen.findByLabelText('Blog content');
    await user.click(within(region('Blog Article')).getByRole('button', { name: 'GPT' }));
    expect(within(region('Blog Article')).getByRole('button', { name: 'GPT' })).toHaveAttribute('aria-pressed', 'true');
    expect(blog).toHaveAttribute('readonly');
    expect(within(region('Blog Article')).queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();

    await user.type(within(region('Blog Article')).getByLabelText('Edit request'), '   ');
    await user.click(within(region('Blog Article')).getByRole('button', { name: 'Send' }));
    expect(within(region('Blog Article')).getByRole('alert')).toHaveTextContent('Please describe the change you want.');
    expect(calls(requests, 'POST', '/api/gpt-edit')).toHaveLength(0);

    await user.click(within(region('Blog Article')).getByRole('button', { name: 'Manual' }));
    expect(blog).not.toHaveAttribute('readonly');
  });

  it('GPT edit: sends the request and replaces the text with the edited content', async () => {
    const edit = deferred<Reply<'articles.gptEdit'>>();
    const { requests, user } = openModal({ 'articles.gptEdit': () => edit.promise });
    await screen.findByLabelText('LinkedIn content');
    const linkedinRegion = region('LinkedIn Post');
    await user.click(within(linkedinRegion).getByRole('button', { name: 'GPT' }));
    await user.type(within(linkedinRegion).getByLabelText('Edit request'), 'add hashtags #AI');
    await user.click(within(linkedinRegion).getByRole('button', { name: 'Send' }));
    expect(within(linkedinRegion).getByRole('button', { name: 'Applying...' })).toBeDisabled();
    expect(calls(requests, 'POST', '/api/gpt-edit')[0]).toMatchObject({
      body: { articleId: 'a1', contentType: 'linkedin', editRequest: 'add hashtags #AI' },
      credentials: 'include',
    });

    const edited = 'LinkedIn draft text\n\n#AI';
    edit.resolve({
      success: true,
      editedContent: edited,
      article: makeArticle({ linkedin: { ...makeArticle().linkedin, content: edited } }),
    });
    await waitFor(() => expect(screen.getByLabelText('LinkedIn content')).toHaveValue(edited));
    expect(within(linkedinRegion).getByLabelText('Edit request')).toHaveValue('');
    expect(screen.getByText('Edit applied to the LinkedIn post.')).toBeInTheDocument();
    expect(screen.getByTestId('linkedin-counter')).toHaveTextContent(`${edited.length} / 3000`);
  });

  it('GPT edit offline (no OpenAI key): the refusal says so, keeps the text, and offers Manual', async () => {
    const offline =
      'Not applied: GPT editing is offline (no OpenAI key), and offline it can only shorten, add or remove hashtags, remove emoji and replace "quoted" text. To apply this request, add your OpenAI key (openai_api_key) in Settings → API Keys, or switch to Manual and edit by hand.';
    const { user } = openModal({
      'articles.gptEdit': { status: 409, body: { error: offline, message: offline, code: 'ai_unavailable' } },
    });
    await screen.findByLabelText('Blog content');
    const blogRegion = region('Blog Article');
    await user.click(within(blogRegion).getByRole('button', { name: 'GPT' }));
    await user.type(within(blogRegion).getByLabelText('Edit request'), 'make it funnier');
    await user.click(within(blogRegion).getByRole('button', { name: 'Send' }));

    expect(await within(blogRegion).findByRole('alert')).toHaveTextContent(offline);
    expect(within(blogRegion).getByLabelText('Edit request')).toHaveAccessibleDescription(offline);
    expect(screen.getByLabelText('Blog content')).toHaveValue('# Automate\n\nBlog draft text');
    expect(screen.queryByText(/^Edit applied/)).not.toBeInTheDocument();

    await user.click(within(blogRegion).getByRole('button', { name: 'Switch to Manual' }));
    expect(within(blogRegion).getByRole('button', { name: 'Manual' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByLabelText('Blog content')).not.toHaveAttribute('readonly');
    expect(within(blogRegion).queryByRole('alert')).not.toBeInTheDocument();
  });

  it("GPT edit failures show the server's message, else Failed to process edit", async () => {
    let reply: Reply<'articles.gptEdit'> = {
      status: 502,
      body: { error: 'x', message: 'The AI service failed. Please try again, or edit by hand.', code: 'ai_error' },
    };
    const { user } = openModal({ 'articles.gptEdit': () => reply });
    await screen.findByLabelText('Blog content');
    const blogRegion = region('Blog Article');
    await user.click(within(blogRegion).getByRole('button', { name: 'GPT' }));
    await user.type(within(blogRegion).getByLabelText('Edit request'), 'make it funnier');
    await user.click(within(blogRegion).getByRole('button', { name: 'Send' }));
    expect(await within(blogRegion).findByRole('alert')).toHaveTextContent(/^The AI service failed/);
    // Only the offline refusal offers Manual: another failure may pass on a second try.
    expect(within(blogRegion).queryByRole('button', { name: 'Switch to Manual' })).not.toBeInTheDocument();
    expect(screen.getByLabelText('Blog content')).toHaveValue('# Automate\n\nBlog draft text');

    reply = { status: 500, body: null };
    await user.click(within(blogRegion).getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(within(blogRegion).getByRole('alert')).toHaveTextContent(/^Failed to process edit$/));
  });

  it('shows the WordPress post and the LinkedIn card beside the editors, following the text as it is typed', async () => {
    const { requests, user } = openModal({});
    const blogText = await screen.findByLabelText('Blog content');
    const post = await within(dialog()).findByRole('article', { name: 'WordPress post' });
    expect(within(post).getByRole('heading', { level: 1, name: 'Automate your content calendar' })).toBeInTheDocument();
    // The preview renders the text as a deferred value: it may come a render after the editor's.
    expect(await within(post).findByRole('heading', { level: 1, name: 'Automate' })).toBeInTheDocument();
    const card = within(dialog()).getByRole('article', { name: 'LinkedIn post' });
    expect(card).toHaveTextContent('LinkedIn draft text');

    await user.type(blogText, '\n\n## Fresh section');
    await waitFor(() =>
      expect(within(post).getByRole('heading', { level: 2, name: 'Fresh section' })).toBeInTheDocument(),
    );
    // The text is not saved yet (it is on blur): the preview shows what is typed, with no call.
    expect(requests.filter((r) => r.method === 'PUT')).toEqual([]);
    await user.type(screen.getByLabelText('LinkedIn content'), ' #Fresh');
    await waitFor(() => expect(card.querySelector('.li-card__hashtag')).toHaveTextContent('#Fresh'));
  });

  it('the WordPress preview is exactly the sanitized HTML that publishing sends: no script, handler or javascript: link', async () => {
    const content = [
      '# Automate',
      '',
      '<script>document.title = "owned"</script>',
      '',
      'Look <img src="https://example.com/a.png" onerror="alert(1)"> [bad](javascript:alert(2)) <a href="jav&#x61;script:alert(3)">worse</a> [ok](https://example.com/ok)',
    ].join('\n');
    openModal({}, makeArticle({ blog: { ...makeArticle().blog, content } }));
    await screen.findByLabelText('Blog content');

    const post = await within(dialog()).findByRole('article', { name: 'WordPress post' });
    // The preview renders the text as a deferred value: it may come a render after the editor's.
    await waitFor(() => expect(post.querySelector('.wp-preview__body')).not.toBeNull());
    const html = post.querySelector('.wp-preview__body')!;
    const published = document.createElement('div');
    published.innerHTML = renderMarkdown(content); // as the browser reads what WordPress gets
    expect(html.innerHTML).toBe(published.innerHTML);
    expect(html.querySelector('script, [onerror], [href^="javascript" i]')).toBeNull();
    expect(html.innerHTML).not.toMatch(/<script|onerror|javascript:/i);
    expect(within(html as HTMLElement).getByRole('heading', { level: 1, name: 'Automate' })).toBeInTheDocument();
    expect(within(html as HTMLElement).getByRole('link', { name: 'ok' })).toHaveAttribute(
      'href',
      'https://example.com/ok',
    );
    expect(within(html as HTMLElement).queryByRole('link', { name: /bad|worse/ })).not.toBeInTheDocument();
  });
});

describe('generated-content modal, focus', () => {
  it('opens on its first control (Close), not on the dialog', async () => {
    openModal({});
    await screen.findByLabelText('Blog content');
    expect(within(dialog()).getByRole('button', { name: 'Close' })).toHaveFocus();
  });

  it('Shift+Tab on open goes to the last control of the modal, not to the form behind; Tab from there back to the first', async () => {
    const { user } = openModal({});
    await screen.findByLabelText('Blog content');
    const first = within(dialog()).getByRole('button', { name: 'Close' });
    const last = within(dialog()).getByRole('button', { name: 'Next' });

    await user.tab({ shift: true });
    expect(last).toHaveFocus();
    await user.tab();
    expect(first).toHaveFocus();
  });
});

describe('generated-content modal, step 2: image', () => {
  const image = (generatedAt: string) => ({
    url: `/api/image/preview/a1?platform=blog&t=${encodeURIComponent(generatedAt)}`,
    linkedinUrl: `/api/image/preview/a1?platform=linkedin&t=${encodeURIComponent(generatedAt)}`,
    description: 'A calm flat illustration of a calendar',
    generatedAt,
    source: 'generated' as const,
    focalPoint: null,
    original: null,
  });
  // Also the answer of starting a generation, which adds a message.
  const status = (overrides: Partial<ImageStatus>): ImageStartAnswer => ({
    success: true,
    hasImage: false,
    image: null,
    pending: false,
    error: null,
    message: 'Image generation started',
    ...overrides,
  });

  it('Generate Image → pending → preview with t=, and the button becomes Regenerate Image', async () => {
    let polls = 0;
    const done = image('2025-03-01T11:00:00.000Z');
    const { requests, user } = openModal({
      'images.status': () => {
        polls += 1;
        if (polls === 1) return status({});
        return polls < 4 ? status({ pending: true }) : status({ hasImage: true, image: done });
      },
      'images.generate': status({ pending: true }),
    });
    await screen.findByLabelText('Blog content');
    await user.click(within(dialog()).getByRole('button', { name: 'Next' }));
    const description = await within(dialog()).findByLabelText('Image Description');
    expect(description).toHaveValue('A calm flat illustration of a calendar');
    expect(screen.getByText('No image yet.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Generate Image' }));
    expect(await screen.findByRole('button', { name: 'Generating...' })).toBeDisabled();
    expect(screen.getByText('Generating your image…')).toBeInTheDocument();
    expect(calls(requests, 'POST', '/api/image/generate/a1')[0]!.body).toEqual({
      description: 'A calm flat illustration of a calendar',
    });

    const img = await screen.findByRole('img', {}, { timeout: 3000 });
    expect(img.getAttribute('src')).toContain('t=2025-03-01T11');
    expect(img.getAttribute('src')).toMatch(/^\/api\/image\/preview\/a1\?platform=blog&t=/);
    expect(screen.getByRole('button', { name: 'Regenerate Image' })).toBeEnabled();
    expect(screen.getByText('Image generated.')).toBeInTheDocument();

    // A second run uses the regenerate call.
    const again = image('2025-03-01T12:00:00.000Z');
    polls = 10;
    mockApi({
      'images.status': status({ hasImage: true, image: again }),
      'images.regenerate': status({ pending: true, hasImage: true, image: done }),
    });
    await user.click(screen.getByRole('button', { name: 'Regenerate Image' }));
    await waitFor(() => expect(screen.getByRole('img').getAttribute('src')).toContain('t=2025-03-01T12'));
  });

  it('refuses a blank description without a call', async () => {
    const { requests, user } = openModal({ 'images.status': status({}) }, makeArticle({ imageDescription: '' }));
    await screen.findByLabelText('Blog content');
    await user.click(within(dialog()).getByRole('button', { name: 'Next' }));
    await user.click(await screen.findByRole('button', { name: 'Generate Image' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please enter a description for the image.');
    expect(requests.filter((r) => r.method === 'POST')).toHaveLength(0);
  });

  it("shows the worker's error when the generation ends without a new image, else the fallback", async () => {
    let polls = 0;
    const { user } = openModal({
      'images.status': () => {
        polls += 1;
        return polls === 1
          ? status({})
          : status({ pending: false, error: { code: 'insufficient_quota', message: 'OpenAI credits insufficient' } });
      },
      'images.generate': status({ pending: true }),
    });
    await screen.findByLabelText('Blog content');
    await user.click(within(dialog()).getByRole('button', { name: 'Next' }));
    await user.click(await screen.findByRole('button', { name: 'Generate Image' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('OpenAI credits insufficient');
    expect(screen.getByRole('button', { name: 'Generate Image' })).toBeEnabled();
  });

  it('a failed start shows "Failed to generate image"', async () => {
    const { user } = openModal({
      'images.status': status({}),
      'images.generate': { status: 500, body: null },
    });
    await screen.findByLabelText('Blog content');
    await user.click(within(dialog()).getByRole('button', { name: 'Next' }));
    await user.click(await screen.findByRole('button', { name: 'Generate Image' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Failed to generate image$/);
  });

  it('gives up after the timeout with a message', async () => {
    timing.imageTimeoutMs = 600;
    const { user } = openModal({
      'images.status': status({ pending: true }),
      'images.generate': status({ pending: true }),
    });
    await screen.findByLabelText('Blog content');
    await user.click(within(dialog()).getByRole('button', { name: 'Next' }));
    // The step found a generation still running (opened earlier) and follows it.
    expect(await screen.findByRole('button', { name: 'Generating...' })).toBeDisabled();
    expect(await screen.findByRole('alert', {}, { timeout: 4000 })).toHaveTextContent(/taking longer than expected/);
    expect(screen.getByRole('button', { name: 'Generate Image' })).toBeEnabled();
  });

  it('starts with Regenerate Image and the preview when the article already has an image; Back and Continue to Schedule', async () => {
    const existing = image('2025-02-01T09:00:00.000Z');
    const { user } = openModal(
      { 'images.status': status({ hasImage: true, image: existing }) },
      makeArticle({ image: existing }),
    );
    await screen.findByLabelText('Blog content');
    await user.click(within(dialog()).getByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('button', { name: 'Regenerate Image' })).toBeInTheDocument();
    expect(screen.getByRole('img').getAttribute('src')).toContain('t=2025-02-01T09');

    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.getByLabelText('Blog content')).toBeVisible();
    await user.click(within(dialog()).getByRole('button', { name: 'Next' }));
    // Continue saves what is open first, then navigates: wait for it rather than assume one tick.
    await user.click(await screen.findByRole('button', { name: 'Continue to Schedule' }));
    await waitFor(() => expect(location()).toHaveTextContent(/^\/schedule$/));
  });

  it('tries each preview candidate and then says "Failed to load generated image"', async () => {
    const existing = { ...image('2025-02-01T09:00:00.000Z'), url: '/uploads/a1.png' };
    const { user } = openModal({ 'images.status': status({}) }, makeArticle({ image: existing }));
    await screen.findByLabelText('Blog content');
    await user.click(within(dialog()).getByRole('button', { name: 'Next' }));
    const tried: string[] = [];
    for (let i = 0; i < 3; i++) {
      const img = await screen.findByRole('img');
      tried.push(img.getAttribute('src')!);
      fireEvent.error(img);
    }
    const t = encodeURIComponent('2025-02-01T09:00:00.000Z');
    expect(tried).toEqual([
      `/uploads/a1.png?t=${t}`,
      `/api/uploads/a1.png?t=${t}`,
      `/api/image/preview/a1?platform=blog&t=${t}`,
    ]);
    expect(await screen.findByText('Failed to load generated image')).toBeInTheDocument();
  });
});

describe('content editor without an article id', () => {
  function Harness() {
    const draft = useContentDraft('', 'blog', 'Some text');
    return <ContentEditor articleId="" title="Blog Article" draft={draft} />;
  }

  it('alerts "Article ID is missing. Cannot process GPT edit." and sends nothing', async () => {
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    const { requests } = mockApi({});
    renderWithProviders(<Harness />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'GPT' }));
    await user.type(screen.getByLabelText('Edit request'), 'shorter');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(alert).toHaveBeenCalledWith('Article ID is missing. Cannot process GPT edit.');
    expect(requests).toHaveLength(0);
  });
});
