import type { ArticleHealth } from './connection-health.js';
import * as z from 'zod/mini';
import { lazySchema } from './lazy-schema.js';
import { LINKEDIN_MAX_CHARS } from './limits.js';
import type { FocalPoint } from './images.js';
import { safeCharacters } from './text.js';
import type { ArticleReview } from './review.js';

export const PLATFORMS = ['blog', 'linkedin'] as const;
export type Platform = (typeof PLATFORMS)[number];
/**
 * An article's version: the blog one, the LinkedIn one, or a channel's own, named by the channel's id (its text at
 * `versions.<id>.content`, Article.versions; functions/src/channels/registry.ts says which channels have one).
 */
export type VersionId = Platform | (string & {});
/** How a request names a version (the server answers 400 for a name that is no version: functions/src/http/versions.ts). */
export const VERSION_ID = /^[a-z][a-z0-9-]{0,39}$/;
/** A request's version: `message` for anything not shaped like one (the server then checks it is one). */
export const versionIdSchema = (message: string) =>
  z.string({ error: message }).check(z.maxLength(40, message), z.regex(VERSION_ID, message));
/** The blog or the LinkedIn version (their fields and routes are their own). */
export const isPlatform = (version: string): version is Platform => (PLATFORMS as readonly string[]).includes(version);

export const ArticleMessages = {
  linkedinTooLong: `LinkedIn posts must be under ${LINKEDIN_MAX_CHARS} characters. Please shorten your text.`,
  editRequestBlank: 'Please describe the change you want.',
  articleIdMissing: 'Article ID is missing. Cannot process GPT edit.',
  imageDescriptionRequired: 'Please enter a description for the image.',
  articleNotFound: 'Article not found',
  titleRequired: 'Title is required',
  topicRequired: 'Topic is required',
  invalidCursor: 'Invalid cursor',
  /** The drafting job could not be handed to the worker (the article's lastError; the editor shows Retry). */
  draftNotStarted: 'Drafting could not be started. Select Retry to start it again.',
  /** The image job could not be handed to the worker (the image's error). */
  imageNotStarted: 'The image could not be started. Generate it again.',
} as const;

export const TITLE_MAX = 200;
export const TOPIC_MAX = 500;
export const KEYWORD_MAX = 100;
export const DETAILS_MAX = 5000;
export const IMAGE_DESCRIPTION_MAX = 1000;
export const BLOG_CONTENT_MAX = 100_000;
export const EDIT_REQUEST_MAX = 2000;

/** A trimmed text field; `required` is the message when it is blank (checked after the others, as it always was). */
const text = (label: string, max: number, required?: string) =>
  z
    .string({ error: `${label} must be text` })
    .check(
      z.trim(),
      z.maxLength(max, `${label} must be at most ${max} characters`),
      safeCharacters(label),
      ...(required ? [z.minLength(1, required)] : []),
    );
const optionalText = (label: string, max: number) => z._default(z.optional(text(label, max)), '');

export const CreateArticleSchema = lazySchema(() =>
  z.strictObject({
    title: text('Title', TITLE_MAX, ArticleMessages.titleRequired),
    topic: text('Topic', TOPIC_MAX, ArticleMessages.topicRequired),
    keyword: optionalText('Keyword', KEYWORD_MAX),
    details: optionalText('Details', DETAILS_MAX),
    imageDescription: optionalText('Image description', IMAGE_DESCRIPTION_MAX),
  }),
);
export type CreateArticleInput = z.input<ReturnType<typeof CreateArticleSchema>>;

export const BlogContentSchema = lazySchema(() =>
  z.strictObject({
    content: z
      .string({ error: 'content must be text' })
      .check(
        z.maxLength(BLOG_CONTENT_MAX, `Blog content must be at most ${BLOG_CONTENT_MAX} characters`),
        safeCharacters('Blog content'),
      ),
  }),
);
export const LinkedInContentSchema = lazySchema(() =>
  z.strictObject({
    content: z
      .string({ error: 'content must be text' })
      .check(z.maxLength(LINKEDIN_MAX_CHARS, ArticleMessages.linkedinTooLong), safeCharacters('LinkedIn content')),
  }),
);

