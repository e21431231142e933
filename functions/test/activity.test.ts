import { describe, expect, it } from 'vitest';
import { activityLabel } from '@app/shared';
import { activityOfEvents, editActivity, EDIT_BURST_MS, type ActivityRecord } from '../src/domain/activity.js';
import { makeEvent, outboxEntry } from '../src/domain/automation-events.js';
import { CommentService } from '../src/domain/comments.js';

/** The activity's pure parts (domain/activity.ts) and its view (CommentService.activity, activityLabel). */
const at = '2030-01-08T09:00:00.000Z';
const later = (ms: number) => new Date(Date.parse(at) + ms).toISOString();

describe('activity entries', () => {
  it('derives one entry per event written for the article, with its platform and actor', () => {
    const published = makeEvent(
      'PublishSucceeded',
      {
        userId: 'w1',
        articleId: 'a1',
        title: 'T',
        platform: 'linkedin',
        trigger: 'approval',
        scheduledFor: at,
        postUrl: null,
        publishedAt: at,
        actorId: null,
      },
      new Date(at),
      '00000000-0000-4000-8000-000000000001',
    );
    expect(activityOfEvents([outboxEntry(published)])).toEqual([
      {
        userId: 'w1',
        articleId: 'a1',
        id: '00000000-0000-4000-8000-000000000001',
        name: 'PublishSucceeded',
        at,
        platform: 'linkedin',
        actorId: null,
      },
    ]);
  });

  it('extends the entry of a burst of one person’s edits, and starts a new one after a pause or for another person', () => {
    const ids = ['e1', 'e2', 'e3'];
    const newId = () => ids.shift()!;
    const first = editActivity({ userId: 'w1', id: 'a1' }, { actorId: 'm1', platform: 'blog' }, at, newId);
    expect(first.entry).toMatchObject({ id: 'e1', at, actorId: 'm1', platform: 'blog' });
    expect(first.entry.until).toBeUndefined();

    const burst = editActivity(
      { userId: 'w1', id: 'a1', lastEdit: first.lastEdit },
      { actorId: 'm1', platform: 'linkedin' },
      later(EDIT_BURST_MS - 1),
      newId,
    );
    // Same entry, later end; both versions edited: no one platform.
    expect(burst.entry).toMatchObject({ id: 'e1', at, until: later(EDIT_BURST_MS - 1) });
    expect(burst.entry.platform).toBeUndefined();

    const other = editActivity(
      { userId: 'w1', id: 'a1', lastEdit: burst.lastEdit },
      { actorId: 'm2', platform: 'blog' },
      later(EDIT_BURST_MS),
      newId,
    );
    expect(other.entry).toMatchObject({ id: 'e2', actorId: 'm2' });

    const pause = editActivity(
      { userId: 'w1', id: 'a1', lastEdit: other.lastEdit },
      { actorId: 'm2', platform: 'blog' },
      later(2 * EDIT_BURST_MS + 1),
      newId,
    );
    expect(pause.entry).toMatchObject({ id: 'e3', at: later(2 * EDIT_BURST_MS + 1) });
  });

  it('names a scheduled run’s entries "Scheduled run", a member by name, and AI drafting by nobody', async () => {
    const records: ActivityRecord[] = [
      { userId: 'w1', articleId: 'a1', id: '3', name: 'PublishSucceeded', at, platform: 'blog', actorId: null },
      { userId: 'w1', articleId: 'a1', id: '2', name: 'ArticleDrafted', at },
      { userId: 'w1', articleId: 'a1', id: '1', name: 'ArticleCreated', at, actorId: 'm1' },
    ];
    const service = new CommentService({
      articles: { get: async () => ({ id: 'a1' }) as never },
      comments: {} as never,
      activity: { page: async () => ({ records, next: null }) },
      nameOf: async (id) => (id === 'm1' ? 'Mia Member' : undefined),
    });
    const { entries } = await service.activity('w1', 'a1', 20);
    expect(entries.map((e) => [activityLabel(e), e.actor])).toEqual([
      ['Published on WordPress', 'Scheduled run'],
      ['Drafts written by AI', null],
      ['Created the article', 'Mia Member'],
    ]);
  });

  it('labels every event name, those not known yet by their name in words', () => {
    expect(activityLabel({ name: 'ReviewRequested' })).toBe('Submitted the article for review');
    expect(activityLabel({ name: 'ReviewRequested', platform: 'linkedin', review: { stage: 1 } })).toBe(
      'Submitted the LinkedIn version for review',
    );
    expect(activityLabel({ name: 'ChangesRequested', platform: 'linkedin' })).toBe(
      'Requested changes to the LinkedIn version',
    );
    expect(activityLabel({ name: 'ArticleApproved', platform: 'linkedin', review: { stage: 1, of: 2 } })).toBe(
      'Approved the LinkedIn version (stage 1 of 2)',
    );
    expect(activityLabel({ name: 'ArticleApproved', platform: 'linkedin' })).toBe('Approved on LinkedIn');
    expect(activityLabel({ name: 'ArticleEdited', platform: 'blog' })).toBe('Edited the blog version');
    expect(activityLabel({ name: 'ReviewExpired' })).toBe('Review expired');
  });
});
