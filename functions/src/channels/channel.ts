/**
 * A publishing channel, as the one generic publish (domain/publishing.ts, PublishingService.publish) sees it. What is
 * the same for every channel stays there: the claim, the attempt note, the deadline, PublishSucceeded/PublishFailed,
 * lastError, dropping a later schedule, refusing an offline draft's note. What differs is the channel's: its stored
 * connection, its text rules, how it publishes (finding an earlier attempt's post instead of posting twice) and the
 * article fields that record its post.
 *
 * Vendor-free: a channel's module (registry.ts) builds one of these from its own adapter, loaded on demand.
 */
import type { ChannelCredentialsInput, LinkedInIdentity, Platform } from '@app/shared';
import type { ArticleRecord } from '../domain/articles.js';
import type { PublishRun } from '../domain/integrations.js';
import type { PublishAttempt } from '../domain/ports.js';
import type { VersionDrafting } from '../domain/ai.js';
import type { ChannelEnv } from './registry.js';

/** What an earlier attempt noted before it created its post (the channel's own fields of PublishAttempt). */
export type AttemptFields = Omit<PublishAttempt, 'at'>;

/** The image a post carries: the newest file of the article's image for the channel's version. */
export interface ChannelImage {
  bytes: Buffer;
  contentType: string;
}

/** One post to publish: the article (as claimed), the article as first read, and its image, read when asked for. */
export interface ChannelPost {
  article: ArticleRecord;
  /** The article as read before the claim (what the publish was asked for). */
  requested: ArticleRecord;
  image(): Promise<ChannelImage | undefined>;
  /** Where the API serves the version's image (the webhook's imageUrl). */
  imageUrl(): string;
  /**
   * A blog-first bundle's social post (Article.bundle): the live blog post's address, which the channel carries as it
   * can (a link share, or the address in the text).
   */
  blogUrl?: string;
}

/** A post the channel made (or found again). */
export interface PublishedPost {
  /** The post's address, as the route answers it (the events keep only an http(s) one). */
  url: string | null;
  /** The article fields that record the post, written with the success (`at`: its time). */
  fields(at: string): Record<string, unknown>;
  /** More payloads for the owner's webhook, sent before the event (LinkedIn's `linkedin.published`). */
  alsoToWebhook?(at: string): unknown[];
}

/** A channel's connection as its generic routes show it (`channels.status`): secrets only masked. */
export interface ChannelConnection {
  connected: boolean;
  /** What the owner entered, each secret masked (e.g. a site address, and a key as `id:••••abcd`). */
  fields: Record<string, string | null>;
  /** When it was last saved. */
  updatedAt: string | null;
}

/** What the approval e-mail gives a channel's preview of its post (domain/email-html.ts has what they share). */
export interface EmailPreviewInput {
  title: string;
  /** The article's topic: a link card's summary. */
  topic: string;
  /** The picture the e-mail carries: its description, and `cid` when its file goes with the e-mail. */
  image: { description: string; cid: string | null } | null;
  /** Who a LinkedIn post goes out as (the neutral author when not known). */
  linkedIn?: { identity: LinkedInIdentity | undefined; mode: 'personal' | 'company' };
  /** A blog-first bundle's social post: it carries the blog post as a link card (no picture of its own). */
  blogLink?: boolean;
}

/** A channel's preview in the approval e-mail: HTML with inline styles only, and the same as plain text. */
export interface EmailPreview {
  html: string;
  text: string;
}

/** A connection check: what the channel said about the credentials. */
export type ChannelCheck = { ok: true; message: string } | { ok: false; code: string; message: string };

/**
 * The connection of a channel without documented routes of its own (the generic `channels.*` routes,
 * functions/src/http/channels.ts): its form's input is checked by the channel (bad input: 400, nothing saved).
 */
