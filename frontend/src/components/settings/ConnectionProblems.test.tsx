import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import SettingsPage from '../../pages/Settings';
import { makeArticle } from '../../test/articles';
import { settingsRoutes } from '../../test/settings';
import { mockApi, renderWithProviders } from '../../test/utils';

const slot = '2031-05-01T09:00:00.000Z';

describe('Settings: connection health', () => {
  it('shows what the check before a scheduled slot found about a connection, once, above that channel’s panel', async () => {
    const problem = {
      channel: 'wordpress',
      code: 'wordpress_wrong_password',
      message: 'WordPress refused the application password.',
      fix: 'settings' as const,
    };
    const health = (p: typeof problem) => ({
      blog: { scheduledFor: slot, windows: ['24h' as const], checkedAt: slot, problems: [p] },
    });
    mockApi(
      settingsRoutes({
        'articles.unpublished': {
          articles: [
            makeArticle({ _id: 'a1', id: 'a1', scheduled: { blog: slot, linkedin: null }, health: health(problem) }),
            makeArticle({ _id: 'a2', id: 'a2', scheduled: { blog: slot, linkedin: null }, health: health(problem) }),
            // A problem put right in the editor is not Settings'.
            makeArticle({
              _id: 'a3',
              id: 'a3',
              scheduled: { blog: slot, linkedin: null },
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
      'Needs attention before a scheduled post: WordPress refused the application password.',
    );
    expect(notes).toHaveLength(1);
    expect(screen.queryByText(/Remove the note/)).not.toBeInTheDocument();
  });
});
