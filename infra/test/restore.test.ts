import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { TABLE_DATA_ACTIONS } from '../lib/content-publisher-stack.js';
import { PITR_RECOVERY_DAYS, tableIndexes } from '../lib/data-table.js';
import { asArray, only, synthesizeDefaultStack, testApp, type Resource, type Statement } from './helpers.js';

const { template, imagesBucketId } = synthesizeDefaultStack();

/** The stream of a restored table, as `aws dynamodb describe-table` names it. */
const STREAM_ARN =
  'arn:aws:dynamodb:us-east-1:123456789012:table/ContentPublisher-restored-2026-11-20/stream/2026-11-20T09:30:00.000';

describe('restore: the data can be brought back (docs/operations.md, Restore)', () => {
  it('the table has deletion protection and point-in-time recovery over the longest window DynamoDB keeps', () => {
    const [, table] = only(template.findResources('AWS::DynamoDB::Table') as Record<string, Resource>);
    expect(table.Properties.DeletionProtectionEnabled).toBe(true);
    expect(PITR_RECOVERY_DAYS).toBe(35);
    expect(table.Properties.PointInTimeRecoverySpecification).toEqual({
      PointInTimeRecoveryEnabled: true,
      RecoveryPeriodInDays: PITR_RECOVERY_DAYS,
    });
  });

  it('the images bucket keeps replaced and deleted images (versioning) for the PITR window, then lets them go', () => {
    const bucket = template.findResources('AWS::S3::Bucket')[imagesBucketId] as Resource;
    expect(bucket.Properties.VersioningConfiguration).toEqual({ Status: 'Enabled' });
    const rules = bucket.Properties.LifecycleConfiguration.Rules as Record<string, any>[];
    expect(rules).toContainEqual({
      Id: 'expire-noncurrent-versions',
      Status: 'Enabled',
      NoncurrentVersionExpiration: { NoncurrentDays: PITR_RECOVERY_DAYS },
      ExpiredObjectDeleteMarker: true,
    });
  });

  it('the tableName context value points the stack at an existing (restored) table: none created, every function uses it', () => {
    const { stack } = testApp({
      context: { tableName: 'ContentPublisher-restored-2026-11-20', tableStreamArn: STREAM_ARN },
    });
    const restored = Template.fromStack(stack);
    restored.resourceCountIs('AWS::DynamoDB::Table', 0);
    // The backfill function gets its table with each request (its custom resource's TableName).
    const backfillsId = stack.resolve(stack.getLogicalId(stack.backfills.function.function.node.defaultChild as never));
    const functions = Object.entries(restored.findResources('AWS::Lambda::Function') as Record<string, Resource>)
      .filter(([id]) => id !== backfillsId)
      .map(([, fn]) => fn);
    expect(functions.length).toBeGreaterThan(1);
    for (const fn of functions)
      expect(fn.Properties.Environment.Variables.TABLE_NAME).toBe('ContentPublisher-restored-2026-11-20');
    const [backfills] = Object.values(restored.findResources('Custom::TableBackfills') as Record<string, Resource>);
    expect(backfills!.Properties.TableName).toBe('ContentPublisher-restored-2026-11-20');
    const outputs = restored.toJSON().Outputs as Record<string, { Value: unknown }>;
    expect(outputs.TableName!.Value).toBe('ContentPublisher-restored-2026-11-20');
    // The grants name that table and its indexes, one by one.
    const policies = Object.values(restored.findResources('AWS::IAM::Policy') as Record<string, Resource>);
    const tableStatements = policies
      .flatMap((p) => p.Properties.PolicyDocument.Statement as Statement[])
      .filter((s) => asArray(s.Action).includes(TABLE_DATA_ACTIONS[0]));
    // Each API function's, the worker's and the backfill function's.
    expect(tableStatements).toHaveLength(stack.functions.size + 2);
    const tableArn = (suffix: string) => ({
      'Fn::Join': [
        '',
        [
          'arn:',
          { Ref: 'AWS::Partition' },
          ':dynamodb:',
          { Ref: 'AWS::Region' },
          ':',
          { Ref: 'AWS::AccountId' },
          `:table/ContentPublisher-restored-2026-11-20${suffix}`,
        ],
      ],
    });
    for (const s of tableStatements) {
      // The backfills' (the only one that may Scan) name the table alone; they query its indexes apart.
      expect(s.Resource).toEqual(
        asArray(s.Action).includes('dynamodb:Scan')
          ? tableArn('')
          : [tableArn(''), ...tableIndexes.map((i) => tableArn(`/index/${i.indexName}`))],
      );
    }
    expect(stack.data.created).toBe(false);
  });

  it('its stream delivers the domain events: the tableStreamArn context value is required with it', () => {
    const { stack } = testApp({
      context: { tableName: 'ContentPublisher-restored-2026-11-20', tableStreamArn: STREAM_ARN },
    });
    const mappings = Object.values(
      Template.fromStack(stack).findResources('AWS::Lambda::EventSourceMapping') as Record<string, Resource>,
    );
    expect(mappings.map((m) => m.Properties.EventSourceArn)).toContain(STREAM_ARN);
    expect(() => testApp({ context: { tableName: 'ContentPublisher-restored-2026-11-20' } })).toThrow(
      /tableStreamArn must be given with tableName/,
    );
  });

  it('a tableName that cannot be a table name fails synthesis, saying so', () => {
    expect(() => testApp({ context: { tableName: 'my table!', tableStreamArn: STREAM_ARN } })).toThrow(
      /tableName must be the name of an existing DynamoDB table/,
    );
  });
});
