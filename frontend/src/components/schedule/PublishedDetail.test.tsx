import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PublishedDetail, PublishNowButton } from './PublishedDetail';

/** The parts every Schedule card row shares (ArticleCard's own rows and channels/also.tsx). */
describe('a Schedule card row’s shared parts', () => {
  it('says when the post was published, in the zone, with its link opening a new tab; no link without an address', () => {
    const { rerender } = render(
      <PublishedDetail
        publishedAt="2026-03-04T15:05:00.000Z"
        url="https://blog.example.com/p/"
        viewOn="View on Example"
        timeZone="UTC"
      />,
    );
    expect(screen.getByText(/^Published/)).toHaveTextContent('Published Mar 4, 2026, 15:05 UTC · View on Example');
    const link = screen.getByRole('link', { name: 'View on Example (opens in a new tab)' });
    expect(link).toHaveAttribute('href', 'https://blog.example.com/p/');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    rerender(<PublishedDetail publishedAt={null} url={null} viewOn="View on Example" timeZone="UTC" />);
    expect(screen.queryByRole('link')).toBeNull();
  });

  it('Publish Now opens a dialog, its name completed for a screen reader', async () => {
    const onClick = vi.fn();
    render(<PublishNowButton sr="to Example" onClick={onClick} variant="secondary" />);
    const button = screen.getByRole('button', { name: 'Publish Now to Example' });
    expect(button).toHaveAttribute('aria-haspopup', 'dialog');
    expect(button).toHaveClass('btn--secondary');
    await userEvent.click(button);
    expect(onClick).toHaveBeenCalledOnce();
  });
});
