import { queryOptions } from '@tanstack/react-query';
import type { ChannelConnectionAnswer } from '@app/shared';
import { BLUESKY_ID } from '@app/shared/channels/bluesky';
import { request } from '../../api/client';
import { SETTINGS_QUERY_KEY } from '../../components/settings/queryKey';

export const BLUESKY_QUERY_KEY = [...SETTINGS_QUERY_KEY, BLUESKY_ID] as const;

/**
 * The Bluesky connection (the generic channel route), read by its panel, its editor, its preview (the handle the
 * post goes out as), its Schedule row and Connections. The app password comes back masked.
 */
export const blueskyStatusQuery = queryOptions({
  queryKey: BLUESKY_QUERY_KEY,
  queryFn: () => request('channels.status', { params: { channel: BLUESKY_ID } }),
  retry: false,
});

/** The connection as the Connections list of a member who is not an owner reads it. */
export const blueskyStatusText = (answer: ChannelConnectionAnswer): string =>
  answer.connected ? `Connected as @${answer.fields.handle ?? 'your account'}` : 'Not connected';
