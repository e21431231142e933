import { afterEach, describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { InvitationPreview } from '@app/shared';
import App from '../App';
import { currentWorkspaceId, setCurrentWorkspaceId } from '../lib/workspace';
import { makeUser, mockApi, renderWithProviders } from '../test/utils';

const invitation: InvitationPreview = {
  workspaceName: 'Acme Marketing',
  invitedBy: 'Olive Owner',
  email: 'writer@example.com',
  role: 'writer',
  expiresAt: '2099-01-01T00:00:00.000Z',
};
const team = { id: 'team-1', name: 'Acme Marketing', personal: false, role: 'writer' as const };

afterEach(() => setCurrentWorkspaceId(undefined));

describe('the invitation page (docs/product.md, Workspaces)', { timeout: 20_000 }, () => {
  it('signed out: registers through the link with the payload schema, then is in the workspace', async () => {
    const { requests } = mockApi({
      'auth.me': { user: null },
      'workspaces.invitation': invitation,
      'auth.registerInvited': {
        message: 'Account created. You are logged in.',
        user: makeUser({ email: 'writer@example.com' }),
        workspace: team,
      },
      'workspaces.list': { workspaces: [team] },
    });
    renderWithProviders(<App />, { route: '/invite?token=ws.inv.secret' });
    expect(await screen.findByRole('heading', { name: 'Join Acme Marketing', level: 1 })).toBeVisible();
    expect(screen.getByText(/Olive Owner invited/)).toHaveTextContent('writer@example.com');

    // The shared schema speaks first: nothing is sent with a short password.
    await userEvent.type(screen.getByLabelText('Name'), 'Wendy');
    await userEvent.type(screen.getByLabelText('Surname'), 'Writer');
    await userEvent.type(screen.getByLabelText('Password'), 'abc');
    await userEvent.click(screen.getByRole('button', { name: 'Create account and join' }));
    expect(await screen.findByText('Password must be at least 6 characters')).toBeVisible();
    expect(requests.some((r) => r.route === 'auth.registerInvited')).toBe(false);

    await userEvent.type(screen.getByLabelText('Password'), 'defghij');
    await userEvent.click(screen.getByRole('button', { name: 'Create account and join' }));
    await screen.findByTestId('location');
    const sent = requests.find((r) => r.route === 'auth.registerInvited')!;
    expect(sent.body).toMatchObject({
      token: 'ws.inv.secret',
      name: 'Wendy',
      surname: 'Writer',
      password: 'abcdefghij',
    });
    expect(sent.body).not.toHaveProperty('email');
    expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    expect(currentWorkspaceId()).toBe('team-1');
  });

  it('signed out, awaiting the admin: says so and signs nobody in', async () => {
    mockApi({
      'auth.me': { user: null },
      'workspaces.invitation': invitation,
      'auth.registerInvited': { message: 'Account created. You can log in once an admin activates it.' },
    });
    renderWithProviders(<App />, { route: '/invite?token=ws.inv.secret' });
    await userEvent.type(await screen.findByLabelText('Name'), 'Wendy');
    await userEvent.type(screen.getByLabelText('Surname'), 'Writer');
    await userEvent.type(screen.getByLabelText('Password'), 'abcdefghij');
    await userEvent.click(screen.getByRole('button', { name: 'Create account and join' }));
    expect(await screen.findByText(/once an admin activates it/)).toHaveAttribute('role', 'status');
    expect(screen.queryByLabelText('Password')).toBeNull();
    expect(currentWorkspaceId()).toBeUndefined();
  });

  it('signed out with an account: Log in on the invitation, then Join it there', async () => {
    const { requests } = mockApi({
      'auth.me': { user: null },
      'workspaces.invitation': invitation,
      'auth.login': { message: 'Logged in', user: makeUser({ email: 'writer@example.com' }) },
      'workspaces.accept': { message: 'You joined Acme Marketing', workspace: team },
      'workspaces.list': { workspaces: [team] },
    });
    renderWithProviders(<App />, { route: '/invite?token=ws.inv.secret' });
    await userEvent.click(await screen.findByRole('button', { name: 'Log in' }));
    const dialog = await screen.findByRole('dialog');
    // The invited address is filled in: the invitee types the password only.
    expect(within(dialog).getByLabelText('Email')).toHaveValue('writer@example.com');
    await userEvent.type(within(dialog).getByLabelText('Password'), 'abcdefghij');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Login' }));
    // Still the invitation, now signed in: Join, no registration form.
    await userEvent.click(await screen.findByRole('button', { name: 'Join Acme Marketing' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/invite');
    expect(screen.queryByLabelText('Surname')).toBeNull();
    await screen.findByRole('heading', { level: 1, name: 'Dashboard' });
    expect(requests.find((r) => r.route === 'auth.login')!.body).toMatchObject({ email: 'writer@example.com' });
    expect(requests.find((r) => r.route === 'workspaces.accept')!.body).toEqual({ token: 'ws.inv.secret' });
    expect(currentWorkspaceId()).toBe('team-1');
  });

  it('signed in as the invited address (any letter case): Join accepts and switches to the workspace', async () => {
    const { requests } = mockApi({
      'auth.me': { user: makeUser({ email: 'Writer@example.com' }) },
      'workspaces.invitation': invitation,
      'workspaces.accept': { message: 'You joined Acme Marketing', workspace: team },
    });
    renderWithProviders(<App />, { route: '/invite?token=ws.inv.secret' });
    await userEvent.click(await screen.findByRole('button', { name: 'Join Acme Marketing' }));
    await screen.findByRole('heading', { level: 1, name: 'Dashboard' });
    expect(requests.find((r) => r.route === 'workspaces.accept')!.body).toEqual({ token: 'ws.inv.secret' });
    expect(currentWorkspaceId()).toBe('team-1');
  });

  it('an expired link shows the server’s reason', async () => {
    mockApi({
      'auth.me': { user: makeUser({ email: 'someone@example.com' }) },
      'workspaces.invitation': {
        status: 400,
        body: {
          error: 'This invitation has expired. Ask the workspace owner for a new one.',
          message: 'This invitation has expired. Ask the workspace owner for a new one.',
          code: 'invitation_expired',
        },
      },
    });
    renderWithProviders(<App />, { route: '/invite?token=ws.inv.secret' });
    expect(await screen.findByRole('alert')).toHaveTextContent('This invitation has expired.');
  });
});
