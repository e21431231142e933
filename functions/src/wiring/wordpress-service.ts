import type { WordPressClient } from '../domain/integrations.js';
import { WordPressService } from '../channels/wordpress/service.js';
import { deps } from './deps.js';
import { lazy } from './lazy.js';
import { settingService } from './settings.js';

/**
 * WordPress's connection (status, test, save): a module of its own, so a bundle parses only the services it uses.
 * Only a check (test, save) calls the site: the HTTP client and its URL safety load then, not with the status the
 * Settings page reads (docs/testing.md, Performance budgets).
 */
export const wordPressService = lazy((): WordPressService => {
  let client: Promise<WordPressClient> | undefined;
  const http = () =>
    (client ??= import('../channels/wordpress/client.js').then(
      ({ HttpWordPressClient }) => new HttpWordPressClient({ allowPrivateUrls: deps().config.allowPrivateUrls }),
    ));
  return new WordPressService(settingService(), { check: async (credentials) => (await http()).check(credentials) });
});
