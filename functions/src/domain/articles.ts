import { randomBytes } from 'node:crypto';
import {
  ArticleMessages,
  LINKEDIN_MAX_CHARS,
  PLATFORMS,
  publicationsOf,
  type Article,
  type ChannelPostRecord,
  type CreateArticleInput,
  type GptEditInput,
  isPlatform,
  isVersionPublished,
  scheduledVersions,
  type Platform,
  type HealthWindow,
  type SlotHealth,
  type VersionId,
  type VersionReview,
} from '@app/shared';
import {
  AiEditNotApplied,
  AiError,
  AiQuotaError,
  TRANSIENT_AI_ERROR_CODES,
  type ArticleBrief,
  type ContentGenerator,
  type ImageGenerator,
  type VersionDrafting,
} from './ai.js';
import { ConflictError, QuotaExceededError, UpstreamError, badRequest, notFound } from './errors.js';
import type { BusinessEvents } from './events.js';
import type { JobLimits, StartedCall } from './job-limits.js';
import { replaceImage } from './images.js';
import { creationActivity, type LastEdit } from './activity.js';
import { eventPlatform, makeEvent, outboxEntry } from './automation-events.js';
import { returnedToReview, type RequiredReview } from './review-edit.js';
import type {
  ArticlePosition,
  ArticleStore,
  Job,
  JobQueue,
  ObjectStore,
  PublishAttempt,
  PublishClaimKey,
} from './ports.js';

export interface StoredImage {
  blogKey: string;
  linkedinKey: string;
  contentType: string;
  description: string;
  generatedAt: string;
  /** Absent on images stored before uploads existed: generated. */
  source?: 'generated' | 'uploaded';
  /** The normalised original (upright, no metadata) both sizes are cut from (domain/images.ts); absent: none kept. */
  original?: { key: string; contentType: string; width: number; height: number };
  /** Absent: the centre (or, for generated images without an original, sharp's attention crop). */
  focalPoint?: { x: number; y: number };
}

/**
 * The stored article: the API's Article (docs/data-model.md, articles) without `_id`, which the API
 * adds as a copy of `id`, and with what only the server keeps.
 */
export interface ArticleRecord extends Omit<Article, '_id' | 'image' | 'bundle'> {
  userId: string;
  /** Stored as the images' object keys; the API shows their URLs instead (http/article-view.ts). */
  image: StoredImage | null;
  imageJob: {
    status: 'pending' | 'done' | 'failed';
    requestedAt: string;
    error: { code: string; message: string } | null;
  } | null;
  /** In-flight publish claims per claim key (a channel's: `blog`, `linkedin`, …; see ArticleStore.claimPublish). */
  publishClaims?: Partial<Record<PublishClaimKey, { id: string; at: string }>>;
  /** Per claim key, a post an attempt may have created, not yet recorded (ArticleStore.notePublishAttempt). */
  publishAttempts?: Partial<Record<PublishClaimKey, PublishAttempt | null>>;
  /** The post each channel of the registry made (Article.posts, shared/src/articles.ts), by channel id. */
  posts?: Record<string, ChannelPostRecord>;
  /** The blog version's schedule carries the social posts, which wait for the blog post (Article.bundle). */
  bundle?: boolean | null;
  /**
   * The versions of the channels that publish a text of their own (docs/data-model.md, Articles), by channel id;
   * a channel's is absent until it is drafted or written.
   */
  versions?: Record<string, { content: string }>;
  /** The WordPress post this article became, so a republish updates it. */
  wordpressPostId?: number | null;
  linkedinPostUrn?: string | null;
  /** The newest edit's activity entry, which the next edit of the same burst extends (domain/activity.ts). */
  lastEdit?: LastEdit | null;
  /** Who created it (team workspaces: the first author of its versions' reviews). */
  createdBy?: string;
  /**
   * Each version's review in a team workspace (shared/src/review.ts), one attribute per version: `blogReview`,
   * `linkedinReview`, and `<channel id>Review` for a channel's own version.
   */
  blogReview?: VersionReview | null;
  linkedinReview?: VersionReview | null;
  [review: `${string}Review`]: VersionReview | null | undefined;
  /**
   * What the check before each version's slot found (domain/connection-health.ts), one attribute per version:
   * `blogHealth`, `linkedinHealth`, `<channel id>Health` for a channel's own version (healthAttribute).
   */
  [health: `${string}Health`]: SlotHealth | null | undefined;
}

