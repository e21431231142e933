import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ScheduleButton } from './ScheduleButton';

describe('ScheduleButton (a Schedule card row’s Schedule and Reschedule)', () => {
  it('names its row for assistive technology, says it opens a dialog, and is primary only when asked', async () => {
    const onClick = vi.fn();
    render(
      <>
        <ScheduleButton label="Schedule" row="Blog post" onClick={onClick} primary />
        <ScheduleButton label="Reschedule" row="Social post" onClick={onClick} />
      </>,
    );
    const schedule = screen.getByRole('button', { name: 'Schedule Blog post' });
    const reschedule = screen.getByRole('button', { name: 'Reschedule Social post' });
    expect(schedule).toHaveAttribute('aria-haspopup', 'dialog');
    expect(reschedule).toHaveAttribute('aria-haspopup', 'dialog');
    expect(schedule).toHaveClass('btn', 'btn--primary', 'btn--sm');
    expect(reschedule).toHaveClass('btn', 'btn--secondary', 'btn--sm');
    await userEvent.click(reschedule);
    expect(onClick).toHaveBeenCalledTimes(1);
  });
});
