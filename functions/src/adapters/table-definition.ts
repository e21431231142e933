/**
 * The one DynamoDB table's keys, in a neutral form: the CDK stack and the local stack both build
 * their table from this, so local and deployed data look the same.
 *
 * Items (PK / SK):
 *   USER#<id> / PROFILE            the user; GSI1PK=USERS, GSI1SK=<createdAt>#<id> (admin list)
 *   EMAIL#<lower-case email> / EMAIL   unique e-mail claim, holds userId
 *   META / FIRST_ADMIN             claimed once, by the first account ever registered
 */
export interface KeyAttribute {
  name: string;
  type: 'S' | 'N';
}

export const tableDefinition = {
  partitionKey: { name: 'PK', type: 'S' } as KeyAttribute,
  sortKey: { name: 'SK', type: 'S' } as KeyAttribute,
  globalSecondaryIndexes: [
    {
      indexName: 'GSI1',
      partitionKey: { name: 'GSI1PK', type: 'S' } as KeyAttribute,
      sortKey: { name: 'GSI1SK', type: 'S' } as KeyAttribute,
    },
  ],
  timeToLiveAttribute: 'expiresAt',
} as const;
