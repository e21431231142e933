import {
  BatchGetCommand,
  ScanCommand,
  TransactWriteCommand,
  type BatchGetCommandOutput,
  type DynamoDBDocumentClient,
  type ScanCommandOutput,
} from '@aws-sdk/lib-dynamodb';
import type { CalendarState } from '../../domain/calendar.js';
import { DERIVED_PATHS, calendarWrites, fieldsUnchanged } from './article-store.js';
import { CORRECTIONS_AT_ONCE, forEachConcurrently } from './client.js';
import { PASSING_CANCELLATIONS, backOff, cancellationCodes, type TransactItem } from './summary-store.js';

export type CalendarBackfillResult = {
  /** Article items looked at. */
  articles: number;
  /** Articles (or entries whose article is gone) whose entries were written or removed. */
  fixed: number;
  /** Articles changed by another write while this ran: that write set their entries itself. */
  skipped: number;
};

type ArticleItem = CalendarState & {
  PK: string;
  SK: string;
  id: string;
  userId: string;
  keyword?: string;
  tags?: string[];
};
type EntryItem = { PK: string; SK: string; articleId: string; platform: string; at: string; kind: string };

/**
 * A condition that the article is still `state` in what its entries derive from (article-store.ts
 * DERIVED_PATHS: a write that changes any of them moves the entries itself), or that there is none.
 */
