import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ChannelConnectionAnswer } from '@app/shared';
import { BlueskyPanel } from './BlueskyPanel';
import { BlueskyPanelMessages } from './messages';
import { ConnectionsStatus } from '../../components/settings/ConnectionsStatus';
import { findInPanelOnly, findPanelAlert, findToast, sentTo, settingsRoutes } from '../../test/settings';
import { mockApi, renderWithProviders } from '../../test/utils';

const PASSWORD = 'abcd-efgh-ijkl-mnop';
const status = (overrides: Partial<ChannelConnectionAnswer> = {}): ChannelConnectionAnswer => ({
  success: true,
  channel: 'bluesky',
  connected: false,
  fields: { handle: null, appPassword: null, serviceUrl: null },
  updatedAt: null,
  ...overrides,
});
const saved = status({
  connected: true,
  fields: { handle: 'alice.test', appPassword: '••••••••mnop', serviceUrl: 'https://pds.example.com' },
  updatedAt: '2025-03-04T13:05:00.000Z',
});

const panel = () => screen.getByRole('region', { name: 'Bluesky Integration' });
const field = (label: string) => within(panel()).getByLabelText(label);
const button = (name: string) => within(panel()).getByRole('button', { name });

function setup(routes: Parameters<typeof settingsRoutes>[0] = {}) {
  const api = mockApi(settingsRoutes({ 'channels.status': status(), ...routes }));
  const onReload = vi.fn();
  renderWithProviders(<BlueskyPanel onReload={onReload} />, { route: '/settings' });
  return { ...api, onReload, user: userEvent.setup() };
}

describe('Bluesky Integration panel', () => {
  it('says where to make an app password; Save sends handle, app password and PDS address, then shows it masked only', async () => {
    let connected = false;
    const { requests, user, onReload } = setup({
      'channels.status': () => (connected ? saved : status()),
      'channels.connect': () => {
        connected = true;
        return { ...saved, message: 'Connected to Bluesky as @alice.test' };
      },
    });
    expect(await within(panel()).findByText(/^Not connected\. Enter your handle/)).toBeInTheDocument();
    expect(within(panel()).getByText(BlueskyPanelMessages.appPasswordHelp)).toBeInTheDocument();
    expect(field('App password')).toHaveAttribute('type', 'password');
    expect(field('PDS address')).toHaveAttribute('placeholder', 'https://bsky.social');

    await user.type(field('Handle'), 'alice.test');
    await user.type(field('App password'), PASSWORD);
    await user.type(field('PDS address'), 'https://pds.example.com');
    await user.click(button('Save'));

    expect(await findToast('Connected to Bluesky as @alice.test')).toBeInTheDocument();
    const [put] = sentTo(requests, 'PUT', '/api/channels/bluesky/connection');
    expect(put?.body).toEqual({ handle: 'alice.test', appPassword: PASSWORD, serviceUrl: 'https://pds.example.com' });
    await waitFor(() => expect(within(panel()).getByText('••••••••mnop')).toBeInTheDocument());
    expect(field('App password')).toHaveValue('');
    expect(onReload).toHaveBeenCalled();
    expect(document.body.innerHTML).not.toContain(PASSWORD);
  });

  it("an empty PDS address is left to the server's default; a refusal shows the server's sentence", async () => {
    const refusal =
      'Enter an app password: four groups of four letters or digits, like abcd-efgh-ijkl-mnop. Create one in Bluesky under Settings > Privacy and security > App passwords; your account password is not accepted here.';
    const { requests, user } = setup({
      'channels.connect': { status: 400, body: { error: 'Bad Request', message: refusal } },
    });
    await within(panel()).findByText(/^Not connected\./);
    await user.type(field('Handle'), 'alice.test');
    await user.type(field('App password'), 'my-account-password');
    await user.click(button('Save'));
    await findPanelAlert(panel(), `Failed to save the connection: ${refusal}`);
    const [put] = sentTo(requests, 'PUT', '/api/channels/bluesky/connection');
    expect(put?.body).toEqual({ handle: 'alice.test', appPassword: 'my-account-password' });
  });

  it('no app password: the sentence at the field, nothing sent', async () => {
    const first = setup();
    await within(panel()).findByText(/^Not connected\./);
    await first.user.type(field('Handle'), 'alice.test');
    await first.user.click(button('Save'));
    expect(await findInPanelOnly(panel(), BlueskyPanelMessages.appPasswordRequired)).toBeInTheDocument();
    expect(sentTo(first.requests, 'PUT')).toHaveLength(0);
  });

  it("Test shows Bluesky's reason; Disconnect leaves it not connected", async () => {
    let connected = true;
    const { requests, user } = setup({
      'channels.status': () => (connected ? saved : status()),
      'channels.test': { success: false, message: 'Bluesky refused the app password', code: 'bluesky_auth' },
      'channels.disconnect': () => {
        connected = false;
        return { success: true, message: 'Bluesky disconnected' };
      },
    });
    await waitFor(() => expect(field('Handle')).toHaveValue('alice.test'));
    expect(field('PDS address')).toHaveValue('https://pds.example.com');
    await user.click(button('Test Connection'));
    await findPanelAlert(panel(), 'Connection failed: Bluesky refused the app password');
    expect(sentTo(requests, 'POST', '/api/channels/bluesky/test')[0]?.body).toEqual({});

    await user.click(button('Disconnect'));
    expect(await within(panel()).findByText(/^Not connected\./)).toBeInTheDocument();
    expect(sentTo(requests, 'DELETE', '/api/channels/bluesky/connection')).toHaveLength(1);
  });

  it('members who are not owners read one line: the handle, never the app password', async () => {
    mockApi(
      settingsRoutes({
        'channels.status': (request) =>
          request.params.channel === 'bluesky' ? saved : status({ channel: request.params.channel! }),
      }),
    );
    renderWithProviders(<ConnectionsStatus workspaceName="Team" />, { route: '/settings' });
    expect(await screen.findByText('Connected as @alice.test')).toBeInTheDocument();
    expect(screen.queryByText(/mnop/)).not.toBeInTheDocument();
  });
});
