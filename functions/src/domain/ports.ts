/** Small storage and infrastructure ports; AWS and local adapters implement them. */
import type { ArticleRecord, HealthDue, VersionId } from './articles.js';
import type { ActivityRecord } from './activity.js';
import type { OutboxEntry } from './automation-events.js';
import type { VersionEdit } from './review-edit.js';

/** put and update move the owner's UserRecord.articlesVersion once the article is written. */
export interface ArticleStore {
  /** `activity`: the new article's creation entry, written in the same transaction (domain/activity.ts). */
  put(article: ArticleRecord, options?: { activity?: readonly ActivityRecord[] }): Promise<void>;
  get(userId: string, id: string): Promise<ArticleRecord | undefined>;
  /** One page of the owner's articles, newest created first. */
  page(userId: string, limit: number, after?: ArticlePosition): Promise<ArticlePage>;
  /**
   * One page of the articles published on at least one platform, latest publication first
   * (publishedAtOf): read through an index of those articles only, so its cost does not grow with
   * the number of articles. Each article is as it is now; one published in the last moments may be
   * missing (the index is eventually consistent).
   */
  publishedPage(userId: string, limit: number, after?: ArticlePosition): Promise<ArticlePage>;
  /**
   * Every article that may not be published on both platforms, newest first, each as it is now
   * (the caller applies isFullyPublished): read through an index of those articles only, so its
   * cost does not grow with the number of published articles; an article just created is in it.
   */
  listOpen(userId: string): Promise<ArticleRecord[]>;
  /**
   * The owner's articles with a calendar entry (domain/calendar.ts calendarSlotsOf) in [from, to), ISO
   * instants: a range read of the entries, then those articles, strongly consistent.
   */
  calendarRange(userId: string, from: string, to: string): Promise<ArticleRecord[]>;
  /**
   * Sets `changes` when the article exists. Keys are attribute paths ('title', 'blog.content');
   * values replace whole. With `onlyIfEmpty`, those platforms' content must still be empty; with
   * `onlyIfImageJob`, the image job must still be the one requested at that time; with `onlyIfImage`, the
   * image must still be the one of that blog key (null: no image). `events` are the domain events the
   * change causes: written in the same transaction (the outbox), so there is no change without its events
   * and no event without its change; their activity entries are written with them, and with `edit` the edit's
   * entry (a burst of one person's edits is one entry: domain/activity.ts editActivity) and, where the edit
   * carries its workspace's review setting, what the edit does to the version's review with its event
   * (domain/review-edit.ts reviewAfterEdit), computed from the article as the write finds it.
   * @returns the updated article, or undefined when there is none (or the condition failed).
   */
  update(
    userId: string,
    id: string,
    changes: Record<string, unknown>,
    options?: {
      onlyIfEmpty?: VersionId[];
      onlyIfImageJob?: string;
      onlyIfImage?: string | null;
      /** The platform's review must still be at this rev (0: none yet): review changes do not overwrite each other. */
      onlyIfReviewRev?: { platform: VersionId; rev: number };
      /**
       * The check before a slot claims its (slot, window): the version's health note must not have the window noted for
       * the slot yet (domain/connection-health.ts), so two sweeps at once tell it once.
       */
      onlyIfHealthDue?: HealthDue;
      events?: readonly OutboxEntry[];
      edit?: VersionEdit;
    },
  ): Promise<ArticleRecord | undefined>;
  /**
   * Claims the right to publish one platform (a conditional write): the article as it is once
   * claimed, or undefined while another claim newer than `staleBefore` holds it. Makes concurrent
   * publish calls produce one post.
   */
  claimPublish(
    userId: string,
    id: string,
    claim: PublishClaimKey,
    claimId: string,
    now: string,
    staleBefore: string,
  ): Promise<ArticleRecord | undefined>;
  releasePublish(userId: string, id: string, claim: PublishClaimKey, claimId: string): Promise<void>;
  /**
   * Records what a publish is about to create on the platform (before sending it), while
   * `claimId` still holds the platform's claim: false when the claim was taken over (then the
   * publish must not send). It stays until the post is recorded or the platform refused it, so an
   * attempt cut off or left without an answer is followed by one that finds that post.
   */
  notePublishAttempt(
    userId: string,
    id: string,
    claim: PublishClaimKey,
    claimId: string,
    attempt: PublishAttempt,
  ): Promise<boolean>;
  /** Forgets the platform's attempt (the platform refused it: it made no post). */
  forgetPublishAttempt(userId: string, id: string, claim: PublishClaimKey): Promise<void>;
  /**
   * Records `value` under `field.platform` unless it is already there (a conditional write):
   * true the first time, false for a repeat. Makes repeated deliveries act once. `events` are written
   * with the mark, in one transaction (only the first time).
   */
  markOnce(
    userId: string,
    id: string,
    field: 'approved',
    platform: VersionId,
    value: string,
    events?: readonly OutboxEntry[],
  ): Promise<boolean>;
  unmark(userId: string, id: string, field: 'approved', platform: VersionId): Promise<void>;
  /**
   * Claims the sending of a run's approval e-mail with a lease (a conditional write): 'claimed', or
   * 'done' when that run's e-mail went out already, or 'held' while another delivery's unexpired
   * lease holds it. A run cut off before sending leaves only a lease, which expires: the retry sends.
   */
  claimNotify(
    userId: string,
    id: string,
    platform: VersionId,
    scheduledFor: string,
    now: string,
    leaseUntil: string,
  ): Promise<NotifyClaim>;
  /** Records that the run's e-mail was sent (after sending), ending the lease; with `events`, in one transaction. */
  finishNotify(
    userId: string,
    id: string,
    platform: VersionId,
    scheduledFor: string,
    events?: readonly OutboxEntry[],
  ): Promise<void>;
  /** Writes domain events whose cause changed nothing in the table (a scheduled run that could not ask for approval). */
  recordEvents(events: readonly OutboxEntry[]): Promise<void>;
  /** Gives up the run's lease (the send failed): a retry may claim it at once. */
  releaseNotify(userId: string, id: string, platform: VersionId, scheduledFor: string): Promise<void>;
}

