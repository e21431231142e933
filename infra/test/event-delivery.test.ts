/**
 * At-least-once delivery of the domain events over the synthesized template (infra/lib/event-delivery.ts):
 * the table's stream, the worker's filtered event source mapping with its retries and failure queue, the
 * least privilege around it, the alarms, and the bus's archive for a replay.
 */
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { FUNCTION_ACCESS } from '../lib/content-publisher-stack.js';
import { EVENT_DELIVERY_DEFAULTS } from '../lib/event-delivery.js';
import { asArray, logicalId, only, synthesizeDefaultStack, testApp, type Resource, type Statement } from './helpers.js';

const { stack, template, tableId, workerId, workerAliasId } = synthesizeDefaultStack();
const queueId = () => logicalId(stack, stack.eventDelivery.deadLetterQueue);
const statementsOf = (roleId: string): Statement[] =>
  Object.values(template.findResources('AWS::IAM::Policy') as Record<string, Resource>)
    .filter((p) => asArray(p.Properties.Roles).some((r: unknown) => (r as { Ref?: string }).Ref === roleId))
    .flatMap((p) => p.Properties.PolicyDocument.Statement as Statement[]);

describe('the table’s stream and the worker reading it', () => {
  it('the table streams each new item image (NEW_IMAGE)', () => {
    const table = template.findResources('AWS::DynamoDB::Table')[tableId] as Resource;
    expect(table.Properties.StreamSpecification).toEqual({ StreamViewType: 'NEW_IMAGE' });
  });

  it('one event source mapping, on that stream, to the worker: only new outbox items, batches retried (bisected), then the failure queue', () => {
    const [, mapping] = only(
      Object.fromEntries(
        Object.entries(template.findResources('AWS::Lambda::EventSourceMapping') as Record<string, Resource>).filter(
          ([, m]) => JSON.stringify(m.Properties.EventSourceArn).includes('StreamArn'),
        ),
      ),
    );
    // Through the worker's live alias (its name, as a mapping takes it), so batches shift with a deployment.
    expect(JSON.stringify(mapping.Properties.FunctionName)).toContain(JSON.stringify({ Ref: workerAliasId }));
    expect(JSON.stringify(mapping.Properties.FunctionName)).toContain('":live"');
    expect(mapping.Properties).toMatchObject({
      EventSourceArn: { 'Fn::GetAtt': [tableId, 'StreamArn'] },
      StartingPosition: 'TRIM_HORIZON',
      BatchSize: EVENT_DELIVERY_DEFAULTS.batchSize,
      ParallelizationFactor: EVENT_DELIVERY_DEFAULTS.parallelizationFactor,
      MaximumRetryAttempts: EVENT_DELIVERY_DEFAULTS.retryAttempts,
      MaximumRecordAgeInSeconds: EVENT_DELIVERY_DEFAULTS.maxRecordAge.toSeconds(),
      BisectBatchOnFunctionError: true,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [queueId(), 'Arn'] } } },
    });
    expect(mapping.Properties.FilterCriteria.Filters.map((f: { Pattern: string }) => JSON.parse(f.Pattern))).toEqual([
      { eventName: ['INSERT'], dynamodb: { NewImage: { type: { S: ['domain-event'] } } } },
    ]);
  });

  it('the failure queue is encrypted, TLS only, keeps its messages 14 days and is alarmed', () => {
    const queue = template.findResources('AWS::SQS::Queue')[queueId()] as Resource;
    expect(queue.Properties).toMatchObject({ SqsManagedSseEnabled: true, MessageRetentionPeriod: 14 * 86_400 });
    const alarm = template.findResources('AWS::CloudWatch::Alarm')[
      logicalId(stack, stack.eventDelivery.deadLetterAlarm)
    ] as Resource;
    expect(alarm.Properties).toMatchObject({
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [queueId(), 'QueueName'] } }],
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
    const lag = template.findResources('AWS::CloudWatch::Alarm')[
      logicalId(stack, stack.eventDelivery.iteratorAgeAlarm)
    ] as Resource;
    expect(lag.Properties).toMatchObject({
      MetricName: 'IteratorAge',
      Dimensions: [{ Name: 'FunctionName', Value: { Ref: workerId } }],
      Threshold: EVENT_DELIVERY_DEFAULTS.iteratorAgeAlarm.toMilliseconds(),
    });
  });

  it('a named stage’s alarms notify its topic', () => {
    const dev = testApp({ stack: { stage: 'dev', alarmEmail: 'ops@example.com' } }).stack;
    const devTemplate = Template.fromStack(dev);
    for (const alarm of [dev.eventDelivery.deadLetterAlarm, dev.eventDelivery.iteratorAgeAlarm]) {
      const found = devTemplate.findResources('AWS::CloudWatch::Alarm')[logicalId(dev, alarm)] as Resource;
      expect(found.Properties.AlarmActions).toHaveLength(1);
    }
  });
});

