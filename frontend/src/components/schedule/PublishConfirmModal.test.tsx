import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Platform } from '@app/shared';
import { PublishConfirmModal } from './PublishConfirmModal';
import { makeArticle } from '../../test/articles';
import { mockApi, renderWithProviders } from '../../test/utils';

/** A refusal of the publish call with this text and code, as the server sends it. */
const refusal = (message: string, code: string) => ({ status: 400, body: { error: message, message, code } });

async function publishRefused(platform: Platform, message: string, code: string) {
  const route = platform === 'blog' ? 'wordpress.publish' : 'linkedin.publish';
  mockApi({ [route]: refusal(message, code) });
  renderWithProviders(
    <PublishConfirmModal article={makeArticle()} platform={platform} onClose={vi.fn()} onPublished={vi.fn()} />,
  );
  await userEvent.setup().click(screen.getByRole('button', { name: 'Confirm' }));
  return within(screen.getByRole('dialog')).findByRole('alert');
}

/** How often `phrase` occurs in `text`, ignoring case. */
const count = (text: string, phrase: string) => text.toLowerCase().split(phrase.toLowerCase()).length - 1;

describe('PublishConfirmModal: a refusal says what to do next, once', () => {
  it('WordPress not connected: the server names the step, and that step is the link (no second copy after it)', async () => {
    const alert = await publishRefused(
      'blog',
      'Connect WordPress in Settings first (WordPress Integration).',
      'wordpress_not_connected',
    );
    expect(alert.textContent).toBe(
      'Error publishing blog content: Connect WordPress in Settings first (WordPress Integration).',
    );
    expect(count(alert.textContent!, 'Connect WordPress in Settings')).toBe(1);
    expect(within(alert).getByRole('link', { name: 'Connect WordPress in Settings' })).toHaveAttribute(
      'href',
      '/settings',
    );
  });

  it('an expired LinkedIn connection: "reconnect LinkedIn in Settings" once, as the link', async () => {
    const alert = await publishRefused(
      'linkedin',
      'Your LinkedIn connection has expired: reconnect LinkedIn in Settings.',
      'linkedin_token_invalid',
    );
    expect(alert.textContent).toBe(
      'Error publishing LinkedIn content: Your LinkedIn connection has expired: reconnect LinkedIn in Settings.',
    );
    expect(within(alert).getByRole('link', { name: 'reconnect LinkedIn in Settings' })).toHaveAttribute(
      'href',
      '/settings',
    );
  });

  it('a reason that names no step gets the step after it, as its own sentence', async () => {
    const alert = await publishRefused(
      'linkedin',
      'LinkedIn did not accept the access token.',
      'linkedin_token_invalid',
    );
    expect(alert.textContent).toBe(
      'Error publishing LinkedIn content: LinkedIn did not accept the access token. Reconnect LinkedIn in Settings.',
    );
    expect(within(alert).getByRole('link', { name: 'Reconnect LinkedIn in Settings' })).toBeInTheDocument();
  });

  it('the offline-draft note: what the server says, and "Open the editor" (where the line is highlighted)', async () => {
    const message =
      'Remove the offline-draft note before publishing: line 1 of the blog text is still the note "Offline draft — …".';
    const alert = await publishRefused('blog', message, 'offline_draft_note');
    expect(alert.textContent).toBe(`Error publishing blog content: ${message} Open the editor.`);
    expect(within(alert).getByRole('link', { name: 'Open the editor' })).toHaveAttribute(
      'href',
      '/create?articleId=a1',
    );
  });
});