export type NotifyClaim = 'claimed' | 'done' | 'held';

/** Where a page ended: the last article given, and for the published list its publication time. */
export interface ArticlePosition {
  id: string;
  publishedAt?: string;
}

export interface ArticlePage {
  articles: ArticleRecord[];
  /** Where the next page starts; undefined on the last page. */
  next?: ArticlePosition;
}

/** A post a publish was about to create, as a later attempt finds it again (ArticleStore.notePublishAttempt). */
/**
 * The key of a channel's publish claim and attempt note on an article: the version's for WordPress and LinkedIn
 * (`blog`, `linkedin`, as before there were channels), the channel's id for the others (channels/channel.ts).
 */
export type PublishClaimKey = string;

export interface PublishAttempt {
  at: string;
  /** WordPress and the other blog channels: the new post's slug, unique to the article. */
  slug?: string;
  /** LinkedIn: the post as it was sent, to be sent again unchanged (LinkedIn refuses a duplicate). */
  post?: {
    author: string;
    commentary: string;
    imageUrn?: string;
    /** A bundle's article share (integrations.ts LinkedInArticleShare). */
    article?: { source: string; title: string; description?: string };
  };
  /** A channel that names its posts itself: the new post's key (the same on a retry, so it finds the post). */
  recordKey?: string;
}

export interface SettingRecord {
  key: string;
  description: string;
  hasValue: boolean;
  createdAt: string;
  updatedAt: string;
  /**
   * Where the value is: 'table' (in `value`, for the keys that are not secret: PUBLIC_SETTING_KEYS
   * in domain/settings.ts) or 'secret' (the owner's one secret, SecretStore). Absent on a record
   * written before one secret per user: its value is still in its own secret of that time, until
   * SettingService moves it.
   */
  storedIn?: 'table' | 'secret';
  /** The value itself, when storedIn is 'table'. */
  value?: string;
}

