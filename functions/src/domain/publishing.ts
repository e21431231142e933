import { randomUUID } from 'node:crypto';
import {
  OfflineDraftMessages,
  httpUrlOrNull,
  offlineDraftNoteLines,
  scheduledTime,
  type Platform,
  type VersionId,
  goesTo,
} from '@app/shared';
import type { ArticleRecord } from './articles.js';
import {
  ConflictError,
  DomainError,
  UpstreamError,
  UpstreamTimeoutError,
  badRequest,
  conflict,
  notFound,
} from './errors.js';
import type { BusinessEvents } from './events.js';
import { newestImageFile } from './images.js';
import { eventErrorMessage, eventPlatform, makeEvent, outboxEntry } from './automation-events.js';
import { PUBLISH_CLAIM_STALE_MS, PUBLISH_DEADLINE_MS } from '../time-budgets.js';
import { IntegrationError, type LinkedInPublisher, type WordPressPublisher } from './integrations.js';
import type { ArticleStore, ObjectStore, PublishAttempt } from './ports.js';
import type { SettingService } from './settings.js';
import type { AttemptFields, PublishChannel } from '../channels/channel.js';
import { linkedinChannel } from '../channels/linkedin/channel.js';
import type { WordPressService } from '../channels/wordpress/service.js';
import { wordpressChannel } from '../channels/wordpress/channel.js';

import { PublishMessages } from './publish-messages.js';

export { PublishMessages };

export interface PublishingDeps {
  articles: ArticleStore;
  objects: ObjectStore;
  /**
   * The channel of an id (channels/registry.ts, whose entries load each channel's module on demand). Without it,
   * the built-in WordPress and LinkedIn channels over the three ports below.
   */
  channel?: (id: string) => Promise<PublishChannel>;
  /** Every channel id the loader knows (the registry's), for a scheduled version's channels; default the built-in two. */
  channelIds?: readonly string[];
  settings?: SettingService;
  wordpress?: Pick<WordPressService, 'stored'>;
  wordpressPublisher?: WordPressPublisher;
  linkedinPublisher?: LinkedInPublisher;
  /** Where the API serves an article's image (the webhook's imageUrl); the HTTP layer knows its paths. */
  imageUrl: (articleId: string, platform: Platform) => string;
  now?: () => Date;
  /** How long one publish may talk to the platforms (default PUBLISH_DEADLINE_MS, functions/src/time-budgets.ts). */
  deadlineMs?: number;
  /** Reports each publish's outcome (metrics in AWS). */
  events?: Pick<BusinessEvents, 'publishSucceeded' | 'publishFailed'>;
}

/**
 * What asked for a publish: Publish now in the app (by member `actorId`), or the owner confirming an approval link
 * (for that schedule): the scheduled run's publish, which its events attribute to no member (actorId null).
 */
export type PublishOrigin =
  // check: the caller's rule on the article as this publish reads it (Publish Now's review rule), so it is read once.
  | { trigger: 'manual'; actorId?: string; check?: (article: ArticleRecord) => void }
  | { trigger: 'approval'; scheduledFor: string };
const MANUAL: PublishOrigin = { trigger: 'manual' };

/**
 * One publish as its events describe it: what asked for it. Its domain events (PublishSucceeded,
 * PublishFailed) are written with the article's change (the outbox, ports.ts ArticleStore.update) and
 * delivered from there, the owner's webhook included, so publishing never waits for them.
 */
interface PublishContext {
  origin: PublishOrigin;
}

/**
 * Publishing to each channel (channels/registry.ts) exactly once: under concurrent
 * calls (a claim per channel), and across an attempt that was cut off or got no answer. Every outbound call of one
 * publish shares a deadline within the API function's timeout, so a publish ends with our
 * message, not cut off; before the post is created, what a later attempt needs to find it is
 * recorded on the article (ArticleStore.notePublishAttempt), and the next attempt finds that post
 * (WordPress: by its slug) or sends it again unchanged (LinkedIn answers a duplicate with the post
 * it has) instead of making a second one.
 */
