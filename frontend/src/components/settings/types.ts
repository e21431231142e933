import { queryOptions } from '@tanstack/react-query';
import { isHiddenSettingKey } from '@app/shared';
import { ApiError, request } from '../../api/client';
import { SETTINGS_QUERY_KEY } from './queryKey';

/** All settings queries start with this key (queryKey.ts). */
export { SETTINGS_QUERY_KEY };

/** Every settings panel gets this: it asks the page to reload the settings data after a change. */
export interface SettingsPanelProps {
  onReload: () => void;
}

export const API_KEYS_QUERY_KEY = [...SETTINGS_QUERY_KEY, 'api-keys'] as const;
/** The API Keys list; a connection's keys (a channel's, Gmail's) are changed in its own panel, so they are left out. */
export const apiKeysQuery = queryOptions({
  queryKey: API_KEYS_QUERY_KEY,
  queryFn: async () =>
    (await request('settings.list', { query: { mask: 'true' } })).filter((s) => !isHiddenSettingKey(s.key)),
  retry: false,
});
export const EMAIL_QUERY_KEY = [...SETTINGS_QUERY_KEY, 'email'] as const;

/** Deletes a settings entry; a 404 means it is already gone, which is what the caller wanted. */
export async function removeSetting(key: string): Promise<void> {
  try {
    await request('settings.delete', { params: { key } });
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return;
    throw err;
  }
}