/** The most a channel's own version may hold before its channel's own rule is asked (a social post is far shorter). */
export const VERSION_CONTENT_MAX = 10_000;

/** PUT /api/articles/{id}/versions/{channel}: a channel's own version; the channel's rule follows on the server. */
export const VersionContentSchema = lazySchema(() =>
  z.strictObject({
    content: z
      .string({ error: 'content must be text' })
      .check(
        z.maxLength(VERSION_CONTENT_MAX, `The text must be at most ${VERSION_CONTENT_MAX} characters`),
        safeCharacters('The text'),
      ),
  }),
);

export const ArticleIdSchema = lazySchema(() =>
  z
    .string({ error: ArticleMessages.articleIdMissing })
    .check(
      z.minLength(1, ArticleMessages.articleIdMissing),
      z.maxLength(64, 'Article ID is not valid'),
      z.regex(/^[A-Za-z0-9_-]+$/, 'Article ID is not valid'),
    ),
);

export const GptEditSchema = lazySchema(() =>
  z.strictObject({
    articleId: ArticleIdSchema(),
    // blog, linkedin, or a channel's own version (VersionId; the server refuses a name that is none)
    contentType: versionIdSchema('contentType must be blog or linkedin'),
    editRequest: z
      .string({ error: ArticleMessages.editRequestBlank })
      .check(
        z.trim(),
        z.minLength(1, ArticleMessages.editRequestBlank),
        z.maxLength(EDIT_REQUEST_MAX, `The edit request must be at most ${EDIT_REQUEST_MAX} characters`),
        safeCharacters('The edit request'),
      ),
  }),
);
export type GptEditInput = z.infer<ReturnType<typeof GptEditSchema>>;

export const ImageRequestSchema = lazySchema(() =>
  z.strictObject({
    description: z
      .string({ error: ArticleMessages.imageDescriptionRequired })
      .check(
        z.trim(),
        z.minLength(1, ArticleMessages.imageDescriptionRequired),
        z.maxLength(IMAGE_DESCRIPTION_MAX, `The image description must be at most ${IMAGE_DESCRIPTION_MAX} characters`),
        safeCharacters('The image description'),
      ),
  }),
);

export const ArticleParamsSchema = lazySchema(() => z.strictObject({ id: ArticleIdSchema() }));
export const ImageParamsSchema = lazySchema(() => z.strictObject({ articleId: ArticleIdSchema() }));
export const PreviewQuerySchema = lazySchema(() =>
  z.strictObject({
    platform: z._default(z.optional(z.enum(PLATFORMS, { error: 'platform must be blog or linkedin' })), 'blog'),
    t: z.optional(z.string().check(z.maxLength(40, 't (the image version) must be at most 40 characters'))),
  }),
);

/** Articles per page of GET /api/articles and /api/articles/published: the default, and the most one may ask. */
export const ARTICLE_PAGE_DEFAULT = 50;
export const ARTICLE_PAGE_MAX = 100;
const PAGE_LIMIT_MESSAGE = `limit must be a whole number from 1 to ${ARTICLE_PAGE_MAX}`;

/** `limit` and `cursor` (a page's opaque nextCursor) of the paged article lists. */
export const ArticlePageQuerySchema = lazySchema(() =>
  z.strictObject({
    limit: z.optional(
      z.pipe(
        z.pipe(
          z.string().check(z.maxLength(3, PAGE_LIMIT_MESSAGE), z.regex(/^[0-9]{1,3}$/, PAGE_LIMIT_MESSAGE)),
          z.transform(Number),
        ),
        z.int().check(z.minimum(1, PAGE_LIMIT_MESSAGE), z.maximum(ARTICLE_PAGE_MAX, PAGE_LIMIT_MESSAGE)),
      ),
    ),
    cursor: z.optional(
      z
        .string()
        .check(
          z.minLength(1, ArticleMessages.invalidCursor),
          z.maxLength(200, 'cursor must be at most 200 characters'),
          z.regex(/^[A-Za-z0-9_-]+$/, ArticleMessages.invalidCursor),
        ),
    ),
  }),
);

