import { describe, expect, it } from 'vitest';
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ThemeSettings } from '../components/ThemeSettings';
import App from '../App';
import { THEME_STORAGE_KEY } from './useTheme';
import { mockApi, mockColorScheme, renderWithProviders } from '../test/utils';

const html = () => document.documentElement;

describe('theme', () => {
  it('defaults to Browser Default (system) and follows the system mode live', async () => {
    const system = mockColorScheme(false);
    renderWithProviders(<ThemeSettings />);

    expect(screen.getByLabelText<HTMLSelectElement>('Theme').value).toBe('system');
    expect(window.localStorage.getItem(THEME_STORAGE_KEY)).toBeNull();
    expect(html()).toHaveAttribute('data-theme', 'light');
    expect(screen.getByText(/Current theme:/)).toHaveTextContent('Current theme: Browser Default (Light)');

    act(() => system.setDark(true));
    expect(html()).toHaveAttribute('data-theme', 'dark');
    expect(screen.getByText(/Current theme:/)).toHaveTextContent('Current theme: Browser Default (Dark)');

    act(() => system.setDark(false));
    expect(html()).toHaveAttribute('data-theme', 'light');
  });

  it('stores the choice under app-theme and an explicit choice ignores the system mode', async () => {
    const system = mockColorScheme(false);
    renderWithProviders(<ThemeSettings />);
    const user = userEvent.setup();

    const select = screen.getByLabelText<HTMLSelectElement>('Theme');
    expect(Array.from(select.options).map((o) => [o.value, o.text])).toEqual([
      ['system', 'Browser Default'],
      ['light', 'Light'],
      ['dark', 'Dark'],
    ]);

    await user.selectOptions(select, 'dark');
    expect(window.localStorage.getItem(THEME_STORAGE_KEY)).toBe('dark');
    expect(html()).toHaveAttribute('data-theme', 'dark');
    expect(screen.getByText(/Current theme:/)).toHaveTextContent('Current theme: Dark');

    act(() => system.setDark(false));
    expect(html()).toHaveAttribute('data-theme', 'dark');

    await user.selectOptions(select, 'light');
    expect(window.localStorage.getItem(THEME_STORAGE_KEY)).toBe('light');
    expect(html()).toHaveAttribute('data-theme', 'light');
    act(() => system.setDark(true));
    expect(html()).toHaveAttribute('data-theme', 'light');

    await user.selectOptions(select, 'system');
    expect(window.localStorage.getItem(THEME_STORAGE_KEY)).toBe('system');
    expect(html()).toHaveAttribute('data-theme', 'dark');
  });

  it('reads the stored preference at start and ignores unknown values', () => {
    mockColorScheme(false);
    window.localStorage.setItem(THEME_STORAGE_KEY, 'dark');
    const first = renderWithProviders(<ThemeSettings />);
    expect(html()).toHaveAttribute('data-theme', 'dark');
    expect(screen.getByLabelText<HTMLSelectElement>('Theme').value).toBe('dark');
    first.unmount();

    window.localStorage.setItem(THEME_STORAGE_KEY, 'purple');
    renderWithProviders(<ThemeSettings />);
    expect(screen.getByLabelText<HTMLSelectElement>('Theme').value).toBe('system');
    expect(html()).toHaveAttribute('data-theme', 'light');
  });

  it('shows the light or dark logo variant in the auth modal according to the effective theme', async () => {
    const system = mockColorScheme(false);
    mockApi({ 'auth.me': { status: 401, body: { error: 'Not authenticated', message: 'Not authenticated' } } });
    renderWithProviders(<App />, { route: '/welcome' });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Login' }));
    const dialog = await screen.findByRole('dialog');

    const logo = () => within(dialog).getByRole('img', { name: 'Content Publisher' });
    expect(logo()).toHaveAttribute('data-variant', 'light');
    act(() => system.setDark(true));
    expect(logo()).toHaveAttribute('data-variant', 'dark');
    act(() => system.setDark(false));
    expect(logo()).toHaveAttribute('data-variant', 'light');
  });

  it('works without matchMedia (treated as light)', () => {
    renderWithProviders(<ThemeSettings />);
    expect(html()).toHaveAttribute('data-theme', 'light');
  });
});
