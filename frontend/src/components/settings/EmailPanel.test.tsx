import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { IntegrationMessages, SettingMessages, TEST_EMAIL_SUBJECT } from '@app/shared';
import type { SaveSettingAnswer } from '@app/shared/api';
import { EmailPanel } from './EmailPanel';
import { timing } from '../../lib/timing';
import {
  emailStatus,
  findInPanelOnly,
  findPanelAlert,
  findToast,
  queryToast,
  sentTo,
  settingsRoutes,
} from '../../test/settings';
import { deferred, mockApi, renderWithProviders, type ErrorReply, type Reply } from '../../test/utils';

const AUTH_URL = 'https://accounts.google.com/o/oauth2/v2/auth?client_id=123-app.apps.googleusercontent.com';
const saved = emailStatus({
  notificationEmail: 'owner@example.com',
  gmailClientId: '123-app.apps.googleusercontent.com',
  gmailClientSecret: '••••••••abcd',
  gmailRefreshToken: '',
  authenticated: false,
});
const authenticated = { ...saved, gmailRefreshToken: '••••••••wxyz', authenticated: true };
/** The answer of saving the entry `key`. */
const savedEntry = (key: string): SaveSettingAnswer => ({
  success: true,
  setting: { _id: key, key, value: '••••••••', description: '', updatedAt: null },
  message: SettingMessages.created,
});
const deleted = { success: true, message: SettingMessages.deleted } as const;
/** The entry was not there: the panel counts that as deleted. */
const gone: ErrorReply = { status: 404, body: { error: SettingMessages.notFound, message: SettingMessages.notFound } };

const panel = () => screen.getByRole('region', { name: 'Gmail API Configuration' });
const field = (label: string) => within(panel()).getByLabelText(label);
const button = (name: string | RegExp) => within(panel()).getByRole('button', { name });
const authBox = () => within(panel()).getByRole('region', { name: 'Google Authentication' });
const location = () => screen.getByTestId('location');

function setup(routes: Parameters<typeof settingsRoutes>[0] = {}, route = '/settings') {
  const api = mockApi(settingsRoutes(routes));
  const onReload = vi.fn();
  renderWithProviders(<EmailPanel onReload={onReload} />, { route });
  return { ...api, onReload, user: userEvent.setup() };
}

const loaded = (email = '') =>
  waitFor(() => {
    expect(field('Notification Email')).toBeEnabled();
    expect(field('Notification Email')).toHaveValue(email);
  });

const savedTimings = { ...timing };
beforeEach(() => {
  timing.oauthPopupPollMs = 25;
});
afterEach(() => {
  Object.assign(timing, savedTimings);
});