export class PublishingService {
  private readonly now: () => Date;
  private readonly deadlineMs: number;
  constructor(private readonly deps: PublishingDeps) {
    this.now = deps.now ?? (() => new Date());
    this.deadlineMs = deps.deadlineMs ?? PUBLISH_DEADLINE_MS;
  }

  private async load(userId: string, id: string): Promise<ArticleRecord> {
    const article = await this.deps.articles.get(userId, id);
    if (!article) throw notFound('Article not found', 'article_not_found');
    return article;
  }

  /**
   * Runs `work` under the platform's publish claim, on the article as it is once claimed (a call
   * that waited must see the post id the previous one recorded). Failures are kept as lastError.
   * `work` gets the run's hook that records the attempt before the post is created.
   */
  private async withClaim<T>(
    userId: string,
    article: ArticleRecord,
    channel: PublishChannel,
    context: PublishContext,
    work: (fresh: ArticleRecord, attempt: AttemptNote) => Promise<T>,
  ): Promise<T> {
    const { claimKey } = channel;
    const claimId = randomUUID();
    const now = this.now();
    const claimed = await this.deps.articles.claimPublish(
      userId,
      article.id,
      claimKey,
      claimId,
      now.toISOString(),
      new Date(now.getTime() - PUBLISH_CLAIM_STALE_MS).toISOString(),
    );
    if (!claimed) throw conflict(PublishMessages.inProgress, 'publish_in_progress');
    const attempt: AttemptNote = {
      pending: claimed.publishAttempts?.[claimKey] ?? undefined,
      noted: claimed.publishAttempts !== undefined,
      note: async (fields) => {
        // A claim taken over (this attempt outlived PUBLISH_CLAIM_STALE_MS) must not send anything.
        if (
          !(await this.deps.articles.notePublishAttempt(userId, article.id, claimKey, claimId, {
            at: new Date().toISOString(),
            ...fields,
          }))
        ) {
          throw conflict(PublishMessages.inProgress, 'publish_in_progress');
        }
        attempt.noted = true;
      },
    };
    let keepClaim = false;
    try {
      const result = await work(claimed, attempt);
      this.deps.events?.publishSucceeded(channel.id);
      return result;
    } catch (err) {
      if (err instanceof ConflictError) throw err; // nothing failed: it was already done
      const outcome = err instanceof IntegrationError ? err.outcome : undefined;
      // The platform refused the post: no post to look for later. (Unknown: the note stays.)
      if (outcome === 'not-created') await this.deps.articles.forgetPublishAttempt(userId, article.id, claimKey);
      // Cut off by the deadline after sending: the platform may still be working on it. The claim
      // stays until it is stale, so the retry comes after and finds what it made.
      keepClaim = outcome === 'unknown' && err instanceof IntegrationError && err.code === 'publish_timeout';
      const error =
        err instanceof IntegrationError || err instanceof DomainError
          ? { code: err.code ?? 'publish_failed', message: err.message }
          : { code: 'publish_failed', message: PublishMessages.failed };
      this.deps.events?.publishFailed(channel.id, error.code);
      // PublishFailed is written exactly when lastError records a failed publish, in the same write.
      const failed = makeEvent(
        'PublishFailed',
        {
          ...this.eventBase(userId, article, channel, context.origin),
          error: { code: error.code, message: eventErrorMessage(error.message) },
        },
        this.now(),
      );
      await this.deps.articles.update(
        userId,
        article.id,
        { lastError: error, updatedAt: this.now().toISOString() },
        { events: [outboxEntry(failed)] },
      );
      if (err instanceof DomainError) throw err;
      if (err instanceof IntegrationError && err.code === 'publish_timeout')
        throw new UpstreamTimeoutError(error.message, error.code);
      throw new UpstreamError(error.message, error.code);
    } finally {
      if (!keepClaim) await this.deps.articles.releasePublish(userId, article.id, claimKey, claimId);
    }
  }

  private eventBase(userId: string, article: ArticleRecord, channel: PublishChannel, origin: PublishOrigin) {
    return {
      userId,
      articleId: article.id,
      title: article.title,
      platform: channel.eventPlatform ?? eventPlatform(channel.platform),
      trigger: origin.trigger,
      scheduledFor: origin.trigger === 'approval' ? origin.scheduledFor : null,
      ...(origin.trigger === 'approval' ? { actorId: null } : origin.actorId ? { actorId: origin.actorId } : {}),
    };
  }

