import { useQuery } from '@tanstack/react-query';
import { DEFAULT_REVIEW_SETTINGS, type ReviewSettings } from '@app/shared';
import { request } from '../api/client';
import { useCurrentWorkspaceId } from './useWorkspaces';

export const REVIEW_SETTINGS_KEY = 'review-settings';

/**
 * The current workspace's review setting (docs/product.md, Workspaces, Review): `author` in a personal workspace,
 * and while it loads, so a user alone sees every page exactly as before.
 */
export function useReviewSettings(): ReviewSettings & { personal: boolean } {
  const workspaceId = useCurrentWorkspaceId();
  const { data } = useQuery({
    queryKey: [REVIEW_SETTINGS_KEY, workspaceId ?? 'personal'],
    queryFn: () => request('workspaces.review'),
    enabled: Boolean(workspaceId),
    staleTime: 30_000,
    retry: false,
  });
  if (!workspaceId || !data) return { ...DEFAULT_REVIEW_SETTINGS, personal: !workspaceId };
  return { ...data.settings, personal: data.personal };
}
