import { HttpWordPressClient } from '../channels/wordpress/client.js';
import { WordPressService } from '../channels/wordpress/service.js';
import { deps } from './deps.js';
import { lazy } from './lazy.js';

/** WordPress's connection (status, test, save): a module of its own, so a bundle parses only the services it uses. */
export const wordPressService = lazy(
  (): WordPressService =>
    new WordPressService(
      deps().settings,
      new HttpWordPressClient({ allowPrivateUrls: deps().config.allowPrivateUrls }),
    ),
);
