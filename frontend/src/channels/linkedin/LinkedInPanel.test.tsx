import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { maskSecretUrl, type LinkedInStatus } from '@app/shared';
import type { WebhookAnswer } from '@app/shared/api';
import { LinkedInPanel } from './LinkedInPanel';
import { timing } from '../../lib/timing';
import {
  findInPanelOnly,
  findPanelAlert,
  findToast,
  linkedinStatus,
  queryToast,
  sentTo,
  settingsRoutes,
} from '../../test/settings';
import { mockApi, renderWithProviders } from '../../test/utils';

const DAY = 24 * 3600 * 1000;
const origin = () => window.location.origin;
const AUTH_URL = 'https://www.linkedin.com/oauth/v2/authorization?client_id=86app&state=signed';
/** The auth URL call, naming our own callback as the redirect URI. */
const authPath = () => `/api/linkedin/auth-url?redirectUri=${encodeURIComponent(`${origin()}/api/linkedin/callback`)}`;
const saved = linkedinStatus({ clientId: '86app', hasClientSecret: true });
const connected = (overrides: Partial<LinkedInStatus> = {}) =>
  linkedinStatus({
    clientId: '86app',
    hasClientSecret: true,
    connected: true,
    memberName: 'Lena Linked',
    expiresAt: new Date(Date.now() + 60 * DAY).toISOString(),
    ...overrides,
  });

const panel = () => screen.getByRole('region', { name: 'LinkedIn Integration' });
const button = (name: string) => within(panel()).getByRole('button', { name });
const location = () => screen.getByTestId('location');

function setup(routes: Parameters<typeof settingsRoutes>[0] = {}, route = '/settings') {
  const api = mockApi(settingsRoutes(routes));
  const onReload = vi.fn();
  renderWithProviders(<LinkedInPanel onReload={onReload} />, { route });
  return { ...api, onReload, user: userEvent.setup() };
}

/** A stand-in for the window window.open returns. */
function fakePopup() {
  return { closed: false, focus: vi.fn(), close: vi.fn() } as unknown as Window & { closed: boolean };
}

const savedTimings = { ...timing };
beforeEach(() => {
  timing.oauthPopupPollMs = 25;
  timing.copyFeedbackMs = 80;
});
afterEach(() => {
  Object.assign(timing, savedTimings);
  Reflect.deleteProperty(window, 'opener');
});

describe('LinkedIn Integration panel: credentials', () => {
  it('shows the redirect URL to register, Client ID and a required Client Secret when nothing is saved', async () => {
    const { user, requests } = setup();
    expect(await within(panel()).findByText(/^Not connected\. Save your/)).toBeInTheDocument();
    expect(within(panel()).getByText(`${origin()}/api/linkedin/callback`)).toBeInTheDocument();
    expect(within(panel()).getByLabelText('Client Secret')).toHaveAttribute('type', 'password');

    await user.click(button('Save Credentials'));
    expect(await findInPanelOnly(panel(), 'Client ID is required')).toBeInTheDocument();
    await user.type(within(panel()).getByLabelText('Client ID'), '86app');
    await user.click(button('Save Credentials'));
    expect(await findInPanelOnly(panel(), 'Client Secret is required')).toBeInTheDocument();
    expect(within(panel()).getByLabelText('Client Secret')).toHaveFocus();
    expect(sentTo(requests, 'POST')).toHaveLength(0);
  });

  it('editing: a blank secret keeps the saved one; Save Credentials posts, toasts and reloads', async () => {
    const { user, requests, onReload } = setup({
      'linkedin.status': saved,
      'linkedin.saveCredentials': { success: true, message: 'LinkedIn credentials saved' },
    });
    const id = within(panel()).getByLabelText('Client ID');
    await waitFor(() => expect(id).toHaveValue('86app'));
    const secret = within(panel()).getByLabelText('Client Secret');
    expect(secret).toHaveValue('');
    expect(secret).toHaveAttribute('placeholder', 'Leave blank to keep the saved secret');
    await user.click(button('Save Credentials'));
    expect(await findToast('LinkedIn credentials saved')).toBeInTheDocument();
    expect(sentTo(requests, 'POST')[0]).toMatchObject({
      path: '/api/linkedin/credentials',
      body: { clientId: '86app', clientSecret: '' },
    });
    expect(onReload).toHaveBeenCalled();

    // Another app's client id needs its own secret.
    await user.clear(id);
    await user.type(id, '77other');
    await user.click(button('Save Credentials'));
    expect(await findInPanelOnly(panel(), 'Enter the Client Secret for this Client ID')).toBeInTheDocument();
    expect(sentTo(requests, 'POST')).toHaveLength(1);
  });

  it('Test Connection: "LinkedIn connection test failed" with the reason', async () => {
    const { user } = setup({
      'linkedin.status': saved,
      'linkedin.testConnection': {
        success: false,
        error: 'LinkedIn rejected the client ID.',
        message: 'LinkedIn rejected the client ID.',
      },
    });
    await waitFor(() => expect(within(panel()).getByLabelText('Client ID')).toHaveValue('86app'));
    await user.click(button('Test Connection'));
    await findPanelAlert(panel(), 'LinkedIn connection test failed: LinkedIn rejected the client ID.');
  });
});

