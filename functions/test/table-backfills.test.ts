import { randomBytes } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { DynamoBackfillMarkers, TABLE_BACKFILL_NAMES, runTableBackfills } from '../src/adapters/dynamo/backfills.js';
import { createDocumentClient, createDynamoClient } from '../src/adapters/dynamo/client.js';
import { dueSlotsBetween } from '../src/adapters/dynamo/due-slots.js';
import { connectionsExpiringBetween } from '../src/adapters/dynamo/time-keys.js';
import { newArticleId, type ArticleRecord } from '../src/domain/articles.js';
import {
  IndexNotActiveError,
  type BackfillClock,
  type BackfillProgress,
  type IndexState,
  type TableIndexes,
} from '../src/domain/backfills.js';
import { ensureTable } from '../src/local/dynamo.js';
import { articleRecord } from './helpers/article-record.js';

/**
 * The backfills' registry run (adapters/dynamo/backfills.ts, domain/backfills.ts) over DynamoDB Local: each
 * once per table (its marker), in steps that resume from the marker, after the indexes it needs are built.
 */
const endpoint = () => inject('dynamoEndpoint');
const db = createDocumentClient({ region: 'us-east-1', dynamoEndpoint: endpoint() });
const client: DynamoDBClient = createDynamoClient({ region: 'us-east-1', dynamoEndpoint: endpoint() });
afterAll(() => {
  db.destroy();
  client.destroy();
});

const newTable = async (what: string) => {
  const table = `backfills-${what}-${randomBytes(4).toString('hex')}`;
  await ensureTable(endpoint(), table);
  return table;
};

let clock = Date.parse('2020-01-01T00:00:00Z');
function article(userId: string, changes: Partial<ArticleRecord> = {}): ArticleRecord {
  const at = new Date((clock += 1000)).toISOString();
  return articleRecord({ id: newArticleId(clock), userId, createdAt: at, updatedAt: at, ...changes });
}

/**
 * A table as an older version left it: an account with five articles written before the list indexes, the
 * calendar entries and the dashboard summary existed (no index attributes, no entries, no summary), two of
 * them scheduled and one published on LinkedIn.
 */
async function olderTable(what: string): Promise<{ table: string; user: string; articles: ArticleRecord[] }> {
  const table = await newTable(what);
  const user = `u-${randomBytes(4).toString('hex')}`;
  await db.send(
    new PutCommand({
      TableName: table,
      Item: { PK: `USER#${user}`, SK: 'PROFILE', GSI1PK: 'USERS', GSI1SK: `2020-01-01T00:00:00.000Z#${user}` },
    }),
  );
  const articles = [
    article(user, { scheduled: { blog: '2031-01-01T10:00:00.000Z', linkedin: null } }),
    article(user),
    article(user, {
      keyword: 'serverless',
      linkedin: {
        content: 'l',
        publishedToLinkedIn: true,
        lastPublished: '2030-01-02T10:00:00.000Z',
        linkedinPostUrl: 'https://www.linkedin.com/feed/update/urn:li:share:1',
      },
    }),
    article(user, { scheduled: { blog: null, linkedin: '2031-01-03T10:00:00.000Z' } }),
    article(user),
  ];
  for (const a of articles) {
    await db.send(
      new PutCommand({ TableName: table, Item: { PK: `USER#${user}`, SK: `ARTICLE#${a.id}`, type: 'article', ...a } }),
    );
  }
  return { table, user, articles };
}

/** Every item of the user's partition by key prefix (strongly consistent). */
async function partition(table: string, user: string, prefix: string) {
  const { Items } = await db.send(
    new QueryCommand({
      TableName: table,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': `USER#${user}`, ':prefix': prefix },
      ConsistentRead: true,
    }),
  );
  return Items ?? [];
}

const marker = async (table: string, name: string) =>
  (
    await db.send(
      new GetCommand({ TableName: table, Key: { PK: 'META', SK: `BACKFILL#${name}` }, ConsistentRead: true }),
    )
  ).Item;

