import { ScanCommand, type DynamoDBDocumentClient, type ScanCommandOutput } from '@aws-sdk/lib-dynamodb';
import type { PublicationState } from '../../domain/articles.js';
import {
  INDEX_ATTRIBUTES,
  indexAttributesOf,
  indexAttributesRight,
  setIndexAttributes,
  type IndexAttributes,
} from './article-store.js';
import { backfillOncePerTable } from './client.js';

export interface BackfillResult {
  /** Article items looked at. */
  articles: number;
  /** Items whose index attributes were set or removed. */
  fixed: number;
  /** Items changed by another write while this ran: that write set their attributes itself. */
  skipped: number;
}

type ArticleItem = PublicationState & IndexAttributes & { PK: string; SK: string; id: string; userId: string };

/**
 * Gives every article item the index attributes it should have (indexAttributesOf), for items
 * written before the indexes existed. Idempotent: an item already right is not written, so a second
 * run writes nothing. Safe while the app runs: each correction holds only while the item's
 * publication state is the one read (setIndexAttributes); a write made meanwhile keeps its own
 * attributes right. Reads the table one page at a time (a Scan, only the attributes it needs).
 */
export async function backfillArticleIndexes(
  db: DynamoDBDocumentClient,
  tableName: string,
  options: { pageSize?: number } = {},
): Promise<BackfillResult> {
  const result: BackfillResult = { articles: 0, fixed: 0, skipped: 0 };
  const attributes = ['PK', 'SK', 'id', 'userId', 'updatedAt', 'blog', 'linkedin', ...INDEX_ATTRIBUTES];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
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
        ExclusiveStartKey,
        Limit: options.pageSize,
      }),
    );
    for (const item of (page.Items ?? []) as ArticleItem[]) {
      result.articles++;
      const wanted = indexAttributesOf(item);
      if (indexAttributesRight(item, wanted)) continue;
      if (await setIndexAttributes(db, tableName, { PK: item.PK, SK: item.SK }, item, wanted)) result.fixed++;
      else result.skipped++;
    }
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return result;
}

/**
 * The backfill once per table (local start-up): a table already marked is not scanned again, so a long
 * history does not slow every start. `undefined` when it was marked already.
 */
export const backfillArticleIndexesOnce = (
  db: DynamoDBDocumentClient,
  tableName: string,
): Promise<BackfillResult | undefined> =>
  backfillOncePerTable(db, tableName, 'article-indexes-v1', () => backfillArticleIndexes(db, tableName));
