import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Approve from './Approve';
import type { ApprovalPreview } from '@app/shared/api';
import { mockApi, renderWithProviders } from '../test/utils';

const preview: ApprovalPreview = {
  success: true,
  title: 'Serverless cost control',
  platform: 'blog',
  scheduledFor: '2026-12-01T08:30:00.000Z',
  current: true,
  published: false,
  preview: '# Serverless cost control\n\nRight-size memory.',
  postUrl: null,
};

describe('Approve page', () => {
  it('shows what would be published and publishes only after the explicit confirmation', async () => {
    const { requests } = mockApi({
      'approvals.preview': preview,
      'approvals.confirm': {
        success: true,
        message: 'Published',
        platform: 'blog',
        postUrl: 'https://blog.example.com/p/1',
      },
    });
    renderWithProviders(<Approve />, { route: '/approve?token=signed-token-value' });
    expect(
      await screen.findByRole('heading', { name: 'Publish “Serverless cost control” to WordPress?' }),
    ).toBeInTheDocument();
    expect(screen.getByText(/Right-size memory/)).toBeInTheDocument();
    expect(requests.map((r) => r.path)).toEqual(['/api/approvals/preview']);
    expect(requests[0]!.body).toEqual({ token: 'signed-token-value' });

    await userEvent.click(screen.getByRole('button', { name: 'Approve and publish to WordPress' }));
    expect(await screen.findByText(/Published to WordPress\./)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'View the post' })).toHaveAttribute('href', 'https://blog.example.com/p/1');
    expect(requests.filter((r) => r.path === '/api/approvals/confirm')).toHaveLength(1);
  });

  it('explains an invalid or expired link and offers no approval', async () => {
    mockApi({
      'approvals.preview': {
        status: 400,
        body: { error: 'x', message: 'This approval link is not valid or has expired.' },
      },
    });
    renderWithProviders(<Approve />, { route: '/approve?token=bad-token-value-000000' });
    expect(await screen.findByRole('alert')).toHaveTextContent('This approval link is not valid or has expired.');
    expect(screen.queryByRole('button', { name: /Approve and publish/ })).not.toBeInTheDocument();
  });

  it('cannot approve a link for an earlier schedule', async () => {
    mockApi({ 'approvals.preview': { ...preview, current: false } });
    renderWithProviders(<Approve />, { route: '/approve?token=old-token-value-000000' });
    expect(await screen.findByText(/earlier schedule/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Approve and publish to WordPress' })).toBeDisabled();
  });
});
