import {
  ScanCommand,
  TransactWriteCommand,
  type DynamoDBDocumentClient,
  type ScanCommandOutput,
} from '@aws-sdk/lib-dynamodb';
import type { CalendarState } from '../../domain/calendar.js';
import { DERIVED_PATHS, calendarWrites, fieldsUnchanged } from './article-store.js';
import { backfillOncePerTable } from './client.js';
import { PASSING_CANCELLATIONS, backOff, cancellationCodes, type TransactItem } from './summary-store.js';

export interface CalendarBackfillResult {
  /** Article items looked at. */
  articles: number;
  /** Articles (or entries whose article is gone) whose entries were written or removed. */
  fixed: number;
  /** Articles changed by another write while this ran: that write set their entries itself. */
  skipped: number;
}

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

/**
 * Gives every article the calendar entries it should have (article-store.ts calendarWrites), for articles
 * written before the entries existed, and removes entries that no article accounts for. Idempotent: an
 * article whose entries are right is not written, so a second run writes nothing. Safe while the app runs:
 * each article's correction is one transaction holding only while the article is as read (a write made
 * meanwhile moved its entries itself). One strongly consistent Scan of the article and entry items.
 */
export async function backfillCalendarEntries(
  db: DynamoDBDocumentClient,
  tableName: string,
): Promise<CalendarBackfillResult> {
  const articles = new Map<string, ArticleItem>();
  const entries = new Map<string, EntryItem[]>();
  const attributes = [
    'PK',
    'SK',
    'id',
    'userId',
    'blog',
    'linkedin',
    'scheduled',
    'keyword',
    'tags',
    'articleId',
    'platform',
    'at',
    'kind',
  ];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page: ScanCommandOutput = await db.send(
      new ScanCommand({
        TableName: tableName,
        FilterExpression: '(begins_with(SK, :article) AND #type = :articleType) OR begins_with(SK, :entry)',
        ProjectionExpression: attributes.map((_, i) => `#a${i}`).join(', '),
        ExpressionAttributeNames: {
          '#type': 'type',
          ...Object.fromEntries(attributes.map((name, i) => [`#a${i}`, name])),
        },
        ExpressionAttributeValues: { ':article': 'ARTICLE#', ':articleType': 'article', ':entry': 'CAL#' },
        ConsistentRead: true,
        ExclusiveStartKey,
      }),
    );
    for (const item of page.Items ?? []) {
      if ((item.SK as string).startsWith('CAL#')) {
        const entry = item as EntryItem;
        const owner = `${entry.PK}/${entry.articleId}`;
        entries.set(owner, [...(entries.get(owner) ?? []), entry]);
      } else {
        const article = item as ArticleItem;
        articles.set(`${article.PK}/${article.id}`, article);
      }
    }
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);

  const result: CalendarBackfillResult = { articles: articles.size, fixed: 0, skipped: 0 };
  for (const owner of new Set([...articles.keys(), ...entries.keys()])) {
    const [pk, articleId] = owner.split('/') as [string, string];
    const userId = pk.slice('USER#'.length);
    const article = articles.get(owner);
    const existing = entries.get(owner) ?? [];
    const wanted = calendarWrites(tableName, userId, articleId, undefined, article).flatMap((w) =>
      w.Put ? [w.Put] : [],
    );
    const wantedKeys = new Set(wanted.map((put) => put.Item!.SK as string));
    const existingKeys = new Set(existing.map((e) => e.SK));
    const writes: TransactItem[] = [
      ...existing
        .filter((e) => !wantedKeys.has(e.SK))
        .map((e): TransactItem => ({ Delete: { TableName: tableName, Key: { PK: e.PK, SK: e.SK } } })),
      ...wanted.filter((put) => !existingKeys.has(put.Item!.SK as string)).map((Put): TransactItem => ({ Put })),
    ];
    if (!writes.length) continue;
    const check: TransactItem = {
      ConditionCheck: {
        TableName: tableName,
        Key: { PK: pk, SK: `ARTICLE#${articleId}` },
        ...stateUnchanged(article),
      },
    };
    if (await correct(db, [check, ...writes])) result.fixed++;
    else result.skipped++;
  }
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

/** The backfill once per table (local start-up). `undefined` when the table was marked already. */
export const backfillCalendarEntriesOnce = (
  db: DynamoDBDocumentClient,
  tableName: string,
): Promise<CalendarBackfillResult | undefined> =>
  backfillOncePerTable(db, tableName, 'calendar-entries-v1', () => backfillCalendarEntries(db, tableName));
