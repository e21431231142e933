import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateTableCommand, DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { backfillArticleIndexes } from '../src/adapters/dynamo/article-index-backfill.js';
import { DynamoArticleStore, setIndexAttributes } from '../src/adapters/dynamo/article-store.js';
import { newArticleId, type ArticleRecord } from '../src/domain/articles.js';
import { ensureTable, startDynamoLocal, type DynamoLocal } from '../src/local/dynamo.js';
import { startLocalStack } from '../src/local/stack.js';
import { Client, registration, startTestApp, type TestApp } from './helpers/app.js';
import { ARTICLE_PAGE_DEFAULT } from '@app/shared';
import { articleRecord } from './helpers/article-record.js';

/**
 * The article lists' indexes (docs/data-model.md): GSI1 holds the articles not published on both
 * platforms, GSI2 the published ones by latest publication; every write keeps them right, the
 * backfill repairs older items, and the lists read only them.
 */
const db = DynamoDBDocumentClient.from(
  new DynamoDBClient({
    endpoint: inject('dynamoEndpoint'),
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  }),
  { marshallOptions: { removeUndefinedValues: true } },
);
const tableName = `indexes-${randomBytes(6).toString('hex')}`;
const store = new DynamoArticleStore(db, tableName);

beforeAll(() => ensureTable(inject('dynamoEndpoint'), tableName));
afterAll(() => db.destroy());

// Created long ago: the lists find these through the indexes, not as just-created articles.
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
const rawItem = async (userId: string, id: string) =>
  (await db.send(new GetCommand({ TableName: tableName, Key: { PK: `USER#${userId}`, SK: `ARTICLE#${id}` } }))).Item!;
const indexOf = (item: Record<string, unknown>) => ({
  GSI1PK: item.GSI1PK,
  GSI1SK: item.GSI1SK,
  GSI2PK: item.GSI2PK,
  GSI2SK: item.GSI2SK,
});
const publish = (userId: string, id: string, platform: 'blog' | 'linkedin', at: string) =>
  store.update(userId, id, {
    [platform === 'blog' ? 'blog.publishedToWordPress' : 'linkedin.publishedToLinkedIn']: true,
    [`${platform}.lastPublished`]: at,
    updatedAt: at,
  });

