import * as z from 'zod/mini';
import { versionIdSchema, type Platform, type VersionId } from './articles.js';
import { lazySchema } from './lazy-schema.js';
import { safeCharacters } from './text.js';
import type { WorkspaceRole } from './workspaces.js';

/**
 * Review by someone other than the author (docs/product.md, Workspaces, Review): what publishing a team
 * workspace's version needs. `author`: the author's own approval (as a personal workspace always is);
 * `one`: one approval by another member (editor, owner or reviewer); `two`: an editor or reviewer first,
 * then an owner.
 */
export const REVIEW_MODES = ['author', 'one', 'two'] as const;
export type ReviewMode = (typeof REVIEW_MODES)[number];

export const REVIEW_MODE_NAMES: Record<ReviewMode, string> = {
  author: 'The author approves (no review)',
  one: 'One approval by another member',
  two: 'Two stages: an editor or reviewer, then an owner',
};

/** How long past its slot an unapproved version may still be approved (and then publishes). */
export const REVIEW_GRACE_DEFAULT_HOURS = 24;
export const REVIEW_GRACE_MAX_HOURS = 168;
/** How long a reviewer's e-mailed link works. */
export const REVIEW_LINK_DAYS = 7;
export const REVIEW_COMMENT_MAX = 2000;

export interface ReviewSettings {
  mode: ReviewMode;
  graceHours: number;
}
export const DEFAULT_REVIEW_SETTINGS: ReviewSettings = { mode: 'author', graceHours: REVIEW_GRACE_DEFAULT_HOURS };

export const ReviewSettingsSchema = lazySchema(() =>
  z.strictObject({
    mode: z.enum(REVIEW_MODES, { error: 'Review must be author, one or two' }),
    graceHours: z
      .int({ error: `The grace period must be a whole number of hours from 0 to ${REVIEW_GRACE_MAX_HOURS}` })
      .check(
        z.minimum(0, `The grace period must be a whole number of hours from 0 to ${REVIEW_GRACE_MAX_HOURS}`),
        z.maximum(
          REVIEW_GRACE_MAX_HOURS,
          `The grace period must be a whole number of hours from 0 to ${REVIEW_GRACE_MAX_HOURS}`,
        ),
      ),
  }),
);

/** A version: blog, linkedin, or a channel's own (VersionId; the server refuses a name that is none). */
const platform = () => versionIdSchema('platform must be blog or linkedin');

/** Submit or approve a version: which platform's (the article is the path's). */
export const ReviewActionSchema = lazySchema(() => z.strictObject({ platform: platform() }));

const comment = () =>
  z
    .string({ error: 'Say what should change: the comment is required' })
    .check(
      z.trim(),
      z.minLength(1, 'Say what should change: the comment is required'),
      z.maxLength(REVIEW_COMMENT_MAX, `The comment must be at most ${REVIEW_COMMENT_MAX} characters`),
      safeCharacters('The comment'),
    );

export const RequestChangesSchema = lazySchema(() => z.strictObject({ platform: platform(), comment: comment() }));
export type RequestChangesInput = z.infer<ReturnType<typeof RequestChangesSchema>>;

const reviewToken = () =>
  z
    .string({ error: 'The review link is incomplete' })
    .check(z.minLength(20, 'The review link is incomplete'), z.maxLength(4000, 'The review link is not valid'));

/** The review page: reading a link (never acts). */
export const ReviewLinkSchema = lazySchema(() => z.strictObject({ token: reviewToken() }));
/** GET /api/review-links/image: the picture of the link's version, for the review page signed in or not. */
export const ReviewLinkImageQuerySchema = lazySchema(() =>
  z.strictObject({
    token: reviewToken(),
    t: z.optional(z.string().check(z.maxLength(40, 't (the image version) must be at most 40 characters'))),
  }),
);
/** The review page's click: a request-changes link needs the comment, an approve link takes none. */
export const ReviewLinkActionSchema = lazySchema(() =>
  z.strictObject({ token: reviewToken(), comment: z.optional(comment()) }),
);

/** Who approved, at which stage. */
export interface ReviewApproval {
  by: string;
  at: string;
  stage: 1 | 2;
}

/** The last "Request changes" of a version. */
export interface ReviewChangeRequest {
  by: string;
  at: string;
  comment: string;
}

/**
 * A channel's version's review (docs/data-model.md, Articles): `pending` at `stage`, `changes` (a reviewer asked
 * for changes) or `approved`. `authors` are who submitted or edited it since: none of them may approve it. The
 * mode and grace period are the workspace's when review started. `rev` moves on every change (links name it).
 */