/** The document client, counting the commands sent through it by name. */
function counting(): { db: DynamoDBDocumentClient; sent: string[] } {
  const sent: string[] = [];
  const spy = {
    send: (command: { constructor: { name: string } }) => {
      sent.push(command.constructor.name);
      return db.send(command as never);
    },
  } as unknown as DynamoDBDocumentClient;
  return { db: spy, sent };
}

/** Indexes all built, as the table has them. */
const built: TableIndexes = {
  describe: async () => [
    { name: 'GSI1', status: 'ACTIVE', backfilling: false },
    { name: 'GSI2', status: 'ACTIVE', backfilling: false },
  ],
};

/** A clock whose sleeps pass at once (and move it on). */
function fakeClock(start = 0): BackfillClock & { slept: number[] } {
  let now = start;
  const slept: number[] = [];
  return {
    slept,
    now: () => now,
    sleep: async (ms) => {
      slept.push(ms);
      now += ms;
    },
  };
}

describe('the registry', () => {
  it('names each backfill once, the article indexes, the calendar entries and the dashboard summaries', () => {
    expect(TABLE_BACKFILL_NAMES).toEqual([
      'article-indexes-v1',
      'calendar-entries-v1',
      'dashboard-summaries-v1',
      'article-indexes-v2',
      'dashboard-summaries-v2',
      'calendar-entries-v2',
      'due-slots-v1',
    ]);
  });
});

describe('a run over a table an older version wrote', () => {
  it('runs each backfill once: the data is filled in, each marker set; a second run reads the markers only', async () => {
    const { table, user, articles } = await olderTable('once');
    const first = counting();
    const outcome = await runTableBackfills(first.db, client, table, { pageSize: 2, indexes: built });
    expect(outcome).toEqual({ status: 'done', ran: [...TABLE_BACKFILL_NAMES] });

    // The list indexes' attributes, the calendar entries and the summary.
    const items = await partition(table, user, 'ARTICLE#');
    expect(items.filter((i) => i.GSI1PK === `OPEN#${user}`)).toHaveLength(5);
    expect(items.filter((i) => i.GSI2PK === `PUB#${user}`).map((i) => i.id)).toEqual([articles[2]!.id]);
    expect((await partition(table, user, 'CAL#')).map((e) => e.SK)).toEqual([
      `CAL#2030-01-02T10:00:00.000Z#${articles[2]!.id}#linkedin`,
      `CAL#2031-01-01T10:00:00.000Z#${articles[0]!.id}#blog`,
      `CAL#2031-01-03T10:00:00.000Z#${articles[3]!.id}#linkedin`,
    ]);
    expect((await partition(table, user, 'SUMMARY#')).length).toBeGreaterThan(0);
    for (const name of TABLE_BACKFILL_NAMES) {
      expect(await marker(table, name)).toMatchObject({ at: expect.any(String) });
    }
    expect(await marker(table, 'article-indexes-v1')).toMatchObject({ counts: { articles: 5, fixed: 5, skipped: 0 } });
    expect((await marker(table, 'article-indexes-v1'))!.cursor).toBeUndefined();
    // Paged: more than one Scan for each pass over five articles two at a time.
    expect(first.sent.filter((c) => c === 'ScanCommand').length).toBeGreaterThan(6);

    const second = counting();
    expect(await runTableBackfills(second.db, client, table, { pageSize: 2, indexes: built })).toEqual({
      status: 'done',
      ran: [],
    });
    expect(second.sent).toEqual(TABLE_BACKFILL_NAMES.map(() => 'GetCommand'));
  });

  it('runs only the backfills named (a deployment passes its list), and passes over a name it no longer has', async () => {
    const { table } = await olderTable('named');
    expect(
      await runTableBackfills(db, client, table, { names: ['calendar-entries-v1', 'gone-v1'], indexes: built }),
    ).toEqual({ status: 'done', ran: ['calendar-entries-v1'] });
    expect(await marker(table, 'article-indexes-v1')).toBeUndefined();
  });

  it('due-slots-v1 gives the schedules and the LinkedIn expiry saved before them their items by time', async () => {
    const { table, user, articles } = await olderTable('due-slots');
    await db.send(
      new PutCommand({
        TableName: table,
        Item: {
          PK: `USER#${user}`,
          SK: 'SETTING#linkedin_token_expiry',
          type: 'setting',
          key: 'linkedin_token_expiry',
          storedIn: 'table',
          value: '2031-01-05T10:00:00.000Z',
        },
      }),
    );
    expect(
      await runTableBackfills(db, client, table, { names: ['due-slots-v1'], pageSize: 2, indexes: built }),
    ).toEqual({ status: 'done', ran: ['due-slots-v1'] });
    const slots = await dueSlotsBetween(db, table, '2031-01-01T00:00:00.000Z', '2031-01-06T00:00:00.000Z');
    expect(slots.map((s) => [s.ownerId, s.articleId, s.version, s.at])).toEqual([
      [user, articles[0]!.id, 'blog', '2031-01-01T10:00:00.000Z'],
      [user, articles[3]!.id, 'linkedin', '2031-01-03T10:00:00.000Z'],
    ]);
    expect(await connectionsExpiringBetween(db, table, '2031-01-01T00:00:00.000Z', '2031-01-06T00:00:00.000Z')).toEqual(
      [{ ownerId: user, channel: 'linkedin' }],
    );
  });

  it('a table marked by the earlier run-once code (a marker with `at` only) is not scanned again', async () => {
    const { table } = await olderTable('old-marker');
    await db.send(
      new PutCommand({
        TableName: table,
        Item: { PK: 'META', SK: 'BACKFILL#calendar-entries-v1', at: '2026-11-01T00:00:00.000Z' },
      }),
    );
    const run = counting();
    expect(await runTableBackfills(run.db, client, table, { names: ['calendar-entries-v1'], indexes: built })).toEqual({
      status: 'done',
      ran: [],
    });
    expect(run.sent).toEqual(['GetCommand']);
  });
});

