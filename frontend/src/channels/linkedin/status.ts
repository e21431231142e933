import { queryOptions } from '@tanstack/react-query';
import type { LinkedInStatus } from '@app/shared';
import { request } from '../../api/client';
import { SETTINGS_QUERY_KEY } from '../../components/settings/queryKey';

export const LINKEDIN_QUERY_KEY = [...SETTINGS_QUERY_KEY, 'linkedin'] as const;
/** The LinkedIn status, read by its settings panel, its preview and the Schedule cards (page access). */
export const linkedInStatusQuery = queryOptions({
  queryKey: LINKEDIN_QUERY_KEY,
  queryFn: () => request('linkedin.status'),
  retry: false,
});
export const LINKEDIN_WEBHOOK_QUERY_KEY = [...SETTINGS_QUERY_KEY, 'linkedin-webhook'] as const;

/** The connection as the Connections list of a member who is not an owner reads it (masked: no secret is in it). */
export const linkedInStatusText = (l: LinkedInStatus): string =>
  l.connected
    ? `${l.expired ? 'Expired' : 'Connected'}${l.memberName ? ` as ${l.memberName}` : ''}`
    : l.clientId
      ? 'App saved, not signed in'
      : 'Not connected';