  /**
   * Publishing now replaces a later schedule of that platform: its run then finds the time moved
   * and e-mails nothing (a past schedule, the approval that is publishing, stays as it is).
   */
  private laterScheduleDropped(article: ArticleRecord, platform: VersionId): Record<string, null> {
    const at = scheduledTime(article.scheduled, platform);
    return at && Date.parse(at) > this.now().getTime() ? { [`scheduled.${platform}`]: null } : {};
  }

  /** The newest image's file to send (newestImageFile: an image replaced meanwhile is not sent as none). */
  private async imageFor(article: ArticleRecord, platform: Platform) {
    const found = await newestImageFile(this.deps, article, platform);
    return found ? { bytes: found.file.body, contentType: found.file.contentType } : undefined;
  }

  /** The channel of this id: the loader's, or (without one) the built-in channels over the deps' ports. */
  private async channelOf(id: string): Promise<PublishChannel> {
    if (this.deps.channel) return this.deps.channel(id);
    const { wordpress, wordpressPublisher, linkedinPublisher, settings } = this.deps;
    const missing = (port: string) => () => Promise.reject(new Error(`PublishingService: no ${port} given`));
    if (id === 'wordpress' && wordpress)
      return wordpressChannel({
        wordpress,
        publisher: wordpressPublisher ?? { publish: missing('wordpressPublisher') },
      }) as PublishChannel;
    if (id === 'linkedin' && settings)
      return linkedinChannel({
        settings,
        publisher: linkedinPublisher ?? {
          publish: missing('linkedinPublisher'),
          resend: missing('linkedinPublisher'),
          administeredOrganizations: missing('linkedinPublisher'),
        },
        now: this.now,
      }) as PublishChannel;
    throw notFound('Channel not found', 'channel_not_found');
  }

  /**
   * Publishes the article's version to a channel (channels/registry.ts), once: the channel's own checks and
   * connection first (nothing recorded when they refuse), then under the claim its publish, which finds an earlier
   * attempt's post instead of posting twice, and one write of the channel's record with PublishSucceeded.
   */
  async publish(
    channelId: string,
    userId: string,
    id: string,
    origin: PublishOrigin = MANUAL,
    options: { blogUrl?: string } = {},
  ): Promise<{ url: string | null; article: ArticleRecord }> {
    const deadline = Date.now() + this.deadlineMs;
    const channel = await this.channelOf(channelId);
    const article = await this.load(userId, id);
    if (!goesTo(article, channel.id))
      throw badRequest(PublishMessages.notAChannelOf(channel.label), 'channel_not_selected');
    if (origin.trigger === 'manual') origin.check?.(article);
    channel.checkArticle(article);
    // The version the channel publishes: a channel's own version's text rules (its note included) are its own.
    if (!channel.version) refuseOfflineDraftNote(channel.platform, article[channel.platform].content);
    const connection = await channel.connection(userId);
    const context: PublishContext = { origin };
    // A bundle's social post published by hand (its retry on the Schedule card) carries the live blog post as the
    // approval's would.
    const blogUrl =
      options.blogUrl ?? (article.bundle === true ? await this.bundleBlogUrl(channel, article) : undefined);
    return this.withClaim(userId, article, channel, context, async (fresh, attempt) => {
      channel.checkClaimed?.(fresh);
      const post = await channel.publish(
        connection,
        {
          article: fresh,
          requested: article,
          image: () => this.imageFor(fresh, channel.platform),
          imageUrl: () => this.deps.imageUrl(article.id, channel.platform),
          ...(blogUrl ? { blogUrl } : {}),
        },
        attempt.pending,
        { deadline, beforeCreate: (fields) => attempt.note(fields) },
      );
      const now = this.now();
      const at = now.toISOString();
      const succeeded = makeEvent(
        'PublishSucceeded',
        {
          ...this.eventBase(userId, article, channel, origin),
          postUrl: httpUrlOrNull(post.url),
          publishedAt: at,
        },
        now,
      );
      const alsoToWebhook = post.alsoToWebhook?.(at);
      const updated = await this.deps.articles.update(
        userId,
        article.id,
        {
          ...post.fields(at),
          ...(attempt.noted ? { [`publishAttempts.${channel.claimKey}`]: null } : {}),
          ...(channel.ownsSchedule ? this.laterScheduleDropped(fresh, channel.version ?? channel.platform) : {}),
          lastError: null,
          updatedAt: at,
        },
        { events: [outboxEntry(succeeded, alsoToWebhook ? { alsoToWebhook } : undefined)] },
      );
      return { url: post.url, article: updated ?? article };
    });
  }

