import type { Platform } from '@app/shared';

/** Where each platform is published, as the schedule screen names it. */
export const PLATFORM_NAMES: Record<Platform, { row: string; service: string; content: string }> = {
  blog: { row: 'Blog', service: 'WordPress', content: 'blog' },
  linkedin: { row: 'LinkedIn', service: 'LinkedIn', content: 'LinkedIn' },
};

/** The Schedule page's texts that the server does not send (docs/product.md, Texts). */
export const ScheduleMessages = {
  loadFailed: 'Failed to load unpublished articles',
  empty: 'No unpublished articles. Create one to get started.',
  afterScheduling: 'Will be processed after scheduling',
  publishFailed: { blog: 'Failed to publish to WordPress', linkedin: 'Failed to publish to LinkedIn' } satisfies Record<
    Platform,
    string
  >,
  viewOn: { blog: 'View on WordPress', linkedin: 'View on LinkedIn' } satisfies Record<Platform, string>,
  /** On the card of an article published everywhere during this visit (it leaves the list with the visit). */
  publishedEverywhere: 'Published on WordPress and LinkedIn: this article now lives in History.',
  toHistory: 'Open History',
  /** "Error publishing {platform} content: {message}" */
  publishError: (platform: Platform, message: string) =>
    `Error publishing ${PLATFORM_NAMES[platform].content} content: ${message}`,
  /** "Error updating LinkedIn mode: {message}" */
  modeError: (message: string) => `Error updating LinkedIn mode: ${message}`,
  modeFailed: 'Failed to update LinkedIn posting mode',
  reconnectLinkedIn: 'Reconnect LinkedIn in Settings',
  /** "Successfully scheduled {platform} for {time}"; both platforms read "blog and LinkedIn". */
  scheduled: (platforms: readonly Platform[], time: string) =>
    `Successfully scheduled ${platforms.map((p) => PLATFORM_NAMES[p].content).join(' and ')} for ${time}`,
  /** "Error scheduling: {message}" */
  scheduleError: (message: string) => `Error scheduling: ${message}`,
  /** "Failed to schedule {platform} publication", when the server gives no text. */
  scheduleFailed: (platform: Platform) => `Failed to schedule ${platform} publication`,
  invalidData: 'Invalid scheduling data',
} as const;

export const POSTING_MODE_LABELS = { personal: 'Personal Profile', company: 'Business Page' } as const;
