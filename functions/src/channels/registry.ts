/**
 * The channels: one entry each, whose module is loaded with import() on the channel's first use, so a Lambda
 * parses a channel's publisher only when it publishes there (docs/architecture.md, Channels). Adding a channel is
 * its folder plus its line here and its id in ids.ts.
 */
import type { Config } from '../config.js';
import { notFound } from '../domain/errors.js';
import type { SettingService } from '../domain/settings.js';
import type { ChannelVersion, PublishChannel } from './channel.js';
import { channelIds, ownVersionIds, ownVersionLabels, type ChannelId } from './ids.js';

export { channelIds, ownVersionIds, type ChannelId };

/** What a channel's module is built from. */
export interface ChannelEnv {
  config: Config;
  settings: SettingService;
}

/** A channel's module: builds the channel (channels/channel.ts) from the environment. */
export interface ChannelModule {
  channel(env: ChannelEnv): PublishChannel;
}

/** The module of a channel's own version (channel.ts, ChannelVersion): light, without the channel's client. */
export interface ChannelVersionModule {
  version: ChannelVersion;
}

/**
 * A line: the channel's module, and for a channel with a version of its own (stored at `versions.<id>.content`,
 * docs/data-model.md) that version's module too. The others publish the blog or the LinkedIn version.
 */
interface Entry {
  module: () => Promise<ChannelModule>;
  version?: () => Promise<ChannelVersionModule>;
}

const CHANNELS = {
  wordpress: { module: () => import('./wordpress/module.js') },
  linkedin: { module: () => import('./linkedin/module.js') },
  ghost: { module: () => import('./ghost/module.js') },
  bluesky: { module: () => import('./bluesky/module.js'), version: () => import('./bluesky/version.js') },
} satisfies Record<ChannelId, Entry>;

export const isChannelId = (id: string): id is ChannelId => Object.hasOwn(CHANNELS, id);

// The channels with a version module are exactly those ids.ts names with a version's label.
type WithVersion = { [K in ChannelId]: (typeof CHANNELS)[K] extends { version: unknown } ? K : never }[ChannelId];
const sameOwnVersions: [WithVersion, keyof typeof ownVersionLabels] extends [keyof typeof ownVersionLabels, WithVersion]
  ? true
  : never = true;
void sameOwnVersions;

/** The channel of this id, built from its module (loaded on first use); an id not in the registry: 404. */
export async function loadChannel(id: string, env: ChannelEnv): Promise<PublishChannel> {
  if (!isChannelId(id)) throw notFound('Channel not found', 'channel_not_found');
  return (await CHANNELS[id].module()).channel(env);
}

/**
 * The own version of the channel of this id (its text rule, its drafting); 404 for an id not in the registry or a
 * channel without a version of its own (the blog and LinkedIn versions have their documented routes).
 */
export async function loadChannelVersion(id: string): Promise<ChannelVersion> {
  const entry: Entry | undefined = isChannelId(id) ? CHANNELS[id] : undefined;
  if (!entry?.version) throw notFound('Channel not found', 'channel_not_found');
  return (await entry.version()).version;
}
