import { CHANNELS, PLATFORMS, channelOfVersion, type Platform, type VersionId } from '@app/shared';
import { versionNames } from '../../channels/registry';

/** Where each platform is published, as the schedule screen names it (the channel's facts, shared/src/channels.ts). */
export const PLATFORM_NAMES = Object.fromEntries(
  PLATFORMS.map((platform) => {
    const channel = channelOfVersion(platform);
    return [platform, { row: channel.versionLabel, service: channel.label, content: channel.versionNoun }];
  }),
) as Record<Platform, { row: string; service: string; content: string }>;

/** The Schedule page's texts that the server does not send (docs/product.md, Texts). */
export const ScheduleMessages = {
  loadFailed: 'Failed to load unpublished articles',
  empty: 'No unpublished articles. Create one to get started.',
  afterScheduling: 'Will be processed after scheduling',
  /** The Schedule modal's choice of the blog-first bundle. */
  bundleChoice: 'Blog first: the social posts wait for the blog post and carry its link (one approval for all)',
  /** The card of a bundled article. */
  bundled: 'Blog first: the social posts go out after the blog post, with its link.',
  /** A bundle's social row: no slot of its own. */
  withBlogPost: 'Goes out with the blog post’s approval, after it, carrying its link.',
  /** A channel's badge on a card: the last approval failed there (its reason below it), or it waits for its turn. */
  failedBadge: 'Failed',
  /** The card's badge while some channel of its approval failed. */
  partlyFailedBadge: 'Partly failed',
  waitingBadge: 'Waiting',
  channelFailed: (label: string, reason: string) => `${label} failed: ${reason}`,
  /** The button that publishes again to that channel alone. */
  retryChannel: (label: string) => `Retry ${label}`,
  /** On the card of an article published everywhere during this visit (it leaves the list with the visit). */
  publishedEverywhere: `Published on ${CHANNELS.map((channel) => channel.label).join(' and ')}: this article now lives in History.`,
  toHistory: 'Open History',
  /** "Error publishing {platform} content: {message}"; a channel with a text of its own names its own. */
  publishError: (platform: VersionId, message: string, noun: string = versionNames(platform).content) =>
    `Error publishing ${noun} content: ${message}`,
  /** "Successfully scheduled {platform} for {time}"; both platforms read as both versions' nouns joined by "and". */
  scheduled: (platforms: readonly VersionId[], time: string) =>
    `Successfully scheduled ${platforms.map((p) => versionNames(p).content).join(' and ')} for ${time}`,
  /** "Error scheduling: {message}" */
  scheduleError: (message: string) => `Error scheduling: ${message}`,
  /** "Failed to schedule {platform} publication", when the server gives no text. */
  scheduleFailed: (platform: VersionId) => `Failed to schedule ${platform} publication`,
  invalidData: 'Invalid scheduling data',
  /** A problem the check before the slot found (its message is the server's). */
  needsAttention: (message: string) => `Needs attention: ${message}`,
  openSettings: 'Open Settings',
  openEditor: 'Open the editor',
} as const;
