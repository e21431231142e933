/**
 * The outbox's pure parts (functions/src/adapters/dynamo/event-outbox.ts): the item an event is kept as,
 * the Puts a change's transaction carries, and the entry read back from an item (a stream record's image).
 */
import { describe, expect, it } from 'vitest';
import {
  OUTBOX_ITEM_TYPE,
  OUTBOX_RETENTION_DAYS,
  entryOfItem,
  eventKey,
  outboxItemOf,
  outboxWrites,
} from '../src/adapters/dynamo/event-outbox.js';
import { makeEvent, outboxEntry } from '../src/domain/automation-events.js';

const at = new Date('2030-01-08T09:00:04.000Z');
const event = makeEvent(
  'ScheduleMissed',
  {
    userId: 'u1',
    articleId: 'a1',
    title: 'Launch day',
    platform: 'wordpress',
    scheduledFor: '2030-01-08T09:00:00.000Z',
    error: { code: 'owner_inactive', message: 'Deactivated.' },
    retryable: false,
  },
  at,
  '5d6c1f0e-2b7a-4c1e-9a55-0f4f3c2b8e11',
);

describe('the outbox item of an event', () => {
  it('is in the owner’s partition, sorted by time, named by the event id, and expires OUTBOX_RETENTION_DAYS on', () => {
    expect(eventKey(event)).toEqual({
      PK: 'USER#u1',
      SK: 'EVENT#2030-01-08T09:00:04.000Z#5d6c1f0e-2b7a-4c1e-9a55-0f4f3c2b8e11',
    });
    expect(outboxItemOf(outboxEntry(event, { toWebhook: false }))).toEqual({
      ...eventKey(event),
      type: OUTBOX_ITEM_TYPE,
      name: 'ScheduleMissed',
      detailType: 'ScheduleMissed.v1',
      detail: event.detail,
      toWebhook: false,
      webhookFailures: 0,
      expiresAt: at.getTime() / 1000 + OUTBOX_RETENTION_DAYS * 86_400,
    });
  });

  it('is a Put only if new, one per event, for the change’s transaction; none without events', () => {
    const second = makeEvent(
      'ArticleDrafted',
      { userId: 'u1', articleId: 'a2', title: 'T', platforms: ['linkedin'] },
      at,
    );
    const writes = outboxWrites('table', [outboxEntry(event), outboxEntry(second)]);
    expect(writes).toEqual([
      {
        Put: {
          TableName: 'table',
          Item: outboxItemOf(outboxEntry(event)),
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
      {
        Put: {
          TableName: 'table',
          Item: outboxItemOf(outboxEntry(second)),
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
    ]);
    expect(outboxWrites('table', undefined)).toEqual([]);
    expect(outboxWrites('table', [])).toEqual([]);
  });

  it('gives back the entry it was made from (with what the webhook gets beside it)', () => {
    const entry = outboxEntry(event, { alsoToWebhook: [{ event: 'linkedin.published' }] });
    expect(entryOfItem(outboxItemOf(entry))).toEqual(entry);
    expect(entryOfItem(outboxItemOf(outboxEntry(event)))).toEqual({ event, toWebhook: true });
  });
});
