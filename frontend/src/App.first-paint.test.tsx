import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import App, { SIGNED_IN_MARK } from './App';
import { LAST_TIME_ZONE } from './api/startCalls';
import { deferred, makeUser, mockApi, renderWithProviders, type Reply } from './test/utils';

describe('the welcome page prerendered into index.html (public/boot.js showed it)', () => {
  it('is rendered while the session check runs and stays, the same elements, when the visitor is signed out', async () => {
    const pending = deferred<Reply<'auth.me'>>();
    mockApi({ 'auth.me': () => pending.promise });
    renderWithProviders(<App welcomeShown />, { route: '/' });
    const heading = await screen.findByRole('heading', { level: 1, name: /publish content/i });
    expect(screen.getByRole('button', { name: 'Login' })).toBeInTheDocument();

    pending.resolve({ status: 401, body: { error: 'Not authenticated', message: 'Not authenticated' } });
    expect(await screen.findByTestId('location')).toHaveTextContent(/^\/welcome$/);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.getByRole('heading', { level: 1 })).toBe(heading);
    expect(window.localStorage.getItem(SIGNED_IN_MARK)).toBeNull();
  });

  it('gives way to the dashboard when the session check finds a user after all', async () => {
    const pending = deferred<Reply<'auth.me'>>();
    mockApi({ 'auth.me': () => pending.promise });
    renderWithProviders(<App welcomeShown />, { route: '/' });
    await screen.findByRole('button', { name: 'Register' });
    pending.resolve({ user: makeUser() });
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Register' })).not.toBeInTheDocument();
  });
});

describe('the signed-in mark public/boot.js reads', () => {
  it('is set once the session check finds a user, so the next load does not show the welcome page first', async () => {
    mockApi({ 'auth.me': { user: makeUser() } });
    renderWithProviders(<App />, { route: '/dashboard' });
    await screen.findByRole('heading', { name: 'Dashboard' });
    expect(window.localStorage.getItem(SIGNED_IN_MARK)).toBe('1');
  });

  it('is removed when the session check finds none, with the zone the dashboard asked in (api/startCalls.ts)', async () => {
    window.localStorage.setItem(SIGNED_IN_MARK, '1');
    window.localStorage.setItem(LAST_TIME_ZONE, 'Asia/Tokyo');
    mockApi({ 'auth.me': { status: 401, body: { error: 'Not authenticated', message: 'Not authenticated' } } });
    renderWithProviders(<App />, { route: '/dashboard' });
    await screen.findByRole('button', { name: 'Register' });
    expect(window.localStorage.getItem(SIGNED_IN_MARK)).toBeNull();
    expect(window.localStorage.getItem(LAST_TIME_ZONE)).toBeNull();
  });
});