/**
 * Each version's scheduled time (null or absent: not scheduled): the blog's, the LinkedIn one's, and a channel's own
 * version's by its id (`scheduled.<id>`, docs/data-model.md).
 */
export interface ScheduledTimes {
  blog: string | null;
  linkedin: string | null;
  [version: string]: string | null | undefined;
}

/** A version's text: the blog's, LinkedIn's, or a channel's own (empty until written). */
export const versionText = (
  article: { blog: { content: string }; linkedin: { content: string }; versions?: Record<string, { content: string }> },
  version: VersionId,
): string => (isPlatform(version) ? article[version].content : (article.versions?.[version]?.content ?? ''));

/** A version's scheduled time, or null. */
export const scheduledTime = (scheduled: ScheduledTimes, version: VersionId): string | null =>
  scheduled[version] ?? null;

/**
 * Whether the article goes to this channel (a registry id): every channel, unless an import named its channels
 * (`Article.channels`); its schedules, approvals and checks leave the others out.
 */
export const goesTo = (article: { channels?: readonly string[] }, channel: string): boolean =>
  !article.channels?.length || article.channels.includes(channel);

const versionRank = (version: string) => (version === 'blog' ? 0 : version === 'linkedin' ? 1 : 2);

/**
 * The versions an article has scheduled, each with its time: the blog, LinkedIn, then the channels' own versions (by
 * id). What goes over every slot reads it (the schedule rebuild, the connection-health sweep, the Schedule page).
 */
export function scheduledVersions(article: { scheduled: ScheduledTimes }): { version: VersionId; at: string }[] {
  return Object.keys(article.scheduled)
    .sort((a, b) => versionRank(a) - versionRank(b) || a.localeCompare(b))
    .flatMap((version) => {
      const at = scheduledTime(article.scheduled, version);
      return at ? [{ version, at }] : [];
    });
}

export interface PlatformContent {
  content: string;
  lastPublished: string | null;
}
export interface BlogVersion extends PlatformContent {
  publishedToWordPress: boolean;
  wordpressPostUrl: string | null;
}
export interface LinkedInVersion extends PlatformContent {
  publishedToLinkedIn: boolean;
  linkedinPostUrl: string | null;
}

export interface ArticleImage {
  url: string;
  linkedinUrl: string;
  description: string;
  generatedAt: string;
  /** Made by the AI, or the user's own picture (POST /api/image/upload/{articleId}). */
  source: 'generated' | 'uploaded';
  /** The point both sizes are cut around; null when none was chosen (a generated image: sharp's attention crop). */
  focalPoint: FocalPoint | null;
  /** The kept original (no metadata), to pick a focal point on and crop again; null when there is none. */
  original: { url: string; width: number; height: number } | null;
}

/** A channel's post of an article (Article.posts). */
export interface ChannelPostRecord {
  /** The channel's id of the post. */
  id: string;
  /** Where readers see it (an http(s) address), or null. */
  url: string | null;
  publishedAt: string;
}