export interface SettingStore {
  list(userId: string): Promise<SettingRecord[]>;
  get(userId: string, key: string): Promise<SettingRecord | undefined>;
  put(userId: string, record: SettingRecord): Promise<void>;
  /** @returns false when there was nothing to delete. */
  delete(userId: string, key: string): Promise<boolean>;
  /**
   * Sets `changes` on a record whose `storedIn` is still `from` (absent: the old layout) and that still
   * has `updatedAt` (a conditional write): false when it is gone or was written since. A record moved
   * to the secret loses any value it kept in the table.
   */
  migrate(
    userId: string,
    key: string,
    updatedAt: string,
    changes: Pick<SettingRecord, 'storedIn' | 'value'>,
    from?: SettingRecord['storedIn'],
  ): Promise<boolean>;
}

/** All of a user's secret values, read together, and the version they were read at. */
export interface SecretValues {
  values: Readonly<Record<string, string>>;
  /** Opaque; undefined while the user has no secret yet. */
  version: string | undefined;
}

/**
 * Secret values, one secret per owner holding all of their values (Secrets Manager in AWS,
 * encrypted at rest locally). Writes are compare-and-set on the version, so that two saves at the
 * same moment cannot lose one another's key (SettingService reads, merges and retries).
 */
export interface SecretStore {
  read(userId: string): Promise<SecretValues>;
  /**
   * Replaces the owner's values if they are still at `version` (as read): the new version, or
   * undefined when another write came first (nothing was written).
   */
  write(
    userId: string,
    values: Readonly<Record<string, string>>,
    version: string | undefined,
  ): Promise<string | undefined>;
  /** A value in the layout of before (one secret per owner and key), while it is still there. */
  readLegacy(userId: string, key: string): Promise<string | undefined>;
  /** Removes that old value (Secrets Manager: scheduled for deletion); nothing when it is gone. */
  deleteLegacy(userId: string, key: string): Promise<void>;
}

export interface StoredObject {
  body: Buffer;
  contentType: string;
}

export interface ObjectStore {
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  get(key: string): Promise<StoredObject | undefined>;
  /** Removes the object; nothing when it is gone already. */
  delete(key: string): Promise<void>;
}

/** A browser's upload straight to the store (S3's presigned POST): the form's address and fields. */
export interface UploadForm {
  url: string;
  fields: Record<string, string>;
}

/**
 * Signs a one-off upload of one object: only this key, exactly this content type, at most `maxBytes`,
 * within `expiresInSeconds`. (The local store does not enforce these: the server checks the object again.)
 * And signs reads: the browser fetches an image from the store itself, since a Lambda answer is at most
 * 6 MB (a base64 body of a large original would be over it).
 */
export interface UploadSigner {
  /** A URL that reads this object for `expiresInSeconds` from `signingDate`, answered with `cacheControl`. */
  signDownload(
    key: string,
    options: { expiresInSeconds: number; cacheControl: string; signingDate: Date },
  ): Promise<string>;
  signUpload(input: {
    key: string;
    contentType: string;
    maxBytes: number;
    expiresInSeconds: number;
  }): Promise<UploadForm>;
}

/** A picture as the image processor read it: its format by content and its size once turned upright. */
export interface ImageInfo {
  format: 'jpeg' | 'png' | 'webp';
  width: number;
  height: number;
  /** A progressive JPEG or an interlaced PNG: its decoder holds the whole picture at once (absent: false). */
  progressive?: boolean;
}

