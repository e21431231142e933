import type { Platform, VersionId } from './articles.js';
import { LINKEDIN_MAX_CHARS } from './limits.js';

/**
 * The publishing channels and the facts about each that the server and the browser both use (docs/architecture.md,
 * Channels in the SPA): data only, so importing it costs nothing. What a channel does (its client, its settings panel,
 * its preview) lives in its own folder on each side (functions/src/channels/<id>/, frontend/src/channels/<id>/).
 */
export interface ChannelFacts {
  readonly id: string;
  /** The article's version it publishes: the blog one, the LinkedIn one, or its own (named by its id). */
  readonly version: VersionId;
  /** Its name, as the product shows it ("View on WordPress", the History rows, the approval page). */
  readonly label: string;
  /** The version's name as a heading (the Schedule card's row). */
  readonly versionLabel: string;
  /** The version's name inside a sentence ("Error publishing blog content: …"). */
  readonly versionNoun: string;
  /**
   * The longest text it takes, or null when it sets none that the editor counts. `counted: 'code-points'`: as the
   * version's content schema counts it (shared/src/articles.ts; zod's string `max` counts code points, so an emoji is
   * one).
   */
  readonly textLimit: { readonly max: number; readonly counted: 'code-points' } | null;
  /** Publishing an article already published there again updates its post (else the channel refuses a duplicate). */
  readonly republishes: boolean;
}

export const CHANNELS = [
  {
    id: 'wordpress',
    version: 'blog',
    label: 'WordPress',
    versionLabel: 'Blog',
    versionNoun: 'blog',
    textLimit: null,
    republishes: true,
  },
  {
    id: 'linkedin',
    version: 'linkedin',
    label: 'LinkedIn',
    versionLabel: 'LinkedIn',
    versionNoun: 'LinkedIn',
    textLimit: { max: LINKEDIN_MAX_CHARS, counted: 'code-points' },
    republishes: false,
  },
] as const satisfies readonly ChannelFacts[];

export type ChannelId = (typeof CHANNELS)[number]['id'];
export const CHANNEL_IDS: readonly ChannelId[] = CHANNELS.map((channel) => channel.id);

/** The channel that publishes an article's version (one per version today). */
export function channelOfVersion(version: Platform): ChannelFacts {
  return CHANNELS.find((channel) => channel.version === version)!;
}

/** What publicationsOf reads of an article (the full Article and the stored record satisfy it). */
export interface PublicationFields {
  blog: { publishedToWordPress: boolean; lastPublished: string | null; wordpressPostUrl?: string | null };
  linkedin: { publishedToLinkedIn: boolean; lastPublished: string | null; linkedinPostUrl?: string | null };
  /** The posts of the channels without fields of their own (Article.posts), by channel id. */
  posts?: Readonly<Record<string, { url?: string | null; publishedAt?: string | null }>>;
}

/** One channel an article went to: the channel's id, when (null: not known) and where readers see it. */
export interface ChannelPublication {
  channel: string;
  at: string | null;
  url: string | null;
}

/**
 * Every channel the article is published on: WordPress and LinkedIn by their flags, every other channel by its
 * `posts` entry, so a channel added to the registry is in History, the dashboard and the calendar without being
 * named there (docs/architecture.md, Channels).
 */
export function publicationsOf(article: PublicationFields): ChannelPublication[] {
  const own: ChannelPublication[] = [];
  if (article.blog.publishedToWordPress) {
    own.push({
      channel: channelOfVersion('blog').id,
      at: article.blog.lastPublished,
      url: article.blog.wordpressPostUrl ?? null,
    });
  }
  if (article.linkedin.publishedToLinkedIn) {
    own.push({
      channel: channelOfVersion('linkedin').id,
      at: article.linkedin.lastPublished,
      url: article.linkedin.linkedinPostUrl ?? null,
    });
  }
  const others = Object.entries(article.posts ?? {})
    .filter(([channel, post]) => post && !own.some((p) => p.channel === channel))
    .map(([channel, post]) => ({ channel, at: post.publishedAt ?? null, url: post.url ?? null }));
  return [...own, ...others];
}
