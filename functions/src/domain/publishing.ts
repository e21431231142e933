import { randomUUID } from 'node:crypto';
import {
  IntegrationMessages,
  LINKEDIN_MAX_CHARS,
  OfflineDraftMessages,
  httpUrlOrNull,
  offlineDraftNoteLines,
  type Platform,
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
import {
  IntegrationError,
  type LinkedInPublisher,
  type LinkedInSentPost,
  type PublishRun,
  type WordPressPublisher,
} from './integrations.js';
import { grantAllowsPages, LI_KEYS } from './linkedin.js';
import type { ArticleStore, ObjectStore, PublishAttempt } from './ports.js';
import type { SettingService } from './settings.js';
import type { WordPressService } from './wordpress.js';

export const PublishMessages = {
  inProgress:
    'Publishing is already in progress for this article. Wait a minute and refresh; if it is not published then, publish again.',
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

export interface PublishingDeps {
  articles: ArticleStore;
  objects: ObjectStore;
  settings: SettingService;
  wordpress: WordPressService;
  wordpressPublisher: WordPressPublisher;
  linkedinPublisher: LinkedInPublisher;
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
export type PublishOrigin = { trigger: 'manual'; actorId?: string } | { trigger: 'approval'; scheduledFor: string };
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
 * Publishing to WordPress and LinkedIn, each exactly once: under concurrent calls (a claim per
 * platform), and across an attempt that was cut off or got no answer. Every outbound call of one
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
    platform: Platform,
    context: PublishContext,
    work: (fresh: ArticleRecord, attempt: AttemptNote) => Promise<T>,
  ): Promise<T> {
    const claimId = randomUUID();
    const now = this.now();
    const claimed = await this.deps.articles.claimPublish(
      userId,
      article.id,
      platform,
      claimId,
      now.toISOString(),
      new Date(now.getTime() - PUBLISH_CLAIM_STALE_MS).toISOString(),
    );
    if (!claimed) throw conflict(PublishMessages.inProgress, 'publish_in_progress');
    const attempt: AttemptNote = {
      pending: claimed.publishAttempts?.[platform] ?? undefined,
      noted: claimed.publishAttempts !== undefined,
      note: async (fields) => {
        // A claim taken over (this attempt outlived PUBLISH_CLAIM_STALE_MS) must not send anything.
        if (
          !(await this.deps.articles.notePublishAttempt(userId, article.id, platform, claimId, {
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
      if (outcome === 'not-created') await this.deps.articles.forgetPublishAttempt(userId, article.id, platform);
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
          ...this.eventBase(userId, article, platform, context.origin),
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
      if (!keepClaim) await this.deps.articles.releasePublish(userId, article.id, platform, claimId);
    }
  }

  private eventBase(userId: string, article: ArticleRecord, platform: Platform, origin: PublishOrigin) {
    return {
      userId,
      articleId: article.id,
      title: article.title,
      platform: eventPlatform(platform),
      trigger: origin.trigger,
      scheduledFor: origin.trigger === 'approval' ? origin.scheduledFor : null,
      ...(origin.trigger === 'approval' ? { actorId: null } : origin.actorId ? { actorId: origin.actorId } : {}),
    };
  }

  /** The run of one publish: its deadline, and the note of the attempt before the post is created. */
  private run<A>(
    deadline: number,
    attempt: AttemptNote,
    fields: (sent: A) => Omit<PublishAttempt, 'at'>,
  ): PublishRun<A> {
    return { deadline, beforeCreate: (sent) => attempt.note(fields(sent)) };
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

  async publishWordPress(
    userId: string,
    id: string,
    origin: PublishOrigin = MANUAL,
  ): Promise<{ link: string | null; article: ArticleRecord }> {
    const deadline = Date.now() + this.deadlineMs;
    const article = await this.load(userId, id);
    if (!article.blog.content.trim()) throw badRequest(PublishMessages.noContent('blog'), 'no_content');
    refuseOfflineDraftNote('blog', article.blog.content);
    const site = await this.deps.wordpress.stored(userId);
    if (!site) throw badRequest(PublishMessages.wordpressNotConnected, 'wordpress_not_connected');
    const context: PublishContext = { origin };
    const published = await this.withClaim(userId, article, 'blog', context, async (fresh, attempt) => {
      const image = await this.imageFor(fresh, 'blog');
      const ext = image?.contentType === 'image/png' ? 'png' : 'jpg';
      // An earlier attempt may have created the post with its slug: it is looked for first.
      const earlier = attempt.pending?.slug;
      const result = await this.deps.wordpressPublisher.publish(
        site,
        {
          ...(await wordpressPostOf(fresh)),
          featuredImage: image ? { ...image, filename: `${slug(fresh.title)}.${ext}` } : undefined,
          existingPostId: fresh.wordpressPostId ?? undefined,
          slug: earlier ?? postSlug(fresh.title, fresh.id),
          findBySlug: earlier !== undefined,
        },
        this.run<{ slug: string }>(deadline, attempt, ({ slug }) => ({ slug })),
      );
      // Only an http(s) address is kept and handed on: it becomes a "View post" href.
      const link = httpUrlOrNull(result.link);
      const now = this.now();
      const at = now.toISOString();
      const succeeded = makeEvent(
        'PublishSucceeded',
        { ...this.eventBase(userId, article, 'blog', origin), postUrl: link, publishedAt: at },
        now,
      );
      const updated = await this.deps.articles.update(
        userId,
        article.id,
        {
          'blog.publishedToWordPress': true,
          'blog.lastPublished': at,
          'blog.wordpressPostUrl': link,
          wordpressPostId: result.postId,
          ...(attempt.noted ? { 'publishAttempts.blog': null } : {}),
          ...this.laterScheduleDropped(fresh, 'blog'),
          lastError: null,
          updatedAt: at,
        },
        { events: [outboxEntry(succeeded)] },
      );
      return { link, article: updated ?? article };
    });
    return { link: published.link, article: published.article };
  }

  async publishLinkedIn(
    userId: string,
    id: string,
    origin: PublishOrigin = MANUAL,
  ): Promise<{ url: string; article: ArticleRecord }> {
    const deadline = Date.now() + this.deadlineMs;
    const article = await this.load(userId, id);
    if (article.linkedin.publishedToLinkedIn && article.linkedin.linkedinPostUrl) {
      throw conflict(PublishMessages.linkedinAlreadyPublished, 'already_published');
    }
    const content = article.linkedin.content.trim();
    if (!content) throw badRequest(PublishMessages.noContent('linkedin'), 'no_content');
    if (content.length > LINKEDIN_MAX_CHARS)
      throw badRequest(`LinkedIn posts must be under ${LINKEDIN_MAX_CHARS} characters. Please shorten your text.`);
    refuseOfflineDraftNote('linkedin', article.linkedin.content);
    const v = await this.deps.settings.values(userId, [
      LI_KEYS.accessToken,
      LI_KEYS.tokenExpiry,
      LI_KEYS.memberId,
      LI_KEYS.scopes,
    ]);
    const token = v.get(LI_KEYS.accessToken);
    const memberId = v.get(LI_KEYS.memberId);
    if (!token || !memberId) throw badRequest(PublishMessages.linkedinNotConnected, 'linkedin_not_connected');
    const expiry = v.get(LI_KEYS.tokenExpiry);
    if (expiry && Date.parse(expiry) <= this.now().getTime())
      throw badRequest(PublishMessages.linkedinExpired, 'linkedin_token_invalid');

    const context: PublishContext = { origin };
    const published = await this.withClaim(userId, article, 'linkedin', context, async (fresh, attempt) => {
      if (fresh.linkedin.publishedToLinkedIn)
        throw conflict(PublishMessages.linkedinAlreadyPublished, 'already_published');
      const run = this.run<LinkedInSentPost>(deadline, attempt, (post) => ({ post }));
      let author = `urn:li:person:${memberId}`;
      let result: { urn: string; url: string };
      const earlier = attempt.pending?.post;
      if (earlier) {
        // An earlier attempt may have made this very post: it is sent again unchanged, and LinkedIn
        // answers a duplicate with the post it has. (Its text may have been edited since: one post
        // of the earlier text beats two posts.)
        author = earlier.author;
        result = await this.deps.linkedinPublisher.resend(token, earlier, run);
      } else {
        if (fresh.linkedInMode === 'company') {
          // Known not to include page access: say how to get it, before asking LinkedIn anything.
          // (A connection made before the granted scopes were kept tries, as it always did.)
          if (grantAllowsPages(v.get(LI_KEYS.scopes)) === false)
            throw badRequest(PublishMessages.linkedinPageAccessNeeded, 'linkedin_page_access_needed');
          const [organization] = await this.deps.linkedinPublisher.administeredOrganizations(token, { deadline });
          if (!organization) throw badRequest(PublishMessages.noOrganization, 'no_organization');
          author = organization.urn;
        }
        result = await this.deps.linkedinPublisher.publish(
          {
            accessToken: token,
            author,
            commentary: fresh.linkedin.content.trim(),
            image: await this.imageFor(fresh, 'linkedin'),
          },
          run,
        );
      }
      const now = this.now();
      const at = now.toISOString();
      const succeeded = makeEvent(
        'PublishSucceeded',
        {
          ...this.eventBase(userId, article, 'linkedin', origin),
          postUrl: httpUrlOrNull(result.url),
          publishedAt: at,
        },
        now,
      );
      // The owner's webhook also gets the `linkedin.published` payload its receivers know, before the event.
      const legacy = {
        event: 'linkedin.published',
        articleId: article.id,
        title: article.title,
        content,
        author,
        postUrl: result.url,
        imageUrl: article.image ? this.deps.imageUrl(article.id, 'linkedin') : null,
        publishedAt: at,
      };
      const updated = await this.deps.articles.update(
        userId,
        article.id,
        {
          'linkedin.publishedToLinkedIn': true,
          'linkedin.lastPublished': at,
          'linkedin.linkedinPostUrl': result.url,
          linkedinPostUrn: result.urn,
          ...(attempt.noted ? { 'publishAttempts.linkedin': null } : {}),
          ...this.laterScheduleDropped(fresh, 'linkedin'),
          lastError: null,
          updatedAt: at,
        },
        { events: [outboxEntry(succeeded, { alsoToWebhook: [legacy] })] },
      );
      return { url: result.url, article: updated ?? article };
    });

    return { url: published.url, article: published.article };
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
  note(fields: Omit<PublishAttempt, 'at'>): Promise<void>;
}

/**
 * A new WordPress post's slug: the title's, made unique to the article by the random part of its
 * id, so that a later attempt can find exactly this post (GET /wp/v2/posts?slug=…).
 */
export function postSlug(title: string, articleId: string): string {
  const base = slug(title).replace(/^featured-image$/, 'post');
  const tag =
    articleId
      .toLowerCase()
      .replace(/[^a-z0-9]/g, '')
      .slice(-10) || 'article';
  return `${base}-${tag}`;
}

const slug = (title: string) =>
  title
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60) || 'featured-image';

/**
 * The post's title (escaped: WordPress takes it as HTML) and sanitized HTML exactly as the editor's
 * WordPress preview shows them (wordpressPost, shared/src/markdown.ts), loaded on the first publish
 * rather than at every cold start.
 */
async function wordpressPostOf(article: ArticleRecord): Promise<{ title: string; html: string }> {
  const { wordpressPost } = await import('@app/shared/markdown');
  const post = wordpressPost({ title: article.title, blogContent: article.blog.content });
  return { title: post.titleHtml, html: post.html };
}