describe('paging: a run stops between steps and the next resumes from the marker', () => {
  it('one step per run, five articles two at a time: every run resumes, and the end is as one run', async () => {
    const { table, user } = await olderTable('paging');
    // Each run makes one step, then finds its time up (pauseAt) before the next.
    const oneStep = (): BackfillClock => {
      let steps = 0;
      return { now: () => (steps++ === 0 ? 0 : 1), sleep: async () => undefined };
    };
    const outcomes = [];
    const cursors: unknown[] = [];
    for (let run = 0; run < 80; run++) {
      const outcome = await runTableBackfills(db, client, table, {
        pageSize: 2,
        indexes: built,
        clock: oneStep(),
        pauseAt: 1,
      });
      outcomes.push(outcome);
      if (outcome.status === 'done') break;
      cursors.push((await marker(table, outcome.backfill))?.cursor);
    }
    const last = outcomes.at(-1)!;
    expect(last.status).toBe('done');
    // Paused in each backfill, with where it stopped on its marker (a run starting over could never end).
    const paused = outcomes.flatMap((o) => (o.status === 'paused' ? [o.backfill] : []));
    expect(new Set(paused)).toEqual(new Set(TABLE_BACKFILL_NAMES));
    // The calendar's two passes: the articles, then the entries.
    expect(cursors).toContainEqual({ pass: 'entries' });
    // The sums over the runs are those of one: each article looked at once.
    expect(await marker(table, 'article-indexes-v1')).toMatchObject({ counts: { articles: 5, fixed: 5, skipped: 0 } });
    expect(await marker(table, 'calendar-entries-v1')).toMatchObject({ counts: { articles: 5, fixed: 3, skipped: 0 } });
    expect(await marker(table, 'dashboard-summaries-v1')).toMatchObject({ counts: { users: 1, rebuilt: 1 } });
    expect(await partition(table, user, 'CAL#')).toHaveLength(3);
  });
});

