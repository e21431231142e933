import { describe, expect, it } from 'vitest';
import { BULK_JOBS_DEFAULTS } from '../lib/bulk-jobs.js';
import { WORKER_FUNCTION_DEFAULTS } from '../lib/worker-function.js';
import {
  deadLetterAlarmProperties,
  logicalId,
  only,
  synthesizeDefaultStack,
  type Resource,
  type Statement,
} from './helpers.js';

const { stack, template, workerAliasId } = synthesizeDefaultStack();

describe('bulk job queue (SQS)', () => {
  const queueId = () => logicalId(stack, stack.bulkJobs.queue);
  const dlqId = () => logicalId(stack, stack.bulkJobs.deadLetterQueue);
  const queues = () => template.findResources('AWS::SQS::Queue') as Record<string, Resource>;

  it('is encrypted, keeps jobs 4 days, hides a job 6× the worker timeout while it runs, and dead-letters after 3 deliveries', () => {
    // The schedules' dead letters go to this dead-letter queue too (schedules.ts); the events' delivery has its own.
    expect(Object.keys(queues()).sort()).toEqual(
      [queueId(), dlqId(), logicalId(stack, stack.eventDelivery.deadLetterQueue)].sort(),
    );
    const queue = queues()[queueId()]!;
    expect(queue.Properties).toEqual({
      SqsManagedSseEnabled: true,
      MessageRetentionPeriod: 4 * 24 * 3600,
      VisibilityTimeout: 6 * WORKER_FUNCTION_DEFAULTS.timeout.toSeconds(),
      RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [dlqId(), 'Arn'] }, maxReceiveCount: 3 },
    });
    expect(queue.Properties.VisibilityTimeout).toBe(1800);
    expect(BULK_JOBS_DEFAULTS.maxReceiveCount).toBe(3);
    expect(queues()[dlqId()]!.Properties).toEqual({
      SqsManagedSseEnabled: true,
      MessageRetentionPeriod: 14 * 24 * 3600,
    });
  });

  it.each([
    ['the queue', () => queueId()],
    ['its dead-letter queue', () => dlqId()],
  ])('%s refuses requests without TLS, and its policy allows nothing', (_name, id) => {
    const policies = Object.values(template.findResources('AWS::SQS::QueuePolicy') as Record<string, Resource>).filter(
      (p) => JSON.stringify(p.Properties.Queues).includes(`"${id()}"`),
    );
    expect(policies).toHaveLength(1);
    const statements = policies[0]!.Properties.PolicyDocument.Statement as (Statement & { Principal: unknown })[];
    expect(statements).toContainEqual(
      expect.objectContaining({
        Effect: 'Deny',
        Principal: { AWS: '*' },
        Condition: { Bool: { 'aws:SecureTransport': 'false' } },
      }),
    );
    for (const statement of statements) expect(statement.Effect).toBe('Deny');
  });

  it('feeds the worker one job per invocation, at most 5 at once, reporting failed records', () => {
    // The queue's mapping (the table stream's is event-delivery.test.ts's).
    const [, mapping] = only(
      Object.fromEntries(
        Object.entries(template.findResources('AWS::Lambda::EventSourceMapping') as Record<string, Resource>).filter(
          ([, m]) => JSON.stringify(m.Properties.EventSourceArn).includes(queueId()),
        ),
      ),
    );
    expect(mapping.Properties).toEqual({
      EventSourceArn: { 'Fn::GetAtt': [queueId(), 'Arn'] },
      // The live alias, as `<function name>:live` (taken from the alias's ARN): a deployment shifts the queue's jobs too.
      FunctionName: {
        'Fn::Join': ['', [{ 'Fn::Select': [6, { 'Fn::Split': [':', { Ref: workerAliasId }] }] }, ':live']],
      },
      BatchSize: 1,
      ScalingConfig: { MaximumConcurrency: 5 },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    expect(BULK_JOBS_DEFAULTS.maxConcurrency).toBe(5);
  });

  it('alarms as soon as one dead letter waits (5-minute period)', () => {
    const alarm = template.findResources('AWS::CloudWatch::Alarm')[
      logicalId(stack, stack.bulkJobs.deadLetterAlarm)
    ] as Resource;
    expect(alarm.Properties).toMatchObject(deadLetterAlarmProperties(dlqId()));
    expect(alarm.Properties.AlarmActions).toBeUndefined();
    // This one (the schedules' dead letters land here too), the events' delivery's two (event-delivery.test.ts), and those of the functions
    // and the API (alarms.ts, observability.test.ts).
    template.resourceCountIs('AWS::CloudWatch::Alarm', 3 + stack.alarms.all.length);
  });

  it('exports the dead-letter queue URL', () => {
    expect(template.findOutputs('*').BulkJobDeadLetterQueueUrl?.Value).toEqual({ Ref: dlqId() });
  });
});
