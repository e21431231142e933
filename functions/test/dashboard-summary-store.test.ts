import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dashboardFromArticles, dashboardFromSummary, summaryOf, type DashboardArticle } from '@app/shared';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import {
  DynamoSummaryStore,
  SUMMARY_SHARDS,
  backfillDashboardSummaries,
  shardOf,
  summaryKey,
  type TransactItem,
} from '../src/adapters/dynamo/summary-store.js';
import type { ArticleRecord } from '../src/domain/articles.js';
import { Client, registration, startTestApp, type TestApp } from './helpers/app.js';
import { channelIds } from '../src/channels/registry.js';

/** The summary item against DynamoDB Local: transactions with the article's write, conflicts, the backfill. */
let app: TestApp;
let db: DynamoDBDocumentClient;
let store: DynamoSummaryStore;
const now = new Date('2026-11-25T12:00:00Z');

beforeAll(async () => {
  app = await startTestApp();
  db = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: inject('dynamoEndpoint'),
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
  );
  store = new DynamoSummaryStore(db, app.tableName, () => now);
});
afterAll(async () => {
  db?.destroy();
  await app?.stop();
});

type Stored = DashboardArticle & { id: string };

const article = (id: string, keyword: string, publishedAt?: string): Stored => ({
  id,
  keyword,
  tags: ['aws'],
  blog: { content: '', publishedToWordPress: Boolean(publishedAt), lastPublished: publishedAt ?? null },
  linkedin: { content: '', publishedToLinkedIn: false, lastPublished: null },
  scheduled: { blog: null, linkedin: null },
  lastError: null,
});

/** The article's Put as the article store would send it: only onto what `before` was (here: no item yet). */
const createItem = (userId: string, a: Stored): TransactItem => ({
  Put: {
    TableName: app.tableName,
    Item: { PK: `USER#${userId}`, SK: `ARTICLE#${a.id}`, type: 'article', ...a },
    ConditionExpression: 'attribute_not_exists(PK)',
  },
});

/** The versions of the owner's shards, added up: how many times they were written. */
const versions = async (userId: string) =>
  (await Promise.all(Array.from({ length: SUMMARY_SHARDS }, (_, s) => store.getShard(userId, s)))).reduce(
    (sum, shard) => sum + shard.version,
    0,
  );