function stateUnchanged(state: ArticleItem | undefined): {
  ConditionExpression: string;
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues?: Record<string, unknown>;
} {
  if (!state) return { ConditionExpression: 'attribute_not_exists(PK)' };
  const { condition, names, values } = fieldsUnchanged(state, DERIVED_PATHS, 'c');
  return {
    ConditionExpression: `attribute_exists(PK) AND ${condition}`,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
}

/** The attributes the backfill reads of article and entry items: the entries' sources and keys. */
const ATTRIBUTES = [
  'PK',
  'SK',
  'id',
  'userId',
  'blog',
  'linkedin',
  'scheduled',
  'posts',
  'keyword',
  'tags',
  'articleId',
  'platform',
  'at',
  'kind',
];
const projection = {
  ProjectionExpression: ATTRIBUTES.map((_, i) => `#a${i}`).join(', '),
  names: Object.fromEntries(ATTRIBUTES.map((name, i) => [`#a${i}`, name])),
};

/** Items a step reads (a Scan page's Limit) unless told: a page of 1 MB holds fewer anyway. */
const PAGE_SIZE = 1_000;

/**
 * Where the backfill is: the pass (first the articles, then the entries) and the Scan's LastEvaluatedKey
 * in it. Each pass judges its page's items alone, so it can stop after any page: an article's entries
 * (after its article in the partition) may be on a later page than the article.
 */
export interface CalendarBackfillCursor extends Record<string, unknown> {
  pass: 'articles' | 'entries';
  after?: Record<string, unknown>;
}

/** The entries `article` should have (article-store.ts calendarWrites), by key. */
const wantedEntries = (tableName: string, article: ArticleItem) =>
  calendarWrites(tableName, article.PK.slice('USER#'.length), article.id, undefined, article).flatMap((w) =>
    w.Put ? [w.Put] : [],
  );

/** Strongly consistent BatchGetItem of `keys` (any number), by `PK/SK`. */
async function getAll(
  db: DynamoDBDocumentClient,
  tableName: string,
  keys: { PK: string; SK: string }[],
): Promise<Map<string, Record<string, unknown>>> {
  const found = new Map<string, Record<string, unknown>>();
  const unique = [...new Map(keys.map((k) => [`${k.PK}/${k.SK}`, k])).values()];
  for (let i = 0; i < unique.length; i += 100) {
    let pending: Record<string, unknown>[] | undefined = unique.slice(i, i + 100);
    for (let attempt = 1; pending?.length; attempt++) {
      const out: BatchGetCommandOutput = await db.send(
        new BatchGetCommand({
          RequestItems: {
            [tableName]: {
              Keys: pending,
              ConsistentRead: true,
              ProjectionExpression: projection.ProjectionExpression,
              ExpressionAttributeNames: projection.names,
            },
          },
        }),
      );
      for (const item of out.Responses?.[tableName] ?? []) found.set(`${item.PK}/${item.SK}`, item);
      pending = out.UnprocessedKeys?.[tableName]?.Keys;
      if (pending?.length) await backOff(Math.min(attempt, CORRECTION_ATTEMPTS));
    }
  }
  return found;
}

/**
 * One step of the backfill (domain/backfills.ts): one page of the Scan of its pass from `cursor`, and its
 * corrections, a few at a time. The articles pass gives each article of the page the entries it lacks; the
 * entries pass removes each entry of the page that its article (read again) does not account for. Each
 * correction is one transaction holding only while the article is still as read (a write made meanwhile
 * moved its entries itself: skipped).
 */
export async function calendarEntriesStep(
  db: DynamoDBDocumentClient,
  tableName: string,
  cursor: CalendarBackfillCursor | undefined,
  options: { pageSize?: number } = {},
): Promise<{ cursor?: CalendarBackfillCursor; counts: CalendarBackfillResult }> {
  const pass = cursor?.pass ?? 'articles';
  const counts: CalendarBackfillResult = { articles: 0, fixed: 0, skipped: 0 };
  const page: ScanCommandOutput = await db.send(
    new ScanCommand({
      TableName: tableName,
      ...(pass === 'articles'
        ? {
            FilterExpression: 'begins_with(SK, :article) AND #type = :articleType',
            ExpressionAttributeValues: { ':article': 'ARTICLE#', ':articleType': 'article' },
          }
        : {
            FilterExpression: 'begins_with(SK, :entry)',
            ExpressionAttributeValues: { ':entry': 'CAL#' },
          }),
      ProjectionExpression: projection.ProjectionExpression,
      ExpressionAttributeNames: { ...projection.names, ...(pass === 'articles' ? { '#type': 'type' } : {}) },
      ConsistentRead: true,
      ExclusiveStartKey: cursor?.after,
      Limit: options.pageSize ?? PAGE_SIZE,
    }),
  );
  const settle = async (article: ArticleItem | undefined, key: { PK: string; SK: string }, writes: TransactItem[]) => {
    const check: TransactItem = { ConditionCheck: { TableName: tableName, Key: key, ...stateUnchanged(article) } };
    if (await correct(db, [check, ...writes])) counts.fixed++;
    else counts.skipped++;
  };

  if (pass === 'articles') {
    const articles = (page.Items ?? []) as ArticleItem[];
    counts.articles = articles.length;
    const wanted = new Map(articles.map((a) => [a, wantedEntries(tableName, a)]));
    const existing = await getAll(
      db,
      tableName,
      [...wanted.values()].flat().map((put) => ({ PK: put.Item!.PK as string, SK: put.Item!.SK as string })),
    );
    await forEachConcurrently(articles, CORRECTIONS_AT_ONCE, async (article) => {
      const missing = wanted.get(article)!.filter((put) => !existing.has(`${put.Item!.PK}/${put.Item!.SK}`));
      if (!missing.length) return;
      await settle(
        article,
        { PK: article.PK, SK: article.SK },
        missing.map((Put): TransactItem => ({ Put })),
      );
    });
  } else {
    const entries = (page.Items ?? []) as EntryItem[];
    const articleKey = (e: EntryItem) => ({ PK: e.PK, SK: `ARTICLE#${e.articleId}` });
    const articles = await getAll(db, tableName, entries.map(articleKey));
    await forEachConcurrently(entries, CORRECTIONS_AT_ONCE, async (entry) => {
      const key = articleKey(entry);
      const article = articles.get(`${key.PK}/${key.SK}`) as ArticleItem | undefined;
      if (article && wantedEntries(tableName, article).some((put) => put.Item!.SK === entry.SK)) return;
      await settle(article, key, [{ Delete: { TableName: tableName, Key: { PK: entry.PK, SK: entry.SK } } }]);
    });
  }

  if (page.LastEvaluatedKey) return { cursor: { pass, after: page.LastEvaluatedKey }, counts };
  return { cursor: pass === 'articles' ? { pass: 'entries' } : undefined, counts };
}

/**
 * Gives every article the calendar entries it should have (article-store.ts calendarWrites), for articles
 * written before the entries existed, and removes entries that no article accounts for. Idempotent: an
 * article whose entries are right is not written, so a second run writes nothing. Safe while the app runs
 * (calendarEntriesStep). The whole table in one go, where the registered backfill (backfills.ts) goes
 * step by step.
 */
export async function backfillCalendarEntries(
  db: DynamoDBDocumentClient,
  tableName: string,
  options: { pageSize?: number } = {},
): Promise<CalendarBackfillResult> {
  const result: CalendarBackfillResult = { articles: 0, fixed: 0, skipped: 0 };
  let cursor: CalendarBackfillCursor | undefined;
  do {
    const step = await calendarEntriesStep(db, tableName, cursor, options);
    result.articles += step.counts.articles;
    result.fixed += step.counts.fixed;
    result.skipped += step.counts.skipped;
    cursor = step.cursor;
  } while (cursor);
  return result;
}

/** Attempts of one article's correction that another transaction on its items (or throttling) cancelled. */
const CORRECTION_ATTEMPTS = 8;

/**
 * One article's correction: true when written, false when the article changed meanwhile (its check
 * failed: that write moved the entries itself). Another transaction on the same items or throttling
 * cancels it too, with the article unchanged: then it is sent again, never counted as done by a write.
 */
async function correct(db: DynamoDBDocumentClient, items: TransactItem[]): Promise<boolean> {
  for (let attempt = 1; ; attempt++) {
    try {
      await db.send(new TransactWriteCommand({ TransactItems: items }));
      return true;
    } catch (err) {
      const codes = cancellationCodes(err);
      if (!codes) throw err;
      if (codes[0] === 'ConditionalCheckFailed') return false;
      const passing = codes.every((code) => !code || code === 'None' || PASSING_CANCELLATIONS.has(code));
      if (!passing || attempt >= CORRECTION_ATTEMPTS) throw err;
      await backOff(attempt);
    }
  }
}
