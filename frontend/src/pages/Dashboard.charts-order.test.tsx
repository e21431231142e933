import { expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { CHANNEL_IDS, dashboardFromArticles, needsAttention } from '@app/shared';
import DashboardPage from './Dashboard';
import { deferred, makeUser, mockApi, renderWithProviders } from '../test/utils';

// The chart code arrives when the test says, as on a slow network.
const chartCode = vi.hoisted(() => {
  let release!: () => void;
  const arrived = new Promise<void>((resolve) => (release = resolve));
  return { arrived, release };
});
vi.mock('../components/dashboard/charts', async (importOriginal) => {
  await chartCode.arrived;
  return importOriginal();
});

// jsdom has no layout: give the charts a fixed size instead of ResponsiveContainer's measurement.
vi.mock('recharts', async (importOriginal) => (await import('../test/recharts')).fixedSizeRecharts(importOriginal));

// docs/testing.md, Performance budgets (Lighthouse on the dashboard): two charts shown in the same moment were drawn
// in one task, React rendering the pending transitions together.
it('draws the charts one at a time, each once the one before it is on the page', async () => {
  const answer = deferred<void>();
  mockApi({
    'auth.me': { user: makeUser({ timezone: 'UTC' }) },
    'dashboard.get': async () => {
      await answer.promise;
      return {
        timeZone: 'UTC',
        ...dashboardFromArticles([], 'UTC', new Date(), CHANNEL_IDS.slice(0, 1)),
        attention: needsAttention([]),
      };
    },
  });
  const drawn: number[] = [];
  const observer = new MutationObserver(() => {
    const count = document.querySelectorAll('.recharts-wrapper').length;
    if (count !== (drawn.at(-1) ?? 0)) drawn.push(count);
  });
  observer.observe(document.body, { childList: true, subtree: true });
  try {
    renderWithProviders(<DashboardPage />, { route: '/dashboard' });
    answer.resolve();
    await screen.findByRole('region', { name: 'Content Status' });
    // Every chart's place is held while the chart code is on its way.
    await waitFor(() => expect(screen.getAllByRole('status', { name: 'Loading chart' })).toHaveLength(3));
    chartCode.release();
    await waitFor(() => expect(document.querySelectorAll('.recharts-wrapper')).toHaveLength(3));
  } finally {
    observer.disconnect();
  }
  expect(drawn).toEqual([1, 2, 3]);
});
