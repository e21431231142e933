import { ScanCommand, type DynamoDBDocumentClient, type ScanCommandOutput } from '@aws-sdk/lib-dynamodb';
import type { PublicationState } from '../../domain/articles.js';
import {
  INDEX_ATTRIBUTES,
  indexAttributesOf,
  indexAttributesRight,
  setIndexAttributes,
  type IndexAttributes,
} from './article-store.js';
import { CORRECTIONS_AT_ONCE, forEachConcurrently } from './client.js';

export type BackfillResult = {
  /** Article items looked at. */
  articles: number;
  /** Items whose index attributes were set or removed. */
  fixed: number;
  /** Items changed by another write while this ran: that write set their attributes itself. */
  skipped: number;
};

type ArticleItem = PublicationState & IndexAttributes & { PK: string; SK: string; id: string; userId: string };

/** Items a step reads (a Scan page's Limit) unless told: a page of 1 MB holds fewer anyway. */
const PAGE_SIZE = 1_000;

/**
 * One step of the backfill (domain/backfills.ts): one page of the Scan from `cursor` (a LastEvaluatedKey)
 * and its corrections, made a few at a time. `cursor` in the answer: where the next page starts.
 */
export async function articleIndexesStep(
  db: DynamoDBDocumentClient,
  tableName: string,
  cursor: Record<string, unknown> | undefined,
  options: { pageSize?: number } = {},
): Promise<{ cursor?: Record<string, unknown>; counts: BackfillResult }> {
  const counts: BackfillResult = { articles: 0, fixed: 0, skipped: 0 };
  const attributes = ['PK', 'SK', 'id', 'userId', 'updatedAt', 'blog', 'linkedin', 'posts', ...INDEX_ATTRIBUTES];
  const page: ScanCommandOutput = await db.send(
    new ScanCommand({
      TableName: tableName,
      FilterExpression: 'begins_with(SK, :article) AND #type = :type',
      ProjectionExpression: attributes.map((_, i) => `#a${i}`).join(', '),
      ExpressionAttributeNames: {
        '#type': 'type',
        ...Object.fromEntries(attributes.map((name, i) => [`#a${i}`, name])),
      },
      ExpressionAttributeValues: { ':article': 'ARTICLE#', ':type': 'article' },
      ExclusiveStartKey: cursor,
      Limit: options.pageSize ?? PAGE_SIZE,
    }),
  );
  const items = (page.Items ?? []) as ArticleItem[];
  counts.articles = items.length;
  await forEachConcurrently(items, CORRECTIONS_AT_ONCE, async (item) => {
    const wanted = indexAttributesOf(item);
    if (indexAttributesRight(item, wanted)) return;
    if (await setIndexAttributes(db, tableName, { PK: item.PK, SK: item.SK }, item, wanted)) counts.fixed++;
    else counts.skipped++;
  });
  return { cursor: page.LastEvaluatedKey, counts };
}

/**
 * Gives every article item the index attributes it should have (indexAttributesOf), for items
 * written before the indexes existed. Idempotent: an item already right is not written, so a second
 * run writes nothing. Safe while the app runs: each correction holds only while the item's
 * publication state is the one read (setIndexAttributes); a write made meanwhile keeps its own
 * attributes right. Reads the table one page at a time (a Scan, only the attributes it needs): the
 * whole table in one go, where the registered backfill (backfills.ts) goes step by step.
 */
export async function backfillArticleIndexes(
  db: DynamoDBDocumentClient,
  tableName: string,
  options: { pageSize?: number } = {},
): Promise<BackfillResult> {
  const result: BackfillResult = { articles: 0, fixed: 0, skipped: 0 };
  let cursor: Record<string, unknown> | undefined;
  do {
    const step = await articleIndexesStep(db, tableName, cursor, options);
    result.articles += step.counts.articles;
    result.fixed += step.counts.fixed;
    result.skipped += step.counts.skipped;
    cursor = step.cursor;
  } while (cursor);
  return result;
}
