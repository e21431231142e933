import { describe, expect, it } from 'vitest';
import type { VersionReview } from '@app/shared';
import { returnedToReview, reviewAfterEdit } from '../src/domain/review-edit.js';
import { articleRecord } from './helpers/article-record.js';

/** What an edit does to its version's review (domain/review-edit.ts), which the store writes with the edit. */
const at = '2030-01-08T09:00:00.000Z';
const settings = { mode: 'one' as const, graceHours: 24 };
const reviewOf = (changes: Partial<VersionReview>): VersionReview => ({
  status: 'pending',
  stage: 1,
  mode: 'two',
  graceHours: 12,
  authors: ['writer'],
  submittedAt: '2030-01-07T09:00:00.000Z',
  approvals: [],
  changes: null,
  rev: 3,
  expiredFor: null,
  ...changes,
});
const withReview = (review: VersionReview | null) => articleRecord({ userId: 'w1', blogReview: review });

describe('an edit’s review', () => {
  it('returns an approved or sent-back version to review under the workspace’s setting, with ReviewRequested', () => {
    const changes = { by: 'reviewer', at: '2030-01-07T10:00:00.000Z', comment: 'More numbers' };
    for (const before of [
      reviewOf({ status: 'approved', stage: 2, approvals: [{ by: 'reviewer', at, stage: 1 }] }),
      reviewOf({ status: 'changes', changes }),
    ]) {
      const out = reviewAfterEdit(withReview(before), { actorId: 'editor', platform: 'blog', review: settings }, at);
      expect(out?.review).toEqual({
        status: 'pending',
        stage: 1,
        mode: 'one',
        graceHours: 24,
        authors: ['writer', 'editor'],
        submittedAt: at,
        approvals: [],
        changes: before.changes,
        rev: 4,
        expiredFor: null,
      });
      expect(out?.events.map(({ event }) => [event.name, event.detail])).toEqual([
        [
          'ReviewRequested',
          expect.objectContaining({
            userId: 'w1',
            articleId: 'a1',
            actorId: 'editor',
            stage: 1,
            reason: 'edited',
            platform: 'wordpress',
            occurredAt: at,
          }),
        ],
      ]);
      expect(returnedToReview({ ...withReview(null), blogReview: out!.review }, 'blog', at)).toEqual(out!.review);
    }
  });

  it('makes someone new who edits a waiting version one of its authors (no event), and leaves it alone otherwise', () => {
    const waiting = withReview(reviewOf({}));
    const joined = reviewAfterEdit(waiting, { actorId: 'editor', platform: 'blog', review: settings }, at);
    expect(joined).toEqual({ review: { ...reviewOf({}), authors: ['writer', 'editor'] }, events: [] });
    expect(returnedToReview({ ...waiting, blogReview: joined!.review }, 'blog', at)).toBeUndefined();
    // Its author editing it, no review started, another version's review, review not required: nothing.
    expect(reviewAfterEdit(waiting, { actorId: 'writer', platform: 'blog', review: settings }, at)).toBeUndefined();
    expect(reviewAfterEdit(withReview(null), { actorId: 'w', platform: 'blog', review: settings }, at)).toBeUndefined();
    expect(reviewAfterEdit(waiting, { actorId: 'editor', platform: 'linkedin', review: settings }, at)).toBeUndefined();
    const approved = withReview(reviewOf({ status: 'approved' }));
    expect(reviewAfterEdit(approved, { actorId: 'editor', platform: 'blog' }, at)).toBeUndefined();
  });
});
