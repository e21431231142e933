import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { IntegrationMessages } from '@app/shared';
import { WordPressPanel } from './WordPressPanel';
import {
  findInPanelOnly,
  findPanelAlert,
  findToast,
  queryToast,
  sentTo,
  settingsRoutes,
  wordpressStatus,
} from '../../test/settings';
import { deferred, mockApi, renderWithProviders, type Reply } from '../../test/utils';

const saved = wordpressStatus({
  configured: true,
  siteUrl: 'https://blog.example.com',
  username: 'editor',
  hasAppPassword: true,
  updatedAt: '2025-03-04T13:05:00.000Z',
});
const panel = () => screen.getByRole('region', { name: 'WordPress Integration' });
const siteUrl = () => within(panel()).getByLabelText('Site URL');
const username = () => within(panel()).getByLabelText('Username');
const password = () => within(panel()).getByLabelText('Application Password');
const button = (name: string) => within(panel()).getByRole('button', { name });

function setup(routes: Parameters<typeof settingsRoutes>[0] = {}) {
  const api = mockApi(settingsRoutes(routes));
  const onReload = vi.fn();
  renderWithProviders(<WordPressPanel onReload={onReload} />, { route: '/settings' });
  return { ...api, onReload, user: userEvent.setup() };
}

describe('WordPress Integration panel', () => {
  it('new connection: URL-typed site field, every field required ("All fields are required"), nothing sent', async () => {
    const { requests, user } = setup();
    expect(await within(panel()).findByText(/^Not connected\. Enter/)).toBeInTheDocument();
    expect(siteUrl()).toHaveAttribute('type', 'url');
    expect(siteUrl()).toBeEnabled();
    expect(password()).toHaveAttribute('type', 'password');
    expect(password()).toHaveAttribute('aria-required', 'true');
    expect(within(panel()).queryByText(IntegrationMessages.siteUrlLocked)).not.toBeInTheDocument();

    await user.click(button('Save'));
    expect(await findInPanelOnly(panel(), 'All fields are required')).toBeInTheDocument();
    expect(siteUrl()).toHaveAttribute('aria-invalid', 'true');
    expect(siteUrl()).toHaveFocus();

    await user.type(siteUrl(), 'https://blog.example.com');
    await user.type(username(), 'editor');
    await user.click(button('Test Connection'));
    // No password saved yet: the test needs one too.
    expect(password()).toHaveAttribute('aria-invalid', 'true');
    expect(password()).toHaveFocus();
    expect(sentTo(requests, 'POST')).toHaveLength(0);
  });

  it('editing: the site URL is locked with the note, the saved user is filled in, the password is blank with its placeholder', async () => {
    setup({ 'wordpress.status': saved });
    await waitFor(() => expect(siteUrl()).toHaveValue('https://blog.example.com'));
    expect(siteUrl()).toBeDisabled();
    expect(within(panel()).getByText('Site URL cannot be changed')).toBeInTheDocument();
    expect(username()).toHaveValue('editor');
    expect(password()).toHaveValue('');
    expect(password()).toHaveAttribute('placeholder', 'Leave blank to keep the saved password');
    expect(password()).not.toHaveAttribute('aria-required');
    const status = within(panel())
      .getByText(/Connected to/)
      .closest('.integration-status') as HTMLElement;
    expect(status).toHaveTextContent('Connected to https://blog.example.com as editor');
    expect(status).toHaveTextContent(/Last updated: (?!Unknown)/);
    expect(within(panel()).getByText('Connected')).toHaveClass('badge');
  });

  it('Test Connection shows "Testing..." while busy and "Connection failed: {error}" when WordPress refuses', async () => {
    const reply = deferred<Reply<'wordpress.testConnection'>>();
    const { requests, user } = setup({ 'wordpress.testConnection': () => reply.promise });
    await within(panel()).findByText(/^Not connected\. Enter/);
    await user.type(siteUrl(), 'https://blog.example.com');
    await user.type(username(), 'editor');
    await user.type(password(), 'abcd EFGH 1234');
    await user.click(button('Test Connection'));

    expect(button('Testing...')).toBeDisabled();
    expect(button('Save')).toBeDisabled();
    reply.resolve({
      success: false,
      error: 'The application password is incorrect.',
      message: 'The application password is incorrect.',
      code: 'incorrect_password',
    });
    await findPanelAlert(panel(), 'Connection failed: The application password is incorrect.');
    expect(button('Test Connection')).toBeEnabled();
    expect(sentTo(requests, 'POST')[0]).toMatchObject({
      path: '/api/wordpress/test-connection',
      credentials: 'include',
      body: { siteUrl: 'https://blog.example.com', username: 'editor', appPassword: 'abcd EFGH 1234' },
    });
    // Changing a field makes the message stale: it goes.
    await user.type(password(), '5');
    expect(within(panel()).queryByRole('alert')).not.toBeInTheDocument();
  });

  it('a passing test names the WordPress user', async () => {
    const { user } = setup({
      'wordpress.status': saved,
      'wordpress.testConnection': { success: true, user: { name: 'Eva Editor' }, message: 'Connected' },
    });
    await waitFor(() => expect(username()).toHaveValue('editor'));
    await user.click(button('Test Connection'));
    expect(await findToast('Connection successful! Connected as Eva Editor.')).toBeInTheDocument();
  });

  it('saving with a blank password keeps the saved one: skipPasswordUpdate, the locked site URL, success with the user name, reload', async () => {
    let status = saved;
    const { requests, user, onReload } = setup({
      'wordpress.status': () => status,
      'wordpress.saveCredentials': ({ body }) => {
        status = { ...saved, username: body.username, updatedAt: '2025-03-05T10:00:00.000Z' };
        return {
          success: true,
          user: { name: 'Will Writer' },
          message: 'WordPress credentials saved',
          siteUrl: 'https://blog.example.com',
        };
      },
    });
    await waitFor(() => expect(username()).toHaveValue('editor'));
    await user.clear(username());
    await user.type(username(), 'writer');
    await user.click(button('Save'));

    expect(await findToast('WordPress credentials saved. Connected as Will Writer.')).toBeInTheDocument();
    expect(sentTo(requests, 'POST', '/api/wordpress/credentials')).toHaveLength(1);
    expect(sentTo(requests, 'POST')[0]!.body).toEqual({
      siteUrl: 'https://blog.example.com',
      username: 'writer',
      appPassword: '',
      skipPasswordUpdate: true,
    });
    expect(onReload).toHaveBeenCalled();
    await waitFor(() =>
      expect(
        within(panel())
          .getByText(/Connected to/)
          .closest('.integration-status'),
      ).toHaveTextContent('as Will Writer'),
    );
    expect(username()).toHaveValue('writer');
  });

  it('a new password is sent without skipPasswordUpdate', async () => {
    const { requests, user } = setup({
      'wordpress.status': saved,
      'wordpress.saveCredentials': {
        success: true,
        user: { name: 'Eva Editor' },
        message: 'WordPress credentials saved',
        siteUrl: 'https://blog.example.com',
      },
    });
    await waitFor(() => expect(username()).toHaveValue('editor'));
    await user.type(password(), 'new1 pass 2345');
    await user.click(button('Save'));
    await findToast(/^WordPress credentials saved/);
    expect(sentTo(requests, 'POST')[0]!.body).toEqual({
      siteUrl: 'https://blog.example.com',
      username: 'editor',
      appPassword: 'new1 pass 2345',
    });
    expect(password()).toHaveValue('');
  });

  it('refuses values containing bullets (masked values are never sent back)', async () => {
    const { requests, user } = setup({ 'wordpress.status': saved });
    await waitFor(() => expect(username()).toHaveValue('editor'));
    await user.type(password(), '••••••••1234');
    await user.click(button('Save'));
    expect(await findInPanelOnly(panel(), IntegrationMessages.obfuscated)).toBeInTheDocument();
    expect(
      within(panel()).getByText(IntegrationMessages.obfuscated, { selector: '.field__error' }),
    ).toBeInTheDocument();
    await user.click(button('Test Connection'));
    expect(sentTo(requests, 'POST')).toHaveLength(0);
  });

  it('a refused save shows "Failed to save credentials: {message}"', async () => {
    const { user } = setup({
      'wordpress.saveCredentials': {
        status: 400,
        body: {
          error: 'Cannot save invalid credentials: Unknown username.',
          message: 'Cannot save invalid credentials: Unknown username.',
        },
      },
    });
    await within(panel()).findByText(/^Not connected\. Enter/);
    await user.type(siteUrl(), 'https://blog.example.com');
    await user.type(username(), 'nobody');
    await user.type(password(), 'abcd');
    await user.click(button('Save'));
    await findPanelAlert(panel(), 'Failed to save credentials: Cannot save invalid credentials: Unknown username.');
    expect(queryToast(/^WordPress credentials saved/)).not.toBeInTheDocument();
    // Trying again replaces the message: still one.
    await user.click(button('Save'));
    await findPanelAlert(panel(), 'Failed to save credentials: Cannot save invalid credentials: Unknown username.');
    expect(within(panel()).getAllByRole('alert')).toHaveLength(1);
  });

  it('"Failed to load WordPress credentials" when the status cannot be read', async () => {
    setup({ 'wordpress.status': { status: 500, body: null } });
    expect(await findInPanelOnly(panel(), 'Failed to load WordPress credentials')).toBeInTheDocument();
    expect(within(panel()).getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});
