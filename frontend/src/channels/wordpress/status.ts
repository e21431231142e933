import { queryOptions } from '@tanstack/react-query';
import type { WordPressStatus } from '@app/shared';
import { request } from '../../api/client';
import { SETTINGS_QUERY_KEY } from '../../components/settings/queryKey';

export const WORDPRESS_QUERY_KEY = [...SETTINGS_QUERY_KEY, 'wordpress'] as const;
/** The WordPress connection's status, read by its settings panel and by the members' Connections list. */
export const wordpressStatusQuery = queryOptions({
  queryKey: WORDPRESS_QUERY_KEY,
  queryFn: () => request('wordpress.status'),
  retry: false,
});

/** The connection as the Connections list of a member who is not an owner reads it (masked: no secret is in it). */
export const wordpressStatusText = (w: WordPressStatus): string =>
  w.configured ? `Connected to ${w.siteUrl ?? 'the site'}${w.username ? ` as ${w.username}` : ''}` : 'Not connected';
