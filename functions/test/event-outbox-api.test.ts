/**
 * The domain events' outbox over the real local app and DynamoDB Local (docs/data-model.md, the EVENT#
 * item; docs/operations.md, Domain events): an event is written in the same transaction as the change
 * that causes it, and delivered from there at least once, a delivery that failed (the bus, the owner's
 * webhook) being tried again until it arrives. Also: a job the worker could not be handed marks its
 * article failed instead of leaving it pending.
 */
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ArticleMessages } from '@app/shared';
import { DynamoArticleStore } from '../src/adapters/dynamo/article-store.js';
import { OUTBOX_ITEM_TYPE, eventKey, outboxItemOf, redeliverEvents } from '../src/adapters/dynamo/event-outbox.js';
import { parseEventLines } from '../src/adapters/local/jsonl-event-publisher.js';
import { localJobsIdle } from '../src/adapters/local/in-process-job-queue.js';
import { ArticleService } from '../src/domain/articles.js';
import { makeEvent, outboxEntry } from '../src/domain/automation-events.js';
import type { Job } from '../src/domain/ports.js';
import { eventRelay } from '../src/wiring/automation-events.js';
import { FAKE_WP_EDITOR, startFakeWordPress, type FakeWordPress } from './fakes/wordpress.js';
import { serve } from './publishing/helpers.js';
import { Client, draftedForPublishing, registration, startTestApp, waitUntil, type TestApp } from './helpers/app.js';

let app: TestApp;
let wp: FakeWordPress;
let user: Client;
let userId: string;
let db: DynamoDBDocumentClient;
let hook: Awaited<ReturnType<typeof serve>>;
/** How the webhook answers: the next `failures` calls get 503. */
let hookFailures = 0;

const eventsFile = () => join(app.dataDir, 'events.jsonl');
function busEvents() {
  try {
    return parseEventLines(readFileSync(eventsFile(), 'utf8'));
  } catch {
    return [];
  }
}
/** The outbox items of the user, by detail-type. */
async function outboxItems(detailType?: string): Promise<Record<string, any>[]> {
  return (await app.items({ withDeliveryMarks: true })).filter(
    (item) =>
      item.type === OUTBOX_ITEM_TYPE &&
      item.PK === `USER#${userId}` &&
      (detailType === undefined || item.detailType === detailType),
  );
}

beforeAll(async () => {
  wp = await startFakeWordPress();
  app = await startTestApp();
  // The bus is down from the start: a directory where the events file should be (appending to it fails).
  mkdirSync(eventsFile());
  db = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: inject('dynamoEndpoint'),
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
    { marshallOptions: { removeUndefinedValues: true } },
  );
  user = new Client(app.url);
  userId = (await user.call('/api/auth/register', { body: registration() })).json.user._id;
  await user.call('/api/wordpress/credentials', {
    body: { siteUrl: wp.url, username: FAKE_WP_EDITOR.username, appPassword: FAKE_WP_EDITOR.appPassword },
  });
  hook = await serve((_req, res) => {
    if (hookFailures > 0) {
      hookFailures--;
      res.statusCode = 503;
    }
    res.end('ok');
  });
  await user.call('/api/linkedin/zapier-webhook', { body: { webhookUrl: `${hook.url}/hook` } });
});
afterAll(async () => {
  await app?.stop();
  db?.destroy();
  await Promise.all([wp?.stop(), hook?.close()]);
});

