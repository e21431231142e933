import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { OFFLINE_BLOG_NOTE, OFFLINE_LINKEDIN_NOTE } from '@app/shared';
import CreatePage from '../../pages/Create';
import { makeArticle } from '../../test/articles';
import { mockApi, renderWithProviders } from '../../test/utils';

const BLOG = `${OFFLINE_BLOG_NOTE}\n\nThis article is about calm teams.\n\n## Habit one\n\nWrite it down.`;
const LINKEDIN = `Calm teams ship more.\n\n${OFFLINE_LINKEDIN_NOTE}\n\nWhat works for you?`;

const offlineArticle = () =>
  makeArticle({
    blog: { ...makeArticle().blog, content: BLOG },
    linkedin: { ...makeArticle().linkedin, content: LINKEDIN },
  });

const dialog = () => screen.getByRole('dialog', { name: 'Generated Content' });
const region = (name: 'Blog Article' | 'LinkedIn Post') => within(dialog()).getByRole('region', { name });

describe('the editor and the offline-draft note', () => {
  it('highlights the note’s line in each version and says to remove it before publishing', async () => {
    mockApi({ 'articles.get': { article: offlineArticle() } });
    renderWithProviders(<CreatePage />, { route: '/create?articleId=a1' });
    const blog = await screen.findByLabelText('Blog content');
    expect(blog).toHaveValue(BLOG);

    // The line itself is marked, in the layer behind the text (the same text, wrapped alike).
    const blogMarks = within(region('Blog Article')).getByTestId('offline-note-highlight').querySelectorAll('mark');
    expect([...blogMarks].map((m) => m.textContent)).toEqual([OFFLINE_BLOG_NOTE]);
    expect(within(region('Blog Article')).getByTestId('offline-note-highlight').textContent).toBe(`${BLOG}\n `);
    const linkedinMarks = within(region('LinkedIn Post'))
      .getByTestId('offline-note-highlight')
      .querySelectorAll('mark');
    expect([...linkedinMarks].map((m) => m.textContent)).toEqual([OFFLINE_LINKEDIN_NOTE]);

    // Said in words too, and the textarea is described by it (the highlight is only seen).
    const message = within(region('Blog Article')).getByText(
      'Line 1 (highlighted) is the offline-draft note. Remove the offline-draft note before publishing.',
    );
    expect(blog.getAttribute('aria-describedby')).toContain(message.parentElement!.id);
    expect(
      within(region('LinkedIn Post')).getByText(
        'Line 3 (highlighted) is the offline-draft note. Remove the offline-draft note before publishing.',
      ),
    ).toBeInTheDocument();
  });

  it('"Remove the note" takes the line out and saves; the highlight and the message go, and so they do when typed away', async () => {
    const { requests } = mockApi({
      'articles.get': { article: offlineArticle() },
      'articles.updateBlog': ({ body }) => ({
        success: true,
        article: makeArticle({ blog: { ...makeArticle().blog, content: body.content } }),
      }),
    });
    renderWithProviders(<CreatePage />, { route: '/create?articleId=a1' });
    const user = userEvent.setup();
    const blog = await screen.findByLabelText('Blog content');

    await user.click(within(region('Blog Article')).getByRole('button', { name: 'Remove the note' }));
    const expected = 'This article is about calm teams.\n\n## Habit one\n\nWrite it down.';
    expect(blog).toHaveValue(expected);
    await waitFor(() =>
      expect(
        requests.filter((r) => r.method === 'PUT' && r.path === '/api/articles/a1/blog').map((r) => r.body),
      ).toEqual([{ content: expected }]),
    );
    expect(within(region('Blog Article')).queryByTestId('offline-note-highlight')).not.toBeInTheDocument();
    expect(within(region('Blog Article')).queryByText(/offline-draft note/)).not.toBeInTheDocument();
    expect(blog.getAttribute('aria-describedby')).not.toMatch(/note/);

    // Deleting the line by hand does the same.
    const linkedin = within(region('LinkedIn Post')).getByLabelText('LinkedIn content');
    await user.clear(linkedin);
    await user.type(linkedin, 'Calm teams ship more.');
    expect(within(region('LinkedIn Post')).queryByTestId('offline-note-highlight')).not.toBeInTheDocument();
    expect(within(region('LinkedIn Post')).queryByText(/offline-draft note/)).not.toBeInTheDocument();
  });

  it('a text without the note has no highlight and no message', async () => {
    mockApi({ 'articles.get': { article: makeArticle() } });
    renderWithProviders(<CreatePage />, { route: '/create?articleId=a1' });
    await screen.findByLabelText('Blog content');
    expect(screen.queryByTestId('offline-note-highlight')).not.toBeInTheDocument();
    expect(screen.queryByText(/offline-draft note/)).not.toBeInTheDocument();
  });
});