describe('Gmail API Configuration panel: fields and Google Authentication', () => {
  it('shows the badge, the four fields with their types and help, and masked secrets only as placeholders', async () => {
    setup({ 'email.status': saved });
    await loaded('owner@example.com');
    expect(within(panel()).getByText('Gmail API Only')).toHaveClass('badge');
    expect(field('Notification Email')).toHaveAttribute('type', 'email');
    expect(field('Notification Email')).toHaveAttribute('aria-required', 'true');
    expect(within(panel()).getByText('Where approval notifications will be sent')).toBeInTheDocument();
    expect(field('Gmail Client ID')).toHaveValue('123-app.apps.googleusercontent.com');
    expect(field('Gmail Client ID')).toHaveAttribute('type', 'text');
    expect(field('Gmail Client Secret')).toHaveAttribute('type', 'password');
    expect(field('Gmail Client Secret')).toHaveValue('');
    expect(field('Gmail Client Secret')).toHaveAttribute('placeholder', '••••••••abcd');
    expect(field('Gmail Refresh Token')).toHaveAttribute('type', 'password');
    expect(field('Gmail Refresh Token')).not.toHaveAttribute('aria-required');
    expect(
      within(panel()).getByText('Leave empty for initial setup, generated during the OAuth flow'),
    ).toBeInTheDocument();
    expect(within(panel()).getByRole('heading', { name: 'Gmail API setup instructions' })).toBeInTheDocument();
    expect(
      within(panel()).getByText(`${window.location.origin}/api/email/oauth/callback`, { selector: '.copyable__value' }),
    ).toBeInTheDocument();
    expect(button('Copy Gmail redirect URI')).toBeInTheDocument();
  });

  it('button states: disabled without client id or secret (a saved secret counts), "Re-authenticate" with a token', async () => {
    setup();
    await loaded();
    expect(within(authBox()).getByText('Complete OAuth flow to enable Gmail API email sending')).toBeInTheDocument();
    const user = userEvent.setup();
    expect(button('Authenticate with Google')).toBeDisabled();
    await user.type(field('Gmail Client ID'), 'id');
    expect(button('Authenticate with Google')).toBeDisabled();
    await user.type(field('Gmail Client Secret'), 'secret');
    expect(button('Authenticate with Google')).toBeEnabled();
    await user.clear(field('Gmail Client ID'));
    expect(button('Authenticate with Google')).toBeDisabled();
  });

  it('a saved secret counts as present; with a token the text and label change', async () => {
    setup({ 'email.status': authenticated });
    await loaded('owner@example.com');
    expect(within(authBox()).getByText('Gmail API is authenticated and ready to use')).toBeInTheDocument();
    expect(button('Re-authenticate')).toBeEnabled();
    expect(field('Gmail Refresh Token')).toHaveAttribute('placeholder', '••••••••wxyz');
    expect(field('Gmail Refresh Token')).toHaveValue('');
  });

  it('Authenticate: "Authenticating..." while busy, then the 500x600 popup; the popup\'s message refreshes and toasts', async () => {
    const popup = { closed: false, focus: vi.fn() } as unknown as Window & { closed: boolean };
    const open = vi.spyOn(window, 'open').mockReturnValue(popup);
    const url = deferred<Reply<'email.authUrl'>>();
    let status = saved;
    const { user } = setup({
      'email.status': () => status,
      'email.authUrl': () => url.promise,
    });
    await loaded('owner@example.com');
    expect(button('Authenticate with Google')).toBeEnabled();
    await user.click(button('Authenticate with Google'));
    expect(button('Authenticating...')).toBeDisabled();
    url.resolve({ success: true, authUrl: AUTH_URL });
    await waitFor(() => expect(open).toHaveBeenCalledWith(AUTH_URL, 'gmail-auth', 'width=500,height=600'));
    // Still "Authenticating..." while the popup is open.
    expect(button('Authenticating...')).toBeDisabled();

    status = authenticated;
    window.dispatchEvent(
      new MessageEvent('message', { origin: window.location.origin, data: { type: 'gmail-connected' } }),
    );
    expect(await findToast('Gmail API authentication successful!')).toBeInTheDocument();
    popup.closed = true;
    await waitFor(() => expect(button('Re-authenticate')).toBeEnabled());
    expect(within(authBox()).getByText('Gmail API is authenticated and ready to use')).toBeInTheDocument();
  });

  it('typed but unsaved credentials: asks to save them first and asks Google nothing', async () => {
    const open = vi.spyOn(window, 'open');
    const { user, requests } = setup();
    await loaded();
    await user.type(field('Gmail Client ID'), 'id');
    await user.type(field('Gmail Client Secret'), 'secret');
    await user.click(button('Authenticate with Google'));
    expect(
      await findInPanelOnly(panel(), 'Save the Gmail API credentials first, then authenticate with Google.'),
    ).toBeInTheDocument();
    expect(field('Gmail Client ID')).toHaveAttribute('aria-invalid', 'true');
    expect(requests.some((r) => r.path === '/api/email/oauth/auth')).toBe(false);
    expect(open).not.toHaveBeenCalled();
  });

  it('the server\'s refusal is shown; "Failed to get authentication URL" when it answers nothing useful', async () => {
    const open = vi.spyOn(window, 'open');
    let reply: Reply<'email.authUrl'> = {
      status: 400,
      body: {
        error: 'Please fill in Gmail API credentials',
        message: 'Please fill in Gmail API credentials',
        code: 'gmail_not_configured',
      },
    };
    const { user } = setup({ 'email.status': saved, 'email.authUrl': () => reply });
    await loaded('owner@example.com');
    await user.click(button('Authenticate with Google'));
    expect(await findToast('Please fill in Gmail API credentials')).toBeInTheDocument();
    reply = { status: 500, body: null };
    await user.click(button('Authenticate with Google'));
    expect(await findToast('Failed to get authentication URL')).toBeInTheDocument();
    expect(open).not.toHaveBeenCalled();
  });

  it('back on /settings?gmail_connected=true: toast, query removed; gmail_error=access_denied: cancelled text', async () => {
    setup({ 'email.status': authenticated }, '/settings?gmail_connected=true');
    expect(await findToast('Gmail API authentication successful!')).toBeInTheDocument();
    expect(location()).toHaveTextContent(/^\/settings$/);
    expect(location()).toHaveAttribute('data-navigation', 'REPLACE');
  });

  it('gmail_error=access_denied reads "Google sign-in was cancelled."', async () => {
    setup({}, '/settings?gmail_error=access_denied');
    expect(await findToast('Google sign-in was cancelled.')).toBeInTheDocument();
    expect(location()).toHaveTextContent(/^\/settings$/);
  });

  it('an unknown gmail_error shows one generic text, never the parameter itself', async () => {
    setup({}, '/settings?gmail_error=Your%20account%20is%20suspended%2C%20call%20%2B1%20555%200100%20now');
    expect(await findToast('Google sign-in did not complete. Please try again.')).toBeInTheDocument();
    expect(document.body.textContent).not.toMatch(/suspended/);
    expect(location()).toHaveTextContent(/^\/settings$/);
  });

  it('a popup message with a crafted error reads the same generic text', async () => {
    setup({ 'email.status': saved });
    await loaded('owner@example.com');
    window.dispatchEvent(
      new MessageEvent('message', {
        origin: window.location.origin,
        data: { type: 'gmail-error', error: 'Your account is suspended, call now' },
      }),
    );
    expect(await findToast('Google sign-in did not complete. Please try again.')).toBeInTheDocument();
    expect(document.body.textContent).not.toMatch(/suspended/);
  });

  it('in the popup: posts to the opener and closes', async () => {
    const postMessage = vi.fn();
    Object.defineProperty(window, 'opener', {
      configurable: true,
      value: { closed: false, location: { origin: window.location.origin }, postMessage },
    });
    const close = vi.spyOn(window, 'close').mockImplementation(() => undefined);
    try {
      setup({ 'email.status': authenticated }, '/settings?gmail_connected=true');
      await waitFor(() =>
        expect(postMessage).toHaveBeenCalledWith({ type: 'gmail-connected' }, window.location.origin),
      );
      expect(close).toHaveBeenCalled();
      expect(queryToast('Gmail API authentication successful!')).not.toBeInTheDocument();
    } finally {
      Reflect.deleteProperty(window, 'opener');
    }
  });
});

