/** The WordPress channel's module (registry.ts): its channel over the REST API publisher, loaded on demand. */
import type { ChannelEnv } from '../registry.js';
import { wordpressChannel } from './channel.js';
import { HttpWordPressPublisher } from './publish.js';
import { storedWordPress } from './service.js';

export function channel({ config, settings }: ChannelEnv) {
  return wordpressChannel({
    wordpress: { stored: (userId) => storedWordPress(settings, userId) },
    publisher: new HttpWordPressPublisher({ allowPrivateUrls: config.allowPrivateUrls }),
  });
}
