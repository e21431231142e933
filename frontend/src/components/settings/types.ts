import { queryOptions } from '@tanstack/react-query';
import { linkedinApi } from '../../api/integrations';

/** Every settings panel gets this: it asks the page to reload the settings data after a change. */
export interface SettingsPanelProps {
  onReload: () => void;
}

/** All settings queries start with this key, so one invalidation reloads every panel. */
export const SETTINGS_QUERY_KEY = ['settings'] as const;
export const API_KEYS_QUERY_KEY = [...SETTINGS_QUERY_KEY, 'api-keys'] as const;
export const WORDPRESS_QUERY_KEY = [...SETTINGS_QUERY_KEY, 'wordpress'] as const;
export const LINKEDIN_QUERY_KEY = [...SETTINGS_QUERY_KEY, 'linkedin'] as const;
/** The LinkedIn status, read by its settings panel and by the Schedule cards (page access). */
export const linkedInStatusQuery = queryOptions({ queryKey: LINKEDIN_QUERY_KEY, queryFn: linkedinApi.status, retry: false });
export const LINKEDIN_WEBHOOK_QUERY_KEY = [...SETTINGS_QUERY_KEY, 'linkedin-webhook'] as const;
export const EMAIL_QUERY_KEY = [...SETTINGS_QUERY_KEY, 'email'] as const;
