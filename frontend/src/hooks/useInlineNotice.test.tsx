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

describe('inline notifications (SPEC.md §4, §9)', () => {
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