describe('least privilege', () => {
  const workerRoleId = () => logicalId(stack, stack.worker.role);

  it('the worker may read the table’s stream (and list streams, which has no resource), and send to the failure queue only', () => {
    const statements = statementsOf(workerRoleId());
    const streamRead = statements.filter((s) => asArray(s.Action).some((a) => a.startsWith('dynamodb:GetRecords')));
    expect(streamRead).toHaveLength(1);
    expect(asArray(streamRead[0]!.Action).sort()).toEqual([
      'dynamodb:DescribeStream',
      'dynamodb:GetRecords',
      'dynamodb:GetShardIterator',
    ]);
    expect(streamRead[0]!.Resource).toEqual({ 'Fn::GetAtt': [tableId, 'StreamArn'] });
    const listStreams = statements.filter((s) => asArray(s.Action).includes('dynamodb:ListStreams'));
    expect(listStreams.map((s) => [s.Action, s.Resource])).toEqual([['dynamodb:ListStreams', '*']]);
    const send = statements.filter((s) => asArray(s.Action).includes('sqs:SendMessage'));
    // The job failure queue (its async invocations' destination) and this one, by ARN.
    expect(send.flatMap((s) => asArray(s.Resource))).toEqual([
      { 'Fn::GetAtt': [logicalId(stack, stack.bulkJobs.deadLetterQueue), 'Arn'] },
      { 'Fn::GetAtt': [queueId(), 'Arn'] },
    ]);
  });

  it('no other function reads the stream, and only the worker may put events on the bus (the API functions write them to the table)', () => {
    const emitters = Object.entries(FUNCTION_ACCESS)
      .filter(([, access]) => access.includes('events:publish'))
      .map(([name]) => name);
    expect(emitters).toEqual(['worker']);
    for (const fn of stack.functions.values()) {
      const actions = statementsOf(logicalId(stack, fn.role)).flatMap((s) => asArray(s.Action));
      expect(actions.filter((a) => /^events:|GetRecords|GetShardIterator|ListStreams/.test(a))).toEqual([]);
    }
  });
});

describe('the bus’s archive', () => {
  it('keeps every event of the product 90 days for a replay', () => {
    const [, archive] = only(template.findResources('AWS::Events::Archive') as Record<string, Resource>);
    expect(archive.Properties).toMatchObject({
      SourceArn: { 'Fn::GetAtt': [logicalId(stack, stack.eventBus), 'Arn'] },
      RetentionDays: 90,
    });
    expect(JSON.parse(JSON.stringify(archive.Properties.EventPattern))).toEqual({ source: ['content-publisher'] });
  });

  it('the eventArchiveDays context value sets how long', () => {
    const { stack: longer } = testApp({ context: { eventArchiveDays: '365' } });
    const [, archive] = only(
      Template.fromStack(longer).findResources('AWS::Events::Archive') as Record<string, Resource>,
    );
    expect(archive.Properties.RetentionDays).toBe(365);
  });
});
