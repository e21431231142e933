import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import App from '../App';
import { makeUser, mockApi, renderWithProviders } from '../test/utils';
import { PAGES } from './pageTable';

// Each page module stands in as a heading naming it, so a route shows which module it renders.
const standIn = vi.hoisted(() => (module: string) => ({
  default: Object.assign(() => <h1>{`module ${module}`}</h1>, { displayName: module }),
}));
vi.mock('./Dashboard', () => standIn('Dashboard'));
vi.mock('./Create', () => standIn('Create'));
vi.mock('./Schedule', () => standIn('Schedule'));
vi.mock('./Calendar', () => standIn('Calendar'));
vi.mock('./History', () => standIn('History'));
vi.mock('./Settings', () => standIn('Settings'));
vi.mock('./SheetsImport', () => standIn('SheetsImport'));
vi.mock('./Admin', () => standIn('Admin'));
vi.mock('./Approve', () => standIn('Approve'));
vi.mock('./Review', () => standIn('Review'));
vi.mock('./Workspaces', () => standIn('Workspaces'));
vi.mock('./Invite', () => standIn('Invite'));

describe('the page table (pages/pageTable.ts) is all a page needs', () => {
  it('has one entry per path', () => {
    const paths = PAGES.map((page) => page.path);
    expect(new Set(paths).size).toBe(paths.length);
  });

  it.each(PAGES)(
    '$path: its route renders the module it loads, the top bar and the tab name it, and its nav link leads there',
    async (page) => {
      const { default: module } = await page.load();
      mockApi({ 'auth.me': { user: makeUser({ role: 'admin' }) } });
      renderWithProviders(<App />, { route: page.path });

      await screen.findByRole('heading', { level: 1, name: `module ${module.displayName}` });
      expect(screen.getByTestId('location')).toHaveTextContent(new RegExp(`^${page.path}$`));
      expect(document.title).toBe(`${page.title} · Content Publisher`);
      if (page.access === 'public') return; // outside the shell: no top bar, no navigation

      expect(within(screen.getByRole('banner')).getByTestId('topbar-title')).toHaveTextContent(
        new RegExp(`^${page.title}$`),
      );
      const nav = screen.getByRole('navigation', { name: 'Main' });
      if (!page.nav) {
        expect(within(nav).queryByRole('link', { current: 'page' })).toBeNull();
        return;
      }
      const link = within(nav).getByRole('link', { name: page.nav.label });
      expect(link).toHaveAttribute('href', page.path);
      expect(link).toHaveAttribute('aria-current', 'page');
    },
  );

  it("an admin's navigation: every nav entry of the table, in the order Dashboard, Create, Schedule, Calendar, History, Settings, Admin", async () => {
    mockApi({ 'auth.me': { user: makeUser({ role: 'admin' }) } });
    renderWithProviders(<App />, { route: '/dashboard' });
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((link) => [link.textContent, link.getAttribute('href')]),
    ).toEqual([
      ['Dashboard', '/dashboard'],
      ['Create', '/create'],
      ['Schedule', '/schedule'],
      ['Calendar', '/calendar'],
      ['History', '/history'],
      ['Settings', '/settings'],
      ['Admin', '/admin'],
    ]);
  });
});
