import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Setting } from '@app/shared';
import SettingsPage from '../../pages/Settings';
import { CHANNEL_REGISTRY } from '../../channels/registry';
import { findInPanelOnly, queryToast, settingsRoutes } from '../../test/settings';
import { deferred, mockApi, renderWithProviders, type RecordedRequest, type Reply } from '../../test/utils';

const openai: Setting = {
  _id: 'openai_api_key',
  key: 'openai_api_key',
  value: '••••••••1234',
  description: 'Drafts and images',
  updatedAt: '2025-03-04T13:05:00.000Z',
};
const legacy: Setting = { _id: 'old_key', key: 'old_key', value: '••••••••', description: '', updatedAt: null };
const hidden: Setting = {
  _id: 'wordpress_username',
  key: 'wordpress_username',
  value: 'admin',
  description: '',
  updatedAt: null,
};

const section = () => screen.getByRole('region', { name: 'API Keys' });
const entry = (key: string) =>
  within(section()).getByRole('heading', { name: key, level: 3 }).closest('li') as HTMLElement;
const sent = (requests: RecordedRequest[], method: string) =>
  requests.filter((r) => r.method === method && r.path.startsWith('/api/settings'));

describe('Settings page', () => {
  it('shows Theme Settings first, the integration panels (each channel of the registry, then Gmail), then API Keys', async () => {
    mockApi(settingsRoutes({ 'settings.list': [] }));
    renderWithProviders(<SettingsPage />, { route: '/settings' });
    expect(screen.getByRole('heading', { name: 'Settings', level: 1 })).toBeInTheDocument();
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual([
      'Theme Settings',
      'WordPress Integration',
      'LinkedIn Integration',
      // The other channels come after, in the registry's order (their own tests name them: channels/<id>/).
      ...CHANNEL_REGISTRY.filter((channel) => channel.also || channel.ownVersion).map(() =>
        expect.stringMatching(/ Integration$/),
      ),
      'Gmail API Configuration',
      'API Keys',
    ]);
    expect(screen.queryByText('Coming soon')).not.toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Authenticate with Google' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Authenticate with LinkedIn' })).toBeInTheDocument();
    expect(screen.getByLabelText('Site URL')).toHaveAttribute('type', 'url');
    expect(await screen.findByText('No API keys found. Add your first key using the form.')).toBeInTheDocument();
  });
});

