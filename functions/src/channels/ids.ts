/**
 * The registry's channel ids, in its order (registry.ts has a line for each and no other: it does not compile
 * otherwise), for what needs the list but loads no channel: the dashboard's bars and series. Importing it reaches no
 * channel module, so such a bundle carries none of their packages (infra/test/bundling.test.ts).
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
