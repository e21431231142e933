import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import App from '../App';
import { makeUser, mockApi, renderWithProviders } from '../test/utils';

// Each signed-in route: its page heading (level 1), and the name the top bar and the browser tab give it.
const PAGES = [
  { route: '/dashboard', heading: 'Dashboard', name: 'Dashboard' },
  { route: '/create', heading: 'Create Article', name: 'Create Article' },
  { route: '/schedule', heading: 'Article Schedule', name: 'Schedule' },
  { route: '/calendar', heading: 'Content Calendar', name: 'Calendar' },
  { route: '/history', heading: 'Published Articles History', name: 'History' },
  { route: '/settings', heading: 'Settings', name: 'Settings' },
  { route: '/sheets-import', heading: 'Import Articles from Google Sheets', name: 'Sheets Import' },
  { route: '/admin', heading: 'Admin', name: 'Admin' },
] as const;

describe('shell: the top bar and the browser tab name the current page', () => {
  it.each(PAGES)('$route: the top bar and the tab say $name', async ({ route, heading, name }) => {
    mockApi({ 'auth.me': { user: makeUser({ role: 'admin' }) }, 'admin.listUsers': { users: [] } });
    renderWithProviders(<App />, { route });
    await screen.findByRole('heading', { name: heading, level: 1 });

    const title = within(screen.getByRole('banner')).getByTestId('topbar-title');
    expect(title).toHaveTextContent(new RegExp(`^${name}$`));
    expect(document.title).toBe(`${name} · Content Publisher`);
  });

  it('/approve (outside the shell) names the tab too', async () => {
    mockApi({ 'auth.me': { user: makeUser() } });
    renderWithProviders(<App />, { route: '/approve?token=x' });
    await screen.findByRole('heading', { level: 1 });
    expect(document.title).toBe('Approval · Content Publisher');
  });
});