describe('Gmail API Configuration panel: Save, Clear, Test', () => {
  it('validates: "Please enter a notification email address", then "Please fill in Gmail API credentials"', async () => {
    const { user, requests } = setup();
    await loaded();
    await user.click(button('Save Settings'));
    expect(await findInPanelOnly(panel(), 'Please enter a notification email address')).toBeInTheDocument();
    expect(field('Notification Email')).toHaveFocus();
    await user.type(field('Notification Email'), 'me@example.com');
    await user.type(field('Gmail Client ID'), 'id');
    await user.click(button('Save Settings'));
    expect(await findInPanelOnly(panel(), 'Please fill in Gmail API credentials')).toBeInTheDocument();
    expect(field('Gmail Client Secret')).toHaveFocus();
    expect(sentTo(requests, 'POST')).toHaveLength(0);
    expect(sentTo(requests, 'DELETE')).toHaveLength(0);
  });

  it('saves each key separately, skips the unchanged (masked) secret, deletes the legacy SMTP keys the account still has (no request that would answer 404)', async () => {
    const entry = (key: string) => ({ _id: key, key, value: '••••', description: '', updatedAt: null });
    const { user, requests, onReload } = setup({
      'email.status': saved,
      // Of the SMTP settings of old only email_host is left; openai_api_key is an API key of the user's own.
      'settings.list': [entry('email_host'), entry('openai_api_key')],
      'settings.save': ({ body }) => savedEntry(body.key),
      'settings.delete': ({ params }) => (params.key === 'email_host' ? deleted : gone),
    });
    await loaded('owner@example.com');
    await user.clear(field('Notification Email'));
    await user.type(field('Notification Email'), 'alerts@example.com');
    await user.click(button('Save Settings'));
    expect(await findToast('Email settings saved successfully!')).toBeInTheDocument();

    expect(sentTo(requests, 'POST').map((r) => r.body)).toEqual([
      { key: 'notification_email', value: 'alerts@example.com', description: 'Where approval notifications are sent' },
      { key: 'gmail_client_id', value: '123-app.apps.googleusercontent.com', description: 'Gmail API OAuth client ID' },
    ]);
    expect(sentTo(requests, 'DELETE').map((r) => r.path)).toEqual(['/api/settings/email_host']);
    expect(queryToast('Failed to save email settings')).not.toBeInTheDocument();
    expect(onReload).toHaveBeenCalled();
  });

  it('an account without SMTP settings of old: saving deletes nothing', async () => {
    const { user, requests } = setup({ 'email.status': saved, 'settings.save': ({ body }) => savedEntry(body.key) });
    await loaded('owner@example.com');
    await user.click(button('Save Settings'));
    expect(await findToast('Email settings saved successfully!')).toBeInTheDocument();
    expect(sentTo(requests, 'POST')).toHaveLength(2);
    expect(sentTo(requests, 'DELETE')).toEqual([]);
  });

  it('"Saving..." while busy; typed secret and token are written and the fields emptied', async () => {
    const post = deferred<Reply<'settings.save'>>();
    let posts = 0;
    const { user, requests } = setup({
      'settings.save': ({ body }) => (++posts === 1 ? post.promise : savedEntry(body.key)),
    });
    await loaded();
    await user.type(field('Notification Email'), 'me@example.com');
    await user.type(field('Gmail Client ID'), 'cid');
    await user.type(field('Gmail Client Secret'), 'GOCSPX-secret');
    await user.type(field('Gmail Refresh Token'), '1//token');
    await user.click(button('Save Settings'));
    expect(button('Saving...')).toBeDisabled();
    expect(button('Test Connection')).toBeDisabled();
    post.resolve(savedEntry('notification_email'));
    expect(await findToast('Email settings saved successfully!')).toBeInTheDocument();
    expect(sentTo(requests, 'POST').map((r) => (r.body as { key: string }).key)).toEqual([
      'notification_email',
      'gmail_client_id',
      'gmail_client_secret',
      'gmail_refresh_token',
    ]);
    expect(sentTo(requests, 'POST')[2]!.body).toMatchObject({ value: 'GOCSPX-secret' });
    expect(field('Gmail Client Secret')).toHaveValue('');
    expect(field('Gmail Refresh Token')).toHaveValue('');
  });

  it('another Client ID needs its own secret: the saved one belongs to the saved client (the server removes it)', async () => {
    const { user, requests } = setup({
      'email.status': authenticated,
      'settings.save': ({ body }) => savedEntry(body.key),
    });
    await loaded('owner@example.com');
    expect(field('Gmail Client Secret')).toHaveAttribute('placeholder', '••••••••abcd');
    await user.clear(field('Gmail Client ID'));
    await user.type(field('Gmail Client ID'), '456-other.apps.googleusercontent.com');
    expect(field('Gmail Client Secret')).toHaveAttribute('placeholder', 'GOCSPX-…');
    expect(field('Gmail Client Secret')).toHaveAttribute('aria-required', 'true');
    expect(within(panel()).getByText(IntegrationMessages.gmailSecretForClient)).toBeInTheDocument();
    expect(button('Re-authenticate')).toBeDisabled();

    await user.click(button('Save Settings'));
    expect(await findInPanelOnly(panel(), IntegrationMessages.gmailSecretForClient)).toBeInTheDocument();
    expect(field('Gmail Client Secret')).toHaveFocus();
    expect(sentTo(requests, 'POST')).toHaveLength(0);

    // With the new client's secret: the id first (which drops the old secret and sign-in), then the secret.
    await user.type(field('Gmail Client Secret'), 'GOCSPX-other');
    await user.click(button('Save Settings'));
    expect(await findToast('Email settings saved successfully!')).toBeInTheDocument();
    expect(sentTo(requests, 'POST').map((r) => (r.body as { key: string }).key)).toEqual([
      'notification_email',
      'gmail_client_id',
      'gmail_client_secret',
    ]);
  });

  it('"Failed to save email settings" when a write fails', async () => {
    const { user } = setup({
      'email.status': saved,
      'settings.save': {
        status: 400,
        body: { error: 'Enter a valid email address', message: 'Enter a valid email address' },
      },
    });
    await loaded('owner@example.com');
    await user.click(button('Save Settings'));
    await findPanelAlert(panel(), 'Failed to save email settings: Enter a valid email address');
    expect(queryToast('Failed to save email settings')).not.toBeInTheDocument();
    // Fixing a field makes the message stale: it goes.
    await user.type(field('Notification Email'), 'x');
    expect(within(panel()).queryByRole('alert')).not.toBeInTheDocument();
  });

  it('refuses a pasted masked value', async () => {
    const { user, requests } = setup({ 'email.status': saved });
    await loaded('owner@example.com');
    await user.type(field('Gmail Client Secret'), '••••••••abcd');
    await user.click(button('Save Settings'));
    expect(await findInPanelOnly(panel(), /looks masked/)).toBeInTheDocument();
    expect(sentTo(requests, 'POST')).toHaveLength(0);
  });

  it('Clear Settings: asks first; on yes deletes the keys the account has (the client id last, 404 ok), empties the fields and toasts', async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    const entry = (key: string) => ({ _id: key, key, value: '••••', description: '', updatedAt: null });
    const { user, requests, onReload } = setup({
      'email.status': authenticated,
      'settings.list': ['notification_email', 'gmail_client_id', 'gmail_client_secret', 'gmail_refresh_token'].map(
        entry,
      ),
      // gmail_refresh_token went meanwhile.
      'settings.delete': ({ params }) => (params.key === 'gmail_refresh_token' ? gone : deleted),
    });
    await loaded('owner@example.com');
    await user.type(field('Gmail Client Secret'), 'typed');
    await user.click(button('Clear Settings'));
    expect(confirm).toHaveBeenCalledWith('Are you sure you want to clear all Gmail API settings?');
    expect(sentTo(requests, 'DELETE')).toHaveLength(0);
    expect(field('Notification Email')).toHaveValue('owner@example.com');

    confirm.mockReturnValue(true);
    await user.click(button('Clear Settings'));
    expect(await findToast('Gmail API settings cleared successfully!')).toBeInTheDocument();
    const deletes = sentTo(requests, 'DELETE').map((r) => r.path);
    expect([...deletes].sort()).toEqual(
      ['gmail_client_id', 'gmail_client_secret', 'gmail_refresh_token', 'notification_email'].map(
        (k) => `/api/settings/${k}`,
      ),
    );
    expect(deletes.at(-1)).toBe('/api/settings/gmail_client_id');
    for (const label of ['Notification Email', 'Gmail Client ID', 'Gmail Client Secret', 'Gmail Refresh Token']) {
      expect(field(label)).toHaveValue('');
    }
    expect(field('Gmail Client Secret')).not.toHaveAttribute('placeholder', '••••••••abcd');
    expect(within(authBox()).getByText('Complete OAuth flow to enable Gmail API email sending')).toBeInTheDocument();
    expect(onReload).toHaveBeenCalled();
  });

  it('Clear Settings on settings never saved sends no DELETE (each would answer 404, an error in the console); only what is saved goes', async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    const entry = (key: string) => ({ _id: key, key, value: 'owner@example.com', description: '', updatedAt: null });
    let listed = [entry('openai_api_key')];
    const { user, requests } = setup({ 'settings.list': () => listed, 'settings.delete': deleted });
    await loaded();
    await user.click(button('Clear Settings'));
    expect(await findToast('Gmail API settings cleared successfully!')).toBeInTheDocument();
    expect(sentTo(requests, 'DELETE')).toEqual([]);

    listed = [entry('notification_email'), entry('openai_api_key')];
    await user.click(button('Clear Settings'));
    await waitFor(() =>
      expect(sentTo(requests, 'DELETE').map((r) => r.path)).toEqual(['/api/settings/notification_email']),
    );
  });

  it('"Failed to clear email settings" when a delete fails', async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    const { user } = setup({
      'email.status': saved,
      'settings.list': [
        { _id: 'notification_email', key: 'notification_email', value: '', description: '', updatedAt: null },
      ],
      'settings.delete': ({ params }) => (params.key === 'notification_email' ? { status: 500, body: null } : gone),
    });
    await loaded('owner@example.com');
    await user.click(button('Clear Settings'));
    expect(await findToast('Failed to clear email settings')).toBeInTheDocument();
  });

  it('Test Connection: needs the address and the credentials first', async () => {
    const { user, requests } = setup();
    await loaded();
    await user.click(button('Test Connection'));
    expect(await findInPanelOnly(panel(), 'Please enter a notification email address first')).toBeInTheDocument();
    await user.type(field('Notification Email'), 'me@example.com');
    await user.click(button('Test Connection'));
    expect(await findInPanelOnly(panel(), 'Please enter Gmail API credentials first')).toBeInTheDocument();
    expect(sentTo(requests, 'POST')).toHaveLength(0);
  });

  it('Test Connection: "Testing...", then success; server refusals read "Test failed: {message}"; network "Failed to test email connection"', async () => {
    const first = deferred<Reply<'email.test'>>();
    const replies: Array<() => Reply<'email.test'> | Promise<Reply<'email.test'>>> = [
      () => first.promise,
      () => ({
        status: 502,
        body: {
          error: 'Gmail refused the token (invalid_grant).',
          message: 'Gmail refused the token (invalid_grant).',
        },
      }),
      () => {
        throw new TypeError('Failed to fetch');
      },
    ];
    const { user, requests } = setup({
      'email.status': authenticated,
      'email.test': () => replies.shift()!(),
    });
    await loaded('owner@example.com');
    await user.click(button('Test Connection'));
    expect(button('Testing...')).toBeDisabled();
    first.resolve({ success: true, message: 'Test email sent successfully! Check your inbox.' });
    expect(await findToast('Test email sent successfully! Check your inbox.')).toBeInTheDocument();
    expect(sentTo(requests, 'POST')[0]).toMatchObject({
      path: '/api/email/test',
      credentials: 'include',
      body: { to: 'owner@example.com', subject: TEST_EMAIL_SUBJECT, method: 'gmail' },
    });

    await user.click(button('Test Connection'));
    await findPanelAlert(panel(), 'Test failed: Gmail refused the token (invalid_grant).');
    await user.click(button('Test Connection'));
    await findPanelAlert(panel(), 'Failed to test email connection');
    // The newer failure replaces the older: one message.
    expect(within(panel()).getAllByRole('alert')).toHaveLength(1);
  });

  it('"Failed to load email settings" when they cannot be read', async () => {
    setup({ 'email.status': { status: 500, body: null } });
    expect(await findInPanelOnly(panel(), 'Failed to load email settings')).toBeInTheDocument();
  });
});
