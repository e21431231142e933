import { CHANNELS, type VersionId } from '@app/shared';

/**
 * The registry's channel ids, in its order (registry.ts has a line for each and no other: it does not compile
 * otherwise), for what needs the list but loads no channel: the dashboard's bars and series, a Sheets import's
 * Channels column, scheduling. Importing it reaches no channel module, so such a bundle carries none of their
 * packages (infra/test/bundling.test.ts).
 */
// `ownVersionLabels`: the channels that publish a version of their own (registry.ts loads its module: `version`), each
// with its name as the e-mails call that version; on the ids' line, as the channel naming tests read the ids by it.
// prettier-ignore
export const channelIds = ['wordpress', 'linkedin', 'ghost', 'bluesky'] as const, ownVersionLabels = { bluesky: 'Bluesky' } as const;

export type ChannelId = (typeof channelIds)[number];

const labels: Readonly<Record<string, string>> = ownVersionLabels;

/** The ids of the channels with a version of their own (their ids are those versions' ids). */
export const ownVersionIds: readonly string[] = channelIds.filter((id) => Object.hasOwn(labels, id));

/** The name of a channel's own version, as its channel is called (the blog and LinkedIn versions have theirs). */
export const ownVersionLabel = (id: string): string => (Object.hasOwn(labels, id) ? labels[id]! : id);

/**
 * What those functions need of a channel without loading it, from the facts both sides share
 * (shared/src/channels.ts): its name, and the version it goes with. A channel without facts there publishes its own
 * version (ownVersionLabels, its name that version's) or is a second channel beside the blog version (its name its id
 * capitalised). functions/test/channel-ids.test.ts checks both against each channel's module.
 */
const factsOf = (id: ChannelId) => CHANNELS.find((channel) => channel.id === id);

/** The version a channel publishes: its facts', else its own (ownVersionLabels), else the blog version. */
const versionOf = (id: ChannelId): VersionId => factsOf(id)?.version ?? (ownVersionIds.includes(id) ? id : 'blog');

/** Every channel's id and name, in the registry's order (a Sheets import's Channels column names them). */
export const channelNames: readonly { id: ChannelId; label: string }[] = channelIds.map((id) => ({
  id,
  label: factsOf(id)?.label ?? (Object.hasOwn(labels, id) ? labels[id]! : `${id[0]!.toUpperCase()}${id.slice(1)}`),
}));

/**
 * The channels that go with a version (its schedule publishes with those of them that take part in it): a channel's
 * own version goes with that channel alone.
 */
export const versionChannelIds = (version: VersionId): ChannelId[] =>
  channelIds.filter((id) => versionOf(id) === version);

/**
 * The setting that keeps when a channel's connection expires, for a channel whose provider gives its connection a
 * lifetime (an OAuth token's): the channel saves it there, the table keeps it by time beside the setting
 * (adapters/dynamo/time-keys.ts), and the health sweep tells the owner a week ahead (domain/connection-health.ts).
 */
export const connectionExpiryKey = (id: ChannelId): string => `${id}_token_expiry`;

/** The channel whose connection's expiry this setting keeps, or undefined. */
export const channelOfExpiryKey = (settingKey: string): ChannelId | undefined =>
  channelIds.find((id) => connectionExpiryKey(id) === settingKey);

/** The setting that keeps the connection expiry the owner was last told of (domain/connection-health.ts), so it is told once. */
export const connectionExpiryToldKey = (id: ChannelId): string => `${id}_expiry_told`;

/**
 * A channel's own setting (`<channel id>_…`): its panel writes it after its checks, so the API Keys call neither lists,
 * writes nor deletes it (domain/settings.ts), whichever channel of the registry it belongs to.
 */
export const isChannelSettingKey = (key: string): boolean => channelIds.some((id) => key.startsWith(`${id}_`));
