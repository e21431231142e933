import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { inject } from 'vitest';
import { withoutOfflineDraftNote } from '@app/shared';
import { OUTBOX_ITEM_TYPE } from '../../src/adapters/dynamo/event-outbox.js';
import { DynamoArticleStore } from '../../src/adapters/dynamo/article-store.js';
import { localJobsIdle } from '../../src/adapters/local/in-process-job-queue.js';
import { startLocalStack, type LocalStack } from '../../src/local/stack.js';
import { registerApiOrigin } from './secrets.js';

export interface TestApp {
  url: string;
  tableName: string;
  dataDir: string;
  /** Stops the stack; with keepData the data folder stays (restart tests). */
  stop(keepData?: boolean): Promise<void>;
  /**
   * Every item in the table once no local job is running, for "nothing was written" assertions. An outbox
   * item's delivery marks are left out unless asked for: the relay sets them on its own retry clock (a webhook
   * down since an earlier test is retried in the background), not as part of the request under test.
   */
  items(options?: { withDeliveryMarks?: boolean }): Promise<Record<string, unknown>[]>;
}

/** The fields EventOutbox.mark sets on an outbox item (functions/src/adapters/dynamo/event-outbox.ts). */
const DELIVERY_MARKS = ['busAt', 'webhook', 'webhookFailures', 'deliveredAt', 'expiresAt'];
function withoutDeliveryMarks(item: Record<string, unknown>): Record<string, unknown> {
  if (item.type !== OUTBOX_ITEM_TYPE) return item;
  return Object.fromEntries(Object.entries(item).filter(([key]) => !DELIVERY_MARKS.includes(key)));
}

/** The app's article store over its own table: for a test that writes what no route can (another channel's post). */
export function articleStore(app: Pick<TestApp, 'tableName'>): DynamoArticleStore {
  const db = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: inject('dynamoEndpoint'),
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
    { marshallOptions: { removeUndefinedValues: true } },
  );
  return new DynamoArticleStore(db, app.tableName);
}

