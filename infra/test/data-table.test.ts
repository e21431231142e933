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
      ]),
    );
  });

  it('has every global secondary index of tableDefinition, all attributes projected', () => {
    const [, table] = only(template.findResources('AWS::DynamoDB::Table') as Record<string, Resource>);
    expect(table.Properties.GlobalSecondaryIndexes).toEqual(
      tableIndexes.map((index) => ({
        IndexName: index.indexName,
        KeySchema: [
          { AttributeName: index.partitionKey.name, KeyType: 'HASH' },
          ...(index.sortKey ? [{ AttributeName: index.sortKey.name, KeyType: 'RANGE' }] : []),
        ],
        Projection: { ProjectionType: 'ALL' },
      })),
    );
    expect(table.Properties.GlobalSecondaryIndexes[0].IndexName).toBe('GSI1');
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
