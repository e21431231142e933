import { queryOptions } from '@tanstack/react-query';
import type { ChannelConnectionAnswer } from '@app/shared';
import { request } from '../../api/client';
import { SETTINGS_QUERY_KEY } from '../../components/settings/queryKey';

export const GHOST_ID = 'ghost';
export const GHOST_QUERY_KEY = [...SETTINGS_QUERY_KEY, GHOST_ID] as const;

/** The Ghost connection (the generic channel route), read by its panel, its preview, its Schedule row and Connections. */
export const ghostStatusQuery = queryOptions({
  queryKey: GHOST_QUERY_KEY,
  queryFn: () => request('channels.status', { params: { channel: GHOST_ID } }),
  retry: false,
});

/** The connection as the Connections list of a member who is not an owner reads it (the key is masked by the server). */
export const ghostStatusText = (g: ChannelConnectionAnswer): string =>
  g.connected ? `Connected to ${g.fields.siteUrl ?? 'the site'}` : 'Not connected';
