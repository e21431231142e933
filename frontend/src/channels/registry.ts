import type { Platform, VersionId } from '@app/shared';
import type { RegisteredChannel } from './types';
import { bluesky } from './bluesky';
import { ghost } from './ghost';
import { linkedin } from './linkedin';
import { wordpress } from './wordpress';

/**
 * Every publishing channel of the SPA, in the order the pages show them (docs/architecture.md, Channels in the
 * SPA). The pages and shared components go through this list rather than naming a channel; adding a channel is its
 * folder and one entry here. Each entry's preview is a chunk of its own (its folder's index), fetched when a page renders it, so no page carries one (the blog
 * preview brings the Markdown renderer and sanitizer; docs/testing.md, Performance budgets); the settings panel is
 * `<id>/*Panel.tsx`'s default export, which only the Settings page gathers (pages/Settings.tsx).
 */
export const CHANNEL_REGISTRY: readonly RegisteredChannel[] = [wordpress, linkedin, ghost, bluesky];

/** How many channel colours styles/base.css defines (`--chart-channel-1` …). */
const CHANNEL_COLOURS = 5;

/**
 * A channel's colour wherever it is drawn (the dashboard's series and bars, its row on a Schedule card): by its place
 * in the registry, so it is the same everywhere whatever else is shown; a channel the SPA has no entry for takes the
 * colours after the registry's.
 */
export function channelColour(id: string): string {
  const place = CHANNEL_REGISTRY.findIndex((channel) => channel.id === id);
  return `var(--chart-channel-${((place < 0 ? CHANNEL_REGISTRY.length : place) % CHANNEL_COLOURS) + 1})`;
}

/**
 * The channel that publishes an article's version: its editor, its schedule, its review. Each channel publishes the
 * blog version, the LinkedIn version, or a version of its own (`ownVersion`, `version` its id), as on the server
 * (functions/src/channels/registry.ts). A second channel of the same version (`also`) has rows and a preview of its
 * own (also.tsx).
 */
export function channelFor(version: VersionId): RegisteredChannel {
  return CHANNEL_REGISTRY.find((channel) => channel.version === version && !channel.also)!;
}

/** The channels that publish a version of their own rather than the blog or LinkedIn one. */
export const ownVersionChannels = (): RegisteredChannel[] => CHANNEL_REGISTRY.filter((channel) => channel.ownVersion);

/** How the Schedule screens name a version: its row's heading, its channel, its noun inside a sentence. */
export function versionNames(version: VersionId): { row: string; service: string; content: string } {
  const channel = channelFor(version);
  return { row: channel.versionLabel, service: channel.label, content: channel.versionNoun };
}

/** The channels that publish a version beside the one `channelFor` gives. */
export const alsoChannels = (version?: Platform): RegisteredChannel[] =>
  CHANNEL_REGISTRY.filter((channel) => channel.also && (version === undefined || channel.version === version));

/** A channel by its id (a Publish Now of one channel's row). */
export const channelById = (id: string): RegisteredChannel | undefined =>
  CHANNEL_REGISTRY.find((channel) => channel.id === id);