  /**
   * The channels a scheduled version's approval publishes to: the one that owns its schedule and each that joins it
   * (channel.ts), those connected; none connected: the owner alone, whose publish then says to connect it.
   */
  async versionChannels(platform: VersionId, userId: string): Promise<PublishChannel[]> {
    const ofVersion = (await this.allChannels()).filter((c) => isVersionChannel(c, platform));
    const targets = await this.connectedOf(ofVersion, userId);
    return targets.length ? targets : ofVersion.filter((c) => c.ownsSchedule);
  }

  /** A blog-first bundle's social channels: every connected channel that is not a blog channel (the registry's order). */
  async socialChannels(userId: string): Promise<PublishChannel[]> {
    return this.connectedOf(
      (await this.allChannels()).filter((c) => !isVersionChannel(c, 'blog')),
      userId,
    );
  }

  /** A bundled article's live blog post (its first blog channel's http(s) address) when `channel` is a social one. */
  private async bundleBlogUrl(channel: PublishChannel, article: ArticleRecord): Promise<string | undefined> {
    if (isVersionChannel(channel, 'blog')) return undefined;
    const blogs = (await this.allChannels()).filter((c) => isVersionChannel(c, 'blog'));
    return blogs.map((c) => httpUrlOrNull(c.postOf(article)?.url ?? null)).find((url): url is string => !!url);
  }

  private async allChannels(): Promise<PublishChannel[]> {
    return Promise.all((this.deps.channelIds ?? ['wordpress', 'linkedin']).map((id) => this.channelOf(id)));
  }

  private async connectedOf(channels: PublishChannel[], userId: string): Promise<PublishChannel[]> {
    const connected = await Promise.all(
      channels.map((c) =>
        c.connection(userId).then(
          () => true,
          (err: unknown) => (err instanceof DomainError ? false : Promise.reject(err)),
        ),
      ),
    );
    return channels.filter((_, i) => connected[i]);
  }

  /**
   * A scheduled version's approval: publishes to each of its channels (versionChannels) that has no post of the
   * article yet, one after the other, each under its own claim and attempt note (publish), and says how each went.
   * A channel that failed does not stop the others; one that has its post is not sent again, so approving again
   * after a partial failure sends only to the channels that failed.
   */
  async publishVersion(
    platform: VersionId,
    userId: string,
    id: string,
    origin: PublishOrigin,
  ): Promise<ChannelOutcome[]> {
    return this.publishEach(await this.versionChannels(platform, userId), userId, id, origin);
  }

  /**
   * A blog-first bundle's social posts, once its blog post is live (`blogUrl`): each connected social channel as
   * publishVersion does, each post carrying the blog post's address.
   */
  async publishSocial(userId: string, id: string, origin: PublishOrigin, blogUrl: string): Promise<ChannelOutcome[]> {
    return this.publishEach(await this.socialChannels(userId), userId, id, origin, { blogUrl, nameErrors: true });
  }

