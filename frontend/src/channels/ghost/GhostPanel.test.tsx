import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ChannelConnectionAnswer } from '@app/shared';
import { GhostMessages } from '@app/shared/channels/ghost';
import { GhostPanel } from './GhostPanel';
import { findInPanelOnly, findPanelAlert, findToast, sentTo, settingsRoutes } from '../../test/settings';
import { mockApi, renderWithProviders } from '../../test/utils';

const KEY = `${'a1'.repeat(12)}:${'b2'.repeat(32)}`;
const status = (overrides: Partial<ChannelConnectionAnswer> = {}): ChannelConnectionAnswer => ({
  success: true,
  channel: 'ghost',
  connected: false,
  fields: { siteUrl: null, adminApiKey: null },
  updatedAt: null,
  ...overrides,
});
const saved = status({
  connected: true,
  fields: { siteUrl: 'https://news.example.com', adminApiKey: `${'a1'.repeat(12)}:••••••••b2b2` },
  updatedAt: '2025-03-04T13:05:00.000Z',
});

const panel = () => screen.getByRole('region', { name: 'Ghost Integration' });
const siteUrl = () => within(panel()).getByLabelText('Admin API URL');
const key = () => within(panel()).getByLabelText('Admin API key');
const button = (name: string) => within(panel()).getByRole('button', { name });

function setup(routes: Parameters<typeof settingsRoutes>[0] = {}) {
  const api = mockApi(settingsRoutes({ 'channels.status': status(), ...routes }));
  const onReload = vi.fn();
  renderWithProviders(<GhostPanel onReload={onReload} />, { route: '/settings' });
  return { ...api, onReload, user: userEvent.setup() };
}

describe('Ghost Integration panel', () => {
  it('a key of the wrong shape: the sentence at the field, focus on it, nothing sent (Save or Test)', async () => {
    const { requests, user } = setup();
    expect(await within(panel()).findByText(/^Not connected\. Enter/)).toBeInTheDocument();
    expect(key()).toHaveAttribute('type', 'password');

    await user.type(siteUrl(), 'https://news.example.com');
    await user.type(key(), 'abc:def');
    await user.click(button('Save'));
    expect(await findInPanelOnly(panel(), GhostMessages.adminKeyShape)).toBeInTheDocument();
    expect(key()).toHaveAttribute('aria-invalid', 'true');
    expect(key()).toHaveFocus();

    // A Content API key (26 hex) is named as such.
    await user.clear(key());
    await user.type(key(), 'c'.repeat(26));
    await user.click(button('Test Connection'));
    expect(await findInPanelOnly(panel(), GhostMessages.contentKeyGiven)).toBeInTheDocument();

    expect(sentTo(requests, 'PUT')).toHaveLength(0);
    expect(sentTo(requests, 'POST')).toHaveLength(0);
  });

  it("Save sends the site and key to the channel, shows the server's message, then the key masked (never in a field)", async () => {
    let connected = false;
    const { requests, user, onReload } = setup({
      'channels.status': () => (connected ? saved : status()),
      'channels.connect': () => {
        connected = true;
        return { ...saved, message: 'Connected to News (Ghost 6.0)' };
      },
    });
    await within(panel()).findByText(/^Not connected\. Enter/);
    await user.type(siteUrl(), 'https://news.example.com');
    await user.type(key(), KEY);
    await user.click(button('Save'));

    expect(await findToast('Connected to News (Ghost 6.0)')).toBeInTheDocument();
    const [put] = sentTo(requests, 'PUT', '/api/channels/ghost/connection');
    expect(put?.body).toEqual({ siteUrl: 'https://news.example.com', adminApiKey: KEY });
    await waitFor(() => expect(within(panel()).getByText(saved.fields.adminApiKey!)).toBeInTheDocument());
    expect(key()).toHaveValue('');
    expect(onReload).toHaveBeenCalled();
    expect(document.body.innerHTML).not.toContain('b2'.repeat(32));
  });

  it("a refused test shows the server's reason beside the buttons; connected, a blank key tests the saved connection", async () => {
    const { requests, user } = setup({
      'channels.status': saved,
      'channels.test': { success: false, message: 'Ghost refused the Admin API key', code: 'ghost_unauthorized' },
    });
    await waitFor(() => expect(siteUrl()).toHaveValue('https://news.example.com'));
    await user.click(button('Test Connection'));
    await findPanelAlert(panel(), 'Connection failed: Ghost refused the Admin API key');
    const [post] = sentTo(requests, 'POST', '/api/channels/ghost/test');
    expect(post?.body).toEqual({});
  });

  it('Disconnect removes the connection and the panel reads "Not connected"', async () => {
    let connected = true;
    const { requests, user } = setup({
      'channels.status': () => (connected ? saved : status()),
      'channels.disconnect': () => {
        connected = false;
        return { success: true, message: 'Ghost disconnected' };
      },
    });
    await user.click(await within(panel()).findByRole('button', { name: 'Disconnect' }));
    expect(await within(panel()).findByText(/^Not connected\. Enter/)).toBeInTheDocument();
    expect(sentTo(requests, 'DELETE', '/api/channels/ghost/connection')).toHaveLength(1);
    expect(within(panel()).queryByRole('button', { name: 'Disconnect' })).not.toBeInTheDocument();
  });
});