describe('API Keys section', () => {
  it('shows a spinner, then the entries with masked values, descriptions and Last updated (Unknown if missing)', async () => {
    const list = deferred<Reply<'settings.list'>>();
    const { requests } = mockApi(settingsRoutes({ 'settings.list': () => list.promise }));
    renderWithProviders(<SettingsPage />, { route: '/settings' });
    expect(within(section()).getByRole('status', { name: 'Loading API keys' })).toBeInTheDocument();
    expect(within(section()).getByRole('button', { name: 'Add New API Key' })).toBeInTheDocument();

    list.resolve([openai, hidden, legacy]);
    const first = await waitFor(() => entry('openai_api_key'));
    expect(requests.find((r) => r.path.startsWith('/api/settings'))).toMatchObject({
      path: '/api/settings?mask=true',
      credentials: 'include',
    });
    expect(within(section()).queryByRole('status', { name: 'Loading API keys' })).not.toBeInTheDocument();
    // Values are shown exactly as the server masked them.
    expect(within(first).getByText('••••••••1234')).toBeInTheDocument();
    expect(within(first).getByText('Drafts and images')).toBeInTheDocument();
    const expected = new Intl.DateTimeFormat(undefined, {
      month: 'short',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hour12: false,
      timeZoneName: 'short',
    }).format(new Date(openai.updatedAt!));
    expect(within(first).getByText(`Last updated: ${expected}`)).toBeInTheDocument();
    expect(within(first).getByRole('button', { name: 'Edit openai_api_key' })).toBeInTheDocument();
    expect(within(first).getByRole('button', { name: 'Delete openai_api_key' })).toBeInTheDocument();

    const second = entry('old_key');
    expect(within(second).getByText('Last updated: Unknown')).toBeInTheDocument();
    // Integration keys never show here, even if the server sent one.
    expect(screen.queryByText('wordpress_username')).not.toBeInTheDocument();
    expect(within(section()).getAllByRole('listitem')).toHaveLength(2);
  });

  it('shows the empty text when there are no keys', async () => {
    mockApi(settingsRoutes({ 'settings.list': [hidden] }));
    renderWithProviders(<SettingsPage />);
    expect(await screen.findByText('No API keys found. Add your first key using the form.')).toBeInTheDocument();
  });

  it('shows "Failed to load settings data" once, in the section with Try again (not as a toast too), when the list fails', async () => {
    mockApi(settingsRoutes({ 'settings.list': { status: 500, body: null } }));
    renderWithProviders(<SettingsPage />);
    expect(await findInPanelOnly(section(), 'Failed to load settings data')).toBeInTheDocument();
    expect(within(section()).getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('creates a key: name normalised as typed, required fields checked, POST, toast, list reloaded', async () => {
    let stored: Setting[] = [];
    const { requests } = mockApi(
      settingsRoutes({
        'settings.list': () => stored,
        'settings.save': ({ body }) => {
          const setting: Setting = {
            _id: body.key,
            key: body.key,
            value: '••••••••',
            description: body.description ?? '',
            updatedAt: null,
          };
          stored = [setting];
          return { success: true, setting, message: 'Created settings entry successfully' };
        },
      }),
    );
    renderWithProviders(<SettingsPage />);
    const user = userEvent.setup();
    await screen.findByText('No API keys found. Add your first key using the form.');
    await user.click(screen.getByRole('button', { name: 'Add New API Key' }));

    const dialog = screen.getByRole('dialog', { name: 'Add New API Key' });
    const key = within(dialog).getByLabelText('Key Name');
    const value = within(dialog).getByLabelText('Value');
    const description = within(dialog).getByLabelText('Description');
    expect(key).toHaveAttribute('placeholder', 'openai_api_key');
    expect(key).toBeEnabled();
    expect(value).toHaveAttribute('type', 'password');
    expect(value).toHaveAttribute('placeholder', 'Enter sensitive value');
    expect(description.tagName).toBe('TEXTAREA');
    expect(description).toHaveAttribute('rows', '3');
    expect(description).toHaveAttribute('placeholder', 'What is this key used for?');
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByText('Key name is required')).toBeInTheDocument();
    expect(within(dialog).getByText('Value is required')).toBeInTheDocument();
    expect(sent(requests, 'POST')).toHaveLength(0);

    // An integration panel's own key is refused here, by the schema the API uses too.
    await user.type(key, 'wordpress_app_password');
    await user.type(value, 'x');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(
      within(dialog).getByText(
        'This key belongs to one of the connections on the Settings page (its name starts with the connection’s): change it in that connection’s panel.',
      ),
    ).toBeInTheDocument();
    expect(sent(requests, 'POST')).toHaveLength(0);
    await user.clear(key);
    await user.clear(value);

    await user.type(key, 'My OpenAI Key');
    expect(key).toHaveValue('my_openai_key');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).queryByText('Key name is required')).not.toBeInTheDocument();
    expect(within(dialog).getByText('Value is required')).toBeInTheDocument();
    expect(sent(requests, 'POST')).toHaveLength(0);

    await user.type(value, 'sk-secret-value-1234');
    await user.type(description, 'For drafts');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Created settings entry successfully')).toBeInTheDocument();
    expect(sent(requests, 'POST')[0]).toMatchObject({
      path: '/api/settings',
      credentials: 'include',
      body: { key: 'my_openai_key', value: 'sk-secret-value-1234', description: 'For drafts' },
    });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await waitFor(() => entry('my_openai_key'));
    expect(sent(requests, 'GET').length).toBeGreaterThanOrEqual(2);
  });

  it('a key name of spaces only is refused with "Key name is required" and nothing is sent', async () => {
    const { requests } = mockApi(settingsRoutes({ 'settings.list': [] }));
    renderWithProviders(<SettingsPage />);
    const user = userEvent.setup();
    await screen.findByText('No API keys found. Add your first key using the form.');
    await user.click(screen.getByRole('button', { name: 'Add New API Key' }));

    const dialog = screen.getByRole('dialog', { name: 'Add New API Key' });
    await user.type(within(dialog).getByLabelText('Key Name'), '   ');
    await user.type(within(dialog).getByLabelText('Value'), 'sk-secret-value-1234');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await within(dialog).findByText('Key name is required')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Key Name')).not.toHaveValue('___');
    expect(sent(requests, 'POST')).toHaveLength(0);
    expect(screen.getByRole('dialog', { name: 'Add New API Key' })).toBeInTheDocument();
  });

  it('editing: key fixed with its note; a blank value warns "No changes were made to the value" and closes without a request', async () => {
    const { requests } = mockApi(settingsRoutes({ 'settings.list': [openai] }));
    renderWithProviders(<SettingsPage />);
    const user = userEvent.setup();
    await waitFor(() => entry('openai_api_key'));
    await user.click(screen.getByRole('button', { name: 'Edit openai_api_key' }));

    const dialog = screen.getByRole('dialog', { name: 'Edit API Key' });
    expect(within(dialog).getByLabelText('Key Name')).toBeDisabled();
    expect(within(dialog).getByLabelText('Key Name')).toHaveValue('openai_api_key');
    expect(within(dialog).getByText('Key names cannot be changed')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Value')).toHaveValue('');
    expect(within(dialog).getByLabelText('Value')).toHaveAttribute('placeholder', 'Leave blank to keep current value');
    expect(within(dialog).getByLabelText('Description')).toHaveValue('Drafts and images');

    await user.click(within(dialog).getByRole('button', { name: 'Update' }));
    const warning = await screen.findByText('No changes were made to the value');
    expect(warning.closest('.Toastify__toast-container')).toHaveClass('Toastify__toast-container--top-right');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(sent(requests, 'POST')).toHaveLength(0);
  });

  it('editing only the description saves it and keeps the value: POST without a value, "Updated settings entry successfully"', async () => {
    let stored = [openai];
    const { requests } = mockApi(
      settingsRoutes({
        'settings.list': () => stored,
        'settings.save': ({ body }) => {
          stored = [{ ...openai, description: body.description ?? '' }];
          return { success: true, setting: stored[0]!, message: 'Updated settings entry successfully' };
        },
      }),
    );
    renderWithProviders(<SettingsPage />);
    const user = userEvent.setup();
    await waitFor(() => entry('openai_api_key'));
    await user.click(screen.getByRole('button', { name: 'Edit openai_api_key' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit API Key' });
    await user.clear(within(dialog).getByLabelText('Description'));
    await user.type(within(dialog).getByLabelText('Description'), 'Drafts only');
    await user.click(within(dialog).getByRole('button', { name: 'Update' }));

    expect(await screen.findByText('Updated settings entry successfully')).toBeInTheDocument();
    expect(screen.queryByText('No changes were made to the value')).not.toBeInTheDocument();
    expect(sent(requests, 'POST')).toHaveLength(1);
    expect(sent(requests, 'POST')[0]!.body).toEqual({ key: 'openai_api_key', description: 'Drafts only' });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await waitFor(() => expect(entry('openai_api_key')).toHaveTextContent('Drafts only'));
  });

  it('editing with a value sends POST with the fixed key and toasts "Updated settings entry successfully"', async () => {
    const { requests } = mockApi(
      settingsRoutes({
        'settings.list': [openai],
        'settings.save': { success: true, setting: openai, message: 'Updated settings entry successfully' },
      }),
    );
    renderWithProviders(<SettingsPage />);
    const user = userEvent.setup();
    await waitFor(() => entry('openai_api_key'));
    await user.click(screen.getByRole('button', { name: 'Edit openai_api_key' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit API Key' });
    await user.type(within(dialog).getByLabelText('Value'), 'sk-new');
    await user.click(within(dialog).getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('Updated settings entry successfully')).toBeInTheDocument();
    expect(sent(requests, 'POST')[0]!.body).toEqual({
      key: 'openai_api_key',
      value: 'sk-new',
      description: 'Drafts and images',
    });
  });

  it('a failed save shows "Failed to create/update settings entry" in the form, once, and keeps it open', async () => {
    mockApi(settingsRoutes({ 'settings.list': [], 'settings.save': { status: 500, body: null } }));
    renderWithProviders(<SettingsPage />);
    const user = userEvent.setup();
    await screen.findByText('No API keys found. Add your first key using the form.');
    await user.click(screen.getByRole('button', { name: 'Add New API Key' }));
    const dialog = screen.getByRole('dialog', { name: 'Add New API Key' });
    await user.type(within(dialog).getByLabelText('Key Name'), 'k');
    await user.type(within(dialog).getByLabelText('Value'), 'v');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Failed to create/update settings entry');
    expect(queryToast('Failed to create/update settings entry')).not.toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Add New API Key' })).toBeInTheDocument();
  });

  it('deletes after confirmation; cancelling sends nothing; a 404 counts as deleted', async () => {
    let stored = [openai, legacy];
    let deleteReply: Reply<'settings.delete'> = { success: true, message: 'Settings entry deleted successfully' };
    const { requests } = mockApi(
      settingsRoutes({
        'settings.list': () => stored,
        'settings.delete': ({ params }) => {
          stored = stored.filter((s) => s.key !== params.key);
          return deleteReply;
        },
      }),
    );
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    renderWithProviders(<SettingsPage />);
    const user = userEvent.setup();
    await waitFor(() => entry('openai_api_key'));

    await user.click(screen.getByRole('button', { name: 'Delete openai_api_key' }));
    expect(confirm).toHaveBeenCalledWith('Are you sure you want to delete the entry with key "openai_api_key"?');
    expect(sent(requests, 'DELETE')).toHaveLength(0);

    confirm.mockReturnValue(true);
    await user.click(screen.getByRole('button', { name: 'Delete openai_api_key' }));
    expect(await screen.findByText('Settings entry deleted successfully')).toBeInTheDocument();
    expect(sent(requests, 'DELETE')[0]).toMatchObject({ path: '/api/settings/openai_api_key', credentials: 'include' });
    await waitFor(() =>
      expect(within(section()).queryByRole('heading', { name: 'openai_api_key' })).not.toBeInTheDocument(),
    );

    deleteReply = { status: 404, body: { error: 'Settings entry not found', message: 'Settings entry not found' } };
    await user.click(screen.getByRole('button', { name: 'Delete old_key' }));
    await waitFor(() =>
      expect(screen.getAllByText('Settings entry deleted successfully').length).toBeGreaterThanOrEqual(1),
    );
    expect(await screen.findByText('No API keys found. Add your first key using the form.')).toBeInTheDocument();
    expect(screen.queryByText('Failed to delete settings entry')).not.toBeInTheDocument();
  });

  it('a failed delete toasts "Failed to delete settings entry" and keeps the entry', async () => {
    mockApi(settingsRoutes({ 'settings.list': [openai], 'settings.delete': { status: 500, body: null } }));
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    renderWithProviders(<SettingsPage />);
    const user = userEvent.setup();
    await waitFor(() => entry('openai_api_key'));
    await user.click(screen.getByRole('button', { name: 'Delete openai_api_key' }));
    expect(await screen.findByText('Failed to delete settings entry')).toBeInTheDocument();
    expect(entry('openai_api_key')).toBeInTheDocument();
  });
});
