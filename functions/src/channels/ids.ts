import { CHANNELS, type Platform } from '@app/shared';

/**
 * The registry's channel ids, in its order (registry.ts has a line for each and no other: it does not compile
 * otherwise), for what needs the list but loads no channel: the dashboard's bars and series, a Sheets import's
 * Channels column, scheduling. Importing it reaches no channel module, so such a bundle carries none of their
 * packages (infra/test/bundling.test.ts).
 */
export const channelIds = ['wordpress', 'linkedin', 'ghost', 'bluesky'] as const;

export type ChannelId = (typeof channelIds)[number];

/**
 * What those functions need of a channel without loading it, from the facts both sides share
 * (shared/src/channels.ts): its name, and the version it goes with. A channel without facts there is a second
 * channel beside the blog version, or one with a text of its own that follows the blog version's image and schedule
 * (docs/architecture.md, Channels in the SPA); its name is its id capitalised. functions/test/channel-ids.test.ts
 * checks both against each channel's module.
 */
const factsOf = (id: ChannelId) => CHANNELS.find((channel) => channel.id === id);

/** Every channel's id and name, in the registry's order (a Sheets import's Channels column names them). */
export const channelNames: readonly { id: ChannelId; label: string }[] = channelIds.map((id) => ({
  id,
  label: factsOf(id)?.label ?? `${id[0]!.toUpperCase()}${id.slice(1)}`,
}));

/** The channels that go with a version (its schedule publishes with those of them that take part in it). */
export const versionChannelIds = (platform: Platform): ChannelId[] =>
  channelIds.filter((id) => (factsOf(id)?.version ?? 'blog') === platform);
