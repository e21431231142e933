import { queryOptions } from '@tanstack/react-query';
import { isHiddenSettingKey } from '@app/shared';
import { ApiError, request } from '../../api/client';

/** Every settings panel gets this: it asks the page to reload the settings data after a change. */
export interface SettingsPanelProps {
  onReload: () => void;
}

/** All settings queries start with this key, so one invalidation reloads every panel. */
export const SETTINGS_QUERY_KEY = ['settings'] as const;
export const API_KEYS_QUERY_KEY = [...SETTINGS_QUERY_KEY, 'api-keys'] as const;
/** The API Keys list; integration keys (wordpress_, linkedin_, ...) are changed in their own panels, so they are left out. */
export const apiKeysQuery = queryOptions({
  queryKey: API_KEYS_QUERY_KEY,
  queryFn: async () =>
    (await request('settings.list', { query: { mask: 'true' } })).filter((s) => !isHiddenSettingKey(s.key)),
  retry: false,
});
export const WORDPRESS_QUERY_KEY = [...SETTINGS_QUERY_KEY, 'wordpress'] as const;
export const LINKEDIN_QUERY_KEY = [...SETTINGS_QUERY_KEY, 'linkedin'] as const;
/** The LinkedIn status, read by its settings panel and by the Schedule cards (page access). */
export const linkedInStatusQuery = queryOptions({
  queryKey: LINKEDIN_QUERY_KEY,
  queryFn: () => request('linkedin.status'),
  retry: false,
});
export const LINKEDIN_WEBHOOK_QUERY_KEY = [...SETTINGS_QUERY_KEY, 'linkedin-webhook'] as const;
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
