import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import App from './App';
import { deferred, makeUser, mockApi, renderWithProviders, type MockRoutes, type Reply } from './test/utils';

const me = (user: ReturnType<typeof makeUser> | null): MockRoutes => ({
  'auth.me': user ? { user } : { status: 401, body: { error: 'Not authenticated', message: 'Not authenticated' } },
});
const location = () => screen.getByTestId('location');

describe('routes and access rules', () => {
  it('renders nothing while the session check is pending', async () => {
    const pending = deferred<Reply<'auth.me'>>();
    mockApi({ 'auth.me': () => pending.promise });
    const { container } = renderWithProviders(<App />, { route: '/dashboard' });

    // Only the test's location probe and the (empty) toast area exist: no welcome, no shell.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.queryByRole('button', { name: 'Login' })).not.toBeInTheDocument();
    expect(screen.queryByRole('navigation')).not.toBeInTheDocument();
    expect(screen.queryByRole('heading')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Loading')).not.toBeInTheDocument();
    expect(container.textContent).toBe('/dashboard');

    pending.resolve({ user: makeUser() });
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
  });

  it('shows the welcome screen at /welcome for any path when signed out', async () => {
    mockApi(me(null));
    renderWithProviders(<App />, { route: '/schedule?x=1' });
    expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent(/publish content/i);
    expect(
      screen.getByText(/content automation tool for creating, scheduling and publishing content across channels/i),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Login' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Register' })).toBeInTheDocument();
    expect(location()).toHaveTextContent(/^\/welcome$/);
    expect(screen.queryByRole('navigation')).not.toBeInTheDocument();
    expect(document.title).toBe('Content Publisher');
  });

  it('treats a failed session check as logged out', async () => {
    mockApi({ 'auth.me': { status: 500, body: null } });
    renderWithProviders(<App />, { route: '/dashboard' });
    expect(await screen.findByRole('button', { name: 'Register' })).toBeInTheDocument();
    expect(location()).toHaveTextContent('/welcome');
  });

  it('redirects unknown paths and /welcome to /dashboard when signed in', async () => {
    mockApi(me(makeUser()));
    renderWithProviders(<App />, { route: '/no/such/page' });
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    expect(location()).toHaveTextContent(/^\/dashboard$/);
  });

  it('keeps /create nested: any sub-path redirects to /create', async () => {
    mockApi(me(makeUser()));
    renderWithProviders(<App />, { route: '/create/something/else' });
    expect(await screen.findByRole('heading', { name: 'Create Article', level: 1 })).toBeInTheDocument();
    expect(location()).toHaveTextContent(/^\/create$/);
  });

  it.each([
    ['/schedule', 'Article Schedule'],
    ['/calendar', 'Content Calendar'],
    ['/history', 'Published Articles History'],
    ['/settings', 'Settings'],
    ['/sheets-import', 'Import Articles from Google Sheets'],
  ])('routes %s to its screen', async (route, title) => {
    mockApi(me(makeUser()));
    renderWithProviders(<App />, { route });
    expect(await screen.findByRole('heading', { name: title, level: 1 })).toBeInTheDocument();
    expect(location()).toHaveTextContent(route);
  });

  it('sends a regular user away from /admin and hides the Admin link', async () => {
    const { requests } = mockApi(me(makeUser({ role: 'user' })));
    renderWithProviders(<App />, { route: '/admin' });
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    expect(location()).toHaveTextContent(/^\/dashboard$/);
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Dashboard', 'Create', 'Schedule', 'Calendar', 'History', 'Settings']);
    expect(requests.some((r) => r.path.startsWith('/api/admin'))).toBe(false);
  });

  it('lets an admin open /admin and shows the Admin link', async () => {
    mockApi({ ...me(makeUser({ role: 'admin' })), 'admin.listUsers': { users: [] } });
    renderWithProviders(<App />, { route: '/admin' });
    expect(await screen.findByRole('heading', { name: 'Admin', level: 1 })).toBeInTheDocument();
    expect(location()).toHaveTextContent(/^\/admin$/);
    const adminLink = within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: 'Admin' });
    expect(adminLink).toHaveAttribute('href', '/admin');
    expect(adminLink).toHaveAttribute('aria-current', 'page');
    expect(adminLink).toHaveClass('is-active');
  });
});