// An article's version (shared/src/articles.ts): the blog one, the LinkedIn one, or a channel's own (registry.ts).
export type { VersionId };

/** A version's text (a channel's own: empty until drafted or written). */
export const versionText = (article: Pick<ArticleRecord, 'blog' | 'linkedin' | 'versions'>, version: VersionId) =>
  isPlatform(version) ? article[version].content : (article.versions?.[version]?.content ?? '');

/** A version's scheduled time (`scheduled.<version>`), or null. */
export const scheduledOf = (article: Pick<ArticleRecord, 'scheduled'>, version: VersionId): string | null =>
  article.scheduled[version] ?? null;

/** The article store's change that sets a version's text (a channel's own: its entry of `versions`, whole). */
export const versionTextChange = (version: VersionId, content: string): Record<string, unknown> =>
  isPlatform(version) ? { [`${version}.content`]: content } : { [`versions.${version}`]: { content } };

/** A version's slot: the version and its scheduled time (shared scheduledVersions lists them). */
export type VersionSlot = ReturnType<typeof scheduledVersions>[number];

/**
 * The article's slots still to publish: shared scheduledVersions' slots (the blog's, LinkedIn's, a channel's own under
 * its id) whose version has not gone out. What the check before each slot and its index of slots by time read
 * (domain/connection-health.ts, adapters/dynamo/due-slots.ts).
 */
export function slotsToPublish(
  article: Pick<ArticleRecord, 'blog' | 'linkedin' | 'scheduled' | 'posts'>,
): VersionSlot[] {
  return scheduledVersions(article).filter(({ version }) => !isVersionPublished(article, version));
}

/** The attribute of a version's health note (docs/data-model.md, Articles): `blogHealth` as before, `blueskyHealth`. */
export const healthAttribute = <V extends VersionId>(version: V): `${V}Health` => `${version}Health`;

/** A version's slot and the window of its check (ArticleStore.update's onlyIfHealthDue). */
export interface HealthDue {
  version: VersionId;
  scheduledFor: string;
  window: HealthWindow;
}

/** The attribute of a version's review (docs/data-model.md, Articles). */
export const reviewAttribute = <V extends VersionId>(version: V): `${V}Review` => `${version}Review`;

/** Where an article's image stands (the HTTP layer answers it as an ImageStatus, with the image's URLs). */
export interface ImageState {
  articleId: string;
  image: StoredImage | null;
  /** True while a generation runs. */
  pending: boolean;
  error: { code: string; message: string } | null;
}

export interface AiTools {
  content: ContentGenerator;
  image: ImageGenerator;
}

/** Time-ordered ids: newest-first listing is a reverse range read of the owner's partition. */
export function newArticleId(now = Date.now()): string {
  return `${now.toString(36).padStart(9, '0')}${randomBytes(5).toString('hex')}`;
}

export const briefOf = (a: ArticleRecord): ArticleBrief => ({
  title: a.title,
  topic: a.topic,
  keyword: a.keyword,
  details: a.details,
  imageDescription: a.imageDescription,
  tags: a.tags,
});

/** What the lists' rules read of an article (also all that the index backfill reads of an item). */
export interface PublicationState {
  updatedAt: string;
  blog: Pick<ArticleRecord['blog'], 'publishedToWordPress' | 'lastPublished'>;
  linkedin: Pick<ArticleRecord['linkedin'], 'publishedToLinkedIn' | 'lastPublished'>;
  /** The other channels' posts (Article.posts): an article published on one of them only is in History too. */
  posts?: Readonly<Record<string, { publishedAt?: string | null }>>;
}

const publishedOn = (a: PublicationState, platform: Platform) =>
  platform === 'blog' ? a.blog.publishedToWordPress : a.linkedin.publishedToLinkedIn;
