/**
 * The channels: one entry each, whose module is loaded with import() on the channel's first use, so a Lambda
 * parses a channel's publisher only when it publishes there (docs/architecture.md, Channels). Adding a channel is
 * its folder plus its line here and its id in ids.ts.
 */
import type { Config } from '../config.js';
import { notFound } from '../domain/errors.js';
import type { SettingService } from '../domain/settings.js';
import type { PublishChannel } from './channel.js';
import type { ChannelId } from './ids.js';

export { channelIds, type ChannelId } from './ids.js';

/** What a channel's module is built from. */
export interface ChannelEnv {
  config: Config;
  settings: SettingService;
}

/** A channel's module: builds the channel (channels/channel.ts) from the environment. */
export interface ChannelModule {
  channel(env: ChannelEnv): PublishChannel;
}

const CHANNELS = {
  wordpress: () => import('./wordpress/module.js'),
  linkedin: () => import('./linkedin/module.js'),
  ghost: () => import('./ghost/module.js'),
  bluesky: () => import('./bluesky/module.js'),
} satisfies Record<ChannelId, () => Promise<ChannelModule>>;

export const isChannelId = (id: string): id is ChannelId => Object.hasOwn(CHANNELS, id);

/** The channel of this id, built from its module (loaded on first use); an id not in the registry: 404. */
export async function loadChannel(id: string, env: ChannelEnv): Promise<PublishChannel> {
  if (!isChannelId(id)) throw notFound('Channel not found', 'channel_not_found');
  return (await CHANNELS[id]()).channel(env);
}
