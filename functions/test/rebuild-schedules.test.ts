import { randomBytes } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { DynamoArticleStore } from '../src/adapters/dynamo/article-store.js';
import { createDocumentClient } from '../src/adapters/dynamo/client.js';
import { DynamoUserStore } from '../src/adapters/dynamo/user-store.js';
import { newArticleId, type ArticleRecord } from '../src/domain/articles.js';
import type { ScheduledRun, Scheduler } from '../src/domain/ports.js';
import { rebuildSchedules, runsAhead } from '../src/domain/rebuild-schedules.js';
import { ensureTable } from '../src/local/dynamo.js';
import { articleRecord } from './helpers/article-record.js';

/**
 * The schedule group lost: every future run is made again from the table (docs/operations.md, Rebuilding the
 * schedules), read through the users index and each owner's calendar entries, over DynamoDB Local.
 */
const db = createDocumentClient({ region: 'us-east-1', dynamoEndpoint: inject('dynamoEndpoint') });
const tableName = `rebuild-${randomBytes(6).toString('hex')}`;
const articles = new DynamoArticleStore(db, tableName);
const users = new DynamoUserStore(db, tableName);

beforeAll(() => ensureTable(inject('dynamoEndpoint'), tableName));
afterAll(() => db.destroy());

const now = Date.now();
const at = (hours: number) => new Date(now + hours * 3600_000).toISOString();

async function addUser(id: string): Promise<void> {
  // As the user store keeps an account for the admin list (GSI1 USERS).
  await db.send(
    new PutCommand({
      TableName: tableName,
      Item: { PK: `USER#${id}`, SK: 'PROFILE', GSI1PK: 'USERS', GSI1SK: `${at(-48)}#${id}`, type: 'user', id },
    }),
  );
}

let seq = 0;
async function addArticle(userId: string, changes: Partial<ArticleRecord>): Promise<string> {
  const id = newArticleId(now - 86_400_000 + seq++);
  await articles.put(articleRecord({ id, userId, ...changes }));
  return id;
}

/** EventBridge Scheduler's create-or-move as a map of schedule name to run: making one twice leaves one. */
function recordingScheduler() {
  const schedules = new Map<string, ScheduledRun>();
  const scheduler: Pick<Scheduler, 'schedule'> = {
    schedule: vi.fn(async (run: ScheduledRun) => void schedules.set(`${run.articleId}-${run.platform}`, run)),
  };
  return { scheduler, schedules };
}

const published = (when: string) => ({
  content: 'Blog text',
  publishedToWordPress: true,
  lastPublished: when,
  wordpressPostUrl: 'https://blog.example.com/p',
});

describe('rebuilding the schedules from the table', () => {
  const expected: ScheduledRun[] = [];
  let moved: string;
  let past: string;

  beforeAll(async () => {
    for (const user of ['u-ann', 'u-bob', 'u-cal']) await addUser(user);
    const both = await addArticle('u-ann', { scheduled: { blog: at(2), linkedin: at(30) } });
    expected.push(
      { userId: 'u-ann', articleId: both, platform: 'blog', scheduledFor: at(2) },
      { userId: 'u-ann', articleId: both, platform: 'linkedin', scheduledFor: at(30) },
    );
    // Moved after it was put: the calendar follows the article, and so does the rebuilt schedule.
    moved = await addArticle('u-bob', { scheduled: { blog: at(5), linkedin: null } });
    await articles.update('u-bob', moved, { 'scheduled.blog': at(700) });
    expected.push({ userId: 'u-bob', articleId: moved, platform: 'blog', scheduledFor: at(700) });
    // Published on the blog (its entry is the publication), LinkedIn still ahead.
    const half = await addArticle('u-bob', {
      blog: published(at(-3)),
      scheduled: { blog: at(-3), linkedin: at(4) },
    });
    expected.push({ userId: 'u-bob', articleId: half, platform: 'linkedin', scheduledFor: at(4) });
    // Its time has passed (the run fired, or was missed while the group was gone).
    past = await addArticle('u-cal', { scheduled: { blog: at(-1), linkedin: null } });
    // Nothing scheduled at all.
    await addArticle('u-cal', {});
  });

  it('makes every run from now on, exactly as the articles say (one per article and platform, nothing published or past)', async () => {
    const { scheduler, schedules } = recordingScheduler();
    const result = await rebuildSchedules(
      { userIds: async () => (await users.list()).map((u) => u.id), articles, scheduler },
      new Date(now),
    );
    expect(result).toEqual({ users: 3, scheduled: expected.length, failed: 0 });
    expect([...schedules.values()].sort(byKey)).toEqual([...expected].sort(byKey));
  });

  it('is idempotent: a second rebuild makes the same schedules again (create-or-move), and changes nothing else', async () => {
    const { scheduler, schedules } = recordingScheduler();
    const deps = { userIds: async () => (await users.list()).map((u) => u.id), articles, scheduler };
    await rebuildSchedules(deps, new Date(now));
    const first = new Map(schedules);
    const second = await rebuildSchedules(deps, new Date(now));
    expect(second.scheduled).toBe(expected.length);
    expect(schedules).toEqual(first);
  });

  it('from a moment in the past (when the group was lost), the runs since then are made too', async () => {
    const { scheduler, schedules } = recordingScheduler();
    await rebuildSchedules(
      { userIds: async () => (await users.list()).map((u) => u.id), articles, scheduler },
      new Date(now - 2 * 3600_000),
    );
    expect(schedules.get(`${past}-blog`)).toEqual({
      userId: 'u-cal',
      articleId: past,
      platform: 'blog',
      scheduledFor: at(-1),
    });
    expect(schedules.size).toBe(expected.length + 1);
  });

  it('a run whose schedule cannot be made is reported and the others are still made', async () => {
    const failing: Pick<Scheduler, 'schedule'> = {
      schedule: async (run) => {
        if (run.articleId === moved) throw new Error('ThrottlingException');
      },
    };
    const reported: [string, unknown][] = [];
    const result = await rebuildSchedules(
      {
        userIds: async () => (await users.list()).map((u) => u.id),
        articles,
        scheduler: failing,
        onRun: (run, error) => reported.push([run.articleId, error]),
      },
      new Date(now),
    );
    expect(result).toEqual({ users: 3, scheduled: expected.length - 1, failed: 1 });
    expect(reported.filter(([, error]) => error)).toEqual([[moved, new Error('ThrottlingException')]]);
  });

  it('runsAhead: a platform published, not scheduled, or scheduled before the moment has no run', () => {
    const article = articleRecord({ blog: published(at(-3)), scheduled: { blog: at(1), linkedin: at(-1) } });
    expect(runsAhead('u1', article, at(0))).toEqual([]);
    expect(runsAhead('u1', articleRecord({ scheduled: { blog: null, linkedin: at(1) } }), at(0))).toEqual([
      { userId: 'u1', articleId: 'a1', platform: 'linkedin', scheduledFor: at(1) },
    ]);
  });
});

const byKey = (a: ScheduledRun, b: ScheduledRun) =>
  `${a.articleId}${a.platform}`.localeCompare(`${b.articleId}${b.platform}`);