/** Published on at least one channel (publicationsOf): in History (the published list). */
export const isPublished = (a: PublicationState) => publicationsOf(a).length > 0;
/** Published on both platforms: off the Schedule page (the unpublished list). */
export const isFullyPublished = (a: PublicationState) => PLATFORMS.every((p) => publishedOn(a, p));

/**
 * History's order: the latest publication time of the channels the article is published on
 * (an article published before times were kept counts from its last change); undefined while it
 * is published nowhere.
 */
export function publishedAtOf(a: PublicationState): string | undefined {
  const times = publicationsOf(a).map((p) => p.at ?? a.updatedAt);
  return times.length ? times.reduce((latest, t) => (t > latest ? t : latest)) : undefined;
}

/** A page of a list as the API answers it: `nextCursor` is null on the last page. */
export interface ArticleListPage {
  articles: ArticleRecord[];
  nextCursor: string | null;
}

const CURSOR_ID = /^[A-Za-z0-9_-]{1,64}$/;
const CURSOR_TIME = /^[0-9A-Za-z:.+-]{1,40}$/;

/**
 * The opaque cursor of a page's end: base64url of the position (never a table key: the server
 * builds the key itself from the session's user, so a cursor cannot reach another partition).
 */
export const encodeCursor = (position: ArticlePosition): string =>
  Buffer.from(
    JSON.stringify(position.publishedAt === undefined ? [position.id] : [position.id, position.publishedAt]),
    'utf8',
  ).toString('base64url');

/** The position a cursor of list `which` names; anything else (tampered, another list's) answers 400. */
export function decodeCursor(cursor: string, which: 'all' | 'published'): ArticlePosition {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    value = undefined;
  }
  const parts = Array.isArray(value) && value.every((v) => typeof v === 'string') ? (value as string[]) : [];
  const [id, publishedAt] = parts;
  const valid =
    parts.length === (which === 'published' ? 2 : 1) &&
    CURSOR_ID.test(id ?? '') &&
    (publishedAt === undefined || CURSOR_TIME.test(publishedAt));
  if (!valid) throw badRequest(ArticleMessages.invalidCursor, 'invalid_cursor');
  return publishedAt === undefined ? { id: id! } : { id: id!, publishedAt };
}

function aiErrorToApi(err: unknown): QuotaExceededError | ConflictError | UpstreamError {
  if (err instanceof AiQuotaError) return new QuotaExceededError(err.message, 'insufficient_quota');
  // Refused before any service was asked (offline, the text as it is): a 4xx the person acts on, not a 502.
  if (err instanceof AiEditNotApplied) return new ConflictError(err.message, err.code);
  if (err instanceof AiError) return new UpstreamError(err.message, err.code);
  return new UpstreamError('The AI service failed. Please try again, or edit by hand.', 'ai_error');
}

const errorOf = (err: unknown) =>
  err instanceof AiQuotaError || err instanceof AiError
    ? { code: err.code, message: err.message }
    : { code: 'ai_error', message: 'The AI service failed. Please try again, or edit by hand.' };

/**
 * generateContent({ throwIfTransient: true }) recorded a transient AI failure (rate limit, server
 * error, connection, time-out) as the article's lastError and throws this, so that a caller with
 * its own redelivery (the bulk queue) tries the job again later.
 */
export class TransientDraftingError extends Error {
  constructor(
    readonly articleId: string,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'TransientDraftingError';
  }
}

export interface ArticleServiceDeps {
  articles: ArticleStore;
  objects: ObjectStore;
  jobs: JobQueue;
  ai: (userId: string) => Promise<AiTools>;
  /**
   * The channels' own versions that drafting writes for this owner: those of the channels connected now (absent:
   * none). Each is drafted by its own rules (domain/ai.ts, VersionDrafting).
   */
  ownVersions?: (ownerId: string) => Promise<{ id: string; drafting: VersionDrafting }[]>;
  /** How a channel's own version is drafted and edited (its GPT edit), connected or not (absent: not edited). */
  versionDrafting?: (version: string) => Promise<VersionDrafting>;
  /** Reports failed drafting (metrics in AWS). */
  events?: Pick<BusinessEvents, 'draftFailed'>;
  /**
   * A job that could not be handed to the worker (logged by the wiring): the article is marked failed, so
   * its owner sees it and can retry, instead of waiting for a draft or image that never comes.
   */
  onJobNotQueued?: (job: Job, error: unknown) => void;
  /** Per-user limits on drafting and image jobs (absent: none, e.g. a spreadsheet import's own service). */
  limits?: Pick<JobLimits, 'start'>;
  now?: () => Date;
}

