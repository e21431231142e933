import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import App from './App';
import { makeUser, mockApi, renderWithProviders } from './test/utils';

// Code fetched on demand that cannot be fetched (the connection dropped; a deployment replaced the chunks this tab
// knows): the History page's and the change-password form's imports fail here.
vi.mock('./pages/History', () => {
  throw new Error('Failed to fetch dynamically imported module');
});
vi.mock('./components/ChangePasswordModal', () => {
  throw new Error('Failed to fetch dynamically imported module');
});

describe('code that cannot be loaded (components/CodeLoadBoundary.tsx)', () => {
  it('a page: said in its place with Reload, the top bar kept; another page opens as usual', async () => {
    mockApi({ 'auth.me': { user: makeUser({ name: 'Jane' }) }, 'articles.unpublished': { articles: [] } });
    renderWithProviders(<App />, { route: '/history' });
    // (The first render of the shell loads its modules here: more than findBy's usual second.)
    const alert = await screen.findByRole('alert', {}, { timeout: 10_000 });
    expect(alert).toHaveTextContent('This page could not be loaded. Check your connection, or reload the page');
    expect(within(alert).getByRole('button', { name: 'Reload' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Jane' })).toBeInTheDocument();

    await userEvent.setup().click(screen.getByRole('link', { name: 'Schedule' }));
    expect(await screen.findByRole('heading', { name: 'Article Schedule', level: 1 })).toBeInTheDocument();
    expect(screen.queryByText(/This page could not be loaded/)).not.toBeInTheDocument();
  }, 20_000);

  it('the change-password form: no dialog and no blank window, a toast says so', async () => {
    mockApi({ 'auth.me': { user: makeUser({ name: 'Jane' }) }, 'articles.unpublished': { articles: [] } });
    renderWithProviders(<App />, { route: '/schedule' });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Jane' }));
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(
      await screen.findByText(/The change-password form could not be loaded\. Check your connection/),
    ).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Jane' })).toHaveFocus());
    expect(await screen.findByRole('heading', { name: 'Article Schedule', level: 1 })).toBeInTheDocument();
  });
});