describe('index attributes on every write', () => {
  it("an article published on a channel of `posts` only (any channel of the registry) is in History's index", async () => {
    const user = `u-${randomBytes(4).toString('hex')}`;
    const a = article(user);
    await store.put(a);
    // As a channel's publish records its post (functions/src/channels/ghost/channel.ts), by whatever id it has.
    for (const [channel, at] of [
      ['ghost', '2030-03-01T10:00:00.000Z'],
      ['some-new-channel', '2030-03-02T10:00:00.000Z'],
    ] as const) {
      const posts = { ...(await store.get(user, a.id))!.posts, [channel]: { id: 'p', url: null, publishedAt: at } };
      await store.update(user, a.id, { posts });
      expect(indexOf(await rawItem(user, a.id))).toMatchObject({ GSI2PK: `PUB#${user}`, GSI2SK: `${at}#${a.id}` });
    }
    expect((await store.publishedPage(user, 10)).articles.map((x) => x.id)).toEqual([a.id]);
    // It stays on the Schedule page: neither version's own channel has it.
    expect((await store.listOpen(user)).map((x) => x.id)).toEqual([a.id]);

    // An item written before (no GSI2 attributes) is put right by the backfill.
    const old = article(user);
    const at = '2030-03-03T10:00:00.000Z';
    await db.send(
      new PutCommand({
        TableName: tableName,
        Item: {
          PK: `USER#${user}`,
          SK: `ARTICLE#${old.id}`,
          type: 'article',
          ...old,
          posts: { ghost: { id: 'g', url: 'https://ghost.example/p/', publishedAt: at } },
        },
      }),
    );
    expect(indexOf(await rawItem(user, old.id)).GSI2SK).toBeUndefined();
    await backfillArticleIndexes(db, tableName);
    expect(indexOf(await rawItem(user, old.id))).toMatchObject({ GSI2PK: `PUB#${user}`, GSI2SK: `${at}#${old.id}` });
    expect((await store.publishedPage(user, 10)).articles.map((x) => x.id)).toEqual([old.id, a.id]);
  });

  it('open from creation, published from the first platform, off the open index once both are, back if unpublished', async () => {
    const user = `u-${randomBytes(4).toString('hex')}`;
    const a = article(user);
    await store.put(a);
    expect(indexOf(await rawItem(user, a.id))).toEqual({
      GSI1PK: `OPEN#${user}`,
      GSI1SK: `ARTICLE#${a.id}`,
      GSI2PK: undefined,
      GSI2SK: undefined,
    });

    await store.update(user, a.id, { 'blog.content': 'edited' }); // no change of publication
    expect(indexOf(await rawItem(user, a.id)).GSI2PK).toBeUndefined();

    await publish(user, a.id, 'blog', '2030-02-01T10:00:00.000Z');
    expect(indexOf(await rawItem(user, a.id))).toEqual({
      GSI1PK: `OPEN#${user}`,
      GSI1SK: `ARTICLE#${a.id}`,
      GSI2PK: `PUB#${user}`,
      GSI2SK: `2030-02-01T10:00:00.000Z#${a.id}`,
    });

    await publish(user, a.id, 'linkedin', '2030-02-02T10:00:00.000Z');
    expect(indexOf(await rawItem(user, a.id))).toEqual({
      GSI1PK: undefined,
      GSI1SK: undefined,
      GSI2PK: `PUB#${user}`,
      GSI2SK: `2030-02-02T10:00:00.000Z#${a.id}`,
    });
    expect(await store.listOpen(user)).toEqual([]);

    await store.update(user, a.id, { 'linkedin.publishedToLinkedIn': false, 'linkedin.lastPublished': null });
    expect(indexOf(await rawItem(user, a.id))).toEqual({
      GSI1PK: `OPEN#${user}`,
      GSI1SK: `ARTICLE#${a.id}`,
      GSI2PK: `PUB#${user}`,
      GSI2SK: `2030-02-01T10:00:00.000Z#${a.id}`,
    });
    expect((await store.listOpen(user)).map((x) => x.id)).toEqual([a.id]);
    // The index attributes never show in what the store answers.
    expect(Object.keys((await store.get(user, a.id))!).filter((k) => k.startsWith('GSI'))).toEqual([]);
  });

  it('a publish writes its index attributes in the same transaction: a crash right after it leaves none wrong', async () => {
    const user = `u-${randomBytes(4).toString('hex')}`;
    const a = article(user);
    await store.put(a);
    // A process that dies as soon as the transaction is made: no later request of it reaches the table.
    const dying = DynamoDBDocumentClient.from(
      new DynamoDBClient({
        endpoint: inject('dynamoEndpoint'),
        region: 'us-east-1',
        credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      }),
      { marshallOptions: { removeUndefinedValues: true } },
    );
    let transacted = false;
    dying.middlewareStack.add(
      (next, context) => async (args) => {
        if (transacted) throw new Error('the process is gone');
        const out = await next(args);
        if (context.commandName === 'TransactWriteItemsCommand') transacted = true;
        return out;
      },
      { step: 'initialize' },
    );
    const crashing = new DynamoArticleStore(dying, tableName);
    await expect(
      crashing.update(user, a.id, {
        'blog.publishedToWordPress': true,
        'blog.lastPublished': '2030-03-01T10:00:00.000Z',
        updatedAt: '2030-03-01T10:00:00.000Z',
      }),
    ).rejects.toThrow('the process is gone');
    expect(transacted).toBe(true);
    expect(indexOf(await rawItem(user, a.id))).toEqual({
      GSI1PK: `OPEN#${user}`,
      GSI1SK: `ARTICLE#${a.id}`,
      GSI2PK: `PUB#${user}`,
      GSI2SK: `2030-03-01T10:00:00.000Z#${a.id}`,
    });
  });

  it('a late correction never overwrites a newer state', async () => {
    const user = `u-${randomBytes(4).toString('hex')}`;
    const a = article(user);
    await store.put(a);
    await publish(user, a.id, 'blog', '2030-03-01T00:00:00.000Z');
    const before = indexOf(await rawItem(user, a.id));
    // Computed from the article as created (unpublished): its state has changed since.
    const held = await setIndexAttributes(db, tableName, { PK: `USER#${user}`, SK: `ARTICLE#${a.id}` }, a, {
      GSI1PK: `OPEN#${user}`,
      GSI1SK: `ARTICLE#${a.id}`,
    });
    expect(held).toBe(false);
    expect(indexOf(await rawItem(user, a.id))).toEqual(before);
  });
});