export interface VersionReview {
  status: 'pending' | 'changes' | 'approved';
  stage: 1 | 2;
  mode: Exclude<ReviewMode, 'author'>;
  graceHours: number;
  authors: string[];
  submittedAt: string;
  approvals: ReviewApproval[];
  changes: ReviewChangeRequest | null;
  rev: number;
  /** The slot whose expiry the author was told of (once per slot). */
  expiredFor?: string | null;
}

/** Each version's review, by version: `blog`, `linkedin`, and a channel's own version by its id (VersionId). */
export type ArticleReview = Partial<Record<Platform, VersionReview | null>> & {
  [version: string]: VersionReview | null | undefined;
};

/** Who may approve at a stage: `one` any of editor, owner, reviewer; `two` an editor or reviewer, then an owner. */
export function stageRoles(mode: Exclude<ReviewMode, 'author'>, stage: 1 | 2): readonly WorkspaceRole[] {
  if (mode === 'one') return ['owner', 'editor', 'reviewer'];
  return stage === 1 ? ['editor', 'reviewer'] : ['owner'];
}

/** The stages a mode has. */
export const stagesOf = (mode: Exclude<ReviewMode, 'author'>): 1 | 2 => (mode === 'two' ? 2 : 1);

/**
 * Where a scheduled version stands when review is required: `waiting` (not approved yet, its slot plus the grace
 * period not over), `expired` (past it), or null (approved, published, not scheduled, or no review required).
 * One rule for the Schedule card, the calendar and the scheduled run.
 */
export function slotApproval(
  article: {
    scheduled: Partial<Record<VersionId, string | null>>;
    review?: ArticleReview;
    blog: { publishedToWordPress: boolean };
    linkedin: { publishedToLinkedIn: boolean };
    /** The channels' posts (a channel's own version is published once its channel has one). */
    posts?: Readonly<Record<string, unknown>>;
  },
  platform: VersionId,
  settings: ReviewSettings,
  now: Date,
): 'waiting' | 'expired' | null {
  const slot = article.scheduled[platform];
  const published =
    platform === 'blog'
      ? article.blog.publishedToWordPress
      : platform === 'linkedin'
        ? article.linkedin.publishedToLinkedIn
        : Boolean(article.posts?.[platform]);
  if (!slot || published) return null;
  const review = (article.review as Partial<Record<VersionId, VersionReview | null>> | undefined)?.[platform] ?? null;
  // A review started under a mode keeps it; otherwise the workspace's setting says.
  const mode = review?.mode ?? settings.mode;
  if (mode === 'author') return null;
  if (review?.status === 'approved') return null;
  const grace = review?.graceHours ?? settings.graceHours;
  return now.getTime() >= Date.parse(slot) + grace * 3600_000 ? 'expired' : 'waiting';
}

export const ReviewMessages = {
  settingsSaved: 'Review setting saved',
  personal: 'A personal workspace has no review: its owner approves their own posts.',
  notRequired: 'Review is not required in this workspace: the author approves at the scheduled time.',
  submitted: 'Submitted for review',
  approved: 'Approved',
  stageApproved: 'Approved: the owner is asked next',
  changesRequested: 'Changes requested',
  ownApproval: 'You wrote or edited this version, so someone else must approve it.',
  roleCannotApprove: (role: string, stage: 1 | 2, mode: Exclude<ReviewMode, 'author'>) =>
    mode === 'two' && stage === 1
      ? `The first stage is approved by an editor or reviewer (your role: ${role}); an owner approves after it.`
      : mode === 'two'
        ? `The second stage is approved by an owner (your role: ${role}).`
        : `Your role (${role}) cannot approve.`,
  nothingToReview: 'This version is not waiting for review: submit it for review first.',
  alreadyApproved: 'This version is approved already.',
  emptyVersion: 'This version has no text yet: write it before submitting it for review.',
  needsApproval:
    'This workspace requires review before publishing: submit the version for review and publish once it is approved.',
  waiting: 'Waiting for approval',
  expired: 'Expired',
  linkInvalid: 'This review link is not valid or has expired. Open the article in the app instead.',
  linkOutdated: 'This review link is for an earlier state of this version. Open the article in the app to see it now.',
  linkRevoked:
    'This review link no longer works: you were signed out everywhere or changed your password since it was sent. Sign in to review in the app.',
} as const;
