import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ActivityEntry } from '@app/shared';
import { ActivityList } from './ActivityList';
import { makeUser, mockApi, renderWithProviders } from '../../test/utils';

const entry = (id: string, overrides: Partial<ActivityEntry> = {}): ActivityEntry => ({
  id,
  name: 'ArticleEdited',
  at: '2025-03-04T10:05:00.000Z',
  actor: 'Wanda Writer',
  ...overrides,
});

describe('ActivityList', () => {
  it('stays closed (and unread) until opened, then lists newest first a page at a time', async () => {
    const { requests } = mockApi({
      'auth.me': { user: makeUser({ timezone: 'UTC' }) },
      'articles.activity': (request) =>
        request.path.includes('cursor=')
          ? { entries: [entry('1', { name: 'ArticleCreated', actor: 'Olive Owner' })], nextCursor: null }
          : {
              entries: [
                entry('3', { name: 'PublishSucceeded', platform: 'linkedin', actor: 'Scheduled run' }),
                entry('2', { platform: 'blog', until: '2025-03-04T10:09:00.000Z' }),
              ],
              nextCursor: 'next',
            },
    });
    renderWithProviders(<ActivityList articleId="a1" />);
    const user = userEvent.setup();
    const toggle = screen.getByRole('button', { name: 'Activity' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(requests.filter((r) => r.route === 'articles.activity')).toHaveLength(0);

    await user.click(toggle);
    const list = await screen.findByRole('list');
    let items = within(list).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      'Published on LinkedInScheduled runMar 4, 2025, 10:05 UTC',
      'Edited the blog versionWanda WriterMar 4, 2025, 10:05 UTC – Mar 4, 2025, 10:09 UTC',
    ]);

    await user.click(screen.getByRole('button', { name: 'Show more' }));
    await within(list).findByText('Created the article');
    items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(3);
    expect(items[2]).toHaveTextContent('Olive Owner');
    expect(screen.queryByRole('button', { name: 'Show more' })).not.toBeInTheDocument();
    expect(requests.filter((r) => r.route === 'articles.activity').map((r) => r.path)).toEqual([
      '/api/articles/a1/activity',
      '/api/articles/a1/activity?cursor=next',
    ]);
  });

  it('labels an event it does not know yet by its name', async () => {
    mockApi({
      'auth.me': { user: makeUser() },
      'articles.activity': { entries: [entry('9', { name: 'ReviewExpired', actor: null })], nextCursor: null },
    });
    renderWithProviders(<ActivityList articleId="a1" />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Activity' }));
    expect(await screen.findByText('Review expired')).toBeInTheDocument();
  });
});
