import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { screen, within, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import App from '../App';
import { AuthModal, type AuthMode } from './AuthModal';
import { queryToast } from '../test/settings';
import { deferred, makeUser, mockApi, renderWithProviders, type MockRoutes, type Reply } from '../test/utils';

const signedOut: MockRoutes = {
  'auth.me': { status: 401, body: { error: 'Not authenticated', message: 'Not authenticated' } },
};

async function openModal(mode: 'Login' | 'Register') {
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: mode }));
  const dialog = await screen.findByRole('dialog');
  return { user, dialog };
}

function Harness({ initial = 'register' as AuthMode }) {
  const [mode, setMode] = useState<AuthMode>(initial);
  const [open, setOpen] = useState(true);
  return (
    <>
      {open && <AuthModal mode={mode} onModeChange={setMode} onClose={() => setOpen(false)} />}
      <output data-testid="mode">{mode}</output>
      <button type="button" onClick={() => setOpen(true)}>
        Reopen
      </button>
    </>
  );
}

describe('AuthModal', () => {
  it('opens from the welcome card in the chosen mode and switches modes with the tabs', async () => {
    mockApi(signedOut);
    renderWithProviders(<App />, { route: '/welcome' });
    const { user, dialog } = await openModal('Register');

    expect(within(dialog).getByRole('heading', { name: 'Register' })).toBeInTheDocument();
    expect(within(dialog).getByRole('tab', { name: 'Register' })).toHaveAttribute('aria-selected', 'true');
    expect(within(dialog).getByRole('button', { name: 'Create account' })).toHaveAttribute('type', 'submit');
    expect(within(dialog).getByLabelText('Name')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Surname')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Timezone')).toBeInTheDocument();

    await user.click(within(dialog).getByRole('tab', { name: 'Login' }));
    expect(within(dialog).getByRole('heading', { name: 'Login' })).toBeInTheDocument();
    expect(within(dialog).getByRole('tab', { name: 'Login' })).toHaveAttribute('aria-selected', 'true');
    expect(within(dialog).getByRole('tab', { name: 'Register' })).toHaveAttribute('aria-selected', 'false');
    expect(within(dialog).getByRole('button', { name: 'Login' })).toHaveAttribute('type', 'submit');
    expect(within(dialog).queryByRole('button', { name: 'Create account' })).not.toBeInTheDocument();
    expect(within(dialog).queryByLabelText('Name')).not.toBeInTheDocument();
    expect(within(dialog).queryByLabelText('Timezone')).not.toBeInTheDocument();
    expect(within(dialog).getByLabelText('Email')).toHaveAttribute('type', 'email');
    expect(within(dialog).getByLabelText('Password')).toHaveAttribute('type', 'password');

    await user.click(within(dialog).getByRole('tab', { name: 'Register' }));
    expect(within(dialog).getByRole('heading', { name: 'Register' })).toBeInTheDocument();
  });

  it('validates the registration form with the shared schema and sends nothing while invalid', async () => {
    const { requests } = mockApi(signedOut);
    renderWithProviders(<App />, { route: '/welcome' });
    const { user, dialog } = await openModal('Register');

    await user.type(within(dialog).getByLabelText('Email'), 'not-an-email');
    await user.type(within(dialog).getByLabelText('Password'), '12345');
    await user.click(within(dialog).getByRole('button', { name: 'Create account' }));

    const name = within(dialog).getByLabelText('Name');
    const surname = within(dialog).getByLabelText('Surname');
    const email = within(dialog).getByLabelText('Email');
    const password = within(dialog).getByLabelText('Password');
    expect(within(dialog).getByText('Name is required')).toBeInTheDocument();
    expect(within(dialog).getByText('Surname is required')).toBeInTheDocument();
    expect(within(dialog).getByText('Enter a valid email address')).toBeInTheDocument();
    expect(within(dialog).getByText('Password must be at least 6 characters')).toBeInTheDocument();
    for (const field of [name, surname, email, password]) expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(name).toHaveAccessibleDescription('Name is required');
    expect(password).toHaveAccessibleDescription(expect.stringContaining('Password must be at least 6 characters'));
    expect(name).toHaveFocus();
    expect(requests.filter((r) => r.method !== 'GET')).toHaveLength(0);

    // Fixing a field clears its message as the user types.
    await user.type(name, 'Ada');
    expect(within(dialog).queryByText('Name is required')).not.toBeInTheDocument();
    expect(name).not.toHaveAttribute('aria-invalid');
    expect(within(dialog).getByText('Surname is required')).toBeInTheDocument();
    expect(requests.filter((r) => r.method !== 'GET')).toHaveLength(0);
  });

  it('after switching from login to register, the first field of the form gets the focus, and errors go with the mode', async () => {
    mockApi(signedOut);
    renderWithProviders(<App />, { route: '/welcome' });
    const { user, dialog } = await openModal('Login');

    await user.click(within(dialog).getByRole('button', { name: 'Login' }));
    expect(within(dialog).getByLabelText('Email')).toHaveFocus();
    expect(within(dialog).getByText('Email is required')).toBeInTheDocument();

    await user.click(within(dialog).getByRole('tab', { name: 'Register' }));
    expect(within(dialog).queryByText('Email is required')).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Create account' }));
    expect(within(dialog).getByText('Name is required')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Name')).toHaveFocus();
  });

  it('validates the login form: invalid email and missing password block the request', async () => {
    const { requests } = mockApi(signedOut);
    renderWithProviders(<App />, { route: '/welcome' });
    const { user, dialog } = await openModal('Login');

    await user.type(within(dialog).getByLabelText('Email'), 'jane@');
    await user.click(within(dialog).getByRole('button', { name: 'Login' }));
    expect(within(dialog).getByText('Enter a valid email address')).toBeInTheDocument();
    expect(within(dialog).getByText('Password is required')).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Password'), 'short');
    await user.click(within(dialog).getByRole('button', { name: 'Login' }));
    expect(within(dialog).getByText('Password must be at least 6 characters')).toBeInTheDocument();
    expect(requests.filter((r) => r.method !== 'GET')).toHaveLength(0);
  });

  it('logs in: sends the trimmed payload with credentials, shows "Please wait..." and enters the app', async () => {
    const answer = deferred<Reply<'auth.login'>>();
    const { requests } = mockApi({ ...signedOut, 'auth.login': () => answer.promise });
    renderWithProviders(<App />, { route: '/welcome' });
    const { user, dialog } = await openModal('Login');

    await user.type(within(dialog).getByLabelText('Email'), '  jane@example.com ');
    await user.type(within(dialog).getByLabelText('Password'), 'secret');
    await user.click(within(dialog).getByRole('button', { name: 'Login' }));

    const busy = within(dialog).getByRole('button', { name: 'Please wait...' });
    expect(busy).toBeDisabled();
    const login = requests.find((r) => r.path === '/api/auth/login');
    expect(login).toMatchObject({
      method: 'POST',
      body: { email: 'jane@example.com', password: 'secret' },
      credentials: 'include',
    });

    answer.resolve({ user: makeUser(), message: 'Logged in successfully' });
    expect(await screen.findByText('Logged in successfully')).toBeInTheDocument();
    expect(await screen.findByRole('navigation', { name: 'Main' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/dashboard'));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it("shows the server's error text in the modal, once (not as a toast too), else the fallback", async () => {
    let reply: Reply<'auth.login'> = {
      status: 403,
      body: { error: 'Your account is awaiting admin approval.', message: 'Your account is awaiting admin approval.' },
    };
    mockApi({ ...signedOut, 'auth.login': () => reply });
    renderWithProviders(<App />, { route: '/welcome' });
    const { user, dialog } = await openModal('Login');

    await user.type(within(dialog).getByLabelText('Email'), 'jane@example.com');
    await user.type(within(dialog).getByLabelText('Password'), 'secret');
    await user.click(within(dialog).getByRole('button', { name: 'Login' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Your account is awaiting admin approval.');
    expect(within(dialog).getByRole('button', { name: 'Login' })).toBeEnabled();
    expect(queryToast('Your account is awaiting admin approval.')).not.toBeInTheDocument();
    // Changing a field makes the message stale: it goes.
    await user.type(within(dialog).getByLabelText('Password'), '!');
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();

    reply = { status: 500, body: null };
    await user.click(within(dialog).getByRole('button', { name: 'Login' }));
    await waitFor(() => expect(within(dialog).getByRole('alert')).toHaveTextContent(/^Login failed$/));
    expect(queryToast('Login failed')).not.toBeInTheDocument();
  });

  it('registers the first account: the admin is logged in', async () => {
    const { requests } = mockApi({
      ...signedOut,
      'auth.register': { user: makeUser({ role: 'admin' }), message: 'Admin account created. You are logged in.' },
    });
    renderWithProviders(<App />, { route: '/welcome' });
    const { user, dialog } = await openModal('Register');

    await user.type(within(dialog).getByLabelText('Name'), 'Ada');
    await user.type(within(dialog).getByLabelText('Surname'), 'Lovelace');
    await user.type(within(dialog).getByLabelText('Email'), 'ada@example.com');
    await user.type(within(dialog).getByLabelText('Password'), 'engine1');
    await user.selectOptions(within(dialog).getByLabelText('Timezone'), 'Europe/London');
    await user.click(within(dialog).getByRole('button', { name: 'Create account' }));

    expect(await screen.findByText('Admin account created. You are logged in.')).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'Admin' })).toBeInTheDocument();
    expect(requests.find((r) => r.path === '/api/auth/register')?.body).toEqual({
      name: 'Ada',
      surname: 'Lovelace',
      email: 'ada@example.com',
      password: 'engine1',
      timezone: 'Europe/London',
    });
  });

  it('asks for the setup code while the deployment has no admin yet, and sends it', async () => {
    const { requests } = mockApi({
      ...signedOut,
      'auth.setup': { setupCodeRequired: true },
      'auth.register': {
        status: 400,
        body: {
          error: 'The setup code is not correct.',
          message: 'The setup code is not correct.',
          code: 'setup_code_wrong',
        },
      },
    });
    renderWithProviders(<App />, { route: '/welcome' });
    const { user, dialog } = await openModal('Register');

    const code = await within(dialog).findByLabelText('Setup code');
    expect(code).toHaveAccessibleDescription(/stack output SetupCodeCommand/);
    await user.type(within(dialog).getByLabelText('Name'), 'Ada');
    await user.type(within(dialog).getByLabelText('Surname'), 'Lovelace');
    await user.type(within(dialog).getByLabelText('Email'), 'ada@example.com');
    await user.type(within(dialog).getByLabelText('Password'), 'engine1');
    await user.type(code, ' k3y-from-the-stack ');
    await user.click(within(dialog).getByRole('button', { name: 'Create account' }));

    expect(await within(dialog).findByRole('alert')).toHaveTextContent('The setup code is not correct.');
    expect(requests.find((r) => r.path === '/api/auth/register')?.body).toMatchObject({
      email: 'ada@example.com',
      setupCode: 'k3y-from-the-stack',
    });
  });

  it('has no setup code field when the deployment does not ask for one', async () => {
    mockApi({ ...signedOut, 'auth.setup': { setupCodeRequired: false } });
    renderWithProviders(<App />, { route: '/welcome' });
    const { dialog } = await openModal('Register');
    await waitFor(() => expect(within(dialog).getByLabelText('Name')).toBeInTheDocument());
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(within(dialog).queryByLabelText('Setup code')).not.toBeInTheDocument();
  });

  it('registration without a user closes the modal, resets the mode to login and stays signed out', async () => {
    mockApi({
      ...signedOut,
      'auth.register': { message: 'Registration received. Await admin approval.' },
    });
    renderWithProviders(<Harness />);
    const user = userEvent.setup();
    const dialog = await screen.findByRole('dialog');
    expect(screen.getByTestId('mode')).toHaveTextContent('register');

    await user.type(within(dialog).getByLabelText('Name'), 'Bob');
    await user.type(within(dialog).getByLabelText('Surname'), 'Stone');
    await user.type(within(dialog).getByLabelText('Email'), 'bob@example.com');
    await user.type(within(dialog).getByLabelText('Password'), 'hunter22');
    await user.click(within(dialog).getByRole('button', { name: 'Create account' }));

    expect(await screen.findByText('Registration received. Await admin approval.')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByTestId('mode')).toHaveTextContent('login');

    await user.click(screen.getByRole('button', { name: 'Reopen' }));
    const reopened = await screen.findByRole('dialog');
    expect(within(reopened).getByRole('heading', { name: 'Login' })).toBeInTheDocument();
    expect(within(reopened).getByRole('button', { name: 'Login' })).toBeInTheDocument();
  });

  it('offers the timezone choices plus the browser zone, defaulting to the browser zone', async () => {
    mockApi(signedOut);
    renderWithProviders(<Harness />);
    const select = within(await screen.findByRole('dialog')).getByLabelText<HTMLSelectElement>('Timezone');
    const values = Array.from(select.options).map((option) => option.value);
    for (const zone of ['UTC', 'America/New_York', 'Europe/Paris', 'Asia/Tokyo']) expect(values).toContain(zone);
    expect(select.value).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC');
  });

  it('closes on Escape and on a backdrop click, and returns focus to the opener', async () => {
    mockApi(signedOut);
    renderWithProviders(<App />, { route: '/welcome' });
    const { user } = await openModal('Login');
    expect(screen.getByRole('dialog')).toContainElement(document.activeElement as HTMLElement);

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Login' })).toHaveFocus();

    await user.click(screen.getByRole('button', { name: 'Register' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(dialog.parentElement as HTMLElement);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
