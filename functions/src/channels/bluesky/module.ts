/** The Bluesky channel's module (channels/registry.ts): its channel over the XRPC client, loaded on demand. */
import { SharpImageProcessor } from '../../adapters/images/sharp-image-processor.js';
import type { ChannelEnv } from '../registry.js';
import { blueskyChannel } from './channel.js';
import { XrpcBlueskyClient } from './client.js';

export function channel({ config, settings }: ChannelEnv) {
  return blueskyChannel({
    settings,
    client: new XrpcBlueskyClient({ allowPrivateUrls: config.allowPrivateUrls, images: new SharpImageProcessor() }),
  });
}