/** The image library (sharp) behind the upload checks and the crops. */
export interface ImageProcessor {
  /**
   * The picture's format and upright size from its header, without decoding a pixel; undefined when the
   * header is not one of the three.
   */
  inspect(bytes: Buffer): Promise<ImageInfo | undefined>;
  /**
   * Upright (EXIF orientation applied), metadata stripped, at most `maxSide` pixels a side: the kept
   * original. Throws when the picture cannot be decoded, or has more than `maxPixels` pixels.
   */
  normalise(
    bytes: Buffer,
    maxSide: number,
    maxPixels?: number,
  ): Promise<{ body: Buffer; contentType: string; width: number; height: number }>;
  /** Cuts `rect` out of `source` and scales it to `size`, metadata stripped. */
  crop(
    source: Buffer,
    rect: { left: number; top: number; width: number; height: number },
    size: { width: number; height: number },
  ): Promise<{ body: Buffer; contentType: string }>;
}

/**
 * `inFlight`: the job holds one of its owner's places in flight (domain/job-limits.ts), which the worker
 * gives back when it ends. Jobs of a spreadsheet import and scheduled runs hold none.
 */
export type Job =
  /** `actorId`: the member who asked for the drafting (absent: a spreadsheet import's row). */
  | { type: 'generate-content'; userId: string; articleId: string; actorId?: string; inFlight?: true }
  | {
      type: 'generate-image';
      userId: string;
      articleId: string;
      description: string;
      requestedAt: string;
      inFlight?: true;
    }
  /** `attempt`: which attempt of the run this is (absent: the first; later ones are its retries, domain/run-retries.ts). */
  | ({ type: 'generate-and-notify'; attempt?: number } & ScheduledRun)
  /** A version's review restarted where its reviewers could not be e-mailed at once (domain/review.ts). */
  | { type: 'review-mail'; userId: string; articleId: string; platform: VersionId; rev: number };

/** Work longer than a request may take: async Lambda invoke in AWS, in-process locally. */
export interface JobQueue {
  enqueue(job: Job): Promise<void>;
}

/**
 * Bulk jobs running at once. A spreadsheet import hands over hundreds of drafting jobs; run all at
 * once they hit OpenAI's rate limits (requests and tokens per minute of the user's key) and most
 * end without drafts. Five in parallel (each drafts two versions at once) keeps well within the
 * limits of a normal OpenAI tier while 500 rows still finish in about an hour.
 */
export const BULK_JOB_CONCURRENCY = 5;

/**
 * Many jobs handed over at once (a spreadsheet import): in AWS an SQS queue the worker drains,
 * locally an in-process queue; both run BULK_JOB_CONCURRENCY at a time. Rejects with
 * JobsNotQueuedError when some jobs could not be handed over (the others were).
 */
export interface BulkJobQueue {
  enqueueAll(jobs: readonly Job[]): Promise<void>;
}

/** Some jobs of a bulk hand-over were not queued: `jobs` are those, `cause` the first reason. */
export class JobsNotQueuedError extends Error {
  constructor(
    readonly jobs: readonly Job[],
    readonly total: number,
    options?: { cause?: unknown },
  ) {
    super(`${jobs.length} of ${total} jobs could not be queued`, options);
    this.name = 'JobsNotQueuedError';
  }
}

export interface ScheduledRun {
  userId: string;
  articleId: string;
  platform: VersionId;
  /** ISO instant the run is for; a run whose article no longer says this time does nothing. */
  scheduledFor: string;
}

/** One-off schedules per article and platform: EventBridge Scheduler in AWS, timers locally. */
export interface Scheduler {
  /** Creates the platform's schedule, or moves it when it exists. */
  schedule(run: ScheduledRun): Promise<void>;
  cancel(userId: string, articleId: string, platform: VersionId): Promise<void>;
}

/**
 * Later attempts of scheduled runs that failed (domain/run-retries.ts): a one-off schedule of their own, so the
 * run's schedule (which the owner may move meanwhile: the retry then finds a stale run and does nothing) stays
 * as it is. Making the same attempt of the same run twice makes one.
 */
export interface RunRetryScheduler {
  retry(run: ScheduledRun, attempt: number, at: Date): Promise<void>;
}
