import type { Platform } from '@app/shared';
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

/**
 * The channel that publishes an article's version: its editor, its schedule, its review. A second channel of the
 * same version (`also`) has rows and a preview of its own (also.tsx).
 */
export function channelFor(version: Platform): RegisteredChannel {
  return CHANNEL_REGISTRY.find((channel) => channel.version === version && !channel.also)!;
}

/** The channels that publish a version beside the one `channelFor` gives. */
export const alsoChannels = (version?: Platform): RegisteredChannel[] =>
  CHANNEL_REGISTRY.filter((channel) => channel.also && (version === undefined || channel.version === version));

/** The channels with a text of their own (`ownVersion`): an editor and a preview of their own on the content step. */
export const ownVersionChannels = (): RegisteredChannel[] => CHANNEL_REGISTRY.filter((channel) => channel.ownVersion);

/** A channel by its id (a Publish Now of one channel's row). */
export const channelById = (id: string): RegisteredChannel | undefined =>
  CHANNEL_REGISTRY.find((channel) => channel.id === id);