describe('lists read through the indexes', () => {
  const user = `u-${randomBytes(4).toString('hex')}`;
  const ids: string[] = [];
  beforeAll(async () => {
    for (let i = 0; i < 5; i++) {
      const a = article(user, `A${i}`);
      ids.push(a.id);
      await store.put(a);
    }
    // Publication order differs from creation order: 3, then 0, then 4 (both platforms), then 1.
    await publish(user, ids[3]!, 'blog', '2030-05-01T00:00:00.000Z');
    await publish(user, ids[0]!, 'linkedin', '2030-05-02T00:00:00.000Z');
    await publish(user, ids[4]!, 'blog', '2030-05-03T00:00:00.000Z');
    await publish(user, ids[4]!, 'linkedin', '2030-05-03T01:00:00.000Z');
    await publish(user, ids[1]!, 'blog', '2030-05-04T00:00:00.000Z');
  });

  it('open: every article not published on both platforms, newest first', async () => {
    expect((await store.listOpen(user)).map((a) => a.title)).toEqual(['A3', 'A2', 'A1', 'A0']);
  });

  it('published: pages by latest publication, the last page without a next position', async () => {
    const first = await store.publishedPage(user, 2);
    expect(first.articles.map((a) => a.title)).toEqual(['A1', 'A4']);
    expect(first.next).toEqual({ id: ids[4], publishedAt: '2030-05-03T01:00:00.000Z' });
    const second = await store.publishedPage(user, 2, first.next);
    expect(second.articles.map((a) => a.title)).toEqual(['A0', 'A3']);
    expect(second.next).toBeUndefined();
    expect((await store.publishedPage(user, 4)).next).toBeUndefined();
  });

  it('all: pages newest created first', async () => {
    const first = await store.page(user, 3);
    expect(first.articles.map((a) => a.title)).toEqual(['A4', 'A3', 'A2']);
    const second = await store.page(user, 3, first.next);
    expect(second.articles.map((a) => a.title)).toEqual(['A1', 'A0']);
    expect(second.next).toBeUndefined();
  });
});

describe('backfill', () => {
  it('sets and removes index attributes where they are wrong, and a second run writes nothing', async () => {
    const user = `u-${randomBytes(4).toString('hex')}`;
    const open = article(user, 'open');
    const half = article(user, 'half');
    half.blog = { ...half.blog, publishedToWordPress: true, lastPublished: '2030-06-01T00:00:00.000Z' };
    const full = article(user, 'full');
    full.blog = { ...full.blog, publishedToWordPress: true, lastPublished: '2030-06-02T00:00:00.000Z' };
    full.linkedin = { ...full.linkedin, publishedToLinkedIn: true, lastPublished: '2030-06-03T00:00:00.000Z' };
    // As written before the indexes existed, plus one with a stale open entry.
    for (const a of [open, half, full]) {
      await db.send(
        new PutCommand({
          TableName: tableName,
          Item: {
            PK: `USER#${user}`,
            SK: `ARTICLE#${a.id}`,
            type: 'article',
            ...a,
            ...(a === full ? { GSI1PK: `OPEN#${user}`, GSI1SK: `ARTICLE#${full.id}` } : {}),
          },
        }),
      );
    }
    expect((await store.publishedPage(user, 10)).articles).toEqual([]);

    const first = await backfillArticleIndexes(db, tableName, { pageSize: 2 });
    expect(first.fixed).toBeGreaterThanOrEqual(3);
    expect(first.skipped).toBe(0);
    expect(indexOf(await rawItem(user, open.id))).toEqual({
      GSI1PK: `OPEN#${user}`,
      GSI1SK: `ARTICLE#${open.id}`,
      GSI2PK: undefined,
      GSI2SK: undefined,
    });
    expect(indexOf(await rawItem(user, half.id))).toEqual({
      GSI1PK: `OPEN#${user}`,
      GSI1SK: `ARTICLE#${half.id}`,
      GSI2PK: `PUB#${user}`,
      GSI2SK: `2030-06-01T00:00:00.000Z#${half.id}`,
    });
    expect(indexOf(await rawItem(user, full.id))).toEqual({
      GSI1PK: undefined,
      GSI1SK: undefined,
      GSI2PK: `PUB#${user}`,
      GSI2SK: `2030-06-03T00:00:00.000Z#${full.id}`,
    });
    expect((await store.listOpen(user)).map((a) => a.title)).toEqual(['half', 'open']);
    expect((await store.publishedPage(user, 10)).articles.map((a) => a.title)).toEqual(['full', 'half']);

    const second = await backfillArticleIndexes(db, tableName);
    expect(second).toEqual({ articles: first.articles, fixed: 0, skipped: 0 });
  });
});

