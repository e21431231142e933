/** The LinkedIn channel's module (registry.ts): its channel over the Posts API publisher, loaded on demand. */
import type { ChannelEnv } from '../registry.js';
import { linkedinChannel } from './channel.js';
import { linkedInPublisher } from './publisher.js';

export function channel({ config, settings }: ChannelEnv) {
  return linkedinChannel({ settings, publisher: linkedInPublisher(config), now: () => new Date() });
}
