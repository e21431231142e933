import type { ActivityReviewStep } from '@app/shared';
import { ownVersionIds } from '../channels/registry.js';
import type { VersionId } from './articles.js';
import type { DomainEvent } from './automation-events.js';

/**
 * Each article's activity (docs/product.md, Comments and activity): who created, edited, submitted, approved,
 * requested changes on and published it, and when. Entries are written in the transaction of the change they
 * tell of (adapters/dynamo/article-store.ts composes them as it does the calendar entries and the summary): an
 * article's creation and its edits name them here; everything else is derived from the domain events the change
 * writes, so an event added later shows up without more work (its label: shared/src/comments.ts activityLabel).
 */
export interface ActivityRecord {
  /** The article's owner: the workspace. */
  userId: string;
  articleId: string;
  /** Unique within the article (an event's id, or a new one). */
  id: string;
  /** ArticleCreated, ArticleEdited, or the event's name. */
  name: string;
  at: string;
  /** A burst of edits: its last one. */
  until?: string;
  platform?: VersionId;
  /** The member who did it; null: a scheduled run; absent: nobody in particular (a spreadsheet import's drafting). */
  actorId?: string | null;
  /** A review event's step (its label names the stage and why review was asked). */
  review?: ActivityReviewStep;
}

/** Edits by one person closer together than this are one entry. */
export const EDIT_BURST_MS = 5 * 60_000;

/** What an article keeps of its newest edit entry, so that the next edit of a burst extends that entry. */
export interface LastEdit {
  entryId: string;
  entryAt: string;
  actorId: string;
  at: string;
  /** Absent: the burst edited more than one version. */
  platform?: VersionId;
}

/** An edit: who, which version, when. */
export interface EditBy {
  actorId: string;
  platform: VersionId;
}

/** The version an event is about: WordPress's is the blog one; a channel's own version is its channel's. */
const eventPlatform = (platform: unknown): VersionId | undefined =>
  platform === 'wordpress'
    ? 'blog'
    : platform === 'linkedin'
      ? 'linkedin'
      : typeof platform === 'string' && ownVersionIds.includes(platform)
        ? platform
        : undefined;

/** The entries of the events a change writes: one per event, named after it, with its actor when it has one. */
export function activityOfEvents(events: readonly { event: DomainEvent }[] | undefined): ActivityRecord[] {
  return (events ?? []).map(({ event }) => {
    const detail = event.detail as DomainEvent['detail'] & {
      platform?: unknown;
      actorId?: string | null;
      stage?: number;
      final?: boolean;
      reason?: ActivityReviewStep['reason'];
    };
    const platform = eventPlatform(detail.platform);
    const review = reviewStep(event.name, detail);
    return {
      userId: detail.userId,
      articleId: detail.articleId,
      id: detail.eventId,
      name: event.name,
      at: detail.occurredAt,
      ...(platform ? { platform } : {}),
      ...(detail.actorId !== undefined ? { actorId: detail.actorId } : {}),
      ...(review ? { review } : {}),
    };
  });
}

/**
 * The step of a review event: its stage, and "of 2" where the event shows two stages (a second stage asked, a
 * first approved without completing the review, the second approved). An approval without a stage is the
 * owner's approval link, no review.
 */
function reviewStep(
  name: string,
  detail: { stage?: number; final?: boolean; reason?: ActivityReviewStep['reason'] },
): ActivityReviewStep | undefined {
  if (detail.stage !== 1 && detail.stage !== 2) return undefined;
  const stage = detail.stage;
  if (name === 'ReviewRequested')
    return { stage, ...(stage === 2 ? { of: 2 as const } : {}), ...(detail.reason ? { reason: detail.reason } : {}) };
  if (name === 'ArticleApproved')
    return { stage, ...(stage === 2 || detail.final === false ? { of: 2 as const } : {}) };
  return undefined;
}

/** The entry of a new article (its creator). */
export const creationActivity = (
  article: { userId: string; id: string; createdAt: string },
  actorId: string | undefined,
): ActivityRecord => ({
  userId: article.userId,
  articleId: article.id,
  id: 'created',
  name: 'ArticleCreated',
  at: article.createdAt,
  ...(actorId ? { actorId } : {}),
});

/**
 * The entry an edit at `now` writes, given the article's `lastEdit` as read: the same entry extended (same id and
 * time, a later `until`) when the same person edited within EDIT_BURST_MS, else a new one; and the article's
 * new `lastEdit`.
 */
export function editActivity(
  article: { userId: string; id: string; lastEdit?: LastEdit | null },
  edit: EditBy,
  now: string,
  newId: () => string,
): { entry: ActivityRecord; lastEdit: LastEdit } {
  const last = article.lastEdit;
  const burst = last && last.actorId === edit.actorId && Date.parse(now) - Date.parse(last.at) < EDIT_BURST_MS;
  const entryId = burst ? last.entryId : newId();
  const entryAt = burst ? last.entryAt : now;
  const platform = burst && last.platform !== edit.platform ? undefined : edit.platform;
  const entry: ActivityRecord = {
    userId: article.userId,
    articleId: article.id,
    id: entryId,
    name: 'ArticleEdited',
    at: entryAt,
    ...(burst ? { until: now } : {}),
    ...(platform ? { platform } : {}),
    actorId: edit.actorId,
  };
  return { entry, lastEdit: { entryId, entryAt, actorId: edit.actorId, at: now, ...(platform ? { platform } : {}) } };
}
