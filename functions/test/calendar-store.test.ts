import { randomBytes } from 'node:crypto';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  DeleteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  type QueryCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DynamoArticleStore } from '../src/adapters/dynamo/article-store.js';
import { createDocumentClient } from '../src/adapters/dynamo/client.js';
import { DynamoBackfillMarkers, tableBackfills } from '../src/adapters/dynamo/backfills.js';
import { backfillCalendarEntries } from '../src/adapters/dynamo/calendar-backfill.js';
import { runBackfills } from '../src/domain/backfills.js';
import { newArticleId, type ArticleRecord } from '../src/domain/articles.js';
import { calendarOf } from '../src/domain/calendar.js';
import { ensureTable } from '../src/local/dynamo.js';
import { articleRecord } from './helpers/article-record.js';

/**
 * The calendar's entry items (docs/data-model.md, calendar): written and removed in the same transaction
 * as every article write that moves them, read by one range Query of the owner's partition, and given
 * to older articles by the backfill.
 */
const client = () => createDocumentClient({ region: 'us-east-1', dynamoEndpoint: inject('dynamoEndpoint') });
const db = client();
const tableName = `calendar-${randomBytes(6).toString('hex')}`;
const store = new DynamoArticleStore(db, tableName);

beforeAll(() => ensureTable(inject('dynamoEndpoint'), tableName));
afterAll(() => db.destroy());

let clock = Date.parse('2020-01-01T00:00:00Z');
function article(userId: string, title = 'T'): ArticleRecord {
  const at = new Date((clock += 1000)).toISOString();
  return articleRecord({
    id: newArticleId(clock),
    userId,
    title,
    details: '',
    createdAt: at,
    updatedAt: at,
    blog: { content: 'b', publishedToWordPress: false, lastPublished: null, wordpressPostUrl: null },
    linkedin: { content: 'l', publishedToLinkedIn: false, lastPublished: null, linkedinPostUrl: null },
    generation: { status: 'done', updatedAt: at },
  });
}
const newUser = () => `u-${randomBytes(4).toString('hex')}`;

/** The owner's calendar entry items, as stored (key and what they say). */
async function entryItems(userId: string) {
  const out = await db.send(
    new QueryCommand({
      TableName: tableName,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :cal)',
      ExpressionAttributeValues: { ':pk': `USER#${userId}`, ':cal': 'CAL#' },
      ConsistentRead: true,
    }),
  );
  return (out.Items ?? []).map(({ SK, articleId, platform, at, kind }) => ({ SK, articleId, platform, at, kind }));
}

