import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { VersionReview } from '@app/shared';
import { setCurrentWorkspaceId } from '../../lib/workspace';
import { makeArticle } from '../../test/articles';
import { makeUser, mockApi, renderWithProviders } from '../../test/utils';
import { ArticleCard } from '../schedule/ArticleCard';

/** Routes the route table is made to refuse in a test: the card must ask it (useCan), not rank roles itself. */
const refused = new Set<string>();
vi.mock('../../hooks/useWorkspaces', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../hooks/useWorkspaces')>();
  return {
    ...actual,
    useCan: () => {
      const may = actual.useCan();
      return (id: Parameters<typeof may>[0]) => !refused.has(id) && may(id);
    },
  };
});

/** docs/product.md (Workspaces, Review): a team version's review on its Schedule card. */
const NOW = new Date('2026-05-10T12:00:00.000Z');
const SLOT = '2026-05-10T09:00:00.000Z';
const team = { id: 'team1', name: 'Acme', personal: false, role: 'writer' as const };
const pending: VersionReview = {
  status: 'pending',
  stage: 1,
  mode: 'one',
  graceHours: 24,
  authors: ['u1'],
  submittedAt: '2026-05-09T09:00:00.000Z',
  approvals: [],
  changes: null,
  rev: 1,
};

function setup(role: 'writer' | 'reviewer', review: Partial<Record<'blog' | 'linkedin', VersionReview | null>>) {
  const api = mockApi({
    'auth.me': { user: makeUser({ _id: role === 'writer' ? 'u1' : 'u2' }) },
    'workspaces.list': { workspaces: [{ ...team, role }] },
    'workspaces.review': { success: true, personal: false, settings: { mode: 'one', graceHours: 24 } },
    'approvals.approve': (req) => ({
      success: true,
      message: 'Approved',
      article: makeArticle(),
      published: null,
      ...(req.body ? {} : {}),
    }),
    'approvals.requestChanges': {
      success: true,
      message: 'Changes requested',
      article: makeArticle(),
      published: null,
    },
    'articles.unpublished': { articles: [] },
  });
  const article = makeArticle({ scheduled: { blog: SLOT, linkedin: null }, review });
  renderWithProviders(<ArticleCard article={article} now={NOW} timeZone="UTC" onPublish={vi.fn()} />);
  return api;
}

afterEach(() => {
  setCurrentWorkspaceId(undefined);
  refused.clear();
});

describe('the review on a team Schedule card', () => {
  it('reads "Waiting for approval" past the slot within the grace period; its author cannot approve it', async () => {
    setCurrentWorkspaceId(team.id);
    setup('writer', { blog: pending });
    const blog = screen.getByRole('region', { name: 'Blog' });
    expect(await within(blog).findByText('Waiting for approval')).toBeInTheDocument();
    expect(await within(blog).findByText('In review')).toBeInTheDocument();
    expect(within(blog).queryByRole('button', { name: 'Approve' })).toBeNull();
  });

  it('reads "Expired" past the grace period', async () => {
    setCurrentWorkspaceId(team.id);
    setup('writer', { blog: { ...pending, graceHours: 1 } });
    const blog = screen.getByRole('region', { name: 'Blog' });
    expect(await within(blog).findByText('Expired')).toBeInTheDocument();
  });

  it('a reviewer approves, or requests changes with a comment (required)', async () => {
    setCurrentWorkspaceId(team.id);
    const api = setup('reviewer', { blog: pending });
    const blog = screen.getByRole('region', { name: 'Blog' });
    await userEvent.click(await within(blog).findByRole('button', { name: 'Request changes' }));
    await userEvent.click(within(blog).getByRole('button', { name: 'Send request' }));
    expect(within(blog).getByRole('alert')).toHaveTextContent('the comment is required');
    expect(api.requests.some((r) => r.route === 'approvals.requestChanges')).toBe(false);
    await userEvent.type(within(blog).getByLabelText('What should change?'), 'Shorter intro');
    await userEvent.click(within(blog).getByRole('button', { name: 'Send request' }));
    await waitFor(() =>
      expect(api.requests.find((r) => r.route === 'approvals.requestChanges')?.body).toEqual({
        platform: 'blog',
        comment: 'Shorter intro',
      }),
    );
  });

  it('Approve and Submit each call their route with the version’s platform', async () => {
    setCurrentWorkspaceId(team.id);
    const api = setup('reviewer', { blog: pending });
    const blog = screen.getByRole('region', { name: 'Blog' });
    await userEvent.click(await within(blog).findByRole('button', { name: 'Approve' }));
    await waitFor(() =>
      expect(api.requests.find((r) => r.route === 'approvals.approve')).toMatchObject({
        params: { id: expect.any(String) },
        body: { platform: 'blog' },
      }),
    );
    cleanup();
    const asWriter = setup('writer', { blog: null });
    const draft = screen.getByRole('region', { name: 'Blog' });
    await userEvent.click(await within(draft).findByRole('button', { name: 'Submit for review' }));
    await waitFor(() =>
      expect(asWriter.requests.find((r) => r.route === 'approvals.submit')?.body).toEqual({ platform: 'blog' }),
    );
  });

  it('offers Submit, Approve and Request changes only where the route table lets the role call them', async () => {
    setCurrentWorkspaceId(team.id);
    setup('writer', { blog: null });
    const blog = screen.getByRole('region', { name: 'Blog' });
    expect(await within(blog).findByRole('button', { name: 'Submit for review' })).toBeInTheDocument();
    cleanup();
    refused.add('approvals.submit');
    setup('writer', { blog: null });
    const refusedBlog = screen.getByRole('region', { name: 'Blog' });
    expect(await within(refusedBlog).findByText('Not submitted for review')).toBeInTheDocument();
    expect(within(refusedBlog).queryByRole('button', { name: 'Submit for review' })).toBeNull();
    cleanup();
    refused.add('approvals.approve');
    setup('reviewer', { blog: pending });
    const asReviewer = screen.getByRole('region', { name: 'Blog' });
    expect(await within(asReviewer).findByText('In review')).toBeInTheDocument();
    expect(within(asReviewer).queryByRole('button', { name: 'Approve' })).toBeNull();
    expect(within(asReviewer).queryByRole('button', { name: 'Request changes' })).toBeNull();
  });

  it('a personal workspace shows none of it', () => {
    mockApi({ 'auth.me': { user: makeUser() } });
    renderWithProviders(
      <ArticleCard
        article={makeArticle({ scheduled: { blog: SLOT, linkedin: null } })}
        now={NOW}
        timeZone="UTC"
        onPublish={vi.fn()}
      />,
    );
    expect(screen.queryByText('Waiting for approval')).toBeNull();
    expect(screen.queryByText(/review/i)).toBeNull();
  });
});
