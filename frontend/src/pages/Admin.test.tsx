import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import AdminPage from './Admin';
import { deferred, makeUser, mockApi, renderWithProviders, type Reply } from '../test/utils';

const admin = makeUser({ _id: 'a1', name: 'Ada', surname: 'Lovelace', email: 'ada@example.com', role: 'admin' });
const active = makeUser({ _id: 'u1', name: 'Jane', surname: 'Doe', email: 'jane@example.com', isActive: true });
const pendingUser = makeUser({ _id: 'u2', name: 'Bob', surname: 'Stone', email: 'bob@example.com', isActive: false });

const row = (text: string) => screen.getByRole('cell', { name: text }).closest('tr') as HTMLElement;

describe('Admin page', () => {
  it('shows "Loading users..." and then lists the users', async () => {
    const list = deferred<Reply<'admin.listUsers'>>();
    mockApi({ 'admin.listUsers': () => list.promise });
    renderWithProviders(<AdminPage />, { route: '/admin' });

    expect(screen.getByRole('heading', { name: 'Admin', level: 1 })).toBeInTheDocument();
    expect(screen.getByText('Manage user activation status')).toBeInTheDocument();
    expect(screen.getByText('Loading users...')).toBeInTheDocument();

    list.resolve({ users: [admin, active, pendingUser] });
    expect(await screen.findByRole('table')).toBeInTheDocument();
    expect(screen.queryByText('Loading users...')).not.toBeInTheDocument();
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual([
      'Name',
      'Email',
      'Role',
      'Status',
      'Action',
    ]);
    expect(screen.getAllByRole('row')).toHaveLength(4);

    const jane = row('Jane Doe');
    expect(within(jane).getByRole('cell', { name: 'jane@example.com' })).toBeInTheDocument();
    expect(within(jane).getByText('Active')).toBeInTheDocument();
    expect(within(jane).getByRole('button', { name: 'Deactivate Jane Doe' })).toBeEnabled();

    const bob = row('Bob Stone');
    expect(within(bob).getByText('Inactive')).toBeInTheDocument();
    expect(within(bob).getByRole('button', { name: 'Activate Bob Stone' })).toBeEnabled();
  });

  it('shows an Admin badge and no action for admin accounts', async () => {
    mockApi({ 'admin.listUsers': { users: [admin, active] } });
    renderWithProviders(<AdminPage />);
    await screen.findByRole('table');
    const ada = row('Ada Lovelace');
    expect(within(ada).queryByRole('button')).not.toBeInTheDocument();
    const badge = within(ada)
      .getAllByText('Admin')
      .find((el) => el.classList.contains('badge'));
    expect(badge).toBeDefined();
    expect(within(row('Jane Doe')).queryByText('Admin')).not.toBeInTheDocument();
  });

  it('toggles a user: "Please wait..." while pending, then the row shows the returned user and a toast', async () => {
    const patch = deferred<Reply<'admin.setUserStatus'>>();
    const { requests } = mockApi({
      'admin.listUsers': { users: [admin, active, pendingUser] },
      'admin.setUserStatus': () => patch.promise,
    });
    renderWithProviders(<AdminPage />);
    const user = userEvent.setup();
    await screen.findByRole('table');

    await user.click(within(row('Jane Doe')).getByRole('button', { name: 'Deactivate Jane Doe' }));
    const waiting = within(row('Jane Doe')).getByRole('button', { name: 'Please wait...' });
    expect(waiting).toBeDisabled();
    // Other rows stay usable.
    expect(within(row('Bob Stone')).getByRole('button', { name: 'Activate Bob Stone' })).toBeEnabled();
    expect(requests.find((r) => r.method === 'PATCH')).toMatchObject({
      path: '/api/admin/users/u1/status',
      body: { isActive: false },
      credentials: 'include',
    });

    patch.resolve({ user: { ...active, isActive: false }, message: 'User deactivated' });
    expect(await screen.findByText('User deactivated')).toBeInTheDocument();
    const jane = row('Jane Doe');
    expect(within(jane).getByText('Inactive')).toBeInTheDocument();
    expect(within(jane).getByRole('button', { name: 'Activate Jane Doe' })).toBeEnabled();
    expect(screen.queryByRole('button', { name: 'Please wait...' })).not.toBeInTheDocument();
  });

  it('activates a user and toasts "User activated"', async () => {
    mockApi({
      'admin.listUsers': { users: [pendingUser] },
      'admin.setUserStatus': ({ body }) => ({
        user: { ...pendingUser, isActive: body.isActive },
        message: 'User activated',
      }),
    });
    renderWithProviders(<AdminPage />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Activate Bob Stone' }));
    expect(await screen.findByText('User activated')).toBeInTheDocument();
    await waitFor(() => expect(within(row('Bob Stone')).getByText('Active')).toBeInTheDocument());
  });

  it("toasts the server's error, else Failed to update user, and keeps the row", async () => {
    let reply: Reply<'admin.setUserStatus'> = {
      status: 403,
      body: { error: 'Admin accounts cannot be changed', message: 'x' },
    };
    mockApi({
      'admin.listUsers': { users: [active] },
      'admin.setUserStatus': () => reply,
    });
    renderWithProviders(<AdminPage />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Deactivate Jane Doe' }));
    expect(await screen.findByText('Admin accounts cannot be changed')).toBeInTheDocument();
    expect(within(row('Jane Doe')).getByText('Active')).toBeInTheDocument();

    reply = { status: 500, body: null };
    await user.click(screen.getByRole('button', { name: 'Deactivate Jane Doe' }));
    expect(await screen.findByText('Failed to update user')).toBeInTheDocument();
  });

  it("shows the server's error text when the list fails to load, else Failed to load users", async () => {
    mockApi({ 'admin.listUsers': { status: 403, body: { error: 'Only admins can do this', message: 'm' } } });
    const first = renderWithProviders(<AdminPage />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Only admins can do this');
    first.unmount();

    mockApi({ 'admin.listUsers': { status: 500, body: null } });
    renderWithProviders(<AdminPage />);
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Failed to load users$/);
  });
});
