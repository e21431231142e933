import { useCallback } from 'react';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { Messages, type PublicUser } from '@app/shared';
import { request } from '../api/client';
import { dropStartedCalls } from '../api/startCalls';
import { toast } from '../lib/toast';

export const SESSION_QUERY_KEY = ['session'] as const;

/** GET /api/auth/me: `{user: null}` when signed out; a failure (server down) counts as signed out too. */
export async function loadSession(): Promise<PublicUser | null> {
  try {
    const { user } = await request('auth.me');
    return user;
  } catch {
    return null;
  }
}

/** Sets (or clears) the signed-in user; data cached for a previous user is dropped. */
export function setSessionUser(queryClient: QueryClient, user: PublicUser | null): void {
  dropStartedCalls();
  const previous = queryClient.getQueryData<PublicUser | null>(SESSION_QUERY_KEY);
  if (!user || previous?._id !== user._id) {
    queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== SESSION_QUERY_KEY[0] });
  }
  queryClient.setQueryData(SESSION_QUERY_KEY, user);
}

export interface Session {
  user: PublicUser | null;
  /** True while the first session check is running: the app renders nothing then. */
  isPending: boolean;
  setUser: (user: PublicUser | null) => void;
}

/** The session check, once per page load: main.tsx starts it with the app, before its first render. */
export const sessionQuery = {
  queryKey: SESSION_QUERY_KEY,
  queryFn: loadSession,
  retry: false,
  staleTime: Infinity,
  gcTime: Infinity,
} as const;

export function useSession(): Session {
  const queryClient = useQueryClient();
  const query = useQuery({ ...sessionQuery, refetchOnWindowFocus: false, refetchOnReconnect: false });
  const setUser = useCallback((user: PublicUser | null) => setSessionUser(queryClient, user), [queryClient]);
  return { user: query.data ?? null, isPending: query.isPending, setUser };
}

/** POST logout, clear the user, toast, go to /welcome replacing the history entry (docs/product.md, Welcome). */
export function useLogout(): {
  logout: () => Promise<void>;
  logoutEverywhere: () => Promise<void>;
  isLoggingOut: boolean;
} {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const ending = useMutation({
    mutationFn: ({ call }: { call: () => Promise<unknown>; done: string }) => call(),
    onSuccess: (_answer, { done }) => {
      setSessionUser(queryClient, null);
      toast.success(done);
      navigate('/welcome', { replace: true });
    },
    onError: () => toast.error(Messages.logoutFailed),
  });
  const { mutateAsync } = ending;
  const end = useCallback(
    (call: () => Promise<unknown>, done: string) =>
      mutateAsync({ call, done }).then(
        () => undefined,
        // The toast says it failed; the user stays signed in.
        () => undefined,
      ),
    [mutateAsync],
  );
  const logout = useCallback(() => end(() => request('auth.logout'), Messages.loggedOut), [end]);
  /** Every session of the user ends: other browsers and devices are signed out at their next request. */
  const logoutEverywhere = useCallback(
    () => end(() => request('auth.logoutEverywhere'), Messages.loggedOutEverywhere),
    [end],
  );
  // Still logging out while the app leaves for /welcome.
  return { logout, logoutEverywhere, isLoggingOut: ending.isPending || ending.isSuccess };
}