/** The job's mark when it holds a place in flight, for the worker to give back (domain/job-limits.ts). */
const inFlightMark = (started: StartedCall | undefined) => (started?.inFlight ? { inFlight: true as const } : {});

export class ArticleService {
  private readonly now: () => Date;
  constructor(private readonly deps: ArticleServiceDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  /**
   * Counts a call against the user's limits (TooManyJobsError when over), runs `work`, and gives the
   * places back when `work` fails: nothing was started.
   */
  private async limited<T>(
    userId: string,
    call: 'draft' | 'image',
    work: (started: StartedCall | undefined) => Promise<T>,
  ): Promise<T> {
    const started = await this.deps.limits?.start(userId, call, this.now().getTime());
    try {
      return await work(started);
    } catch (err) {
      await started?.cancel().catch(() => undefined);
      throw err;
    }
  }

  /**
   * Saves first, then drafts in the background: a slow or failing AI never loses the article. `actorId`: the
   * member who creates it (its activity's first entry names nobody without one: a spreadsheet import's job);
   * `createdBy`: kept on a team workspace's article, the first author of its versions' reviews.
   */
  async create(
    userId: string,
    input: Required<CreateArticleInput>,
    tags: string[] = [],
    options: { actorId?: string; createdBy?: string; channels?: string[] } = {},
  ): Promise<ArticleRecord> {
    return this.limited(userId, 'draft', (started) => this.save(userId, input, tags, started, options));
  }

  private async save(
    userId: string,
    input: Required<CreateArticleInput>,
    tags: string[],
    started: StartedCall | undefined,
    { actorId, createdBy, channels }: { actorId?: string; createdBy?: string; channels?: string[] },
  ): Promise<ArticleRecord> {
    const now = this.now();
    const at = now.toISOString();
    const article: ArticleRecord = {
      id: newArticleId(now.getTime()),
      userId,
      title: input.title,
      topic: input.topic,
      keyword: input.keyword,
      details: input.details,
      imageDescription: input.imageDescription,
      tags,
      createdAt: at,
      updatedAt: at,
      blog: { content: '', publishedToWordPress: false, lastPublished: null, wordpressPostUrl: null },
      linkedin: { content: '', publishedToLinkedIn: false, lastPublished: null, linkedinPostUrl: null },
      scheduled: { blog: null, linkedin: null },
      lastError: null,
      linkedInMode: 'personal',
      generation: { status: 'pending', updatedAt: at },
      image: null,
      imageJob: null,
      ...(createdBy ? { createdBy } : {}),
      // The only channels it goes to (a Sheets import's Channels column; Article.channels).
      ...(channels?.length ? { channels } : {}),
      publishClaims: {},
    };
    await this.deps.articles.put(article, { activity: [creationActivity(article, actorId)] });
    // Its drafting names the member (ArticleDrafted's actorId), as its first activity entry does.
    const job: Job = {
      type: 'generate-content',
      userId,
      articleId: article.id,
      ...(actorId ? { actorId } : {}),
      ...inFlightMark(started),
    };
    // The article is saved either way: a failed hand-over leaves it failed (with Retry), never pending.
    return (await this.enqueueOrRecord(job, started, () => this.draftNotStarted(userId, article.id))) ?? article;
  }

  /**
   * Hands `job` to the worker. When that fails, `record` marks the article failed and the job's place is given
   * back (nothing runs); answers what `record` wrote, or undefined when the job was queued.
   */
  private async enqueueOrRecord<T>(
    job: Job,
    started: StartedCall | undefined,
    record: () => Promise<T>,
  ): Promise<T | undefined> {
    try {
      await this.deps.jobs.enqueue(job);
      return undefined;
    } catch (err) {
      this.deps.onJobNotQueued?.(job, err);
      const recorded = await record();
      await started?.cancel().catch(() => undefined);
      return recorded;
    }
  }

  private async draftNotStarted(userId: string, id: string): Promise<ArticleRecord | undefined> {
    const at = this.now().toISOString();
    return this.deps.articles.update(userId, id, {
      generation: { status: 'failed', updatedAt: at },
      lastError: { code: 'draft_not_started', message: ArticleMessages.draftNotStarted },
      updatedAt: at,
    });
  }

  async get(userId: string, id: string): Promise<ArticleRecord> {
    const article = await this.deps.articles.get(userId, id);
    if (!article) throw notFound(ArticleMessages.articleNotFound, 'article_not_found');
    return article;
  }

  /** Articles not yet published on both platforms, newest first (Schedule): read through their index only. */
  async unpublished(userId: string): Promise<ArticleRecord[]> {
    return (await this.deps.articles.listOpen(userId)).filter((a) => !isFullyPublished(a));
  }

  /**
   * One page of list `which`: 'all' newest created first, 'published' latest publication first.
   * `cursor` is a page's nextCursor (decodeCursor).
   */
  async page(
    userId: string,
    which: 'all' | 'published',
    { limit, cursor }: { limit: number; cursor?: string },
  ): Promise<ArticleListPage> {
    const after = cursor === undefined ? undefined : decodeCursor(cursor, which);
    const page =
      which === 'all'
        ? await this.deps.articles.page(userId, limit, after)
        : await this.deps.articles.publishedPage(userId, limit, after);
    return {
      articles: which === 'all' ? page.articles : page.articles.filter(isPublished),
      nextCursor: page.next ? encodeCursor(page.next) : null,
    };
  }

  /**
   * An edit of one version by member `actorId`, kept in the article's activity. Where the workspace requires
   * `review`, a version approved or sent back returns to review in the same write (domain/review-edit.ts), and its
   * reviewers' e-mails are the worker's job (this function sends no mail).
   */
  async updateContent(
    userId: string,
    id: string,
    platform: VersionId,
    content: string,
    actorId: string,
    review?: RequiredReview,
  ): Promise<ArticleRecord> {
    if (platform === 'linkedin' && content.length > LINKEDIN_MAX_CHARS)
      throw badRequest(ArticleMessages.linkedinTooLong);
    const at = this.now().toISOString();
    const updated = await this.deps.articles.update(
      userId,
      id,
      { ...versionTextChange(platform, content), updatedAt: at },
      { edit: { actorId, platform, ...(review ? { review } : {}) } },
    );
    if (!updated) throw notFound(ArticleMessages.articleNotFound, 'article_not_found');
    const asked = review && returnedToReview(updated, platform, at);
    if (asked) await this.deps.jobs.enqueue({ type: 'review-mail', userId, articleId: id, platform, rev: asked.rev });
    return updated;
  }

  /**
   * Background job: drafts every version that is still empty, both in parallel. A failure is recorded
   * as the article's lastError; with `throwIfTransient`, a transient one (TRANSIENT_AI_ERROR_CODES)
   * then throws TransientDraftingError so the caller can try again later. `actorId`: ArticleDrafted's, as the
   * other events of a member's action carry it: the member who asked (creating the article, Retry), null for a
   * scheduled run's drafting, absent for nobody in particular (a spreadsheet import's row).
   */
  async generateContent(
    userId: string,
    id: string,
    options: { throwIfTransient?: boolean; actorId?: string | null } = {},
  ): Promise<ArticleRecord | undefined> {
    const article = await this.deps.articles.get(userId, id);
    if (!article) return undefined;
    const own = ((await this.deps.ownVersions?.(userId)) ?? []).filter((v) => !versionText(article, v.id).trim());
    const missing: VersionId[] = [...PLATFORMS.filter((p) => !article[p].content.trim()), ...own.map((v) => v.id)];
    const changes: Record<string, unknown> = {};
    let failure: { code: string; message: string } | null = null;
    if (missing.length) {
      const { content } = await this.deps.ai(userId);
      const brief = briefOf(article);
      const draftOf = (version: VersionId) => {
        if (isPlatform(version)) return content.draft(brief, version);
        const drafting = own.find((v) => v.id === version)!.drafting;
        // (A generator without it drafts no channel's version.)
        return content.draftVersion?.(brief, drafting) ?? Promise.resolve(undefined);
      };
      const results = await Promise.allSettled(missing.map(draftOf));
      results.forEach((result, i) => {
        if (result.status === 'rejected') failure ??= errorOf(result.reason);
        else if (result.value !== undefined) Object.assign(changes, versionTextChange(missing[i]!, result.value));
      });
    }
    const at = this.now().toISOString();
    changes.generation = { status: failure ? 'failed' : 'done', updatedAt: at };
    changes.lastError = failure ?? (article.lastError?.code === 'insufficient_quota' ? null : article.lastError);
    changes.updatedAt = at;
    // Only fill versions that are still empty: a manual edit made meanwhile wins. ArticleDrafted names the
    // versions this write fills and is written with it: a write that does not happen writes no event.
    const drafted = missing.filter((p) => Object.keys(versionTextChange(p, '')).every((path) => path in changes));
    const events = drafted.length
      ? [
          outboxEntry(
            makeEvent(
              'ArticleDrafted',
              {
                userId,
                articleId: id,
                title: article.title,
                platforms: drafted.map(eventPlatform),
                ...(options.actorId !== undefined ? { actorId: options.actorId } : {}),
              },
              this.now(),
            ),
          ),
        ]
      : undefined;
    const updated = await this.deps.articles.update(userId, id, changes, { onlyIfEmpty: drafted, events });
    const failed = failure as { code: string; message: string } | null;
    if (failed) this.deps.events?.draftFailed(failed.code);
    if (options.throwIfTransient && failed && TRANSIENT_AI_ERROR_CODES.has(failed.code)) {
      throw new TransientDraftingError(id, failed.code, failed.message);
    }
    return updated;
  }

  /** Retries drafting for the versions that are still empty; `actorId`: the member who asked. */
  async retryGeneration(userId: string, id: string, actorId?: string): Promise<ArticleRecord> {
    const article = await this.get(userId, id);
    return this.limited(userId, 'draft', async (started) => {
      const at = this.now().toISOString();
      const updated = await this.deps.articles.update(userId, id, {
        generation: { status: 'pending', updatedAt: at },
        updatedAt: at,
      });
      const job: Job = {
        type: 'generate-content',
        userId,
        articleId: article.id,
        ...(actorId ? { actorId } : {}),
        ...inFlightMark(started),
      };
      return (await this.enqueueOrRecord(job, started, () => this.draftNotStarted(userId, id))) ?? updated ?? article;
    });
  }

  /** `actorId`: the member who asked (the edit's activity entry names them); `review`: as for updateContent. */
  async gptEdit(
    userId: string,
    input: GptEditInput,
    actorId: string,
    review?: RequiredReview,
  ): Promise<{ editedContent: string; article: ArticleRecord }> {
    const article = await this.get(userId, input.articleId);
    const { content } = await this.deps.ai(userId);
    const version: VersionId = input.contentType;
    const drafting = isPlatform(version) ? undefined : await this.deps.versionDrafting?.(version);
    let edited: string;
    try {
      const request = { brief: briefOf(article), content: versionText(article, version), request: input.editRequest };
      if (isPlatform(version)) edited = await content.edit({ ...request, platform: version });
      else if (drafting && content.editVersion) edited = await content.editVersion({ ...request, drafting });
      else throw new AiEditNotApplied('This version cannot be edited by AI. Edit it by hand.', 'edit_not_applicable');
    } catch (err) {
      if (err instanceof AiQuotaError) {
        await this.deps.articles.update(userId, article.id, { lastError: errorOf(err) });
      }
      throw aiErrorToApi(err);
    }
    const updated = await this.updateContent(userId, article.id, version, edited, actorId, review);
    return { editedContent: edited, article: updated };
  }

  async requestImage(userId: string, id: string, description: string): Promise<ImageState> {
    const article = await this.get(userId, id);
    return this.limited(userId, 'image', async (started) => {
      const requestedAt = this.now().toISOString();
      const updated = await this.deps.articles.update(userId, article.id, {
        imageDescription: description,
        imageJob: { status: 'pending', requestedAt, error: null },
        updatedAt: requestedAt,
      });
      const job: Job = {
        type: 'generate-image',
        userId,
        articleId: article.id,
        description,
        requestedAt,
        ...inFlightMark(started),
      };
      const notStarted = await this.enqueueOrRecord(job, started, () =>
        this.deps.articles.update(
          userId,
          article.id,
          {
            imageJob: {
              status: 'failed',
              requestedAt,
              error: { code: 'image_not_started', message: ArticleMessages.imageNotStarted },
            },
          },
          { onlyIfImageJob: requestedAt },
        ),
      );
      return this.imageStateOf(notStarted ?? updated ?? article);
    });
  }

  /** Background job: renders both sizes, stores them under the owner's prefix. Stale requests do nothing. */
  async generateImage(userId: string, id: string, description: string, requestedAt: string): Promise<void> {
    const article = await this.deps.articles.get(userId, id);
    if (!article || article.imageJob?.requestedAt !== requestedAt) return;
    try {
      const { image } = await this.deps.ai(userId);
      const images = await image.generate({ brief: briefOf(article), description });
      const ext = images.contentType === 'image/png' ? 'png' : 'jpg';
      const base = `users/${userId}/articles/${id}/${Date.parse(requestedAt)}`;
      const stored: StoredImage = {
        blogKey: `${base}-blog.${ext}`,
        linkedinKey: `${base}-linkedin.${ext}`,
        contentType: images.contentType,
        description,
        generatedAt: this.now().toISOString(),
        source: 'generated',
        ...(images.original
          ? {
              original: {
                key: `${base}-original.${ext}`,
                contentType: images.original.contentType,
                width: images.original.width,
                height: images.original.height,
              },
            }
          : {}),
      };
      await Promise.all([
        this.deps.objects.put(stored.blogKey, images.blog, images.contentType),
        this.deps.objects.put(stored.linkedinKey, images.linkedin, images.contentType),
        ...(images.original && stored.original
          ? [this.deps.objects.put(stored.original.key, images.original.body, images.original.contentType)]
          : []),
      ]);
      // Only while this is still the latest request: a newer one (Regenerate, or an upload, while this
      // ran) wins, whichever finishes last, and this job's files are deleted. Else the image it
      // replaces is deleted once the article points at this one (domain/images.ts replaceImage).
      await replaceImage(this.deps, {
        userId,
        articleId: id,
        next: stored,
        changes: {
          imageJob: { status: 'done', requestedAt, error: null },
          ...(article.lastError?.code === 'insufficient_quota' ? { lastError: null } : {}),
        },
        stillApplies: (current) => current.imageJob?.requestedAt === requestedAt,
        onlyIfImageJob: requestedAt,
      });
    } catch (err) {
      const error = errorOf(err);
      await this.deps.articles.update(
        userId,
        id,
        {
          imageJob: { status: 'failed', requestedAt, error },
          ...(err instanceof AiQuotaError ? { lastError: error } : {}),
        },
        { onlyIfImageJob: requestedAt },
      );
    }
  }

  /** A background run's failure, kept as the article's lastError (no article: nothing to record). */
  async recordFailure(userId: string, id: string, error: { code: string; message: string }): Promise<void> {
    await this.deps.articles.update(userId, id, { lastError: error, updatedAt: this.now().toISOString() });
  }

  async imageStatus(userId: string, id: string): Promise<ImageState> {
    return this.imageStateOf(await this.get(userId, id));
  }

  private imageStateOf(article: ArticleRecord): ImageState {
    return {
      articleId: article.id,
      image: article.image,
      pending: article.imageJob?.status === 'pending',
      error: article.imageJob?.status === 'failed' ? article.imageJob.error : null,
    };
  }

  async imageBytes(userId: string, id: string, platform: Platform) {
    const article = await this.get(userId, id);
    if (!article.image) throw notFound('This article has no image yet', 'image_not_found');
    const object = await this.deps.objects.get(
      platform === 'linkedin' ? article.image.linkedinKey : article.image.blogKey,
    );
    if (!object) throw notFound('The image file is missing; generate it again', 'image_not_found');
    return { ...object, generatedAt: article.image.generatedAt };
  }
}
