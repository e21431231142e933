import { useSyncExternalStore } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { WorkspaceSummary } from '@app/shared';
import { can, type RouteId } from '@app/shared/api';
import { request } from '../api/client';
import { currentWorkspaceId, setCurrentWorkspaceId, subscribeWorkspace } from '../lib/workspace';
import { SESSION_QUERY_KEY } from './useSession';

export const WORKSPACES_QUERY_KEY = ['workspaces'] as const;

/** The current workspace's id (undefined: the personal one), re-rendering when it changes. */
export const useCurrentWorkspaceId = (): string | undefined =>
  useSyncExternalStore(subscribeWorkspace, currentWorkspaceId, () => undefined);

/** The caller's workspaces (docs/product.md, Workspaces): the personal one first. */
export function useWorkspaces() {
  return useQuery({
    queryKey: WORKSPACES_QUERY_KEY,
    queryFn: async () => (await request('workspaces.list')).workspaces,
    retry: false,
    staleTime: 30_000,
  });
}

/**
 * The current workspace as the list has it; until the list is loaded, or when the stored one is not in it
 * (removed meanwhile), the personal one's role: owner.
 */
export function useCurrentWorkspace(): { workspace: WorkspaceSummary | undefined; role: WorkspaceSummary['role'] } {
  const id = useCurrentWorkspaceId();
  const { data } = useWorkspaces();
  const workspace = data?.find((w) => (id ? w.id === id : w.personal));
  return { workspace, role: workspace?.role ?? (id ? 'reviewer' : 'owner') };
}

/**
 * What the current role may do: `may('schedule.set')` is whether the server would take that call in the current
 * workspace (shared/src/api/roles.ts, the table the middleware enforces), so a page shows only those controls.
 */
export function useCan(): (id: RouteId) => boolean {
  const { role } = useCurrentWorkspace();
  return (id) => can(role, id);
}

/**
 * Switches the workspace: every answer kept from the one before is dropped (the session and the list
 * stay), so each page shows the new workspace's data only.
 */
export function useSwitchWorkspace() {
  const queryClient = useQueryClient();
  return (workspace: Pick<WorkspaceSummary, 'id' | 'personal'>) => {
    setCurrentWorkspaceId(workspace.personal ? undefined : workspace.id);
    queryClient.removeQueries({
      predicate: (query) => query.queryKey[0] !== SESSION_QUERY_KEY[0] && query.queryKey[0] !== WORKSPACES_QUERY_KEY[0],
    });
  };
}
