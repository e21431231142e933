import { randomUUID } from 'node:crypto';
import { OfflineDraftMessages, httpUrlOrNull, offlineDraftNoteLines, type Platform } from '@app/shared';
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
    const { platform, claimKey } = channel;
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
      this.deps.events?.publishSucceeded(platform);
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
          : { code: 'publish_failed', message: `Publishing failed. Your content is kept; try again.` };
      this.deps.events?.publishFailed(platform, error.code);
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
  private laterScheduleDropped(article: ArticleRecord, platform: Platform): Record<string, null> {
    const at = article.scheduled[platform];
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
  ): Promise<{ url: string | null; article: ArticleRecord }> {
    const deadline = Date.now() + this.deadlineMs;
    const channel = await this.channelOf(channelId);
    const article = await this.load(userId, id);
    if (origin.trigger === 'manual') origin.check?.(article);
    channel.checkArticle(article);
    refuseOfflineDraftNote(channel.platform, article[channel.platform].content);
    const connection = await channel.connection(userId);
    const context: PublishContext = { origin };
    return this.withClaim(userId, article, channel, context, async (fresh, attempt) => {
      channel.checkClaimed?.(fresh);
      const post = await channel.publish(
        connection,
        {
          article: fresh,
          requested: article,
          image: () => this.imageFor(fresh, channel.platform),
          imageUrl: () => this.deps.imageUrl(article.id, channel.platform),
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
          ...(channel.ownsSchedule ? this.laterScheduleDropped(fresh, channel.platform) : {}),
          lastError: null,
          updatedAt: at,
        },
        { events: [outboxEntry(succeeded, alsoToWebhook ? { alsoToWebhook } : undefined)] },
      );
      return { url: post.url, article: updated ?? article };
    });
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

/** One publish's attempt note: the earlier attempt's (if any), and a way to record this one. */
interface AttemptNote {
  /** What an earlier attempt may have created and no attempt has recorded since. */
  pending: PublishAttempt | undefined;
  /** The article has a publishAttempts map (so its platform key can be cleared). */
  noted: boolean;
  note(fields: AttemptFields): Promise<void>;
}