describe('an event is written in the transaction of its change', () => {
  it('a publish writes its PublishSucceeded item with the article; while the bus is down it waits there, and is delivered once the bus is back', async () => {
    const id = (await user.call('/api/articles', { body: { title: 'Outbox', topic: 'Events', keyword: 'outbox' } }))
      .json.article._id as string;
    await draftedForPublishing(user, id);
    expect((await user.call(`/api/wordpress/publish/${id}`, { method: 'POST' })).status).toBe(200);
    await localJobsIdle();
    const [item, ...others] = (await outboxItems('PublishSucceeded.v1')).filter((i) => i.detail.articleId === id);
    expect(others).toEqual([]);
    expect(item).toMatchObject({ name: 'PublishSucceeded', toWebhook: true, detail: { articleId: id, userId } });
    expect(item!.SK).toBe(eventKey(item as never).SK);
    expect(item!.expiresAt).toBeGreaterThan(Date.now() / 1000 + 13 * 86_400);
    // The bus refused it (every try of every delivery so far): not delivered, and not on the bus.
    expect(item!.deliveredAt).toBeUndefined();
    expect(item!.busAt).toBeUndefined();
    expect(busEvents()).toEqual([]);

    // The bus is back: a retry puts it there, once, and marks the item delivered (which now expires in a day).
    rmSync(eventsFile(), { recursive: true });
    const delivered = await waitUntil(
      async () => (await outboxItems('PublishSucceeded.v1')).find((i) => i.detail.articleId === id),
      (i) => Boolean(i?.deliveredAt),
      'the retried delivery',
    );
    expect(delivered!.expiresAt).toBeLessThan(Date.now() / 1000 + 2 * 86_400);
    const onBus = busEvents().filter((e) => e['detail-type'] === 'PublishSucceeded.v1' && e.detail.articleId === id);
    expect(onBus).toHaveLength(1);
    expect(onBus[0]!.id).toBe(item!.detail.eventId);
  });

  it('a change whose condition fails writes no event; an event that cannot be written leaves the change unmade', async () => {
    const store = new DynamoArticleStore(db, app.tableName);
    const id = (await user.call('/api/articles', { body: { title: 'Refused', topic: 'Events', keyword: 'outbox' } }))
      .json.article._id as string;
    await draftedForPublishing(user, id);
    const drafted = (fields: { title: string }) =>
      outboxEntry(makeEvent('ArticleDrafted', { userId, articleId: id, platforms: ['wordpress'], ...fields }));

    // The blog text is not empty any more: the drafting write does not happen, nor does its event.
    const refused = drafted({ title: 'never written' });
    const result = await store.update(
      userId,
      id,
      { 'blog.content': 'a late draft' },
      { onlyIfEmpty: ['blog'], events: [refused] },
    );
    expect(result).toBeUndefined();
    const missing = await db.send(
      new GetCommand({ TableName: app.tableName, Key: eventKey(refused.event), ConsistentRead: true }),
    );
    expect(missing.Item).toBeUndefined();

    // An event whose item cannot be written (its key taken): the whole transaction fails, the change with it.
    const taken = drafted({ title: 'taken' });
    await db.send(new PutCommand({ TableName: app.tableName, Item: { ...eventKey(taken.event), type: 'other' } }));
    await expect(store.update(userId, id, { title: 'Changed' }, { events: [taken] })).rejects.toThrow();
    expect((await store.get(userId, id))!.title).toBe('Refused');
  });
});

describe('delivery is retried until it arrives', () => {
  it('the owner’s webhook down: called again until it answers 2xx, then marked delivered', async () => {
    hookFailures = 2;
    const before = hook.received.length;
    const id = (await user.call('/api/articles', { body: { title: 'Hooked', topic: 'Events', keyword: 'outbox' } }))
      .json.article._id as string;
    const item = await waitUntil(
      async () => (await outboxItems('ArticleDrafted.v1')).find((i) => i.detail.articleId === id),
      (i) => Boolean(i?.deliveredAt),
      'ArticleDrafted delivered to the webhook',
    );
    expect(item).toMatchObject({ webhook: 'delivered', webhookFailures: 2 });
    const calls = hook.received.slice(before).filter((r) => JSON.parse(r.body).detail?.articleId === id);
    expect(calls).toHaveLength(3);
    expect(new Set(calls.map((r) => JSON.parse(r.body).id))).toEqual(new Set([item!.detail.eventId]));
  });
});