describe('indexes still being built', () => {
  /** DescribeTable's answers in turn (the last one repeats). */
  const answers = (...states: IndexState[][]): TableIndexes & { asked: number } => {
    const port = {
      asked: 0,
      describe: async () => states[Math.min(port.asked++, states.length - 1)]!,
    };
    return port;
  };
  const gsi1 = { name: 'GSI1', status: 'ACTIVE', backfilling: false };

  it('waits for a new index (CREATING, then ACTIVE but backfilling) before the backfill that needs it', async () => {
    const { table, user } = await olderTable('creating');
    const indexes = answers(
      [gsi1, { name: 'GSI2', status: 'CREATING', backfilling: true }],
      [gsi1, { name: 'GSI2', status: 'CREATING', backfilling: true }],
      [gsi1, { name: 'GSI2', status: 'ACTIVE', backfilling: true }],
      [gsi1, { name: 'GSI2', status: 'ACTIVE', backfilling: false }],
    );
    const clock = fakeClock();
    const events: BackfillProgress[] = [];
    const outcome = await runTableBackfills(db, client, table, {
      names: ['article-indexes-v1'],
      indexes,
      clock,
      indexWaitUntil: 60_000,
      indexPollMs: 5_000,
      onProgress: (e) => {
        events.push(e);
      },
    });
    expect(outcome).toEqual({ status: 'done', ran: ['article-indexes-v1'] });
    expect(events.map((e) => (e.event === 'waiting-for-index' ? `${e.index} ${e.status}` : e.event))).toEqual([
      'GSI2 CREATING (backfilling)',
      'GSI2 CREATING (backfilling)',
      'GSI2 ACTIVE (backfilling)',
      'done',
    ]);
    expect(clock.slept).toEqual([5_000, 5_000, 5_000]);
    expect((await partition(table, user, 'ARTICLE#')).filter((i) => i.GSI1PK)).toHaveLength(5);
  });

  it('an index not built in time fails the run with what it waited for; nothing of that backfill is marked', async () => {
    const { table, user } = await olderTable('never');
    const clock = fakeClock(1_000);
    const run = runTableBackfills(db, client, table, {
      indexes: answers([gsi1, { name: 'GSI2', status: 'CREATING', backfilling: true }]),
      clock,
      indexWaitUntil: 31_000,
      indexPollMs: 10_000,
    });
    await expect(run).rejects.toThrow(IndexNotActiveError);
    await expect(run).rejects.toThrow(
      'The backfill article-indexes-v1 needs the index GSI2, which is still CREATING (backfilling)',
    );
    expect(clock.slept).toEqual([10_000, 10_000, 10_000]);
    expect(await marker(table, 'article-indexes-v1')).toBeUndefined();
    expect((await partition(table, user, 'ARTICLE#')).filter((i) => i.GSI1PK)).toHaveLength(0);
  });

  it('an index the table does not have fails at once', async () => {
    const { table } = await olderTable('missing');
    await expect(
      runTableBackfills(db, client, table, { indexes: answers([gsi1]), clock: fakeClock(), indexWaitUntil: 60_000 }),
    ).rejects.toThrow('The backfill article-indexes-v1 needs the index GSI2, which is not on the table');
  });

  it('reads the indexes with DescribeTable: a table made by ensureTable has them built', async () => {
    const table = await newTable('describe');
    expect(await runTableBackfills(db, client, table, { indexWaitUntil: 0 })).toEqual({
      status: 'done',
      ran: [...TABLE_BACKFILL_NAMES],
    });
    expect(await new DynamoBackfillMarkers(db, table).get('dashboard-summaries-v1')).toEqual({
      done: true,
      cursor: undefined,
      counts: { users: 0, rebuilt: 0 },
    });
  });
});