describe('shell', () => {
  it('shows the top bar, marks the active link and navigates with + New Article', async () => {
    mockApi(me(makeUser()));
    renderWithProviders(<App />, { route: '/history' });
    const user = userEvent.setup();
    await screen.findByRole('heading', { name: 'Published Articles History' });

    const banner = screen.getByRole('banner');
    expect(within(banner).getByText('History')).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'History' })).toHaveAttribute('aria-current', 'page');
    expect(within(nav).getByRole('link', { name: 'Dashboard' })).not.toHaveAttribute('aria-current');

    await user.click(within(banner).getByRole('button', { name: '+ New Article' }));
    await waitFor(() => expect(location()).toHaveTextContent(/^\/create$/));
    expect(await screen.findByRole('heading', { name: 'Create Article', level: 1 })).toBeInTheDocument();

    await user.click(within(nav).getByRole('link', { name: 'Settings' }));
    expect(await screen.findByRole('heading', { name: 'Theme Settings' })).toBeInTheDocument();
  });

  it('names the page in the browser tab and renames it on navigation', async () => {
    mockApi(me(makeUser()));
    renderWithProviders(<App />, { route: '/schedule' });
    const user = userEvent.setup();
    await screen.findByRole('heading', { name: 'Article Schedule', level: 1 });
    expect(document.title).toBe('Schedule · Content Publisher');

    await user.click(within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: 'Dashboard' }));
    await screen.findByRole('heading', { name: 'Dashboard', level: 1 });
    expect(document.title).toBe('Dashboard · Content Publisher');

    await user.click(within(screen.getByRole('banner')).getByRole('button', { name: '+ New Article' }));
    await screen.findByRole('heading', { name: 'Create Article', level: 1 });
    expect(document.title).toBe('Create Article · Content Publisher');
  });

  it("shows the user's name in the user menu, with the fallback User", async () => {
    mockApi(me(makeUser({ name: '' })));
    renderWithProviders(<App />, { route: '/dashboard' });
    expect(await screen.findByRole('button', { name: /^User$/ })).toHaveAttribute('aria-expanded', 'false');
  });

  it('logs out: POST logout, toast, back to /welcome replacing the entry', async () => {
    const { requests } = mockApi({
      ...me(makeUser({ name: 'Jane' })),
      'auth.logout': { message: 'Logged out.' },
    });
    renderWithProviders(<App />, { route: '/schedule' });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Jane' }));
    expect(screen.getByText('jane@example.com')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Logout' }));

    expect(await screen.findByText('Logged out.')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Register' })).toBeInTheDocument();
    expect(location()).toHaveTextContent(/^\/welcome$/);
    expect(location()).toHaveAttribute('data-navigation', 'REPLACE');
    expect(screen.queryByRole('navigation')).not.toBeInTheDocument();
    expect(requests.find((r) => r.path === '/api/auth/logout')).toMatchObject({
      method: 'POST',
      credentials: 'include',
    });
  });

  it('logs out everywhere: POST logout-everywhere, toast, back to /welcome', async () => {
    const { requests } = mockApi({
      ...me(makeUser({ name: 'Jane' })),
      'auth.logoutEverywhere': { message: 'Logged out on every device.' },
    });
    renderWithProviders(<App />, { route: '/schedule' });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Jane' }));
    await user.click(screen.getByRole('button', { name: 'Log out everywhere' }));

    expect(await screen.findByText('Logged out on every device.')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Register' })).toBeInTheDocument();
    expect(location()).toHaveTextContent(/^\/welcome$/);
    expect(requests.find((r) => r.path === '/api/auth/logout-everywhere')).toMatchObject({
      method: 'POST',
      credentials: 'include',
    });
  });

  it('changes the password from the user menu: checks the confirmation first, then sends, toasts and closes', async () => {
    const { requests } = mockApi({
      ...me(makeUser({ name: 'Jane' })),
      'auth.changePassword': ({ body }) =>
        body.currentPassword === 'old-passphrase'
          ? { message: 'Password changed. You were signed out everywhere else.' }
          : {
              status: 400,
              body: {
                error: 'The current password is not correct',
                message: 'The current password is not correct',
                code: 'current_password_wrong',
              },
            },
    });
    renderWithProviders(<App />, { route: '/schedule' });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Jane' }));
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change password' });
    expect(within(dialog).getByLabelText('Current password')).toHaveFocus();

    await user.type(within(dialog).getByLabelText('Current password'), 'wrong-passphrase');
    await user.type(within(dialog).getByLabelText('New password'), 'a fresh passphrase');
    await user.type(within(dialog).getByLabelText('Confirm new password'), 'a fresh passphrasE');
    await user.click(within(dialog).getByRole('button', { name: 'Change password' }));
    expect(within(dialog).getByText('The new passwords do not match')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Confirm new password')).toHaveFocus();
    expect(requests.filter((r) => r.path === '/api/auth/password')).toHaveLength(0);

    await user.clear(within(dialog).getByLabelText('Confirm new password'));
    await user.type(within(dialog).getByLabelText('Confirm new password'), 'a fresh passphrase');
    await user.click(within(dialog).getByRole('button', { name: 'Change password' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('The current password is not correct');

    await user.clear(within(dialog).getByLabelText('Current password'));
    await user.type(within(dialog).getByLabelText('Current password'), 'old-passphrase');
    await user.click(within(dialog).getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Password changed. You were signed out everywhere else.')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(requests.filter((r) => r.path === '/api/auth/password').at(-1)?.body).toEqual({
      currentPassword: 'old-passphrase',
      newPassword: 'a fresh passphrase',
    });
    expect(location()).toHaveTextContent('/schedule');
  });

  it('keeps the user signed in and toasts "Logout failed" when logout fails', async () => {
    mockApi({ ...me(makeUser({ name: 'Jane' })), 'auth.logout': { status: 500, body: null } });
    renderWithProviders(<App />, { route: '/schedule' });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Jane' }));
    await user.click(screen.getByRole('button', { name: 'Logout' }));

    expect(await screen.findByText('Logout failed')).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeInTheDocument();
    expect(location()).toHaveTextContent('/schedule');
  });

  it('signs the user out when another call answers 401', async () => {
    mockApi({
      ...me(makeUser({ role: 'admin' })),
      'admin.listUsers': { status: 401, body: { error: 'Not authenticated', message: 'Not authenticated' } },
    });
    renderWithProviders(<App />, { route: '/admin' });
    expect(await screen.findByRole('button', { name: 'Register' })).toBeInTheDocument();
    expect(location()).toHaveTextContent('/welcome');
  });
});
