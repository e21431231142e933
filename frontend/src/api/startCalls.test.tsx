import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { CHANNEL_IDS, dashboardFromArticles, needsAttention } from '@app/shared';
import DashboardPage from '../pages/Dashboard';
import { setSessionUser } from '../hooks/useSession';
import { makeUser, mockApi, renderWithProviders, type RecordedRequest, type Reply } from '../test/utils';
import { dropStartedCalls, LAST_TIME_ZONE, STARTED_CALL_MAX_AGE_MS, startPageCalls } from './startCalls';

/** GET /api/dashboard for a user without articles, in the zone asked for. */
const emptyDashboard = (request: Pick<RecordedRequest, 'path'>): Reply<'dashboard.get'> => {
  const timeZone = new URLSearchParams(request.path.split('?')[1]).get('timeZone') ?? 'UTC';
  return {
    timeZone,
    ...dashboardFromArticles([], timeZone, new Date(), [...CHANNEL_IDS]),
    attention: needsAttention([]),
  };
};

const dashboardCalls = (requests: RecordedRequest[]) =>
  requests.filter((r) => r.route === 'dashboard.get').map((r) => r.path);

const trendsSummary = async () =>
  within(await screen.findByRole('region', { name: 'Publishing Trends' })).getByText(/published from/);

afterEach(() => dropStartedCalls());

// docs/testing.md, Performance budgets (Lighthouse on the dashboard): the call leaves with the app's first module.
describe('the dashboard opened directly (api/startCalls.ts)', () => {
  it('asks for its data before anything renders, in the zone it last asked in, and the page shows that answer', async () => {
    window.localStorage.setItem(LAST_TIME_ZONE, 'UTC');
    const { requests } = mockApi({
      'auth.me': { user: makeUser({ timezone: 'UTC' }) },
      'dashboard.get': emptyDashboard,
    });
    startPageCalls('/dashboard');
    expect(dashboardCalls(requests)).toEqual(['/api/dashboard?timeZone=UTC']);

    renderWithProviders(<DashboardPage />, { route: '/dashboard' });
    expect(await trendsSummary()).toHaveTextContent('UTC time');
    expect(dashboardCalls(requests)).toEqual(['/api/dashboard?timeZone=UTC']);
  });

  it('is not taken for another zone: the page asks in the user’s own, and the next visit asks anew', async () => {
    window.localStorage.setItem(LAST_TIME_ZONE, 'Asia/Tokyo');
    const { requests } = mockApi({
      'auth.me': { user: makeUser({ timezone: 'UTC' }) },
      'dashboard.get': emptyDashboard,
    });
    startPageCalls('/dashboard');
    const first = renderWithProviders(<DashboardPage />, { route: '/dashboard' });
    expect(await trendsSummary()).toHaveTextContent('UTC time');
    expect(dashboardCalls(requests)).toEqual(['/api/dashboard?timeZone=Asia%2FTokyo', '/api/dashboard?timeZone=UTC']);
    // The page keeps the zone it asked in, for the next time it is opened directly.
    await waitFor(() => expect(window.localStorage.getItem(LAST_TIME_ZONE)).toBe('UTC'));
    first.unmount();

    renderWithProviders(<DashboardPage />, { route: '/dashboard' });
    await trendsSummary();
    expect(dashboardCalls(requests)).toHaveLength(3);
  });

  it('is not taken after the session changed (signed in, out, another user)', async () => {
    window.localStorage.setItem(LAST_TIME_ZONE, 'UTC');
    const { requests } = mockApi({
      'auth.me': { user: makeUser({ timezone: 'UTC' }) },
      'dashboard.get': emptyDashboard,
    });
    startPageCalls('/dashboard');
    setSessionUser(new QueryClient(), makeUser({ _id: 'u2', timezone: 'UTC' }));
    renderWithProviders(<DashboardPage />, { route: '/dashboard' });
    await trendsSummary();
    expect(dashboardCalls(requests)).toEqual(['/api/dashboard?timeZone=UTC', '/api/dashboard?timeZone=UTC']);
  });

  it('is not taken once older than its age limit (another page shown first): the page asks anew', async () => {
    window.localStorage.setItem(LAST_TIME_ZONE, 'UTC');
    const { requests } = mockApi({
      'auth.me': { user: makeUser({ timezone: 'UTC' }) },
      'dashboard.get': emptyDashboard,
    });
    startPageCalls('/dashboard');
    const startedAt = Date.now();
    const now = vi.spyOn(Date, 'now').mockReturnValue(startedAt + STARTED_CALL_MAX_AGE_MS);
    try {
      renderWithProviders(<DashboardPage />, { route: '/dashboard' });
      await trendsSummary();
    } finally {
      now.mockRestore();
    }
    expect(dashboardCalls(requests)).toEqual(['/api/dashboard?timeZone=UTC', '/api/dashboard?timeZone=UTC']);
  });

  it('starts nothing for another page, or without a zone kept (never opened, or signed out since)', () => {
    const { requests } = mockApi({ 'dashboard.get': emptyDashboard });
    window.localStorage.setItem(LAST_TIME_ZONE, 'UTC');
    for (const path of ['/', '/welcome', '/schedule', '/dashboardx']) startPageCalls(path);
    window.localStorage.removeItem(LAST_TIME_ZONE);
    startPageCalls('/dashboard');
    expect(requests).toEqual([]);
  });
});
