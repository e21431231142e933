import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { useInlineNotice } from './useInlineNotice';
import { InlineNotice } from '../components/InlineNotice';

function Harness() {
  const { notice, show } = useInlineNotice();
  return (
    <>
      <button type="button" onClick={() => show('success', 'Saved it')}>
        ok
      </button>
      <button type="button" onClick={() => show('error', 'Broke it')}>
        bad
      </button>
      <InlineNotice notice={notice} />
    </>
  );
}

afterEach(() => {
  vi.useRealTimers();
});

describe('inline notifications', () => {
  it('hide after 3 s with a 300 ms fade; a newer one restarts the clock', () => {
    vi.useFakeTimers();
    render(<Harness />);
    act(() => screen.getByRole('button', { name: 'ok' }).click());
    const notice = screen.getByRole('status');
    expect(notice).toHaveTextContent('Saved it');
    expect(notice).not.toHaveClass('is-leaving');

    act(() => vi.advanceTimersByTime(2999));
    expect(screen.getByRole('status')).not.toHaveClass('is-leaving');
    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByRole('status')).toHaveClass('is-leaving');
    act(() => vi.advanceTimersByTime(299));
    expect(screen.getByRole('status')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByRole('status')).not.toBeInTheDocument();

    act(() => screen.getByRole('button', { name: 'ok' }).click());
    act(() => vi.advanceTimersByTime(2000));
    act(() => screen.getByRole('button', { name: 'bad' }).click());
    expect(screen.getByRole('alert')).toHaveTextContent('Broke it');
    act(() => vi.advanceTimersByTime(2000));
    expect(screen.getByRole('alert')).not.toHaveClass('is-leaving');
    act(() => vi.advanceTimersByTime(1300));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

function LinkHarness() {
  const { notice, show, hold, release } = useInlineNotice();
  return (
    <>
      <button
        type="button"
        onClick={() =>
          show('success', 'Successfully published to WordPress!', {
            href: 'https://blog.example.com/p/',
            label: 'View on WordPress',
          })
        }
      >
        publish
      </button>
      <InlineNotice notice={notice} onHold={hold} onRelease={release} />
    </>
  );
}

describe('inline notifications with a link', () => {
  it('render the link in a new tab and stay while hovered or focused', () => {
    vi.useFakeTimers();
    render(<LinkHarness />);
    act(() => screen.getByRole('button', { name: 'publish' }).click());
    const notice = screen.getByRole('status');
    expect(notice).toHaveTextContent('Successfully published to WordPress!');
    const link = screen.getByRole('link', { name: 'View on WordPress (opens in a new tab)' });
    expect(link).toHaveAttribute('href', 'https://blog.example.com/p/');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');

    act(() => vi.advanceTimersByTime(2000));
    act(() => link.focus());
    act(() => vi.advanceTimersByTime(10_000));
    expect(screen.getByRole('status')).not.toHaveClass('is-leaving');

    // Leaving starts the full 3 s again.
    act(() => link.blur());
    act(() => vi.advanceTimersByTime(2999));
    expect(screen.getByRole('status')).not.toHaveClass('is-leaving');
    act(() => vi.advanceTimersByTime(301));
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });
});