  private async publishEach(
    channels: PublishChannel[],
    userId: string,
    id: string,
    origin: PublishOrigin,
    options: { blogUrl?: string; nameErrors?: boolean } = {},
  ): Promise<ChannelOutcome[]> {
    const outcomes: ChannelOutcome[] = [];
    for (const channel of channels) {
      const base = { channel: channel.id, label: channel.label };
      const article = await this.load(userId, id);
      // An article imported for some channels only (Article.channels): the others are not its channels.
      if (!goesTo(article, channel.id)) continue;
      const posted = channel.postOf(article);
      if (posted) {
        outcomes.push({ ...base, ok: true, url: posted.url, already: true });
        continue;
      }
      try {
        const { url } = await this.publish(channel.id, userId, id, origin, { blogUrl: options.blogUrl });
        outcomes.push({ ...base, ok: true, url, already: false });
      } catch (error) {
        outcomes.push({ ...base, ok: false, error });
      }
    }
    // A later channel's success clears lastError: with several, the article keeps which one failed and why.
    const failed = outcomes.filter((o) => !o.ok);
    if ((channels.length > 1 || options.nameErrors) && failed.length) {
      const lastError = {
        code: failed.length === 1 ? errorOf(failed[0]!.error).code : 'publish_partly_failed',
        message: failed.map((o) => `${o.label}: ${errorOf(o.error).message}`).join(' '),
        channels: Object.fromEntries(failed.map((o) => [o.channel, errorOf(o.error).message])),
      };
      await this.deps.articles.update(userId, id, { lastError });
    }
    return outcomes;
  }

  /** The blog version to WordPress (the documented `wordpress.publish`, approvals of the blog version). */
  async publishWordPress(
    userId: string,
    id: string,
    origin: PublishOrigin = MANUAL,
  ): Promise<{ link: string | null; article: ArticleRecord }> {
    const { url, article } = await this.publish('wordpress', userId, id, origin);
    return { link: url, article };
  }

  /** The LinkedIn version to LinkedIn (the documented `linkedin.publish`, approvals of the LinkedIn version). */
  async publishLinkedIn(
    userId: string,
    id: string,
    origin: PublishOrigin = MANUAL,
  ): Promise<{ url: string; article: ArticleRecord }> {
    const { url, article } = await this.publish('linkedin', userId, id, origin);
    // LinkedIn's post always has its address (channels/linkedin/channel.ts).
    return { url: url ?? '', article };
  }

  async setPostingMode(userId: string, id: string, mode: 'personal' | 'company'): Promise<void> {
    const updated = await this.deps.articles.update(userId, id, {
      linkedInMode: mode,
      updatedAt: this.now().toISOString(),
    });
    if (!updated) throw notFound('Article not found', 'article_not_found');
  }

  async postingMode(userId: string, id: string): Promise<'personal' | 'company'> {
    return (await this.load(userId, id)).linkedInMode;
  }
}

/**
 * An offline draft's own note ("Offline draft — …", shared/src/offline-draft.ts) is not for the readers: a version
 * that still has it is not published, whether by Publish Now or an approval link (the scheduled run's way to
 * publish). Nothing is recorded: the text only needs an edit.
 */
function refuseOfflineDraftNote(platform: Platform, text: string): void {
  const lines = offlineDraftNoteLines(text).map((note) => note.line);
  if (lines.length) throw badRequest(OfflineDraftMessages.publishRefused(platform, lines), 'offline_draft_note');
}

/** A channel of the version's schedule (its own version's, or else its platform's): the one that owns it or one that joins it. */
const isVersionChannel = (c: PublishChannel, platform: VersionId) =>
  (c.version ?? c.platform) === platform && (c.ownsSchedule === true || c.joinsSchedule === true);

/** A failure's code and sentence, as lastError keeps them. */
export function errorOf(err: unknown): { code: string; message: string } {
  return err instanceof DomainError
    ? { code: err.code ?? 'publish_failed', message: err.message }
    : { code: 'publish_failed', message: PublishMessages.failed };
}

/** How one channel of a scheduled version's approval went (publishVersion). */
export type ChannelOutcome = { channel: string; label: string } & (
  | { ok: true; url: string | null; /** Its post was there already: nothing sent. */ already: boolean }
  | { ok: false; error: unknown }
);

/** One publish's attempt note: the earlier attempt's (if any), and a way to record this one. */
interface AttemptNote {
  /** What an earlier attempt may have created and no attempt has recorded since. */
  pending: PublishAttempt | undefined;
  /** The article has a publishAttempts map (so its platform key can be cleared). */
  noted: boolean;
  note(fields: AttemptFields): Promise<void>;
}
