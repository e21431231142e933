import { createHash } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import {
  BatchGetCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
  type BatchGetCommandOutput,
  type DynamoDBDocumentClient,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import {
  CHANNELS,
  applyChange,
  bucketKeyEnd,
  emptySummary,
  sameContribution,
  sumOfSummaries,
  summaryCutoff,
  summaryOf,
  weekKeyEnd,
  type DashboardArticle,
  type DashboardSummary,
} from '@app/shared';
import { logger } from '../../logger.js';
import { forEachConcurrently, ifConditionHeld, queryAll } from './client.js';

/**
 * A user's summary is kept in this many items (shards), each summing the articles whose id falls in it.
 * A bulk import creates dozens of one user's articles at once (domain/sheets-import.ts): spread over
 * shards, fewer of their transactions meet on the same item.
 */
export const SUMMARY_SHARDS = 4;

/**
 * Each count is a top-level number attribute, so that a write adds its delta (ADD) without reading the
 * item first: writes that meet do not invalidate each other. Keywords, weeks and 15-minute intervals are
 * named by prefix. A count that falls to 0 stays as 0 until a read drops it (prune).
 */
/**
 * A channel's name in the attribute names: its id, except that a version's own channel (WordPress, LinkedIn) keeps
 * its version's name (`blog`, `linkedin`), under which its counts were kept before there were other channels.
 */
const nameOfChannel = (channel: string): string => CHANNELS.find((c) => c.id === channel)?.version ?? channel;
const channelOfName = (name: string): string => CHANNELS.find((c) => c.version === name)?.id ?? name;

const ATTR = {
  articles: 'articles',
  fullyPublished: 'fullyPublished',
  published: (channel: string) => `published:${nameOfChannel(channel)}`,
  keyword: (word: string) => `kw:${word}`,
  week: (channel: string, week: string) => `w:${nameOfChannel(channel)}:${week}`,
  bucket: (channel: string, key: string) => `b:${nameOfChannel(channel)}:${key}`,
} as const;
const KEYWORD_PREFIX = 'kw:';
const PUBLISHED_PREFIX = 'published:';
const WEEK_NAME = /^w:([a-z0-9-]+):(\d{4}-W\d{2})$/;
const BUCKET_NAME = /^b:([a-z0-9-]+):(-?\d+)$/;

/** What a count attribute's name holds; undefined for the other attributes. */
type Count =
  | { kind: 'keyword'; word: string }
  | { kind: 'published'; channel: string }
  | { kind: 'weeks' | 'buckets'; channel: string; key: string; end: number };

function countOfName(name: string): Count | undefined {
  if (name.startsWith(KEYWORD_PREFIX)) return { kind: 'keyword', word: name.slice(KEYWORD_PREFIX.length) };
  if (name.startsWith(PUBLISHED_PREFIX)) {
    return { kind: 'published', channel: channelOfName(name.slice(PUBLISHED_PREFIX.length)) };
  }
  // Names are told apart by their first character before any pattern is run.
  if (name.startsWith('w:')) {
    const week = WEEK_NAME.exec(name);
    if (week) return { kind: 'weeks', channel: channelOfName(week[1]!), key: week[2]!, end: weekKeyEnd(week[2]!) };
  } else if (name.startsWith('b:')) {
    const bucket = BUCKET_NAME.exec(name);
    if (bucket) {
      return { kind: 'buckets', channel: channelOfName(bucket[1]!), key: bucket[2]!, end: bucketKeyEnd(bucket[2]!) };
    }
  }
  return undefined;
}

const SUMMARY_PREFIX = 'SUMMARY#';

/** The shard of an article: always the same one, so that a change's delta lands where its contribution is. */
export const shardOf = (articleId: string): number =>
  createHash('sha256').update(articleId).digest().readUInt32BE(0) % SUMMARY_SHARDS;

/** One shard item of the owner's dashboard summary (docs/data-model.md, dashboard summary). */
export const summaryKey = (userId: string, shard: number) => ({
  PK: `USER#${userId}`,
  SK: `${SUMMARY_PREFIX}${shard}`,
});

/** A shard as read, with the version a conditional write of it must still find (0: no item yet). */
export interface StoredSummary {
  summary: DashboardSummary;
  version: number;
}

type ShardItem = Record<string, unknown> & { PK: string; SK: string; version?: number };

/**
 * A shard item read in one pass over its attributes: its counts as a summary (no zero entries, no week or
 * interval that ended by summaryCutoff(now): never shown again, so never read), and the attribute names
 * a read may drop: those old keys, and counts that fell to 0.
 */
function readItem(
  item: Record<string, unknown>,
  now: Date,
): { summary: DashboardSummary; old: string[]; zero: string[] } {
  const summary = emptySummary();
  summary.articles = Number(item[ATTR.articles] ?? 0);
  summary.fullyPublished = Number(item[ATTR.fullyPublished] ?? 0);
  const cutoff = summaryCutoff(now);
  const old: string[] = [];
  const zero: string[] = [];
  for (const [name, value] of Object.entries(item)) {
    const count = countOfName(name);
    if (!count) continue;
    if ((count.kind === 'weeks' || count.kind === 'buckets') && count.end <= cutoff) old.push(name);
    else if (value === 0) {
      // A channel's published count at 0 stays (as before there were other channels); a read drops the others.
      if (count.kind !== 'published') zero.push(name);
    } else if (typeof value !== 'number') continue;
    else if (count.kind === 'keyword') summary.keywords[count.word] = value;
    else if (count.kind === 'published') summary.published[count.channel] = value;
    else (summary[count.kind][count.channel] ??= {})[count.key] = value;
  }
  return { summary, old, zero };
}

/** A summary (or a delta) as attribute name → number, zero entries left out. */
function attributesOf(summary: DashboardSummary): Record<string, number> {
  const out: Record<string, number> = {
    [ATTR.articles]: summary.articles,
    [ATTR.fullyPublished]: summary.fullyPublished,
  };
  for (const [channel, n] of Object.entries(summary.published)) out[ATTR.published(channel)] = n;
  for (const [channel, weeks] of Object.entries(summary.weeks)) {
    for (const [week, n] of Object.entries(weeks)) out[ATTR.week(channel, week)] = n;
  }
  for (const [channel, buckets] of Object.entries(summary.buckets)) {
    for (const [key, n] of Object.entries(buckets)) out[ATTR.bucket(channel, key)] = n;
  }
  for (const [word, n] of Object.entries(summary.keywords)) out[ATTR.keyword(word)] = n;
  return Object.fromEntries(Object.entries(out).filter(([, n]) => n !== 0));
}

/** One write of a TransactWriteItems call (the article's, given by the article store). */
export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** How a write of an article together with its summary ended. */
export type SummaryWrite = 'written' | 'article-condition-failed';

/** Attempts of a write whose shard another transaction held at the same moment (or a rebuild, written meanwhile). */
const SUMMARY_ATTEMPTS = 16;

export const cancellationCodes = (err: unknown): (string | undefined)[] | undefined =>
  (err as Error | undefined)?.name === 'TransactionCanceledException'
    ? ((err as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? []).map((r) => r.Code)
    : undefined;

/** Cancellation reasons that pass: another transaction on the same item, or throttling. */
export const PASSING_CANCELLATIONS = new Set([
  'TransactionConflict',
  'ThrottlingError',
  'ProvisionedThroughputExceeded',
]);

/** Exponential back-off with full jitter: writes that met spread out instead of meeting again. */
export const backOff = (attempt: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(1000, 10 * 2 ** attempt)));

/**
 * The per-user dashboard summary: sums of every article's contribution (shared/src/dashboard-summary.ts),
 * added in the same transaction as each article write that changes a contribution, so that the two never
 * disagree.
 */
export class DynamoSummaryStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** One shard, strongly consistent, with its version (0: no item yet). */
  async getShard(userId: string, shard: number): Promise<StoredSummary> {
    const out = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: summaryKey(userId, shard), ConsistentRead: true }),
    );
    if (!out.Item) return { summary: emptySummary(), version: 0 };
    return { summary: readItem(out.Item, this.now()).summary, version: Number((out.Item as ShardItem).version ?? 0) };
  }

  /**
   * The owner's whole summary: one BatchGetItem of the shard items by key, summed; `shards` says how many
   * exist. By key rather than a Query of the SUMMARY# prefix, whose time grows with the articles in the
   * same partition on DynamoDB Local (the scale bench: about 7 ms more at 10,000 articles). Drops from
   * the items what no dashboard will read again (weeks and intervals older than kept, counts at 0), when any.
   */
  async get(userId: string): Promise<{ summary: DashboardSummary; shards: number }> {
    const items: ShardItem[] = [];
    let pending: Record<string, unknown>[] | undefined = Array.from({ length: SUMMARY_SHARDS }, (_, shard) =>
      summaryKey(userId, shard),
    );
    for (let attempt = 0; pending?.length; attempt++) {
      if (attempt) await backOff(attempt);
      const out: BatchGetCommandOutput = await this.db.send(
        new BatchGetCommand({ RequestItems: { [this.tableName]: { Keys: pending, ConsistentRead: true } } }),
      );
      items.push(...((out.Responses?.[this.tableName] ?? []) as ShardItem[]));
      pending = out.UnprocessedKeys?.[this.tableName]?.Keys;
    }
    const now = this.now();
    const read = items.map((item) => ({ item, ...readItem(item, now) }));
    // Housekeeping only: a failed prune (throttled, say) is tried again by the next read, never fails this one.
    await Promise.all(
      read.map(({ item, old, zero }) =>
        this.prune(item, old, zero).catch((err: unknown) =>
          logger.warn('dashboard summary prune failed', { error: (err as Error).name }),
        ),
      ),
    );
    return { summary: sumOfSummaries(read.map(({ summary }) => summary)), shards: items.length };
  }

  /**
   * Removes an item's old weeks and intervals (never read again: a later change to one is not even added)
   * and its zero counts (only while still 0), a bounded number at a time.
   */
  private async prune(item: ShardItem, old: string[], zero: string[]): Promise<void> {
    const names = [...old, ...zero].slice(0, 100);
    if (!names.length) return;
    const zeros = names.filter((name) => zero.includes(name));
    await ifConditionHeld(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { PK: item.PK, SK: item.SK },
          UpdateExpression: `REMOVE ${names.map((_, i) => `#r${i}`).join(', ')}`,
          ...(zeros.length
            ? {
                ConditionExpression: names
                  .map((name, i) => (zeros.includes(name) ? `#r${i} = :zero` : ''))
                  .filter(Boolean)
                  .join(' AND '),
                ExpressionAttributeValues: { ':zero': 0 },
              }
            : {}),
          ExpressionAttributeNames: Object.fromEntries(names.map((name, i) => [`#r${i}`, name])),
        }),
      ),
    );
  }

  /** The Put of a whole shard (the backfill), only while the item is still at `version`. */
  private put(userId: string, shard: number, summary: DashboardSummary, version: number): PutCommand {
    return new PutCommand({
      TableName: this.tableName,
      Item: { ...summaryKey(userId, shard), type: 'dashboard-summary', ...attributesOf(summary), version: version + 1 },
      ...(version === 0
        ? { ConditionExpression: 'attribute_not_exists(PK)' }
        : {
            ConditionExpression: '#version = :version',
            ExpressionAttributeNames: { '#version': 'version' },
            ExpressionAttributeValues: { ':version': version },
          }),
    });
  }

  /** The Update adding `delta` to a shard (creating it when missing); it moves the version a backfill checks. */
  private add(userId: string, shard: number, delta: DashboardSummary): TransactItem {
    const counts = Object.entries({ ...attributesOf(delta), version: 1 });
    return {
      Update: {
        TableName: this.tableName,
        Key: summaryKey(userId, shard),
        UpdateExpression: `SET #type = :type ADD ${counts.map((_, i) => `#a${i} :a${i}`).join(', ')}`,
        ExpressionAttributeNames: {
          '#type': 'type',
          ...Object.fromEntries(counts.map(([name], i) => [`#a${i}`, name])),
        },
        ExpressionAttributeValues: {
          ':type': 'dashboard-summary',
          ...Object.fromEntries(counts.map(([, n], i) => [`:a${i}`, n])),
        },
      },
    };
  }

  /**
   * Writes an article change (`articleWrite`: a conditioned Put or Update of article `articleId`, built
   * from `before`) and the article's shard moved by contribution(after) − contribution(before), in one
   * transaction, with `alongside` (the article's calendar entries' writes, article-store.ts). A write that
   * changes no contribution goes without the shard. 'article-condition-failed' when the
   * article's condition did not hold (nothing was written: the caller reads the article again and
   * decides); a shard moved meanwhile by another write is read again and the write retried.
   */
  async writeWithArticle(
    userId: string,
    articleId: string,
    before: DashboardArticle | undefined,
    after: DashboardArticle | undefined,
    articleWrite: TransactItem,
    alongside: TransactItem[] = [],
  ): Promise<SummaryWrite> {
    const items = [articleWrite, ...alongside];
    if (!sameContribution(before, after)) {
      // contribution(after) − contribution(before), without weeks and intervals too old to be shown.
      items.push(this.add(userId, shardOf(articleId), applyChange(emptySummary(), before, after, this.now())));
    }
    for (let attempt = 1; ; attempt++) {
      const codes = await this.transact(items);
      if (!codes) return 'written';
      if (codes[0] === 'ConditionalCheckFailed') return 'article-condition-failed';
      // Anything but another transaction (or throttling) on the same items will not pass by retrying: a
      // shard grown past DynamoDB's item size, say.
      const lasting = codes.filter((code) => code && code !== 'None' && !PASSING_CANCELLATIONS.has(code));
      if (lasting.length) {
        throw new Error(`The dashboard summary write of ${userId} was refused (${lasting.join(', ')})`);
      }
      // Another transaction held the shard at the same moment.
      if (attempt >= SUMMARY_ATTEMPTS) {
        throw new Error(`The dashboard summary of ${userId} stayed busy; the write was not made`);
      }
      await backOff(attempt);
    }
  }

  /** Sends a transaction: undefined when made, else each item's cancellation code. */
  private async transact(items: TransactItem[]): Promise<(string | undefined)[] | undefined> {
    try {
      await this.db.send(new TransactWriteCommand({ TransactItems: items }));
      return undefined;
    } catch (err) {
      const codes = cancellationCodes(err);
      if (!codes) throw err;
      return codes;
    }
  }

  /**
   * Backfill: recomputes the owner's summary from all their articles and writes each shard that differs,
   * unless a write moved it meanwhile (then again). Running it twice writes nothing the second time.
   * `changed`: whether any shard was missing or different.
   */
  async rebuild(userId: string): Promise<{ changed: boolean; summary: DashboardSummary }> {
    for (let attempt = 1; ; attempt++) {
      const stored = await Promise.all(
        Array.from({ length: SUMMARY_SHARDS }, (_, shard) => this.getShard(userId, shard)),
      );
      const articles = await queryAll<Partial<DashboardArticle> & { SK: string }>(this.db, {
        TableName: this.tableName,
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
        ExpressionAttributeValues: { ':pk': `USER#${userId}`, ':prefix': 'ARTICLE#' },
        // Strongly consistent: a write already counted in a shard's version just read is in this list too.
        ConsistentRead: true,
        // Only what a contribution reads (and the key, for the shard).
        ProjectionExpression: 'SK, #k, #t, #b.#bp, #b.#lp, #l.#lip, #l.#lp, #posts',
        ExpressionAttributeNames: {
          '#posts': 'posts',
          '#k': 'keyword',
          '#t': 'tags',
          '#b': 'blog',
          '#l': 'linkedin',
          '#bp': 'publishedToWordPress',
          '#lip': 'publishedToLinkedIn',
          '#lp': 'lastPublished',
        },
      });
      const now = this.now();
      const shards = stored.map((_, shard) =>
        summaryOf(articles.filter((a) => shardOf(a.SK.slice('ARTICLE#'.length)) === shard).map(withDefaults), now),
      );
      let changed = false;
      let held = true;
      for (const [shard, summary] of shards.entries()) {
        const { summary: before, version } = stored[shard]!;
        // A shard that is right is not written (nor one that would be empty and is missing).
        if (isDeepStrictEqual(summary, before)) continue;
        changed = true;
        if (!(await ifConditionHeld(this.db.send(this.put(userId, shard, summary, version))))) held = false;
      }
      if (held) return { changed, summary: sumOfSummaries(shards) };
      if (attempt >= SUMMARY_ATTEMPTS) {
        throw new Error(`The dashboard summary of ${userId} kept changing during its rebuild`);
      }
    }
  }
}

