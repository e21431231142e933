import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import Review from './Review';
import type { ReviewLinkPreview } from '@app/shared/api';
import { mockApi, renderWithProviders } from '../test/utils';

const preview: ReviewLinkPreview = {
  success: true,
  action: 'approve',
  title: 'Lighthouse season',
  platform: 'blog',
  content: '# Lighthouse season\n\nThe lamps are lit.',
  workspaceName: 'Acme',
  reviewerName: 'Rae Reviewer',
  stage: 1,
  stages: 1,
  scheduledFor: null,
  timeZone: 'UTC',
  current: true,
  image: { generatedAt: '2026-05-01T10:00:00.000Z', description: 'a lighthouse' },
};

describe('Review page', () => {
  it('shows the version with its image, read by the link’s token (the page may be open without a session)', async () => {
    const { requests } = mockApi({ 'approvals.reviewPreview': preview });
    renderWithProviders(<Review />, { route: '/review?token=signed-review-token' });
    const post = await screen.findByRole('article', { name: 'WordPress post' });
    expect(within(post).getByRole('img', { name: 'Featured image: a lighthouse' })).toHaveAttribute(
      'src',
      `/api/review-links/image?token=signed-review-token&t=${encodeURIComponent(preview.image!.generatedAt)}`,
    );
    expect(requests.map((r) => r.route)).toEqual(['approvals.reviewPreview']);
  });

  it('shows no picture when the version has none', async () => {
    mockApi({ 'approvals.reviewPreview': { ...preview, image: null } });
    renderWithProviders(<Review />, { route: '/review?token=signed-review-token' });
    const post = await screen.findByRole('article', { name: 'WordPress post' });
    expect(within(post).queryByRole('img', { name: /a lighthouse/ })).toBeNull();
  });
});
