/**
 * The one DynamoDB table's keys, in a neutral form: the CDK stack and the local stack both build
 * their table from this, so local and deployed data look the same.
 *
 * Items (PK / SK):
 *   USER#<id> / PROFILE            the user; GSI1PK=USERS, GSI1SK=<createdAt>#<id> (admin list)
 *   EMAIL#<lower-case email> / EMAIL   unique e-mail claim, holds userId
 *   META / FIRST_ADMIN             claimed once, by the first account ever registered
 *   USER#<id> / ARTICLE#<articleId>   an article (ids are time-ordered: newest last)
 *     while not published on both platforms: GSI1PK=OPEN#<userId>, GSI1SK=ARTICLE#<articleId>
 *     once published on one platform:        GSI2PK=PUB#<userId>, GSI2SK=<latest lastPublished>#<articleId>
 *   (both sparse; kept by adapters/dynamo/article-store.ts on every write, docs/data-model.md)
 *   USER#<id> / CAL#<ISO time>#<articleId>#<platform>   a calendar entry: a platform of an article at its
 *     publication time, else its scheduled time; written and removed in the article write's transaction
 *     (article-store.ts calendarWrites), read by `SK BETWEEN CAL#<from> AND CAL#<to>~` (GET /api/calendar)
 *   META / BACKFILL#<name>   a backfill's run-once marker (adapters/dynamo/backfills.ts)
 */
export interface KeyAttribute {
  name: string;
  type: 'S' | 'N';
}

/**
 * ALL copies every attribute into the index; KEYS_ONLY only the table's and the index's keys (the
 * reader then gets the items themselves from the table).
 */
export type IndexProjection = 'ALL' | 'KEYS_ONLY';

export interface IndexDefinition {
  indexName: string;
  partitionKey: KeyAttribute;
  sortKey: KeyAttribute;
  projection: IndexProjection;
}

export const tableDefinition = {
  partitionKey: { name: 'PK', type: 'S' } as KeyAttribute,
  sortKey: { name: 'SK', type: 'S' } as KeyAttribute,
  globalSecondaryIndexes: [
    {
      indexName: 'GSI1',
      partitionKey: { name: 'GSI1PK', type: 'S' } as KeyAttribute,
      sortKey: { name: 'GSI1SK', type: 'S' } as KeyAttribute,
      projection: 'ALL',
    },
    // Added after GSI1: a deployed table gains one index per deployment (docs/operations.md).
    {
      indexName: 'GSI2',
      partitionKey: { name: 'GSI2PK', type: 'S' } as KeyAttribute,
      sortKey: { name: 'GSI2SK', type: 'S' } as KeyAttribute,
      projection: 'KEYS_ONLY',
    },
  ] as readonly IndexDefinition[],
  timeToLiveAttribute: 'expiresAt',
} as const;
