import { IntegrationMessages, type Platform } from '@app/shared';

/** What a refused publish says (the channels' messages, and the claim's). */
export const PublishMessages = {
  inProgress:
    'Publishing is already in progress for this article. Wait a minute and refresh; if it is not published then, publish again.',
  failed: 'Publishing failed. Your content is kept; try again.',
  /** The article was imported for other channels only (Article.channels, the Sheets import's Channels column). */
  notAChannelOf: (label: string) =>
    `This article does not go to ${label}: its Channels column in the imported sheet named other channels.`,
  wordpressNotConnected: 'Connect WordPress in Settings first (WordPress Integration).',
  linkedinNotConnected: 'Connect LinkedIn in Settings first (LinkedIn Integration → Authenticate).',
  linkedinExpired: 'Your LinkedIn connection has expired: reconnect LinkedIn in Settings.',
  linkedinAlreadyPublished: 'This article is already published on LinkedIn.',
  noContent: (platform: Platform) =>
    `There is no ${platform === 'blog' ? 'blog' : 'LinkedIn'} text to publish yet. Write or generate it first.`,
  /** Company mode with a grant that lacks the organization scopes. */
  linkedinPageAccessNeeded: IntegrationMessages.linkedinPageAccessNeeded,
  noOrganization:
    'No LinkedIn page found that you administer. Switch the posting mode to Personal Profile, or get admin rights on the page.',
} as const;