describe('local start-up', () => {
  // A DynamoDB Local of its own: adding an index to a table with data is built by a background task that
  // the shared instance, busy with every other file's tables, could starve for minutes.
  let own: DynamoLocal;
  let db: DynamoDBDocumentClient;
  beforeAll(async () => {
    own = await startDynamoLocal();
    db = DynamoDBDocumentClient.from(
      new DynamoDBClient({
        endpoint: own.endpoint,
        region: 'us-east-1',
        credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      }),
      { marshallOptions: { removeUndefinedValues: true } },
    );
  }, 60_000);
  afterAll(async () => {
    db?.destroy();
    await own?.stop();
  });

  it('gives a table made before GSI2 the index, and the articles saved before it their index attributes', async () => {
    const old = `before-gsi2-${randomBytes(6).toString('hex')}`;
    // The table as the local stack created it before issue #16: GSI1 only.
    await db.send(
      new CreateTableCommand({
        TableName: old,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: ['PK', 'SK', 'GSI1PK', 'GSI1SK'].map((AttributeName) => ({
          AttributeName,
          AttributeType: 'S',
        })),
        KeySchema: [
          { AttributeName: 'PK', KeyType: 'HASH' },
          { AttributeName: 'SK', KeyType: 'RANGE' },
        ],
        GlobalSecondaryIndexes: [
          {
            IndexName: 'GSI1',
            KeySchema: [
              { AttributeName: 'GSI1PK', KeyType: 'HASH' },
              { AttributeName: 'GSI1SK', KeyType: 'RANGE' },
            ],
            Projection: { ProjectionType: 'ALL' },
          },
        ],
      }),
    );
    const user = `u-${randomBytes(4).toString('hex')}`;
    const draft = article(user, 'draft');
    const posted = article(user, 'posted');
    posted.blog = { ...posted.blog, publishedToWordPress: true, lastPublished: '2030-08-01T00:00:00.000Z' };
    for (const a of [draft, posted]) {
      await db.send(
        new PutCommand({ TableName: old, Item: { PK: `USER#${user}`, SK: `ARTICLE#${a.id}`, type: 'article', ...a } }),
      );
    }

    const dataDir = mkdtempSync(join(tmpdir(), 'cp-indexes-'));
    const stack = await startLocalStack({ port: 0, dataDir, dynamoEndpoint: own.endpoint, tableName: old });
    try {
      const { Table } = await db.send(new DescribeTableCommand({ TableName: old }));
      expect(Table!.GlobalSecondaryIndexes!.map((g) => g.IndexName).sort()).toEqual(['GSI1', 'GSI2']);
      const oldStore = new DynamoArticleStore(db, old);
      expect((await oldStore.listOpen(user)).map((a) => a.title)).toEqual(['posted', 'draft']);
      expect((await oldStore.publishedPage(user, 10)).articles.map((a) => a.title)).toEqual(['posted']);
    } finally {
      await stack.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }

    // Done once per table: the next start does not scan the articles again.
    const late = article(user, 'late');
    await db.send(
      new PutCommand({
        TableName: old,
        Item: { PK: `USER#${user}`, SK: `ARTICLE#${late.id}`, type: 'article', ...late },
      }),
    );
    const againDir = mkdtempSync(join(tmpdir(), 'cp-indexes-'));
    const again = await startLocalStack({
      port: 0,
      dataDir: againDir,
      dynamoEndpoint: own.endpoint,
      tableName: old,
    });
    try {
      expect(
        indexOf(
          (await db.send(new GetCommand({ TableName: old, Key: { PK: `USER#${user}`, SK: `ARTICLE#${late.id}` } })))
            .Item!,
        ),
      ).toEqual({
        GSI1PK: undefined,
        GSI1SK: undefined,
        GSI2PK: undefined,
        GSI2SK: undefined,
      });
    } finally {
      await again.stop();
      rmSync(againDir, { recursive: true, force: true });
    }
    // DynamoDB Local builds a new index on existing data slowly on a busy machine (start-up waits up to 2 minutes).
  }, 150_000);
});

