import { describe, expect, it } from 'vitest';
import { tableDefinition } from '../../functions/src/adapters/table-definition.js';
import { tableIndexes } from '../lib/data-table.js';
import { only, synthesizeDefaultStack, type Resource } from './helpers.js';

const { template } = synthesizeDefaultStack();

describe('DynamoDB table', () => {
  it('is the one table, keyed as tableDefinition says', () => {
    const [, table] = only(template.findResources('AWS::DynamoDB::Table') as Record<string, Resource>);
    expect(table.Properties.KeySchema).toEqual([
      { AttributeName: tableDefinition.partitionKey.name, KeyType: 'HASH' },
      { AttributeName: tableDefinition.sortKey.name, KeyType: 'RANGE' },
    ]);
    expect(table.Properties.AttributeDefinitions).toEqual(
      expect.arrayContaining([
        { AttributeName: 'PK', AttributeType: 'S' },
        { AttributeName: 'SK', AttributeType: 'S' },
        { AttributeName: 'GSI1PK', AttributeType: 'S' },
        { AttributeName: 'GSI1SK', AttributeType: 'S' },
        { AttributeName: 'GSI2PK', AttributeType: 'S' },
        { AttributeName: 'GSI2SK', AttributeType: 'S' },
      ]),
    );
  });

  it('has every global secondary index of tableDefinition, projected as it says', () => {
    const [, table] = only(template.findResources('AWS::DynamoDB::Table') as Record<string, Resource>);
    expect(table.Properties.GlobalSecondaryIndexes).toEqual(
      tableIndexes.map((index) => ({
        IndexName: index.indexName,
        KeySchema: [
          { AttributeName: index.partitionKey.name, KeyType: 'HASH' },
          { AttributeName: index.sortKey.name, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: index.projection },
      })),
    );
    expect(table.Properties.GlobalSecondaryIndexes.map((i: { IndexName: string }) => i.IndexName)).toEqual([
      'GSI1',
      'GSI2',
    ]);
    // The published-history index holds keys only: pages are read back from the table itself.
    expect(table.Properties.GlobalSecondaryIndexes[1].Projection).toEqual({ ProjectionType: 'KEYS_ONLY' });
  });

  it('is on-demand, with point-in-time recovery, TTL, encryption, and is retained', () => {
    template.hasResource('AWS::DynamoDB::Table', {
      Properties: {
        BillingMode: 'PAY_PER_REQUEST',
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        TimeToLiveSpecification: { AttributeName: tableDefinition.timeToLiveAttribute, Enabled: true },
        SSESpecification: { SSEEnabled: true },
      },
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
    });
  });
});
