/**
 * All settings queries start with this key, so one invalidation reloads every panel. A module of its own: a channel's
 * status query (channels/<id>/status.ts), which pages other than Settings read, brings nothing else of the settings.
 */
export const SETTINGS_QUERY_KEY = ['settings'] as const;
