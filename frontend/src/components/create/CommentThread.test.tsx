import { describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import { focusManager } from '@tanstack/react-query';
import userEvent from '@testing-library/user-event';
import { COMMENT_MAX_CHARS, type ArticleComment } from '@app/shared';
import { CommentThread } from './CommentThread';
import { makeUser, mockApi, renderWithProviders } from '../../test/utils';

const comment = (overrides: Partial<ArticleComment> = {}): ArticleComment => ({
  id: 'c1',
  articleId: 'a1',
  platform: 'blog',
  authorId: 'u2',
  authorName: 'Rita Reviewer',
  text: 'The intro runs long.',
  createdAt: '2025-03-04T10:05:00.000Z',
  onEarlierVersion: false,
  ...overrides,
});

const thread = () => screen.getByRole('region', { name: /Comments on the blog version/ });

describe('CommentThread', () => {
  it("shows the version's comments with author, time and text, marks those on an earlier text, and not the other version's", async () => {
    mockApi({
      'auth.me': { user: makeUser({ _id: 'u1', timezone: 'UTC' }) },
      'articles.comments': {
        comments: [
          comment(),
          comment({ id: 'c2', text: 'Old remark', onEarlierVersion: true, authorName: 'Wanda Writer' }),
          comment({ id: 'c3', platform: 'linkedin', text: 'On LinkedIn' }),
        ],
      },
    });
    renderWithProviders(<CommentThread articleId="a1" platform="blog" />);
    const items = await within(thread()).findAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent('Rita Reviewer');
    expect(items[0]).toHaveTextContent('Mar 4, 2025, 10:05 UTC');
    expect(items[0]).toHaveTextContent('The intro runs long.');
    expect(items[0]).not.toHaveTextContent('on an earlier version');
    expect(items[1]).toHaveTextContent('Old remark');
    expect(items[1]).toHaveTextContent('on an earlier version');
    expect(screen.queryByText('On LinkedIn')).not.toBeInTheDocument();
    // Nobody's comment here is the signed-in user's: no Delete.
    expect(within(thread()).queryByRole('button', { name: /Delete/ })).not.toBeInTheDocument();
  });

  it('shows another member’s new comment while the editor is open: read again every 15 s while the tab is shown, and on coming back to it', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      let comments = [comment()];
      const { requests } = mockApi({
        'auth.me': { user: makeUser({ _id: 'u1', timezone: 'UTC' }) },
        'articles.comments': () => ({ comments }),
      });
      renderWithProviders(<CommentThread articleId="a1" platform="blog" />);
      await within(thread()).findByText('The intro runs long.');
      const reads = () => requests.filter((r) => r.route === 'articles.comments').length;
      expect(reads()).toBe(1);

      comments = [...comments, comment({ id: 'c2', authorName: 'Eddie Editor', text: 'Agreed: cut it.' })];
      await act(() => vi.advanceTimersByTimeAsync(14_000));
      expect(within(thread()).queryByText('Agreed: cut it.')).not.toBeInTheDocument();
      await act(() => vi.advanceTimersByTimeAsync(1_100));
      expect(await within(thread()).findByText('Agreed: cut it.')).toBeInTheDocument();
      expect(within(thread()).getAllByRole('listitem')).toHaveLength(2);

      // A hidden tab asks nothing; coming back to it reads the thread at once.
      act(() => focusManager.setFocused(false));
      const hidden = reads();
      comments = [...comments, comment({ id: 'c3', text: 'Cut.' })];
      await act(() => vi.advanceTimersByTimeAsync(45_000));
      expect(reads()).toBe(hidden);
      act(() => focusManager.setFocused(true));
      expect(await within(thread()).findByText('Cut.')).toBeInTheDocument();
    } finally {
      focusManager.setFocused(undefined);
      vi.useRealTimers();
    }
  });

  it('marks a reviewer’s change request as such', async () => {
    mockApi({
      'auth.me': { user: makeUser({ _id: 'u1', timezone: 'UTC' }) },
      'articles.comments': {
        comments: [comment({ text: 'Add the Q3 numbers.', changeRequest: true }), comment({ id: 'c2' })],
      },
    });
    renderWithProviders(<CommentThread articleId="a1" platform="blog" />);
    const items = await within(thread()).findAllByRole('listitem');
    expect(items[0]).toHaveTextContent('Requested changes');
    expect(items[0]).toHaveTextContent('Add the Q3 numbers.');
    expect(items[1]).not.toHaveTextContent('Requested changes');
  });

  it('refuses an empty or over-long comment with the shared schema’s message, sending nothing', async () => {
    const { requests } = mockApi({
      'auth.me': { user: makeUser() },
      'articles.comments': { comments: [] },
    });
    renderWithProviders(<CommentThread articleId="a1" platform="blog" />);
    const user = userEvent.setup();
    await screen.findByText('No comments yet.');
    await user.click(screen.getByRole('button', { name: 'Comment' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Write a comment first');
    const box = screen.getByLabelText('Add a comment');
    await user.click(box);
    await user.paste('x'.repeat(COMMENT_MAX_CHARS + 1));
    await user.click(screen.getByRole('button', { name: 'Comment' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('at most 2000 characters'));
    expect(screen.getByText(`${COMMENT_MAX_CHARS + 1} / ${COMMENT_MAX_CHARS}`)).toBeInTheDocument();
    expect(requests.filter((r) => r.route === 'articles.addComment')).toHaveLength(0);
  });

  it('adds a comment to the thread and lets its author delete it', async () => {
    let stored: ArticleComment[] = [];
    const { requests } = mockApi({
      'auth.me': { user: makeUser({ _id: 'u1' }) },
      'articles.comments': () => ({ comments: stored }),
      'articles.addComment': (request) => {
        const made = comment({ id: 'c9', authorId: 'u1', authorName: 'Jane Doe', text: request.body.text });
        stored = [made];
        return { comment: made };
      },
      'articles.deleteComment': () => {
        stored = [];
        return { message: 'Comment deleted' };
      },
    });
    renderWithProviders(<CommentThread articleId="a1" platform="blog" />);
    const user = userEvent.setup();
    await screen.findByText('No comments yet.');
    await user.type(screen.getByLabelText('Add a comment'), 'Shorter title?');
    await user.click(screen.getByRole('button', { name: 'Comment' }));
    const item = await within(thread()).findByRole('listitem');
    expect(item).toHaveTextContent('Jane Doe');
    expect(item).toHaveTextContent('Shorter title?');
    expect(screen.getByLabelText('Add a comment')).toHaveValue('');
    expect(requests.find((r) => r.route === 'articles.addComment')?.body).toEqual({
      platform: 'blog',
      text: 'Shorter title?',
    });

    await user.click(within(item).getByRole('button', { name: /Delete your comment/ }));
    expect(await screen.findByText('No comments yet.')).toBeInTheDocument();
    expect(requests.find((r) => r.route === 'articles.deleteComment')?.path).toBe('/api/articles/a1/comments/c9');
  });
});
