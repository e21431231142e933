import * as z from 'zod/mini';
import { ArticleIdSchema, isPlatform, versionIdSchema, type Platform, type VersionId } from './articles.js';
import { lazySchema } from './lazy-schema.js';
import { safeCharacters } from './text.js';

/**
 * Comments on a channel's version of an article, and each article's activity (docs/product.md, Comments and
 * activity). One schema per payload: the server validates with these and the SPA's form checks the same.
 */
export const COMMENT_MAX_CHARS = 2000;
/** Activity entries per page (newest first). */
export const ACTIVITY_PAGE_DEFAULT = 20;
export const ACTIVITY_PAGE_MAX = 50;

export const CommentMessages = {
  empty: 'Write a comment first',
  tooLong: `A comment must be at most ${COMMENT_MAX_CHARS} characters`,
  notFound: 'Comment not found',
  notYours: 'You can only delete your own comments',
  deleted: 'Comment deleted',
  invalidCursor: 'cursor is not valid',
} as const;

/** The text of a comment: 1–2,000 characters once trimmed (the domain's addComment checks the same limits). */
export const CommentTextSchema = lazySchema(() =>
  z
    .string({ error: 'text must be text' })
    .check(
      z.trim(),
      z.minLength(1, CommentMessages.empty),
      z.maxLength(COMMENT_MAX_CHARS, CommentMessages.tooLong),
      safeCharacters('Comment'),
    ),
);

export const NewCommentSchema = lazySchema(() =>
  z.strictObject({
    // blog, linkedin, or a channel's own version (VersionId; the server refuses a name that is none)
    platform: versionIdSchema('platform must be blog or linkedin'),
    text: CommentTextSchema(),
  }),
);
export type NewCommentInput = z.infer<ReturnType<typeof NewCommentSchema>>;

/** Comment ids are made like article ids (time-ordered, letters and digits). */
export const CommentParamsSchema = lazySchema(() =>
  z.strictObject({ id: ArticleIdSchema(), commentId: ArticleIdSchema() }),
);

export const ActivityQuerySchema = lazySchema(() =>
  z.strictObject({
    limit: z.optional(
      z.pipe(
        z.pipe(
          z
            .string()
            .check(
              z.maxLength(2, `limit must be a number from 1 to ${ACTIVITY_PAGE_MAX}`),
              z.regex(/^[0-9]{1,2}$/, `limit must be a number from 1 to ${ACTIVITY_PAGE_MAX}`),
            ),
          z.transform(Number),
        ),
        z
          .int()
          .check(z.minimum(1), z.maximum(ACTIVITY_PAGE_MAX, `limit must be a number from 1 to ${ACTIVITY_PAGE_MAX}`)),
      ),
    ),
    cursor: z.optional(
      z
        .string()
        .check(
          z.minLength(1, CommentMessages.invalidCursor),
          z.maxLength(200, 'cursor must be at most 200 characters'),
          z.regex(/^[A-Za-z0-9_-]+$/, CommentMessages.invalidCursor),
        ),
    ),
  }),
);

/** A comment as the API answers it. */
export interface ArticleComment {
  id: string;
  articleId: string;
  platform: VersionId;
  authorId: string;
  authorName: string;
  text: string;
  createdAt: string;
  /** Made on a text of the channel that has changed since. */
  onEarlierVersion: boolean;
  /** A reviewer's "Request changes": the comment it required. */
  changeRequest?: true;
}

/** One entry of an article's activity, newest first. */
export interface ActivityEntry {
  id: string;
  /** ArticleCreated, ArticleEdited, or the name of the domain event it was written with (PublishSucceeded, …). */
  name: string;
  /** When it happened; for a burst of edits, the first. */
  at: string;
  /** A burst of edits: the last one. */
  until?: string;
  platform?: VersionId;
  /** Who did it: a member's name, "Scheduled run", or null when nobody in particular (an import's drafting). */
  actor: string | null;
  /** A review step (ReviewRequested, ArticleApproved of a review): its stage, and why review was asked. */
  review?: ActivityReviewStep;
}

/** What an activity entry keeps of a review event (domain/activity.ts). */
export interface ActivityReviewStep {
  stage: 1 | 2;
  /** 2 when the review is known to have two stages (the step names its stage then). */
  of?: 2;
  reason?: 'submitted' | 'edited' | 'scheduled' | 'stage';
}

/** Who a scheduled run's entries name. */
export const SCHEDULED_RUN_ACTOR = 'Scheduled run';

const PLATFORM_NAMES: Record<Platform, string> = { blog: 'WordPress', linkedin: 'LinkedIn' };
const VERSION_NAMES: Record<Platform, string> = { blog: 'the blog version', linkedin: 'the LinkedIn version' };

/** What an entry says, by name; one whose name it does not know yet reads as its name in words. */
export function activityLabel(
  entry: Pick<ActivityEntry, 'name' | 'platform' | 'review'>,
  /** A channel's own version's name (the SPA's channel registry); absent: its id. */
  ownVersionName: (id: string) => string = (id) => `the ${id} version`,
): string {
  const platform = entry.platform;
  const known = platform && isPlatform(platform) ? platform : undefined;
  const on = known ? ` on ${PLATFORM_NAMES[known]}` : platform ? ` on ${platform}` : '';
  const version = known ? VERSION_NAMES[known] : platform ? ownVersionName(platform) : 'the article';
  const of = platform ? ` ${version}` : '';
  const step = entry.review?.of ? ` (stage ${entry.review.stage} of ${entry.review.of})` : '';
  switch (entry.name) {
    case 'ArticleCreated':
      return 'Created the article';
    case 'ArticleEdited':
      return `Edited${of}`;
    case 'ArticleDrafted':
      return 'Drafts written by AI';
    case 'ReviewRequested':
      switch (entry.review?.reason) {
        case 'edited':
          return `Edited ${version}: back in review`;
        case 'scheduled':
          return `Asked for review of ${version} at its scheduled time`;
        case 'stage':
          return `Asked for the final approval of ${version}${step}`;
        default:
          return `Submitted ${version} for review`;
      }
    case 'ChangesRequested':
      return `Requested changes to ${version}`;
    case 'ArticleApproved':
      // A review's approval names its version and stage; the owner's approval link, where it was published.
      return entry.review ? `Approved ${version}${step}` : `Approved${on}`;
    case 'ApprovalRequested':
      return `Approval requested by e-mail${on}`;
    case 'PublishSucceeded':
      return `Published${on}`;
    case 'PublishFailed':
      return `Publishing failed${on}`;
    case 'ScheduleMissed':
      return `Scheduled run missed${on}`;
    default: {
      // ReviewExpired → "Review expired".
      const words = entry.name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
      return `${words.charAt(0).toUpperCase()}${words.slice(1)}${on}`;
    }
  }
}
