import { expect, it, vi } from 'vitest';
import { preloadPage } from './App';

// Which lazily loaded modules were fetched (their mocks record their evaluation).
const loaded = vi.hoisted(() => new Set<string>());
vi.mock('./components/Shell', () => (loaded.add('Shell'), { default: () => null }));
vi.mock('./pages/Dashboard', () => (loaded.add('Dashboard'), { default: () => null }));
vi.mock('./pages/Create', () => (loaded.add('Create'), { default: () => null }));
vi.mock('./pages/Settings', () => (loaded.add('Settings'), { default: () => null }));
vi.mock('./pages/Calendar', () => (loaded.add('Calendar'), { default: () => null }));

const settle = () => new Promise((done) => setTimeout(done, 50));

it('a page behind the login opened directly is fetched with the shell before the session check ends; the welcome page fetches neither', async () => {
  for (const path of ['/', '/welcome', '/approve', '/dashboardx']) preloadPage(path);
  await settle();
  expect([...loaded]).toEqual([]);

  preloadPage('/dashboard');
  await vi.waitFor(() => expect(loaded).toEqual(new Set(['Shell', 'Dashboard'])));
  preloadPage('/settings/integrations');
  await vi.waitFor(() => expect(loaded.has('Settings')).toBe(true));
  expect(loaded.has('Create')).toBe(false);
  // The calendar is its own chunk, fetched only for its page.
  expect(loaded.has('Calendar')).toBe(false);
  preloadPage('/calendar');
  await vi.waitFor(() => expect(loaded.has('Calendar')).toBe(true));
});
