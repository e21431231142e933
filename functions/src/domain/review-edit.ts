import { isPlatform, type ReviewSettings, type VersionReview } from '@app/shared';
import type { EditBy } from './activity.js';
import { reviewAttribute, type ArticleRecord, type VersionId } from './articles.js';
import { eventPlatform, makeEvent, outboxEntry, type OutboxEntry } from './automation-events.js';
import type { CurrentWorkspace } from './workspaces.js';

/**
 * The pure parts of a version's review that an edit needs (docs/product.md, Workspaces, Review): kept apart from
 * domain/review.ts, so the article store, which composes them into the edit's write, does not carry the review
 * links' signing and mail.
 */

/** A setting under which publishing needs review (not the author's own approval). */
export type RequiredReview = ReviewSettings & { mode: VersionReview['mode'] };

/** An edit of a version (its activity entry), and the workspace's setting where it requires review. */
export interface VersionEdit extends EditBy {
  review?: RequiredReview;
}

/** The request's workspace's setting where it requires review (read with the workspace: CurrentWorkspace.review). */
export function requiredReview(workspace: CurrentWorkspace): RequiredReview | undefined {
  const { mode, graceHours } = workspace.review;
  return workspace.personal || mode === 'author' ? undefined : { mode, graceHours };
}

/** What a version's review becomes when it starts again (submitted, edited after approval or changes, or a run). */
export function restarted(
  before: VersionReview | null | undefined,
  settings: RequiredReview,
  authors: string[],
  now: Date,
): VersionReview {
  return {
    status: 'pending',
    stage: 1,
    mode: settings.mode,
    graceHours: settings.graceHours,
    authors: [...new Set([...(before?.authors ?? []), ...authors])],
    submittedAt: now.toISOString(),
    approvals: [],
    changes: before?.changes ?? null,
    rev: (before?.rev ?? 0) + 1,
    expiredFor: null,
  };
}

/** The ReviewRequested event of a version's review: started, or at its second stage. */
export function reviewRequested(
  workspaceId: string,
  article: Pick<ArticleRecord, 'id' | 'title' | 'scheduled'>,
  platform: VersionId,
  actorId: string | null,
  stage: 1 | 2,
  reason: 'submitted' | 'edited' | 'scheduled' | 'stage',
  now: Date,
): OutboxEntry {
  return outboxEntry(
    makeEvent(
      'ReviewRequested',
      {
        userId: workspaceId,
        articleId: article.id,
        title: article.title,
        platform: eventPlatform(platform),
        actorId,
        stage,
        reason,
        scheduledFor: (isPlatform(platform) ? article.scheduled[platform] : null) ?? null,
      },
      now,
    ),
  );
}

/**
 * What an edit at `at` does to its version's review, given the article as the edit's write reads it (the store
 * writes the result in that same transaction, as it does the edit's activity entry: ports.ts ArticleStore.update
 * `edit`): one approved, or sent back with changes, returns to review (approval cleared, ReviewRequested for the
 * first stage's reviewers); someone new editing one that waits becomes one of its authors (they may not approve
 * it). Undefined: nothing changes (review not required, none started, or the editor already an author).
 */
export function reviewAfterEdit(
  article: ArticleRecord,
  edit: VersionEdit,
  at: string,
): { review: VersionReview; events: OutboxEntry[] } | undefined {
  const before = article[reviewAttribute(edit.platform)];
  if (!edit.review || !before) return undefined;
  if (before.status === 'pending') {
    if (before.authors.includes(edit.actorId)) return undefined;
    return { review: { ...before, authors: [...before.authors, edit.actorId] }, events: [] };
  }
  const now = new Date(at);
  return {
    review: restarted(before, edit.review, [edit.actorId], now),
    events: [reviewRequested(article.userId, article, edit.platform, edit.actorId, 1, 'edited', now)],
  };
}

/**
 * Whether the edit at `at` returned the version to review (reviewAfterEdit), as the article stands after its write:
 * its reviewers are then to be asked.
 */
export function returnedToReview(article: ArticleRecord, platform: VersionId, at: string): VersionReview | undefined {
  const review = article[reviewAttribute(platform)];
  return review?.status === 'pending' && review.stage === 1 && review.submittedAt === at ? review : undefined;
}
