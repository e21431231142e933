import { describe, expect, it, vi } from 'vitest';
import { act, renderHook, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { QueryClient } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router-dom';
import { AppProviders } from '../AppProviders';
import { SESSION_QUERY_KEY, useLogout, useSession } from './useSession';
import { makeUser, mockApi } from '../test/utils';

const navigateSpy = vi.fn();
vi.mock('react-router-dom', async (importOriginal) => ({
  ...(await importOriginal<typeof import('react-router-dom')>()),
  useNavigate: () => navigateSpy,
}));

function setup() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <AppProviders queryClient={queryClient}>
      <MemoryRouter>{children}</MemoryRouter>
    </AppProviders>
  );
  return { queryClient, wrapper };
}

describe('useSession / useLogout', () => {
  it('loads the user from GET /api/auth/me', async () => {
    mockApi({ 'auth.me': { user: makeUser() } });
    const { wrapper } = setup();
    const { result } = renderHook(() => useSession(), { wrapper });
    expect(result.current.isPending).toBe(true);
    await waitFor(() => expect(result.current.isPending).toBe(false));
    expect(result.current.user?.email).toBe('jane@example.com');
  });

  it('signed out, the session check answers 200 with no user', async () => {
    mockApi({ 'auth.me': { user: null } });
    const { wrapper } = setup();
    const { result } = renderHook(() => useSession(), { wrapper });
    await waitFor(() => expect(result.current.isPending).toBe(false));
    expect(result.current.user).toBeNull();
  });

  it('logout posts, clears the user and cached data, toasts and replaces the entry with /welcome', async () => {
    navigateSpy.mockClear();
    const { requests } = mockApi({
      'auth.me': { user: makeUser() },
      'auth.logout': { message: 'Logged out.' },
    });
    const { wrapper, queryClient } = setup();
    queryClient.setQueryData(['articles'], [{ id: 1 }]);
    const { result } = renderHook(() => ({ session: useSession(), logout: useLogout() }), { wrapper });
    await waitFor(() => expect(result.current.session.user).not.toBeNull());

    await act(() => result.current.logout.logout());
    expect(requests.at(-1)).toMatchObject({ method: 'POST', path: '/api/auth/logout' });
    expect(result.current.session.user).toBeNull();
    expect(queryClient.getQueryData(SESSION_QUERY_KEY)).toBeNull();
    expect(queryClient.getQueryData(['articles'])).toBeUndefined();
    expect(navigateSpy).toHaveBeenCalledWith('/welcome', { replace: true });
    expect(await screen.findByText('Logged out.')).toBeInTheDocument();
  });

  it('a failed logout keeps the user, does not navigate and toasts "Logout failed"', async () => {
    navigateSpy.mockClear();
    mockApi({
      'auth.me': { user: makeUser() },
      'auth.logout': { status: 500, body: null },
    });
    const { wrapper } = setup();
    const { result } = renderHook(() => ({ session: useSession(), logout: useLogout() }), { wrapper });
    await waitFor(() => expect(result.current.session.user).not.toBeNull());

    await act(() => result.current.logout.logout());
    expect(result.current.session.user).not.toBeNull();
    expect(navigateSpy).not.toHaveBeenCalled();
    expect(await screen.findByText('Logout failed')).toBeInTheDocument();
  });
});