export interface ChannelSettings {
  status(userId: string): Promise<ChannelConnection>;
  /** Checks the credentials against the service, then saves them (a refused check saves nothing). */
  connect(userId: string, input: ChannelCredentialsInput): Promise<ChannelCheck & { ok: true }>;
  /** Checks the given credentials, or the saved ones without input; a refusal is an answer, not an error. */
  test(userId: string, input?: ChannelCredentialsInput): Promise<ChannelCheck>;
  disconnect(userId: string): Promise<void>;
}

export interface PublishChannel<C = unknown> {
  /** Its id in the registry (registry.ts). */
  readonly id: string;
  /** Its name as people read it ("Successfully published to WordPress!"). */
  readonly label: string;
  /** The article's version whose image (and, without `version`, text) it publishes. */
  readonly platform: Platform;
  /**
   * The version it publishes when it has its own (its id: the text at `versions.<id>.content`, its review, its
   * offline-draft note, its approval before Publish Now); absent: the `platform` version's.
   */
  readonly version?: string;
  /** How its events name it (default: the version's, `wordpress` or `linkedin`). */
  readonly eventPlatform?: string;
  /** Its connection, where it has no documented routes of its own (WordPress and LinkedIn have theirs). */
  readonly settings?: ChannelSettings;
  /** The key of its claim and attempt note on the article (WordPress keeps `blog`, as before there were channels). */
  readonly claimKey: string;
  /**
   * The version's schedule (`scheduled.<platform>`) is this channel's: its run e-mails the approval that publishes
   * here (WordPress for the blog version, LinkedIn for its own). A publish replaces only its own channel's schedule.
   */
  readonly ownsSchedule?: true;
  /**
   * The version's schedule publishes here too while this channel is connected (a second blog channel beside WordPress on the blog
   * version): the approval of a scheduled version publishes to each such channel and the one that owns it.
   */
  readonly joinsSchedule?: true;
  /**
   * Its post of the article as the approval e-mail previews it (the channel's `email-preview.ts`, loaded when an
   * e-mail is written), the text being the version it publishes.
   */
  emailPreview?(article: ArticleRecord, input: EmailPreviewInput): Promise<EmailPreview>;
  /** The post it made of this article, if any: an approval tried again sends only to the channels still without one. */
  postOf(article: ArticleRecord): { url: string | null } | undefined;
  /** The article's own checks, before anything is read or claimed: the text rules (throws a DomainError). */
  checkArticle(article: ArticleRecord): void;
  /** The stored connection it publishes with; not connected or expired: the channel's 400. */
  connection(userId: string): Promise<C>;
  /**
   * When its connection stops working, for a channel whose provider says so (an OAuth token's lifetime; undefined: not
   * connected, or none given). It saves that time at its `connectionExpiryKey` setting (ids.ts), which the table
   * indexes by time: the health sweep tells the owner a week ahead and flags a slot after it.
   */
  connectionExpiry?(userId: string): Promise<string | undefined>;
  /** The check once claimed, on the article as it is then (LinkedIn: already published by the call before). */
  checkClaimed?(article: ArticleRecord): void;
  /**
   * Publishes the post, or finds (or sends again unchanged) the one `pending` (an earlier attempt's note) may have
   * made, so a retry never posts twice. `run.beforeCreate` must be called with what a later attempt needs right
   * before the request that creates the post.
   */
  publish(
    connection: C,
    post: ChannelPost,
    pending: PublishAttempt | undefined,
    run: Required<PublishRun<AttemptFields>>,
  ): Promise<PublishedPost>;
}

/**
 * A channel's own version of the article (registry.ts, `version`): its text at `versions.<id>.content`
 * (docs/data-model.md), with the channel's text rule and how it is drafted. Loaded without the channel's client.
 */
export interface ChannelVersion {
  /** The channel's id, which is the version's. */
  readonly id: string;
  /** Why `text` cannot be this version (the edit route's 400), or undefined when it can. */
  textProblem(text: string): string | undefined;
  /** How the AI and the offline drafter write it (domain/ai.ts). */
  readonly drafting: VersionDrafting;
  /** Whether the owner has the channel connected: only then does drafting write the version. */
  connected(env: ChannelEnv, ownerId: string): Promise<boolean>;
}