/** An item as the projection read it: fields an old item lacks are empty. */
function withDefaults(item: Partial<DashboardArticle>): DashboardArticle {
  return {
    keyword: item.keyword ?? '',
    tags: item.tags ?? [],
    blog: { content: '', publishedToWordPress: false, lastPublished: null, ...item.blog },
    linkedin: { content: '', publishedToLinkedIn: false, lastPublished: null, ...item.linkedin },
    scheduled: { blog: null, linkedin: null },
    ...(item.posts ? { posts: item.posts } : {}),
  };
}

export type SummaryBackfillResult = {
  /** Users looked at. */
  users: number;
  /** Users whose summary was written because it was missing or differed from their articles. */
  rebuilt: number;
};

/** Users a step rebuilds unless told (each reads all their articles). */
const USERS_PER_STEP = 25;
/** Users rebuilt at once: each rebuild's reads and writes are its own user's items. */
const REBUILDS_AT_ONCE = 4;

/**
 * One step of the summary backfill (domain/backfills.ts): one page of the accounts (the GSI1 partition
 * that lists them, user-store.ts) from `cursor` (a LastEvaluatedKey), each user's summary recomputed from
 * their articles (DynamoSummaryStore.rebuild). `cursor` in the answer: where the next page starts.
 */
export async function dashboardSummariesStep(
  db: DynamoDBDocumentClient,
  tableName: string,
  cursor: Record<string, unknown> | undefined,
  options: { pageSize?: number } = {},
): Promise<{ cursor?: Record<string, unknown>; counts: SummaryBackfillResult }> {
  const store = new DynamoSummaryStore(db, tableName);
  const page = await db.send(
    new QueryCommand({
      TableName: tableName,
      IndexName: 'GSI1',
      KeyConditionExpression: 'GSI1PK = :users',
      ExpressionAttributeValues: { ':users': 'USERS' },
      ProjectionExpression: 'PK',
      ExclusiveStartKey: cursor,
      Limit: options.pageSize ?? USERS_PER_STEP,
    }),
  );
  const users = (page.Items ?? []) as { PK: string }[];
  const counts: SummaryBackfillResult = { users: users.length, rebuilt: 0 };
  await forEachConcurrently(users, REBUILDS_AT_ONCE, async ({ PK }) => {
    if ((await store.rebuild(PK.slice('USER#'.length))).changed) counts.rebuilt++;
  });
  return { cursor: page.LastEvaluatedKey, counts };
}

/**
 * The backfill of the dashboard summaries (docs/operations.md, Table changes): every user's summary
 * recomputed from their articles (DynamoSummaryStore.rebuild). Idempotent, and safe while the app runs: a
 * rebuilt shard is written only while no write moved it. The whole table in one go, where the registered
 * backfill (backfills.ts) goes step by step.
 */
export async function backfillDashboardSummaries(
  db: DynamoDBDocumentClient,
  tableName: string,
  options: { pageSize?: number } = {},
): Promise<SummaryBackfillResult> {
  const result: SummaryBackfillResult = { users: 0, rebuilt: 0 };
  let cursor: Record<string, unknown> | undefined;
  do {
    const step = await dashboardSummariesStep(db, tableName, cursor, options);
    result.users += step.counts.users;
    result.rebuilt += step.counts.rebuilt;
    cursor = step.cursor;
  } while (cursor);
  return result;
}