describe('a job the worker could not be handed', () => {
  const service = () =>
    new ArticleService({
      articles: new DynamoArticleStore(db, app.tableName),
      objects: {} as never,
      jobs: { enqueue: (job: Job) => Promise.reject(new Error(`Lambda throttled ${job.type}`)) },
      ai: () => Promise.reject(new Error('unused')),
    });
  const input = { title: 'Not queued', topic: 'Jobs', keyword: 'queue', details: '', imageDescription: '' };

  it('a new article is kept, marked failed with what to do next, never left pending', async () => {
    const created = await service().create(userId, input);
    expect(created.generation.status).toBe('failed');
    expect(created.lastError).toEqual({ code: 'draft_not_started', message: ArticleMessages.draftNotStarted });
    const stored = (await user.call(`/api/articles/${created.id}`)).json.article;
    expect(stored.generation.status).toBe('failed');
    expect(stored.lastError.message).toBe(ArticleMessages.draftNotStarted);
  });

  it('Retry and a new image whose job cannot be handed over: failed again, not pending', async () => {
    const created = await service().create(userId, input);
    const retried = await service().retryGeneration(userId, created.id);
    expect(retried.generation.status).toBe('failed');
    const image = await service().requestImage(userId, created.id, 'A lighthouse');
    expect(image.pending).toBe(false);
    expect(image.error).toEqual({ code: 'image_not_started', message: ArticleMessages.imageNotStarted });
    expect((await user.call(`/api/image/${created.id}`)).json).toMatchObject({ pending: false });
  });
});

describe('the worker reading the table’s stream (the AWS path, over the same table)', () => {
  it('delivers the new event items of a batch, skips other items, and reports the first it could not deliver', async () => {
    const { marshall } = await import('@aws-sdk/util-dynamodb');
    const { handler: worker } = await import('../src/lambda/worker.js');
    const entry = (title: string) =>
      outboxEntry(makeEvent('ArticleDrafted', { userId, articleId: 'streamed', title, platforms: ['wordpress'] }));
    const record = (item: Record<string, unknown>, sequence: string) => ({
      eventSource: 'aws:dynamodb',
      eventName: 'INSERT',
      dynamodb: { SequenceNumber: sequence, NewImage: marshall(item, { removeUndefinedValues: true }) },
    });
    // Written as the stream would see them, without this process's own delivery.
    const [first, second] = [entry('first'), entry('second')];
    for (const e of [first, second]) await db.send(new PutCommand({ TableName: app.tableName, Item: outboxItemOf(e) }));

    const ok = await worker({
      Records: [record({ PK: 'X', SK: 'Y', type: 'article' }, '100'), record(outboxItemOf(first), '101')],
    });
    expect(ok).toEqual({ batchItemFailures: [] });
    expect(busEvents().filter((e) => e.id === first.event.detail.eventId)).toHaveLength(1);

    rmSync(eventsFile());
    mkdirSync(eventsFile()); // the bus down again
    try {
      const failed = await worker({
        Records: [record(outboxItemOf(first), '101'), record(outboxItemOf(second), '102')],
      });
      // The first was delivered before (marked): only the second is retried.
      expect(failed).toEqual({ batchItemFailures: [{ itemIdentifier: '102' }] });
    } finally {
      rmSync(eventsFile(), { recursive: true });
    }
  });
});

describe('the redelivery (docs/operations.md, Domain events)', () => {
  it('delivers the event items not delivered yet, and nothing the second time', async () => {
    const entry = outboxEntry(
      makeEvent('ArticleDrafted', { userId, articleId: 'redelivered', title: 'Left behind', platforms: ['linkedin'] }),
    );
    await db.send(new PutCommand({ TableName: app.tableName, Item: outboxItemOf(entry) }));
    const first = await redeliverEvents(db, app.tableName, eventRelay());
    expect(first.found).toBeGreaterThanOrEqual(1);
    expect(first.delivered).toBe(first.found);
    expect(busEvents().filter((e) => e.id === entry.event.detail.eventId)).toHaveLength(1);
    expect(await redeliverEvents(db, app.tableName, eventRelay())).toEqual({ found: 0, delivered: 0 });
  });
});