describe('calendar entries on every write', () => {
  it('follow schedule, reschedule, publish and unpublish of each platform', async () => {
    const user = newUser();
    const a = article(user);
    await store.put(a);
    expect(await entryItems(user)).toEqual([]);

    await store.update(user, a.id, { 'scheduled.blog': '2030-05-01T09:00:00.000Z', updatedAt: a.updatedAt });
    await store.update(user, a.id, { 'scheduled.linkedin': '2030-05-02T09:00:00.000Z' });
    expect(await entryItems(user)).toEqual([
      {
        SK: `CAL#2030-05-01T09:00:00.000Z#${a.id}#blog`,
        articleId: a.id,
        platform: 'blog',
        at: '2030-05-01T09:00:00.000Z',
        kind: 'scheduled',
      },
      {
        SK: `CAL#2030-05-02T09:00:00.000Z#${a.id}#linkedin`,
        articleId: a.id,
        platform: 'linkedin',
        at: '2030-05-02T09:00:00.000Z',
        kind: 'scheduled',
      },
    ]);

    // Rescheduled: the old entry is gone, not left beside the new one.
    await store.update(user, a.id, { 'scheduled.blog': '2030-05-07T15:30:00.000Z' });
    expect((await entryItems(user)).map((e) => e.SK)).toEqual([
      `CAL#2030-05-02T09:00:00.000Z#${a.id}#linkedin`,
      `CAL#2030-05-07T15:30:00.000Z#${a.id}#blog`,
    ]);

    // Published early (publishing.ts clears the schedule still ahead): the entry moves to the publication time.
    await store.update(user, a.id, {
      'blog.publishedToWordPress': true,
      'blog.lastPublished': '2030-05-03T08:00:00.000Z',
      'blog.wordpressPostUrl': 'https://blog.example/?p=7',
      'scheduled.blog': null,
      updatedAt: '2030-05-03T08:00:00.000Z',
    });
    expect(await entryItems(user)).toEqual([
      expect.objectContaining({ SK: `CAL#2030-05-02T09:00:00.000Z#${a.id}#linkedin`, kind: 'scheduled' }),
      expect.objectContaining({ SK: `CAL#2030-05-03T08:00:00.000Z#${a.id}#blog`, kind: 'published' }),
    ]);

    // Unscheduled (a failed schedule puts back "none"): its entry goes.
    await store.update(user, a.id, { 'scheduled.linkedin': null });
    expect((await entryItems(user)).map((e) => e.SK)).toEqual([`CAL#2030-05-03T08:00:00.000Z#${a.id}#blog`]);

    // Marked unpublished: off the calendar until scheduled again.
    await store.update(user, a.id, { 'blog.publishedToWordPress': false, 'blog.lastPublished': null });
    expect(await entryItems(user)).toEqual([]);
  });

  it('a content edit leaves the entries alone; an article created with a schedule has its entries from the start', async () => {
    const user = newUser();
    const a = { ...article(user), scheduled: { blog: '2030-06-01T10:00:00.000Z', linkedin: null } };
    await store.put(a);
    expect((await entryItems(user)).map((e) => e.SK)).toEqual([`CAL#2030-06-01T10:00:00.000Z#${a.id}#blog`]);
    await store.update(user, a.id, { 'blog.content': 'edited', title: 'Renamed' });
    expect((await entryItems(user)).map((e) => e.SK)).toEqual([`CAL#2030-06-01T10:00:00.000Z#${a.id}#blog`]);
    // The answer is derived from the article as it is now: its new title.
    const { entries } = await calendarOf({ articles: store, now: new Date('2030-01-01T00:00:00Z') }, user, {
      from: '2030-06-01T00:00:00.000Z',
      to: '2030-06-02T00:00:00.000Z',
    });
    expect(entries).toEqual([
      {
        articleId: a.id,
        platform: 'blog',
        version: 'blog',
        at: '2030-06-01T10:00:00.000Z',
        kind: 'scheduled',
        status: 'scheduled',
        title: 'Renamed',
        url: null,
        // Without the channels given, a version's schedule is its own channel's.
        channel: 'wordpress',
      },
    ]);
  });

  it('schedules written at the same moment each keep their entry', async () => {
    const user = newUser();
    const a = article(user);
    await store.put(a);
    await Promise.all([
      store.update(user, a.id, { 'scheduled.blog': '2030-07-01T10:00:00.000Z' }),
      store.update(user, a.id, { 'scheduled.linkedin': '2030-07-02T10:00:00.000Z' }),
      store.update(user, a.id, { 'blog.content': 'meanwhile' }),
    ]);
    expect((await entryItems(user)).map((e) => e.SK)).toEqual([
      `CAL#2030-07-01T10:00:00.000Z#${a.id}#blog`,
      `CAL#2030-07-02T10:00:00.000Z#${a.id}#linkedin`,
    ]);
  });
});

