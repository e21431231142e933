import { afterEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { WorkspaceSummary } from '@app/shared';
import App from '../App';
import { currentWorkspaceId, setCurrentWorkspaceId } from '../lib/workspace';
import { makeUser, mockApi, renderWithProviders } from '../test/utils';

const user = makeUser();
const personal: WorkspaceSummary = { id: user._id, name: 'Personal', personal: true, role: 'owner' };
const team: WorkspaceSummary = { id: 'team-1', name: 'Acme Marketing', personal: false, role: 'reviewer' };

afterEach(() => setCurrentWorkspaceId(undefined));

describe('the workspace switcher (docs/product.md, Workspaces)', () => {
  it('is not there for a user alone: the top bar is as before', async () => {
    mockApi({ 'auth.me': { user }, 'workspaces.list': { workspaces: [personal] } });
    renderWithProviders(<App />, { route: '/settings' });
    const banner = await screen.findByRole('banner');
    await screen.findByRole('heading', { name: 'Settings', level: 1 });
    expect(within(banner).queryByRole('combobox', { name: 'Workspace' })).toBeNull();
    expect(within(banner).getByRole('button', { name: '+ New Article' })).toBeVisible();
  });

  it(
    'switches: later calls name the workspace, and the page shows what the role allows',
    { timeout: 15_000 },
    async () => {
      const { fetchMock } = mockApi({
        'auth.me': { user },
        'workspaces.list': { workspaces: [personal, team] },
      });
      renderWithProviders(<App />, { route: '/dashboard' });
      const select = await screen.findByRole('combobox', { name: 'Workspace' });
      expect(
        within(select)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(['Personal', 'Acme Marketing (Reviewer)']);

      await userEvent.selectOptions(select, 'team-1');
      expect(currentWorkspaceId()).toBe('team-1');
      // A reviewer creates nothing, and the connections are the owners'.
      await waitFor(() => expect(screen.queryByRole('button', { name: '+ New Article' })).toBeNull());

      const headerOf = (call: Parameters<typeof fetch>) =>
        (call[1]?.headers as Record<string, string> | undefined)?.['X-Workspace'];
      // The dashboard is fetched again, for the team.
      await waitFor(() => expect(fetchMock.mock.calls.some((call) => headerOf(call) === 'team-1')).toBe(true));
      await userEvent.click(
        within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: 'Settings' }),
      );
      expect(await screen.findByText(/are set by its owners/)).toHaveTextContent('Acme Marketing');

      const calls = fetchMock.mock.calls.length;
      await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Workspace' }), personal.id);
      expect(currentWorkspaceId()).toBeUndefined();
      await screen.findByRole('button', { name: '+ New Article' });
      // Back in the personal workspace: the owner's panels load again, with no header, as for a user alone.
      await waitFor(() => expect(fetchMock.mock.calls.length).toBeGreaterThan(calls));
      expect(fetchMock.mock.calls.slice(calls).every((call) => headerOf(call) === undefined)).toBe(true);
    },
  );
});
