import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import SettingsPage from '../../pages/Settings';
import { CHANNEL_REGISTRY } from '../../channels/registry';
import { makeArticle } from '../../test/articles';
import { settingsRoutes } from '../../test/settings';
import { mockApi, renderWithProviders } from '../../test/utils';

const slot = '2031-05-01T09:00:00.000Z';

describe('Settings: connection health', () => {
  it('shows what the check before a scheduled slot found about a connection, once, above that channel’s panel', async () => {
    // The first channel of the registry (its panel comes first), named by its id only.
    const channel = CHANNEL_REGISTRY[0]!.id;
    const problem = {
      channel,
      code: `${channel}_wrong_password`,
      message: 'The site refused the saved password.',
      fix: 'settings' as const,
    };
    const health = (p: typeof problem) => ({
      blog: { scheduledFor: slot, windows: ['24h' as const], checkedAt: slot, problems: [p] },
    });
    mockApi(
      settingsRoutes({
        'articles.unpublished': {
          articles: [
            makeArticle({ _id: 'a1', id: 'a1', health: health(problem) }),
            makeArticle({ _id: 'a2', id: 'a2', health: health(problem) }),
            // A problem put right in the editor is not Settings'.
            makeArticle({
              _id: 'a3',
              id: 'a3',
              health: health({
                ...problem,
                code: 'offline_draft_note',
                message: 'Remove the note.',
                fix: 'editor' as never,
              }),
            }),
          ],
        },
      }),
    );
    renderWithProviders(<SettingsPage />, { route: '/settings' });
    const notes = await screen.findAllByText(
      'Needs attention before a scheduled post: The site refused the saved password.',
    );
    expect(notes).toHaveLength(1);
    expect(screen.queryByText(/Remove the note/)).not.toBeInTheDocument();
  });

  it('says what to do on Settings itself (below, in the panel), not to go to Settings, for every version’s note', async () => {
    const entry = CHANNEL_REGISTRY[0]!;
    const problem = (code: string, message: string) => ({ channel: entry.id, code, message, fix: 'settings' as const });
    const note = (p: ReturnType<typeof problem>) => ({
      scheduledFor: slot,
      windows: ['1h' as const],
      checkedAt: slot,
      problems: [p],
    });
    mockApi(
      settingsRoutes({
        'articles.unpublished': {
          articles: [
            makeArticle({
              _id: 'a1',
              id: 'a1',
              health: {
                blog: note(problem('not_connected', `${entry.label} is not connected. Connect it in Settings.`)),
              },
            }),
            // A channel's own version's note (keyed by its version id) counts as the others do.
            makeArticle({
              _id: 'a2',
              id: 'a2',
              health: {
                ownversion: note(
                  problem('refused', `The password was refused. Fix the ${entry.label} connection in Settings.`),
                ),
              },
            }),
          ],
        },
      }),
    );
    renderWithProviders(<SettingsPage />, { route: '/settings' });
    expect(
      await screen.findByText(
        `Needs attention before a scheduled post: ${entry.label} is not connected. Connect it below.`,
      ),
    ).toBeInTheDocument();
    expect(
      screen.getByText(
        `Needs attention before a scheduled post: The password was refused. Fix the ${entry.label} connection below.`,
      ),
    ).toBeInTheDocument();
    expect(screen.queryByText(/in Settings/)).not.toBeInTheDocument();
  });
});