describe('the range read', () => {
  it('reads only the entries in the range, by a key-range Query of the owner partition, never another user', async () => {
    const user = newUser();
    const other = newUser();
    // 40 articles over 40 days, one platform each; another user's article in the same range.
    const articles: ArticleRecord[] = [];
    for (let day = 0; day < 40; day++) {
      const a = {
        ...article(user, `Day ${day}`),
        scheduled: {
          blog: new Date(Date.parse('2030-01-01T12:00:00Z') + day * 86_400_000).toISOString(),
          linkedin: null,
        },
      };
      articles.push(a);
      await store.put(a);
    }
    await store.put({
      ...article(other, 'Not yours'),
      scheduled: { blog: '2030-01-05T12:00:00.000Z', linkedin: null },
    });

    // A client that records every Query it sends and how many items DynamoDB read for it.
    const watched = client();
    const queries: { input: QueryCommandInput; scanned: number }[] = [];
    watched.middlewareStack.add(
      (next, context) => async (args) => {
        const out = await next(args);
        if (context.commandName === 'QueryCommand') {
          queries.push({
            input: args.input as QueryCommandInput,
            scanned: (out.output as { ScannedCount?: number }).ScannedCount ?? -1,
          });
        }
        return out;
      },
      { step: 'initialize' },
    );
    const watchedStore = new DynamoArticleStore(watched, tableName);
    const read = await watchedStore.calendarRange(user, '2030-01-10T00:00:00.000Z', '2030-01-17T00:00:00.000Z');
    watched.destroy();

    expect(read.map((a) => a.title)).toEqual(['Day 9', 'Day 10', 'Day 11', 'Day 12', 'Day 13', 'Day 14', 'Day 15']);
    expect(queries).toHaveLength(1);
    expect(queries[0]!.input.KeyConditionExpression).toBe('PK = :pk AND SK BETWEEN :from AND :to');
    expect(queries[0]!.input.IndexName).toBeUndefined();
    expect(queries[0]!.input.ExpressionAttributeValues).toEqual({
      ':pk': `USER#${user}`,
      ':from': 'CAL#2030-01-10T00:00:00.000Z',
      ':to': 'CAL#2030-01-17T00:00:00.000Z~',
    });
    // DynamoDB read the 7 entries of the week, not the 40 of the user nor their articles.
    expect(queries[0]!.scanned).toBe(7);

    const theirs = await store.calendarRange(other, '2030-01-01T00:00:00.000Z', '2030-02-01T00:00:00.000Z');
    expect(theirs.map((a) => a.title)).toEqual(['Not yours']);
  });

  it('the range is half-open: an entry at `to` belongs to the next range', async () => {
    const user = newUser();
    const a = {
      ...article(user),
      scheduled: { blog: '2030-03-02T00:00:00.000Z', linkedin: '2030-03-01T23:59:00.000Z' },
    };
    await store.put(a);
    const first = await calendarOf({ articles: store }, user, {
      from: '2030-03-01T00:00:00.000Z',
      to: '2030-03-02T00:00:00.000Z',
    });
    expect(first.entries.map((e) => e.platform)).toEqual(['linkedin']);
    const next = await calendarOf({ articles: store }, user, {
      from: '2030-03-02T00:00:00.000Z',
      to: '2030-03-03T00:00:00.000Z',
    });
    expect(next.entries.map((e) => e.platform)).toEqual(['blog']);
  });
});