describe('the list API', () => {
  let app: TestApp;
  let owner: Client;
  let ownerId: string;
  let appStore: DynamoArticleStore;
  const created: string[] = [];

  beforeAll(async () => {
    // One account here creates 51 articles in a row (a page and one more): above the hourly drafting limit
    // and the jobs in flight a person gets (domain/job-limits.ts, tested in job-limits.test.ts).
    process.env.LIMIT_DRAFTS_PER_HOUR = '100';
    process.env.LIMIT_JOBS_IN_FLIGHT = '100';
    app = await startTestApp();
    owner = new Client(app.url);
    await owner.call('/api/auth/register', { body: registration() });
    ownerId = (await owner.call('/api/auth/me')).json.user._id;
    appStore = new DynamoArticleStore(db, app.tableName);
    for (let i = 0; i < 4; i++) {
      const res = await owner.call('/api/articles', { body: { title: `P${i}`, topic: 'Pages', keyword: 'pages' } });
      created.push(res.json.article._id);
    }
    // Published in the order 2, 0, 3.
    for (const [i, at] of [
      [2, '2030-07-01T00:00:00.000Z'],
      [0, '2030-07-02T00:00:00.000Z'],
      [3, '2030-07-03T00:00:00.000Z'],
    ] as const) {
      await appStore.update(ownerId, created[i]!, { 'blog.publishedToWordPress': true, 'blog.lastPublished': at });
    }
  });
  afterAll(async () => {
    await app?.stop();
    delete process.env.LIMIT_DRAFTS_PER_HOUR;
    delete process.env.LIMIT_JOBS_IN_FLIGHT;
  });

  const titles = (res: { json: { articles: { title: string }[] } }) => res.json.articles.map((a) => a.title);

  it('pages the history by publication time, with an opaque cursor bound to the session user', async () => {
    const first = await owner.call('/api/articles/published?limit=2');
    expect(first.status).toBe(200);
    expect(titles(first)).toEqual(['P3', 'P0']);
    expect(typeof first.json.nextCursor).toBe('string');
    const second = await owner.call(`/api/articles/published?limit=2&cursor=${first.json.nextCursor}`);
    expect(titles(second)).toEqual(['P2']);
    expect(second.json.nextCursor).toBeNull();

    // Without parameters: the old shape plus nextCursor, one page.
    const plain = await owner.call('/api/articles/published');
    expect(titles(plain)).toEqual(['P3', 'P0', 'P2']);
    expect(plain.json.nextCursor).toBeNull();

    // Another user's cursor reads only that user's own partition.
    const other = new Client(app.url);
    const account = registration();
    await other.call('/api/auth/register', { body: account });
    const { _id } = (await owner.call('/api/admin/users')).json.users.find(
      (u: { email: string }) => u.email === account.email,
    );
    await owner.call(`/api/admin/users/${_id}/status`, { method: 'PATCH', body: { isActive: true } });
    await other.call('/api/auth/login', { body: { email: account.email, password: account.password } });
    const foreign = await other.call(`/api/articles/published?limit=2&cursor=${first.json.nextCursor}`);
    expect(foreign.status).toBe(200);
    expect(foreign.json).toEqual({ articles: [], nextCursor: null });
  });

  it('answers GET /api/articles without parameters with the first page only', async () => {
    const many = new Client(app.url);
    const account = registration();
    await many.call('/api/auth/register', { body: account });
    const { _id } = (await owner.call('/api/admin/users')).json.users.find(
      (u: { email: string }) => u.email === account.email,
    );
    await owner.call(`/api/admin/users/${_id}/status`, { method: 'PATCH', body: { isActive: true } });
    await many.call('/api/auth/login', { body: { email: account.email, password: account.password } });
    for (let i = 0; i <= ARTICLE_PAGE_DEFAULT; i++)
      await many.call('/api/articles', { body: { title: `M${i}`, topic: 'Many' } });
    const plain = await many.call('/api/articles');
    expect(plain.json.articles).toHaveLength(ARTICLE_PAGE_DEFAULT);
    expect(plain.json.articles[0].title).toBe(`M${ARTICLE_PAGE_DEFAULT}`);
    const rest = await many.call(`/api/articles?cursor=${plain.json.nextCursor}`);
    expect(titles(rest)).toEqual(['M0']);
    expect(rest.json.nextCursor).toBeNull();
  });

  it('pages GET /api/articles newest created first; without parameters it is the first page', async () => {
    const first = await owner.call('/api/articles?limit=3');
    expect(titles(first)).toEqual(['P3', 'P2', 'P1']);
    const second = await owner.call(`/api/articles?limit=3&cursor=${first.json.nextCursor}`);
    expect(titles(second)).toEqual(['P0']);
    expect(second.json.nextCursor).toBeNull();
    expect(titles(await owner.call('/api/articles'))).toEqual(['P3', 'P2', 'P1', 'P0']);
  });

  it('answers 400 "Invalid cursor" to a tampered cursor or one of another list', async () => {
    const all = await owner.call('/api/articles?limit=1');
    const tampered = [
      'bm90LWpzb24',
      Buffer.from(JSON.stringify({ PK: 'USER#someone-else', SK: 'ARTICLE#x' })).toString('base64url'),
      Buffer.from(JSON.stringify(['../x'])).toString('base64url'),
      all.json.nextCursor, // a cursor of GET /api/articles has no publication time
    ];
    for (const cursor of tampered) {
      const res = await owner.call(`/api/articles/published?cursor=${cursor}`);
      expect(res.status, cursor).toBe(400);
      expect(res.json.message).toBe('Invalid cursor');
    }
    expect((await owner.call('/api/articles/published?limit=101')).status).toBe(400);
  });

  it('answers 304 to a matching If-None-Match without reading any article, and 200 again after a write', async () => {
    const first = await owner.call('/api/articles/unpublished');
    const etag = first.headers.get('etag')!;
    expect(etag).toBeTruthy();
    expect(first.headers.get('cache-control')).toBe('private, no-cache');
    expect(titles(first)).toEqual(['P3', 'P2', 'P1', 'P0']);

    const send = vi.spyOn(DynamoDBDocumentClient.prototype, 'send');
    try {
      const again = await owner.call('/api/articles/unpublished', { headers: { 'if-none-match': etag } });
      expect(again.status).toBe(304);
      expect(again.text).toBe('');
      expect(again.headers.get('etag')).toBe(etag);
      const reads = send.mock.calls
        .map(([command]) => command.constructor.name)
        .filter((name) => /Query|BatchGet|Scan/.test(name));
      expect(reads).toEqual([]);
      expect(send.mock.calls.length).toBeGreaterThan(0); // the session's user was read: the spy sees the app's calls
    } finally {
      send.mockRestore();
    }

    // Each list and page has its own tag.
    const published = await owner.call('/api/articles/published', { headers: { 'if-none-match': etag } });
    expect(published.status).toBe(200);

    await owner.call(`/api/articles/${created[1]}/linkedin`, { method: 'PUT', body: { content: 'Changed' } });
    const changed = await owner.call('/api/articles/unpublished', { headers: { 'if-none-match': etag } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
  });
});