/** The article as the API shows it (docs/data-model.md, articles). */
export interface Article {
  _id: string;
  id: string;
  title: string;
  topic: string;
  keyword: string;
  details: string;
  imageDescription: string;
  tags: string[];
  createdAt: string;
  updatedAt: string;
  blog: BlogVersion;
  linkedin: LinkedInVersion;
  scheduled: ScheduledTimes;
  /**
   * The last failure. An approval that publishes to several channels names each that failed in `channels` (channel
   * id → its reason), so a card can show each channel's own state.
   */
  lastError: { code: string; message: string; channels?: Record<string, string> } | null;
  linkedInMode: 'personal' | 'company';
  /** Drafting state: content is written in the background after the article is saved. */
  generation: { status: 'pending' | 'done' | 'failed'; updatedAt: string };
  image: ArticleImage | null;
  /** A team workspace's review of each version (shared/src/review.ts); absent where none was ever started. */
  review?: ArticleReview;
  /**
   * The post each channel of the registry made (functions/src/channels/registry.ts), by channel id, beside the
   * WordPress and LinkedIn fields above (`blog`, `linkedin`); absent where no such channel has published.
   */
  posts?: Record<string, ChannelPostRecord>;
  /**
   * The blog-first bundle: the blog version's schedule and approval carry the social posts (every connected channel
   * that is not a blog channel), which go out after the blog post, with its address; absent when not chosen.
   */
  bundle?: true;
  /**
   * The only channels this article goes to, by id (the Sheets import's Channels column, docs/product.md): its
   * schedules and approvals publish to those of their channels only, Publish Now to any other is refused; absent:
   * every channel, as ever.
   */
  channels?: string[];
  /**
   * The text of each channel that publishes a version of its own (not the blog or LinkedIn one), by channel id;
   * absent where there is none.
   */
  versions?: Record<string, { content: string }>;
  /**
   * What the check before each version's current slot found (shared/src/connection-health.ts); absent where a
   * check found nothing wrong, or none ran yet.
   */
  health?: ArticleHealth;
  /**
   * List answers only (GET /api/articles, /unpublished, /published, /calendar), whose long texts are cut
   * to a preview: the article's first lines as plain text (`articleExcerpt`), for its card.
   */
  excerpt?: string;
}

export interface ImageStatus {
  success: boolean;
  hasImage: boolean;
  image: ArticleImage | null;
  /** True while a generation runs; poll until false. */
  pending: boolean;
  error: { code: string; message: string } | null;
}

/** Whitespace-separated words, as the editors count them. */
export const wordCount = (value: string): number => value.trim().split(/\s+/).filter(Boolean).length;

export const ScheduleMessages = {
  invalidDate: 'Please select a valid date and time.',
  pastDate: 'Please choose a future date and time.',
  /** A time between the picker's 5-minute steps (07:03), with the next step (07:05). */
  offStep: (next: string) => `Please choose a time in 5-minute steps, such as ${next}.`,
  invalidPlatform: 'Platform must be blog or linkedin',
  invalidData: 'Invalid scheduling data',
  invalidBundle: 'bundle must be true or false',
  bundleBlogOnly: 'Only the blog version can carry the social posts (bundle).',
} as const;

/** PUT /api/articles/{id}/schedule: an ISO timestamp (the UI sends toISOString()). */
export const ScheduleSchema = lazySchema(() =>
  z
    .strictObject({
      // blog, linkedin, or a channel's own version (VersionId; the server refuses a name that is none)
      platform: versionIdSchema(ScheduleMessages.invalidPlatform),
      datetime: z.string({ error: ScheduleMessages.invalidDate }).check(
        z.maxLength(40, ScheduleMessages.invalidDate),
        z.refine(
          (v) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(v) && !Number.isNaN(Date.parse(v)),
          ScheduleMessages.invalidDate,
        ),
      ),
      /** The blog version only: the social posts wait for the blog post and carry its address (Article.bundle). */
      bundle: z.optional(z.boolean({ error: ScheduleMessages.invalidBundle })),
    })
    .check(
      z.refine((v) => !v.bundle || v.platform === 'blog', {
        message: ScheduleMessages.bundleBlogOnly,
        path: ['bundle'],
      }),
    ),
);
export type ScheduleInput = z.infer<ReturnType<typeof ScheduleSchema>>;

const approvalToken = () =>
  z
    .string({ error: 'The approval link is incomplete' })
    .check(z.minLength(20, 'The approval link is incomplete'), z.maxLength(4000, 'The approval link is not valid'));

export const ApprovalSchema = lazySchema(() => z.strictObject({ token: approvalToken() }));

/** GET /api/approvals/image: the picture of the link's platform, for the approval page signed in or not. */
export const ApprovalImageQuerySchema = lazySchema(() =>
  z.strictObject({
    token: approvalToken(),
    t: z.optional(z.string().check(z.maxLength(40, 't (the image version) must be at most 40 characters'))),
  }),
);
