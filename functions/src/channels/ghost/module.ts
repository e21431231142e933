/** The Ghost channel's module (channels/registry.ts): its channel over the Admin API client, loaded on demand. */
import type { ChannelEnv } from '../registry.js';
import { ghostChannel } from './channel.js';
import { HttpGhostClient } from './client.js';

export function channel({ config, settings }: ChannelEnv) {
  return ghostChannel({ settings, client: new HttpGhostClient({ allowPrivateUrls: config.allowPrivateUrls }) });
}
