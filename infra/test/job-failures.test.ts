import { Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { WORKER_ASYNC_DEFAULTS } from '../lib/bulk-jobs.js';
import { redriveCommand, type ContentPublisherStack } from '../lib/content-publisher-stack.js';
import { deadLetterAlarmProperties, testApp } from './helpers.js';

const logicalId = (stack: Stack, construct: { node: { defaultChild?: unknown } }): string =>
  stack.resolve(stack.getLogicalId(construct.node.defaultChild as never)) as string;

describe('no worker job is lost silently', () => {
  let stack: ContentPublisherStack;
  let template: Template;
  let failureQueueId: string;
  let workerId: string;
  let workerAliasId: string;
  beforeAll(() => {
    ({ stack } = testApp({ context: { alarmEmail: 'ops@example.com' } }));
    template = Template.fromStack(stack);
    failureQueueId = logicalId(stack, stack.bulkJobs.deadLetterQueue);
    workerId = logicalId(stack, stack.worker.function);
    workerAliasId = logicalId(stack, stack.worker.alias);
  });

  it('a directly invoked job is retried twice, then sent to the job failure queue', () => {
    // On the live alias, which every job invocation names (an alias has its own settings: $LATEST's would not apply).
    // (And on the function itself, for the schedules made before the alias: deployments.test.ts.)
    template.resourceCountIs('AWS::Lambda::EventInvokeConfig', 2);
    template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
      FunctionName: { Ref: workerId },
      Qualifier: { 'Fn::Select': [7, { 'Fn::Split': [':', { Ref: workerAliasId }] }] },
      MaximumRetryAttempts: WORKER_ASYNC_DEFAULTS.retryAttempts,
      MaximumEventAgeInSeconds: WORKER_ASYNC_DEFAULTS.maxEventAge.toSeconds(),
      DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [failureQueueId, 'Arn'] } } },
    });
    expect(WORKER_ASYNC_DEFAULTS.retryAttempts).toBe(2);
  });

  it('the worker may send to that queue, and nothing else may', () => {
    const roleId = logicalId(stack, stack.worker.role);
    template.hasResourceProperties('AWS::IAM::Policy', {
      Roles: Match.arrayWith([{ Ref: roleId }]),
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Action: Match.arrayWith(['sqs:SendMessage']),
            Effect: 'Allow',
            // With the domain events' failure queue (event-delivery.test.ts) in the same statement.
            Resource: Match.arrayWith([{ 'Fn::GetAtt': [failureQueueId, 'Arn'] }]),
          }),
        ]),
      },
    });
  });

  it('the failure queue is alarmed, to the alarm topic', () => {
    const alarms = template.findResources('AWS::CloudWatch::Alarm', {
      Properties: deadLetterAlarmProperties(failureQueueId),
    });
    expect(Object.keys(alarms)).toHaveLength(1);
    const alarm = Object.values(alarms)[0] as { Properties: { AlarmActions?: unknown[]; AlarmDescription: string } };
    expect(alarm.Properties.AlarmActions).toHaveLength(1);
    expect(alarm.Properties.AlarmDescription).toMatch(/scheduled approval e-mail/);
  });

  it('a stack output gives the command that redrives the failed jobs to the job queue', () => {
    const output = template.findOutputs('RedriveFailedJobsCommand').RedriveFailedJobsCommand!;
    expect(JSON.stringify(output.Value)).toContain('aws sqs start-message-move-task --source-arn ');
    expect(JSON.stringify(output.Value)).toContain(failureQueueId);
    expect(JSON.stringify(output.Value)).toContain(logicalId(stack, stack.bulkJobs.queue));
    expect(redriveCommand('SRC', 'DST', 'eu-west-1')).toBe(
      'aws sqs start-message-move-task --source-arn SRC --destination-arn DST --region eu-west-1',
    );
  });
});
