import { isHiddenSettingKey, type SaveSettingInput, type Setting } from '@app/shared';
import { ApiError, api } from './client';

export interface SaveSettingAnswer {
  success?: boolean;
  setting?: Setting;
  message?: string;
}

/** GET /api/settings answers a list; an `{settings: [...]}` object is accepted too. */
function toList(answer: unknown): Setting[] {
  const list = Array.isArray(answer)
    ? answer
    : answer && typeof answer === 'object' && Array.isArray((answer as { settings?: unknown }).settings)
      ? (answer as { settings: unknown[] }).settings
      : null;
  if (!list) throw new Error('Unexpected settings answer');
  return list.filter(
    (item): item is Setting => !!item && typeof item === 'object' && typeof (item as Setting).key === 'string',
  );
}

/** The settings calls (functions/src/routes.ts). */
export const settingsApi = {
  list: async (mask = true) => toList(await api.get<unknown>(`/settings?mask=${mask}`)),
  /** The API Keys list: integration keys (wordpress_, linkedin_) are left out here too. */
  listApiKeys: async () => (await settingsApi.list(true)).filter((s) => !isHiddenSettingKey(s.key)),
  save: (input: SaveSettingInput) => api.post<SaveSettingAnswer>('/settings', input),
  /** A 404 means the entry is already gone, which is what the caller wanted. */
  remove: async (key: string): Promise<void> => {
    try {
      await api.delete(`/settings/${encodeURIComponent(key)}`);
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) return;
      throw err;
    }
  },
};