/** The real local stack (same handlers as Lambda) on a free port, with a table of its own. */
export async function startTestApp(): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'cp-test-'));
  const tableName = `test-${randomBytes(6).toString('hex')}`;
  process.env.SESSION_SECRET = randomBytes(32).toString('hex');
  delete process.env.PUBLIC_URL;
  delete process.env.OUTBOX_DIR; // each app writes mail into its own data folder
  delete process.env.EVENTS_FILE; // and its events
  const stack: LocalStack = await startLocalStack({
    port: 0,
    host: '127.0.0.1',
    dataDir,
    dynamoEndpoint: inject('dynamoEndpoint'),
    tableName,
  });
  registerApiOrigin(stack.url);
  const db = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: inject('dynamoEndpoint'),
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
  );
  return {
    url: stack.url,
    tableName,
    dataDir,
    async items({ withDeliveryMarks = false } = {}) {
      await localJobsIdle(); // a background job's writes land before the snapshot, not during it
      const out = await db.send(new ScanCommand({ TableName: tableName, ConsistentRead: true }));
      const items = (out.Items ?? []).sort((a, b) => `${a.PK}${a.SK}`.localeCompare(`${b.PK}${b.SK}`));
      return withDeliveryMarks ? items : items.map(withoutDeliveryMarks);
    },
    async stop(keepData = false) {
      await stack.stop();
      db.destroy();
      if (!keepData) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface CallOptions {
  method?: string;
  body?: unknown;
  /** Sent as it is, for malformed-JSON and size tests. */
  rawBody?: string;
  headers?: Record<string, string>;
}

/** A tiny API client with a cookie jar, like a browser tab. */
export class Client {
  cookie: string | undefined;
  constructor(private readonly baseUrl: string) {
    registerApiOrigin(baseUrl); // its responses go through the secrets check
  }

  async call(path: string, options: CallOptions = {}) {
    const headers: Record<string, string> = { ...options.headers };
    if (this.cookie) headers.cookie = this.cookie;
    let body: string | undefined = options.rawBody;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    if (options.rawBody !== undefined) headers['content-type'] ??= 'application/json';
    const res = await fetch(`${this.baseUrl}${path}`, {
      method: options.method ?? (body ? 'POST' : 'GET'),
      headers,
      body,
    });
    for (const setCookie of res.headers.getSetCookie()) {
      const [pair] = setCookie.split(';');
      const value = pair!.slice(pair!.indexOf('=') + 1);
      this.cookie = value ? pair : undefined;
    }
    const text = await res.text();
    let json: any;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.status, json, text, headers: res.headers };
  }
}

/** Every article of a paged list (GET /api/articles, /api/articles/published), following nextCursor. */
export async function allPages(client: Client, path: string): Promise<any[]> {
  const articles: any[] = [];
  let cursor: string | null = null;
  do {
    const separator = path.includes('?') ? '&' : '?';
    const page = await client.call(cursor ? `${path}${separator}cursor=${cursor}` : path);
    articles.push(...page.json.articles);
    cursor = page.json.nextCursor;
  } while (cursor);
  return articles;
}

export const registration = (overrides: Record<string, unknown> = {}) => ({
  name: 'Ada',
  surname: 'Lovelace',
  email: `user-${randomBytes(4).toString('hex')}@example.com`,
  password: 'correct horse',
  timezone: 'Europe/London',
  ...overrides,
});

/** Follows a provider's consent redirect (the fakes consent at once) into our callback, as a browser tab would. */
export async function completeOAuth(client: Client, authUrl: string) {
  const consent = await fetch(authUrl, { redirect: 'manual' });
  const back = new URL(consent.headers.get('location')!);
  const res = await fetch(back, { redirect: 'manual', headers: client.cookie ? { cookie: client.cookie } : {} });
  return {
    consentStatus: consent.status,
    status: res.status,
    location: res.headers.get('location') ?? '',
    callback: back,
  };
}

/**
 * Polls `probe` until `done` holds and answers its last value. The limit is wide on purpose: on a
 * busy CI machine background work may take seconds; how fast it is belongs to `npm run bench`.
 */
export async function waitUntil<T>(
  probe: () => Promise<T>,
  done: (value: T) => boolean,
  what: string,
  limitMs = 20_000,
): Promise<T> {
  const until = Date.now() + limitMs;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > until) throw new Error(`${what} did not happen within ${limitMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Polls an article until its drafts are written, then waits for the drafting job's last writes
 * (the owner's list version follows the article), so "nothing changed" snapshots start still.
 */
export async function drafted(client: Client, id: string) {
  const article = await waitUntil(
    async () => (await client.call(`/api/articles/${id}`)).json.article,
    (a) => a.generation.status !== 'pending',
    'drafting',
  );
  await localJobsIdle();
  return article;
}

/**
 * `drafted`, then the offline drafts' note taken out of both versions, as their owner does before publishing:
 * publishing refuses a version that still has it (shared/src/offline-draft.ts).
 */
export async function draftedForPublishing(client: Client, id: string) {
  const article = await drafted(client, id);
  for (const platform of ['blog', 'linkedin'] as const) {
    const content = withoutOfflineDraftNote(article[platform].content);
    if (content === article[platform].content) continue;
    const saved = await client.call(`/api/articles/${id}/${platform}`, { method: 'PUT', body: { content } });
    if (saved.status !== 200) throw new Error(`Saving the ${platform} text failed: ${JSON.stringify(saved.json)}`);
  }
  await localJobsIdle();
  return (await client.call(`/api/articles/${id}`)).json.article;
}

/**
 * An article ready to publish, as the API tests of the publishing channels set one up: created with `brief`'s topic
 * and keyword, drafted without the offline note, and (unless `withImage` is false) given a generated image.
 */
export async function publishableArticle(
  client: Client,
  title: string,
  brief: { topic: string; keyword: string },
  withImage = true,
): Promise<string> {
  const created = await client.call('/api/articles', { body: { title, ...brief } });
  if (created.status !== 201) throw new Error(`Creating the article failed: ${JSON.stringify(created.json)}`);
  const id = created.json.article._id as string;
  await draftedForPublishing(client, id);
  if (withImage) {
    await client.call(`/api/image/generate/${id}`, { body: { description: 'a printing press' } });
    await imageSettled(client, id);
  }
  return id;
}

/** Polls an article's image until its generation has ended (and its job's writes are done); answers the last status. */
export async function imageSettled(client: Client, id: string) {
  const status = await waitUntil(
    async () => (await client.call(`/api/image/${id}`)).json,
    (s) => !s.pending,
    'image generation',
  );
  await localJobsIdle();
  return status;
}
