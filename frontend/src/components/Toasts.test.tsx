import { describe, expect, it } from 'vitest';
import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { panelToast, settingsToast, toast } from '../lib/toast';
import { renderWithProviders } from '../test/utils';

describe('toasts', () => {
  it('shows default toasts top-right and Alt+T moves focus to them', async () => {
    renderWithProviders(<button type="button">elsewhere</button>);
    const user = userEvent.setup();
    act(() => {
      toast.success('Saved');
    });
    const text = await screen.findByText('Saved');
    expect(text.closest('.Toastify__toast-container')).toHaveClass('Toastify__toast-container--top-right');

    await user.click(screen.getByRole('button', { name: 'elsewhere' }));
    await user.keyboard('{Alt>}t{/Alt}');
    expect(text.closest('.Toastify__toast')).toContainElement(document.activeElement as HTMLElement);
  });

  it('settingsToast shows toasts top-right, where the Settings panels keep no buttons under them at the bottom of the screen', async () => {
    renderWithProviders(<div />);
    act(() => {
      settingsToast.success('Settings saved');
    });
    const text = await screen.findByText('Settings saved');
    expect(text.closest('.Toastify__toast-container')).toHaveClass('Toastify__toast-container--top-right');
  });

  it('panelToast shows toasts bottom-right', async () => {
    renderWithProviders(<div />);
    act(() => {
      panelToast.error('Settings failed');
    });
    const text = await screen.findByText('Settings failed');
    expect(text.closest('.Toastify__toast-container')).toHaveClass('Toastify__toast-container--bottom-right');
  });
});
