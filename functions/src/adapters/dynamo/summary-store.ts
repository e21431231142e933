import { isDeepStrictEqual } from 'node:util';
import {
  GetCommand,
  PutCommand,
  TransactWriteCommand,
  type DynamoDBDocumentClient,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import {
  applyChange,
  emptySummary,
  sameContribution,
  summaryOf,
  type DashboardArticle,
  type DashboardSummary,
} from '@app/shared';
import { ifConditionHeld, queryAll } from './client.js';

/** The owner's dashboard summary item (docs/data-model.md, dashboard summary). */
export const summaryKey = (userId: string) => ({ PK: `USER#${userId}`, SK: 'SUMMARY' });

/** A summary as read, with the version a conditional write of it must still find (0: no item yet). */
export interface StoredSummary {
  summary: DashboardSummary;
  version: number;
}

type SummaryItem = DashboardSummary & { PK: string; SK: string; type: 'dashboard-summary'; version: number };

/** One write of a TransactWriteItems call (the article's, given by the article store). */
export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** How a write of an article together with its summary ended. */
export type SummaryWrite = 'written' | 'article-condition-failed';

/** Attempts of a write whose summary another write moved meanwhile (each re-reads it). */
const SUMMARY_ATTEMPTS = 8;

const cancellationCodes = (err: unknown): (string | undefined)[] | undefined =>
  (err as Error | undefined)?.name === 'TransactionCanceledException'
    ? ((err as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? []).map((r) => r.Code)
    : undefined;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The per-user dashboard summary: sums of every article's contribution (shared/src/dashboard-summary.ts),
 * written in the same transaction as each article write that changes a contribution, so that the two never
 * disagree. Each write replaces the item whole on the condition that its version is the one read
 * (writes of one user that meet are retried); DynamoDB bills an update by the whole item anyway.
 */
export class DynamoSummaryStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async get(userId: string): Promise<StoredSummary> {
    const out = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: summaryKey(userId), ConsistentRead: true }),
    );
    if (!out.Item) return { summary: emptySummary(), version: 0 };
    const { articles, fullyPublished, published, keywords, buckets, version } = out.Item as SummaryItem;
    return { summary: { articles, fullyPublished, published, keywords, buckets }, version };
  }

  /** The Put of `summary` as the version after `version`, only while the item is still at `version`. */
  private put(userId: string, summary: DashboardSummary, version: number): TransactItem {
    const item: SummaryItem = { ...summaryKey(userId), type: 'dashboard-summary', ...summary, version: version + 1 };
    return {
      Put: {
        TableName: this.tableName,
        Item: item,
        ...(version === 0
          ? { ConditionExpression: 'attribute_not_exists(PK)' }
          : {
              ConditionExpression: '#version = :version',
              ExpressionAttributeNames: { '#version': 'version' },
              ExpressionAttributeValues: { ':version': version },
            }),
      },
    };
  }

  /**
   * Writes an article change (`articleWrite`: a conditioned Put or Update of the article, built from
   * `before`) and the summary moved by contribution(after) − contribution(before), in one transaction.
   * A write that changes no contribution goes alone. 'article-condition-failed' when the article's
   * condition did not hold (nothing was written: the caller reads the article again and decides);
   * a summary moved meanwhile by another write is read again and the write retried.
   */
  async writeWithArticle(
    userId: string,
    before: DashboardArticle | undefined,
    after: DashboardArticle | undefined,
    articleWrite: TransactItem,
  ): Promise<SummaryWrite> {
    const moves = !sameContribution(before, after);
    for (let attempt = 1; ; attempt++) {
      const items = [articleWrite];
      if (moves) {
        const { summary, version } = await this.get(userId);
        items.push(this.put(userId, applyChange(summary, before, after, this.now()), version));
      }
      const codes = await this.transact(items);
      if (!codes) return 'written';
      if (codes[0] === 'ConditionalCheckFailed') return 'article-condition-failed';
      // The summary moved, or another transaction held one of the items at the same moment.
      if (attempt >= SUMMARY_ATTEMPTS) {
        throw new Error(`The dashboard summary of ${userId} kept changing; the write was not made`);
      }
      await pause(Math.random() * 20 * attempt);
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
   * Backfill: recomputes the owner's summary from all their articles and writes it, unless a write moved
   * the summary meanwhile (then again). Running it twice writes the same item; the answer says whether
   * the stored summary was different (or missing).
   */
  async rebuild(userId: string): Promise<{ changed: boolean; summary: DashboardSummary }> {
    for (let attempt = 1; ; attempt++) {
      const { summary: stored, version } = await this.get(userId);
      const articles = await queryAll<DashboardArticle>(this.db, {
        TableName: this.tableName,
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
        ExpressionAttributeValues: { ':pk': `USER#${userId}`, ':prefix': 'ARTICLE#' },
        // Only what a contribution reads: a fraction of each article's size (read units are per size).
        ProjectionExpression: '#k, #t, #b.#bp, #b.#lp, #l.#lip, #l.#lp',
        ExpressionAttributeNames: {
          '#k': 'keyword',
          '#t': 'tags',
          '#b': 'blog',
          '#l': 'linkedin',
          '#bp': 'publishedToWordPress',
          '#lip': 'publishedToLinkedIn',
          '#lp': 'lastPublished',
        },
      });
      const summary = summaryOf(articles.map(withDefaults), this.now());
      if (version > 0 && isDeepStrictEqual(summary, stored)) return { changed: false, summary };
      const put = this.put(userId, summary, version).Put!;
      if (await ifConditionHeld(this.db.send(new PutCommand(put)))) return { changed: true, summary };
      if (attempt >= SUMMARY_ATTEMPTS)
        throw new Error(`The dashboard summary of ${userId} kept changing during its rebuild`);
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
  };
}

export interface SummaryBackfillResult {
  /** Users looked at. */
  users: number;
  /** Summaries written because they were missing or differed from the articles. */
  rebuilt: number;
}

/**
 * The backfill of the dashboard summaries (docs/operations.md): every user's summary recomputed from
 * their articles (DynamoSummaryStore.rebuild), or with `onlyMissing` only those of users who have none
 * yet. Idempotent, and safe while the app runs: a rebuild holds only while no write moved the summary.
 * Users are found through the GSI1 partition that lists accounts (user-store.ts).
 */
export async function backfillDashboardSummaries(
  db: DynamoDBDocumentClient,
  tableName: string,
  options: { onlyMissing?: boolean } = {},
): Promise<SummaryBackfillResult> {
  const store = new DynamoSummaryStore(db, tableName);
  const users = await queryAll<{ PK: string }>(db, {
    TableName: tableName,
    IndexName: 'GSI1',
    KeyConditionExpression: 'GSI1PK = :users',
    ExpressionAttributeValues: { ':users': 'USERS' },
    ProjectionExpression: 'PK',
  });
  const result: SummaryBackfillResult = { users: 0, rebuilt: 0 };
  for (const { PK } of users) {
    const userId = PK.slice('USER#'.length);
    result.users++;
    if (options.onlyMissing && (await store.get(userId)).version > 0) continue;
    if ((await store.rebuild(userId)).changed) result.rebuilt++;
  }
  return result;
}