describe('the dashboard summary store', () => {
  it('writes the summary with each article in one transaction, also when 50 writes meet (a bulk import)', async () => {
    const user = 'u-concurrent';
    const articles = Array.from({ length: 50 }, (_, i) =>
      article(`a${i}`, i % 2 ? 'serverless costs' : 'ai', i % 3 ? '2026-11-24T08:00:00Z' : undefined),
    );
    const results = await Promise.all(
      articles.map((a) => store.writeWithArticle(user, a.id, undefined, a, createItem(user, a))),
    );
    expect(results).toEqual(articles.map(() => 'written'));
    const { summary, shards } = await store.get(user);
    expect(summary).toEqual(summaryOf(articles, now));
    expect(shards).toBe(SUMMARY_SHARDS);
    // Each creation moved its own shard once.
    expect(await versions(user)).toBe(50);
    expect(dashboardFromSummary(summary, [], 'Asia/Kathmandu', now, channelIds).distribution.total).toBe(33);
  });

  it('writes neither the article nor the summary when the article is not what the change was computed from', async () => {
    const user = 'u-condition';
    const a = article('x', 'first');
    expect(await store.writeWithArticle(user, a.id, undefined, a, createItem(user, a))).toBe('written');
    // The same creation again: the article exists now, so its condition fails.
    const again = { ...a, keyword: 'second' };
    expect(await store.writeWithArticle(user, again.id, undefined, again, createItem(user, again))).toBe(
      'article-condition-failed',
    );
    expect((await store.get(user)).summary).toEqual(summaryOf([a], now));
  });

  it('rebuilds a summary from the articles (the backfill), and a second run changes nothing', async () => {
    const user = 'u-backfill';
    const articles = [
      article('b1', 'Serverless', '2026-11-23T00:00:00Z'),
      article('b2', 'costs'),
      article('b3', 'ai', '2026-01-01T00:00:00Z'), // older than the intervals kept
    ];
    // Articles written before summaries existed: no summary item.
    for (const a of articles) {
      await db.send(
        new PutCommand({ TableName: app.tableName, Item: { PK: `USER#${user}`, SK: `ARTICLE#${a.id}`, ...a } }),
      );
    }
    expect((await store.get(user)).shards).toBe(0);
    const first = await store.rebuild(user);
    expect(first.changed).toBe(true);
    expect(first.summary).toEqual(summaryOf(articles, now));
    const second = await store.rebuild(user);
    expect(second).toEqual({ changed: false, summary: first.summary });
    const shardsUsed = [...new Set(articles.map((a) => shardOf(a.id)))].sort();
    expect(await versions(user)).toBe(shardsUsed.length);
    expect(dashboardFromSummary((await store.get(user)).summary, articles, 'UTC', now, channelIds)).toEqual(
      dashboardFromArticles(articles, 'UTC', now, channelIds),
    );
    // Only the shards holding articles were added beside them.
    const items = (await app.items()).filter((i) => i.PK === `USER#${user}`);
    expect(items.map((i) => i.SK)).toEqual([
      'ARTICLE#b1',
      'ARTICLE#b2',
      'ARTICLE#b3',
      ...shardsUsed.map((shard) => summaryKey(user, shard).SK),
    ]);
  });

  it('backfills the summaries of users whose articles predate them, once: a second run writes nothing', async () => {
    const owner = new Client(app.url);
    const userId = (await owner.call('/api/auth/register', { body: registration() })).json.user._id as string;
    const old = [article('o1', 'legacy posts', '2026-11-20T10:00:00Z'), article('o2', 'ai')];
    for (const a of old) {
      await db.send(
        new PutCommand({ TableName: app.tableName, Item: { PK: `USER#${userId}`, SK: `ARTICLE#${a.id}`, ...a } }),
      );
    }
    const backfill = () => backfillDashboardSummaries(db, app.tableName, { pageSize: 1 });
    expect(await backfill()).toEqual({ users: 1, rebuilt: 1 });
    expect((await store.get(userId)).summary).toEqual(summaryOf(old, new Date()));
    const written = await versions(userId);
    expect(await backfill()).toEqual({ users: 1, rebuilt: 0 });
    expect(await versions(userId)).toBe(written);
  });

  it('drops on reading what no dashboard reads again: weeks and intervals older than six weeks, counts at 0', async () => {
    const user = 'u-prune';
    const a = article('p1', 'pruned words', '2026-11-24T08:00:00Z');
    await store.writeWithArticle(user, a.id, undefined, a, createItem(user, a));
    const key = summaryKey(user, shardOf(a.id));
    // An interval and a week of May, and a keyword whose articles changed theirs, as writes leave them.
    await db.send(
      new UpdateCommand({
        TableName: app.tableName,
        Key: key,
        UpdateExpression: 'SET #old = :one, #oldWeek = :one, #zero = :zero',
        ExpressionAttributeNames: { '#old': 'b:blog:1975000', '#oldWeek': 'w:linkedin:2026-W20', '#zero': 'kw:gone' },
        ExpressionAttributeValues: { ':one': 1, ':zero': 0 },
      }),
    );
    expect((await store.get(user)).summary).toEqual(summaryOf([a], now));
    const item = (await db.send(new GetCommand({ TableName: app.tableName, Key: key, ConsistentRead: true }))).Item!;
    expect(
      Object.keys(item).filter((name) => ['b:blog:1975000', 'w:linkedin:2026-W20', 'kw:gone'].includes(name)),
    ).toEqual([]);
    expect(item['kw:pruned']).toBe(1);
  });

  it('stays equal to the articles through random writes of the article store, some at the same time', async () => {
    const { DynamoArticleStore } = await import('../src/adapters/dynamo/article-store.js');
    const articleStore = new DynamoArticleStore(db, app.tableName);
    const summaries = new DynamoSummaryStore(db, app.tableName);
    const words = ['ai', 'serverless costs', 'growth', 'x', 'Café'];
    const op = fc.oneof(
      fc.record({ kind: fc.constant('create' as const), keyword: fc.constantFrom(...words) }),
      fc.record({
        kind: fc.constant('publish' as const),
        pick: fc.nat(),
        platform: fc.constantFrom('blog' as const, 'linkedin' as const),
        minutesAgo: fc.integer({ min: 0, max: 60 * 24 * 50 }),
      }),
      fc.record({
        kind: fc.constant('keywords' as const),
        pick: fc.nat(),
        keyword: fc.constantFrom(...words),
        tags: fc.array(fc.constantFrom(...words), { maxLength: 2 }),
      }),
      fc.record({ kind: fc.constant('content' as const), pick: fc.nat() }),
    );
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(op, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 5 }),
        async (batches) => {
          const userId = `u-random-${run++}`;
          const ids: string[] = [];
          for (const batch of batches) {
            // The writes of a batch go at the same time.
            await Promise.all(
              batch.map(async (o, i) => {
                if (o.kind === 'create') {
                  const id = `r${ids.length}-${i}-${Math.random().toString(36).slice(2, 8)}`;
                  ids.push(id);
                  const at = new Date().toISOString();
                  await articleStore.put({
                    ...article(id, o.keyword),
                    userId,
                    title: id,
                    topic: 't',
                    details: '',
                    imageDescription: '',
                    createdAt: at,
                    updatedAt: at,
                    blog: { content: '', publishedToWordPress: false, lastPublished: null, wordpressPostUrl: null },
                    linkedin: { content: '', publishedToLinkedIn: false, lastPublished: null, linkedinPostUrl: null },
                    lastError: null,
                    linkedInMode: 'personal',
                    generation: { status: 'done', updatedAt: at },
                    image: null,
                    imageJob: null,
                  });
                  return;
                }
                if (!ids.length) return;
                const id = ids[o.pick % ids.length]!;
                if (o.kind === 'publish') {
                  const at = new Date(Date.now() - o.minutesAgo * 60_000).toISOString();
                  await articleStore.update(
                    userId,
                    id,
                    o.platform === 'blog'
                      ? { 'blog.publishedToWordPress': true, 'blog.lastPublished': at }
                      : { 'linkedin.publishedToLinkedIn': true, 'linkedin.lastPublished': at },
                  );
                } else if (o.kind === 'keywords') {
                  await articleStore.update(userId, id, { keyword: o.keyword, tags: o.tags });
                } else {
                  await articleStore.update(userId, id, { 'blog.content': 'edited' });
                }
              }),
            );
          }
          const all: ArticleRecord[] = [];
          let page = await articleStore.page(userId, 100);
          for (all.push(...page.articles); page.next; all.push(...page.articles))
            page = await articleStore.page(userId, 100, page.next);
          expect((await summaries.get(userId)).summary).toEqual(summaryOf(all, new Date()));
        },
      ),
      { numRuns: 25 },
    );
  });
});