describe('LinkedIn Integration panel: authentication', () => {
  it('without saved credentials: "Please save LinkedIn credentials first" and no popup', async () => {
    const open = vi.spyOn(window, 'open');
    const { user, requests } = setup();
    await within(panel()).findByText(/^Not connected\. Save your/);
    await user.click(button('Authenticate with LinkedIn'));
    expect(await findToast('Please save LinkedIn credentials first')).toBeInTheDocument();
    expect(open).not.toHaveBeenCalled();
    expect(requests.some((r) => r.path.startsWith('/api/linkedin/auth-url'))).toBe(false);
  });

  it("opens the 600x700 popup on the authorization URL; the popup's message refreshes the status and toasts", async () => {
    const popup = fakePopup();
    const open = vi.spyOn(window, 'open').mockReturnValue(popup);
    let status = saved;
    const { user, requests } = setup({
      'linkedin.status': () => status,
      'linkedin.authUrl': { success: true, authUrl: AUTH_URL },
    });
    await within(panel()).findByText(/^Not connected\. Credentials are saved/);
    await user.click(button('Authenticate with LinkedIn'));

    expect(open).toHaveBeenCalledWith(AUTH_URL, 'linkedin-auth', 'width=600,height=700');
    expect(sentTo(requests, 'GET', '/api/linkedin/auth-url').map((r) => r.path)).toEqual([authPath()]);
    expect(await within(panel()).findByText(/Waiting for the LinkedIn sign-in/)).toBeInTheDocument();
    // While the popup is open the status is polled.
    const polls = () => sentTo(requests, 'GET', '/api/linkedin/status').length;
    await waitFor(() => expect(polls()).toBeGreaterThanOrEqual(3));

    status = connected();
    act(() => {
      window.dispatchEvent(new MessageEvent('message', { origin: origin(), data: { type: 'linkedin-connected' } }));
    });
    expect(await findToast('LinkedIn authentication successful!')).toBeInTheDocument();

    // The popup closes: polling stops.
    popup.closed = true;
    await waitFor(() =>
      expect(within(panel()).getByText(/Connected as/)).toHaveTextContent('Connected as Lena Linked'),
    );
    const after = polls();
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(polls()).toBe(after);
    expect(screen.getAllByText('LinkedIn authentication successful!')).toHaveLength(1);
  });

  it('page posting is opt-in: unticked, the auth URL asks for no page access; ticked, it adds pages=true', async () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(fakePopup());
    const { user, requests } = setup({
      'linkedin.status': saved,
      'linkedin.authUrl': ({ path }) => ({
        success: true,
        authUrl: path.endsWith('&pages=true') ? `${AUTH_URL}&pages` : AUTH_URL,
      }),
    });
    await within(panel()).findByText(/^Not connected\. Credentials are saved/);
    const box = within(panel()).getByRole('checkbox', { name: 'Also post to LinkedIn Pages I administer' });
    expect(box).not.toBeChecked();
    expect(box).toHaveAccessibleDescription(/Community Management API product/);

    await user.click(button('Authenticate with LinkedIn'));
    expect(open).toHaveBeenLastCalledWith(AUTH_URL, 'linkedin-auth', 'width=600,height=700');
    expect(requests.filter((r) => r.path === authPath())).toHaveLength(1);
    act(() => {
      window.dispatchEvent(
        new MessageEvent('message', {
          origin: origin(),
          data: { type: 'linkedin-error', error: 'user_cancelled_authorize' },
        }),
      );
    });
    await waitFor(() => expect(button('Authenticate with LinkedIn')).toBeEnabled());

    await user.click(within(panel()).getByRole('checkbox', { name: 'Also post to LinkedIn Pages I administer' }));
    await user.click(button('Authenticate with LinkedIn'));
    await waitFor(() =>
      expect(open).toHaveBeenLastCalledWith(`${AUTH_URL}&pages`, 'linkedin-auth', 'width=600,height=700'),
    );
    expect(requests.filter((r) => r.path === `${authPath()}&pages=true`)).toHaveLength(1);
  });

  it('connected with page access: says so, and the box starts ticked so authenticating again keeps it', async () => {
    setup({ 'linkedin.status': connected({ canPostAsPage: true }) });
    expect(await within(panel()).findByText('Can also post to the LinkedIn Pages you administer.')).toBeInTheDocument();
    await waitFor(() =>
      expect(within(panel()).getByRole('checkbox', { name: 'Also post to LinkedIn Pages I administer' })).toBeChecked(),
    );
  });

  it('connected without page access: says it posts as the profile only; the box stays unticked', async () => {
    setup({ 'linkedin.status': connected({ canPostAsPage: false }) });
    expect(
      await within(panel()).findByText('Posts as your personal profile only (no page access).'),
    ).toBeInTheDocument();
    expect(
      within(panel()).getByRole('checkbox', { name: 'Also post to LinkedIn Pages I administer' }),
    ).not.toBeChecked();
  });

  it("linkedin_error=unauthorized_scope_error points at the app's products and the page access box", async () => {
    setup({ 'linkedin.status': saved }, '/settings?linkedin_error=unauthorized_scope_error');
    expect(
      await findToast(
        "LinkedIn did not grant the requested permissions. Check the products enabled for your LinkedIn app; page access needs the Community Management API product, otherwise untick 'Also post to LinkedIn Pages I administer'.",
      ),
    ).toBeInTheDocument();
  });

  it('ignores messages from other origins', async () => {
    vi.spyOn(window, 'open').mockReturnValue(fakePopup());
    setup({ 'linkedin.status': saved });
    await within(panel()).findByText(/^Not connected\. Credentials are saved/);
    act(() => {
      window.dispatchEvent(
        new MessageEvent('message', { origin: 'https://evil.example', data: { type: 'linkedin-connected' } }),
      );
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(queryToast('LinkedIn authentication successful!')).not.toBeInTheDocument();
  });

  it('polling alone notices the new connection when the message is lost', async () => {
    vi.spyOn(window, 'open').mockReturnValue(fakePopup());
    let status = saved;
    const { user } = setup({
      'linkedin.status': () => status,
      'linkedin.authUrl': { success: true, authUrl: AUTH_URL },
    });
    await within(panel()).findByText(/^Not connected\. Credentials are saved/);
    await user.click(button('Authenticate with LinkedIn'));
    status = connected();
    expect(await findToast('LinkedIn authentication successful!')).toBeInTheDocument();
  });

  it('"Failed to generate authorization URL" when the server cannot make one', async () => {
    const open = vi.spyOn(window, 'open');
    const { user } = setup({
      'linkedin.status': saved,
      'linkedin.authUrl': { status: 500, body: null },
    });
    await within(panel()).findByText(/^Not connected\. Credentials are saved/);
    await user.click(button('Authenticate with LinkedIn'));
    expect(await findToast('Failed to generate authorization URL')).toBeInTheDocument();
    expect(open).not.toHaveBeenCalled();
  });

  it('back on /settings?linkedin_connected=true: status refetched, query removed (replace), success toast', async () => {
    let status = saved;
    const { requests } = setup({ 'linkedin.status': () => status }, '/settings?linkedin_connected=true&tab=x');
    status = connected();
    expect(await findToast('LinkedIn authentication successful!')).toBeInTheDocument();
    expect(location()).toHaveTextContent(/^\/settings\?tab=x$/);
    expect(location()).toHaveAttribute('data-navigation', 'REPLACE');
    await waitFor(() =>
      expect(within(panel()).getByText(/Connected as/)).toHaveTextContent('Connected as Lena Linked'),
    );
    expect(sentTo(requests, 'GET', '/api/linkedin/status').length).toBeGreaterThanOrEqual(2);
  });

  it.each([
    ['invalid_state', 'The LinkedIn sign-in could not be verified. Please try again.'],
    ['not_owner', 'Only an owner of the workspace can connect LinkedIn. Ask the workspace owner to connect it.'],
    ['user_cancelled_login', 'LinkedIn sign-in was cancelled.'],
    ['user_cancelled_authorize', 'LinkedIn sign-in was cancelled.'],
  ])('linkedin_error=%s shows "%s" and leaves the address clean', async (code, text) => {
    setup({ 'linkedin.status': saved }, `/settings?linkedin_error=${code}`);
    expect(await findToast(text)).toBeInTheDocument();
    expect(location()).toHaveTextContent(/^\/settings$/);
  });

  it('an unknown linkedin_error shows one generic text, never the parameter itself', async () => {
    setup(
      { 'linkedin.status': saved },
      '/settings?linkedin_error=Your%20account%20is%20suspended%2C%20call%20%2B1%20555%200100%20now',
    );
    expect(await findToast('LinkedIn sign-in did not complete. Please try again.')).toBeInTheDocument();
    expect(screen.queryByText(/suspended|555/)).not.toBeInTheDocument();
    expect(document.body.textContent).not.toMatch(/suspended/);
    expect(location()).toHaveTextContent(/^\/settings$/);
  });

  it('a code that names an inherited property is unknown too', async () => {
    setup({ 'linkedin.status': saved }, '/settings?linkedin_error=constructor');
    expect(await findToast('LinkedIn sign-in did not complete. Please try again.')).toBeInTheDocument();
  });

  it('in the popup: posts the outcome to the opener and closes instead of toasting', async () => {
    const postMessage = vi.fn();
    Object.defineProperty(window, 'opener', {
      configurable: true,
      value: { closed: false, location: { origin: origin() }, postMessage },
    });
    const close = vi.spyOn(window, 'close').mockImplementation(() => undefined);
    setup({ 'linkedin.status': connected() }, '/settings?linkedin_connected=true');
    await waitFor(() => expect(postMessage).toHaveBeenCalledWith({ type: 'linkedin-connected' }, origin()));
    expect(close).toHaveBeenCalled();
    expect(postMessage).toHaveBeenCalledTimes(1);
    expect(queryToast('LinkedIn authentication successful!')).not.toBeInTheDocument();
  });

  it('in the popup, an error goes to the opener too', async () => {
    const postMessage = vi.fn();
    Object.defineProperty(window, 'opener', {
      configurable: true,
      value: { closed: false, location: { origin: origin() }, postMessage },
    });
    vi.spyOn(window, 'close').mockImplementation(() => undefined);
    setup({ 'linkedin.status': saved }, '/settings?linkedin_error=user_cancelled_login');
    await waitFor(() =>
      expect(postMessage).toHaveBeenCalledWith({ type: 'linkedin-error', error: 'user_cancelled_login' }, origin()),
    );
    expect(queryToast('LinkedIn sign-in was cancelled.')).not.toBeInTheDocument();
  });
});

describe('LinkedIn Integration panel: connection state', () => {
  it('connected: member name and token expiry date', async () => {
    setup({ 'linkedin.status': connected() });
    const line = await within(panel()).findByText(/Connected as/);
    const status = line.closest('.integration-status') as HTMLElement;
    expect(status).toHaveTextContent('Connected as Lena Linked');
    expect(status).toHaveTextContent(/Access token expires on \S/);
    expect(status).not.toHaveTextContent(/reconnect soon/);
  });

  it('in the last 7 days: "expires in N days — reconnect soon"', async () => {
    setup({
      'linkedin.status': connected({
        expiresAt: new Date(Date.now() + 3 * DAY - 60_000).toISOString(),
        expiringSoon: true,
      }),
    });
    expect(await within(panel()).findByText('Access expires in 3 days — reconnect soon.')).toBeInTheDocument();
    expect(within(panel()).getByText('Expiring soon')).toHaveClass('badge');
  });

  it('expired: says so and asks to authenticate again', async () => {
    setup({
      'linkedin.status': connected({
        connected: false,
        expired: true,
        expiresAt: new Date(Date.now() - DAY).toISOString(),
      }),
    });
    const line = await within(panel()).findByText(/expired on/);
    expect(line.closest('.integration-status')).toHaveTextContent(
      /LinkedIn access for Lena Linked expired on .+Authenticate with LinkedIn again/,
    );
    expect(within(panel()).getByText('Expired')).toHaveClass('badge');
  });

  it('"Failed to load LinkedIn credentials" when the status cannot be read', async () => {
    setup({ 'linkedin.status': { status: 500, body: null } });
    expect(await findInPanelOnly(panel(), 'Failed to load LinkedIn credentials')).toBeInTheDocument();
  });
});

describe('LinkedIn Integration panel: automation webhook', () => {
  it('saves the URL, shows the signing secret once with Copy ("Copied!" for a while), empty turns it off', async () => {
    let hook: WebhookAnswer = { success: true, webhookUrl: '', hasSigningSecret: false };
    const { user, requests } = setup({
      'linkedin.getWebhook': () => hook,
      'linkedin.setWebhook': ({ body }) => {
        const { webhookUrl } = body;
        const first = !hook.hasSigningSecret && !!webhookUrl;
        // As the server answers: the URL works like a password, so it comes back masked.
        hook = { success: true, webhookUrl: maskSecretUrl(webhookUrl), hasSigningSecret: !!webhookUrl };
        return {
          success: true,
          message: 'Automation webhook saved',
          webhookUrl: maskSecretUrl(webhookUrl),
          ...(first ? { signingSecret: 'whsec_once' } : {}),
        };
      },
    });
    // After userEvent.setup(), which puts its own clipboard in place.
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText } });
    const box = await screen.findByRole('region', { name: 'Automation webhook' });
    const url = within(box).getByLabelText('Webhook URL');
    await waitFor(() => expect(url).toBeEnabled());
    await user.type(url, 'not a url');
    await user.click(within(box).getByRole('button', { name: 'Save Webhook' }));
    expect(within(box).getByText(/Enter an http\(s\) URL/)).toBeInTheDocument();
    expect(sentTo(requests, 'POST')).toHaveLength(0);

    await user.clear(url);
    await user.type(url, 'https://hooks.example.com/catch/1');
    await user.click(within(box).getByRole('button', { name: 'Save Webhook' }));
    expect(await findToast('Automation webhook saved')).toBeInTheDocument();
    const secretBox = within(box).getByRole('region', { name: 'Webhook signing secret' });
    expect(within(secretBox).getByText('whsec_once')).toBeInTheDocument();
    expect(within(box).getByText('x-webhook-signature')).toBeInTheDocument();

    // The saved URL shows masked; saving it back unchanged is refused here, and nothing is sent.
    await waitFor(() => expect(url).toHaveValue('https://hooks.example.com/••••••••'));
    const posts = sentTo(requests, 'POST').length;
    await user.click(within(box).getByRole('button', { name: 'Save Webhook' }));
    expect(within(box).getByText(/^This is the saved address, hidden/)).toBeInTheDocument();
    expect(sentTo(requests, 'POST')).toHaveLength(posts);

    await user.click(within(secretBox).getByRole('button', { name: 'Copy signing secret' }));
    expect(writeText).toHaveBeenCalledWith('whsec_once');
    expect(within(secretBox).getByRole('button', { name: /Copied!/ })).toBeInTheDocument();
    await waitFor(() =>
      expect(within(secretBox).getByRole('button', { name: 'Copy signing secret' })).toBeInTheDocument(),
    );

    await user.clear(url);
    await user.click(within(box).getByRole('button', { name: 'Save Webhook' }));
    expect(await findToast('Automation webhook turned off')).toBeInTheDocument();
    expect(sentTo(requests, 'POST').at(-1)!.body).toEqual({ webhookUrl: '' });
    expect(within(box).queryByText('whsec_once')).not.toBeInTheDocument();
    Reflect.deleteProperty(navigator, 'clipboard');
  });
});
