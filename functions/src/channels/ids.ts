/**
 * The registry's channel ids, in its order (registry.ts has a line for each and no other: it does not compile
 * otherwise), for what needs the list but loads no channel: the dashboard's bars and series. Importing it reaches no
 * channel module, so such a bundle carries none of their packages (infra/test/bundling.test.ts).
 */
export const channelIds = ['wordpress', 'linkedin', 'ghost', 'bluesky'] as const;

export type ChannelId = (typeof channelIds)[number];