describe('backfill', () => {
  it('gives older articles their entries, removes entries no article accounts for, and a second run writes nothing', async () => {
    const user = newUser();
    const scheduled = {
      ...article(user, 'Older, scheduled'),
      scheduled: { blog: '2031-01-01T10:00:00.000Z', linkedin: null },
    };
    const published = {
      ...article(user, 'Older, published'),
      linkedin: {
        content: 'l',
        publishedToLinkedIn: true,
        lastPublished: '2031-01-02T10:00:00.000Z',
        linkedinPostUrl: 'https://www.linkedin.com/feed/update/urn:li:share:1',
      },
    };
    // Written as items of before the calendar: without entries.
    for (const a of [scheduled, published]) {
      await db.send(
        new PutCommand({
          TableName: tableName,
          Item: { PK: `USER#${user}`, SK: `ARTICLE#${a.id}`, type: 'article', ...a },
        }),
      );
    }
    // An entry left over for an article that is gone.
    const stray = { PK: `USER#${user}`, SK: 'CAL#2031-01-03T10:00:00.000Z#gone#blog' };
    await db.send(
      new PutCommand({
        TableName: tableName,
        Item: { ...stray, type: 'calendar-entry', articleId: 'gone', platform: 'blog', at: '2031-01-03T10:00:00.000Z' },
      }),
    );

    const first = await backfillCalendarEntries(db, tableName);
    expect(first.fixed).toBeGreaterThanOrEqual(3);
    expect((await entryItems(user)).map((e) => e.SK)).toEqual([
      `CAL#2031-01-01T10:00:00.000Z#${scheduled.id}#blog`,
      `CAL#2031-01-02T10:00:00.000Z#${published.id}#linkedin`,
    ]);
    const { entries } = await calendarOf({ articles: store }, user, {
      from: '2031-01-01T00:00:00.000Z',
      to: '2031-01-05T00:00:00.000Z',
    });
    expect(entries.map((e) => [e.title, e.kind, e.url])).toEqual([
      ['Older, scheduled', 'scheduled', null],
      ['Older, published', 'published', 'https://www.linkedin.com/feed/update/urn:li:share:1'],
    ]);

    const second = await backfillCalendarEntries(db, tableName);
    expect(second.fixed).toBe(0);
  });

  it('a correction cancelled by another write in flight or by throttling is made again, not counted as done by that write', async () => {
    const table = `calendar-conflict-${randomBytes(4).toString('hex')}`;
    await ensureTable(inject('dynamoEndpoint'), table);
    const user = newUser();
    const a = { ...article(user), scheduled: { blog: '2031-03-01T10:00:00.000Z', linkedin: null } };
    await db.send(
      new PutCommand({ TableName: table, Item: { PK: `USER#${user}`, SK: `ARTICLE#${a.id}`, type: 'article', ...a } }),
    );
    // The article's condition held; the transaction met another one on the item, then was throttled.
    const refusals = ['TransactionConflict', 'ThrottlingError'];
    let transactions = 0;
    const busy = {
      send: (command: unknown) => {
        if (command instanceof TransactWriteCommand && transactions++ < refusals.length) {
          return Promise.reject(
            new TransactionCanceledException({
              message: 'Transaction cancelled',
              $metadata: {},
              CancellationReasons: [{ Code: refusals[transactions - 1] }, { Code: 'None' }],
            }),
          );
        }
        return db.send(command as TransactWriteCommand);
      },
    } as unknown as DynamoDBDocumentClient;

    expect(await backfillCalendarEntries(busy, table)).toMatchObject({ articles: 1, fixed: 1, skipped: 0 });
    const entryKey = { PK: `USER#${user}`, SK: `CAL#2031-03-01T10:00:00.000Z#${a.id}#blog` };
    expect((await db.send(new GetCommand({ TableName: table, Key: entryKey }))).Item).toBeDefined();
  });

  it('an article rescheduled between the scan and its correction is left to that write (skipped), whose entries stay', async () => {
    const table = `calendar-moved-${randomBytes(4).toString('hex')}`;
    await ensureTable(inject('dynamoEndpoint'), table);
    const tableStore = new DynamoArticleStore(db, table);
    const user = newUser();
    const a = { ...article(user), scheduled: { blog: '2031-04-01T10:00:00.000Z', linkedin: null } };
    await db.send(
      new PutCommand({ TableName: table, Item: { PK: `USER#${user}`, SK: `ARTICLE#${a.id}`, type: 'article', ...a } }),
    );
    let moved = false;
    const racing = {
      send: async (command: unknown) => {
        if (command instanceof TransactWriteCommand && !moved) {
          moved = true;
          await tableStore.update(user, a.id, { 'scheduled.blog': '2031-04-02T10:00:00.000Z' });
        }
        return db.send(command as TransactWriteCommand);
      },
    } as unknown as DynamoDBDocumentClient;

    expect(await backfillCalendarEntries(racing, table)).toMatchObject({ articles: 1, fixed: 0, skipped: 1 });
    const { Items } = await db.send(
      new QueryCommand({
        TableName: table,
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :cal)',
        ExpressionAttributeValues: { ':pk': `USER#${user}`, ':cal': 'CAL#' },
      }),
    );
    expect(Items?.map((item) => item.SK)).toEqual([`CAL#2031-04-02T10:00:00.000Z#${a.id}#blog`]);
  });

  it('runs once per table at start-up (a marker), so a later start scans nothing', async () => {
    const table = `calendar-once-${randomBytes(4).toString('hex')}`;
    await ensureTable(inject('dynamoEndpoint'), table);
    const user = newUser();
    const a = { ...article(user), scheduled: { blog: '2031-02-01T10:00:00.000Z', linkedin: null } };
    await db.send(
      new PutCommand({ TableName: table, Item: { PK: `USER#${user}`, SK: `ARTICLE#${a.id}`, type: 'article', ...a } }),
    );
    // The calendar entry of the registry, with its marker (adapters/dynamo/backfills.ts).
    const once = () =>
      runBackfills(
        tableBackfills(db, table).filter((b) => b.name === 'calendar-entries-v1'),
        { markers: new DynamoBackfillMarkers(db, table), indexes: { describe: async () => [] }, indexWaitUntil: 0 },
      );
    expect(await once()).toEqual({ status: 'done', ran: ['calendar-entries-v1'] });
    const entryKey = { PK: `USER#${user}`, SK: `CAL#2031-02-01T10:00:00.000Z#${a.id}#blog` };
    expect((await db.send(new GetCommand({ TableName: table, Key: entryKey }))).Item).toBeDefined();
    // Removed behind its back: a second start does not look again.
    await db.send(new DeleteCommand({ TableName: table, Key: entryKey }));
    expect(await once()).toEqual({ status: 'done', ran: [] });
    expect((await db.send(new GetCommand({ TableName: table, Key: entryKey }))).Item).toBeUndefined();
  });
});
