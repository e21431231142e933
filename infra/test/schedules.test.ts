import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { HEALTH_SWEEP_MINUTES } from '@app/shared';
import { rebuildSchedulesCommand } from '../lib/schedules.js';
import {
  asArray,
  deadLetterAlarmProperties,
  logicalId,
  only,
  synthesizeDefaultStack,
  testApp,
  type Resource,
  type Statement,
} from './helpers.js';

const { stack, template, workerId, workerAliasId } = synthesizeDefaultStack();

describe('EventBridge Scheduler', () => {
  const groupId = () => logicalId(stack, stack.schedules.group);
  const roleId = () => logicalId(stack, stack.schedules.role);
  /** The job failure queue (bulk-jobs.ts): the schedules' dead letters go there too. */
  const queueId = () => logicalId(stack, stack.bulkJobs.deadLetterQueue);

  it('has one schedule group, named per stack, deleted with the stack', () => {
    const [id, group] = only(template.findResources('AWS::Scheduler::ScheduleGroup') as Record<string, Resource>);
    expect(id).toBe(groupId());
    expect(group.Properties.Name).toBe(`${stack.stackName}-schedules`);
    expect(group.Properties.Name).toMatch(/^[0-9a-zA-Z-_.]{1,64}$/);
    expect(group.DeletionPolicy).toBe('Delete');
    // The one-off schedules are made at run time by the schedule function; the stack has only the health sweep.
    template.resourceCountIs('AWS::Scheduler::Schedule', 1);
  });

  it('the check before each slot: a rate schedule in the group invoking the worker’s live alias with the sweep’s input, through the scheduler role', () => {
    const [, sweep] = only(template.findResources('AWS::Scheduler::Schedule') as Record<string, Resource>);
    expect(sweep.Properties).toMatchObject({
      Name: 'connection-health',
      GroupName: `${stack.stackName}-schedules`,
      ScheduleExpression: `rate(${HEALTH_SWEEP_MINUTES} minutes)`,
      FlexibleTimeWindow: { Mode: 'OFF' },
      State: 'ENABLED',
      Target: {
        Arn: { Ref: workerAliasId },
        RoleArn: { 'Fn::GetAtt': [roleId(), 'Arn'] },
        Input: JSON.stringify({ type: 'connection-health' }),
        RetryPolicy: { MaximumRetryAttempts: 0 },
      },
    });
    // The worker reads the owners' saved connections (the channels' checks, their Gmail) from their secrets.
    const workerRole = (template.findResources('AWS::Lambda::Function')[workerId] as Resource).Properties.Role as {
      'Fn::GetAtt': [string, string];
    };
    const workerPolicies = Object.values(template.findResources('AWS::IAM::Policy') as Record<string, Resource>).filter(
      (p) => (p.Properties.Roles as { Ref: string }[]).some((r) => r.Ref === workerRole['Fn::GetAtt'][0]),
    );
    const actions = workerPolicies.flatMap((p) =>
      (p.Properties.PolicyDocument.Statement as Statement[]).flatMap((st) => asArray(st.Action)),
    );
    expect(actions).toEqual(expect.arrayContaining(['secretsmanager:GetSecretValue', 'dynamodb:UpdateItem']));
  });

  it('the scheduler role is assumed by EventBridge Scheduler only, for this account and this group only', () => {
    const role = template.findResources('AWS::IAM::Role')[roleId()] as Resource;
    expect(role.Properties.AssumeRolePolicyDocument.Statement).toEqual([
      {
        Action: 'sts:AssumeRole',
        Effect: 'Allow',
        Principal: { Service: 'scheduler.amazonaws.com' },
        Condition: {
          StringEquals: {
            'aws:SourceAccount': { Ref: 'AWS::AccountId' },
            'aws:SourceArn': { 'Fn::GetAtt': [groupId(), 'Arn'] },
          },
        },
      },
    ]);
    expect(role.Properties.ManagedPolicyArns).toBeUndefined();
    expect(role.Properties.Policies).toBeUndefined();
  });

  it("the scheduler role may invoke the worker's live alias (what the schedules target) and write dead letters to the job failure queue, nothing else", () => {
    const policies = Object.values(template.findResources('AWS::IAM::Policy') as Record<string, Resource>).filter((p) =>
      (p.Properties.Roles as { Ref: string }[]).some((r) => r.Ref === roleId()),
    );
    expect(policies).toHaveLength(1);
    const statements = policies[0]!.Properties.PolicyDocument.Statement as Statement[];
    const pairs = statements.flatMap((s) => {
      expect(s.Effect).toBe('Allow');
      expect(s.Condition).toBeUndefined();
      return asArray(s.Action).flatMap((a) => asArray(s.Resource).map((r) => `${a} ${JSON.stringify(r)}`));
    });
    expect(pairs.sort()).toEqual(
      [
        `lambda:InvokeFunction ${JSON.stringify({ Ref: workerAliasId })}`,
        // The schedules made before the live alias name the worker itself (deployments.test.ts).
        `lambda:InvokeFunction ${JSON.stringify({ 'Fn::GetAtt': [workerId, 'Arn'] })}`,
        `sqs:SendMessage ${JSON.stringify({ 'Fn::GetAtt': [queueId(), 'Arn'] })}`,
      ].sort(),
    );
    // No resource policy on the worker either: only this role (and the functions that enqueue jobs) invoke it.
    const permissions = Object.values(template.findResources('AWS::Lambda::Permission') as Record<string, Resource>);
    expect(JSON.stringify(permissions)).not.toContain('scheduler.amazonaws.com');
  });

  it('dead-letters into the job failure queue, the queue the documented redrive moves from: no failure queue of its own', () => {
    // SCHEDULE_DLQ_ARN (the schedules' DeadLetterConfig) of the schedule function is the job failure queue.
    const scheduleFn = template.findResources('AWS::Lambda::Function')[
      logicalId(stack, stack.functions.get('schedule')!.function)
    ] as Resource;
    expect(scheduleFn.Properties.Environment.Variables.SCHEDULE_DLQ_ARN).toEqual({ 'Fn::GetAtt': [queueId(), 'Arn'] });
    // That queue is the job queue's dead-letter queue, so StartMessageMoveTask may move its messages back there
    // (it moves only from a queue that is a dead-letter queue), and RedriveFailedJobsCommand names it.
    const queues = template.findResources('AWS::SQS::Queue') as Record<string, Resource>;
    // The stack's other queue is the domain events' delivery's (event-delivery.ts), a stream's failure destination.
    expect(Object.keys(queues).sort()).toEqual(
      [logicalId(stack, stack.bulkJobs.queue), queueId(), logicalId(stack, stack.eventDelivery.deadLetterQueue)].sort(),
    );
    expect(queues[logicalId(stack, stack.bulkJobs.queue)]!.Properties.RedrivePolicy.deadLetterTargetArn).toEqual({
      'Fn::GetAtt': [queueId(), 'Arn'],
    });
    const redrive = JSON.stringify(template.findOutputs('RedriveFailedJobsCommand').RedriveFailedJobsCommand!.Value);
    expect(redrive).toContain(`--source-arn ",{"Fn::GetAtt":["${queueId()}","Arn"]}`);
    expect(template.findOutputs('ScheduleDeadLetterQueueUrl')).toEqual({});
  });

  it("a dead letter waiting there fires the failure queue's alarm (5-minute period); no topic without alarmEmail", () => {
    const alarms = template.findResources('AWS::CloudWatch::Alarm', {
      Properties: deadLetterAlarmProperties(queueId()),
    });
    expect(Object.keys(alarms)).toEqual([logicalId(stack, stack.bulkJobs.deadLetterAlarm)]);
    expect((Object.values(alarms)[0] as Resource).Properties.AlarmDescription).toMatch(/could not deliver/);
    expect((Object.values(alarms)[0] as Resource).Properties.AlarmActions).toBeUndefined();
    template.resourceCountIs('AWS::SNS::Topic', 0);
    template.resourceCountIs('AWS::SNS::Subscription', 0);
  });

  it('alarmEmail: the alarm notifies a TLS-only topic with that e-mail subscription, which only this alarm may publish to', () => {
    const s = testApp({ context: { alarmEmail: 'ops@example.com' } }).stack;
    const t = Template.fromStack(s);
    const [topicId] = only(t.findResources('AWS::SNS::Topic') as Record<string, Resource>);
    const [, subscription] = only(t.findResources('AWS::SNS::Subscription') as Record<string, Resource>);
    expect(subscription.Properties).toEqual({
      Protocol: 'email',
      Endpoint: 'ops@example.com',
      TopicArn: { Ref: topicId },
    });
    // The job failure queue's alarm (the schedules' dead letters among them) notifies it.
    const alarmId = logicalId(s, s.bulkJobs.deadLetterAlarm);
    const alarm = t.findResources('AWS::CloudWatch::Alarm')[alarmId] as Resource;
    expect(alarm.Properties.AlarmActions).toEqual([{ Ref: topicId }]);
    const [, topicPolicy] = only(t.findResources('AWS::SNS::TopicPolicy') as Record<string, Resource>);
    const statements = topicPolicy.Properties.PolicyDocument.Statement as (Statement & { Principal: unknown })[];
    expect(statements).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          Effect: 'Deny',
          Action: 'sns:Publish',
          Condition: { Bool: { 'aws:SecureTransport': 'false' } },
        }),
        expect.objectContaining({
          Effect: 'Allow',
          Action: 'sns:Publish',
          Principal: { Service: 'cloudwatch.amazonaws.com' },
          Condition: {
            ArnLike: { 'aws:SourceArn': { 'Fn::GetAtt': [alarmId, 'Arn'] } },
            StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } },
          },
        }),
      ]),
    );
    // One Allow per alarm of the stack (this one, and the functions' and the API's, alarms.ts), each by its own ARN;
    // not the rollback alarms, which CodeDeploy reads and which notify nobody (alarms.ts, ROLLBACK_ALARM_DEFAULTS).
    const rollback = new Set([...s.alarms.rollback.values()].flat().map((a) => logicalId(s, a)));
    const alarmIds = Object.keys(t.findResources('AWS::CloudWatch::Alarm')).filter((id) => !rollback.has(id));
    expect(alarmIds).toEqual(expect.arrayContaining([alarmId]));
    expect(
      statements.filter((st) => st.Effect === 'Allow').map((st) => (st.Condition as { ArnLike: unknown }).ArnLike),
    ).toEqual(alarmIds.map((id) => ({ 'aws:SourceArn': { 'Fn::GetAtt': [id, 'Arn'] } })));
  });

  it('a stack output gives the command that makes every scheduled run again from the table (the group lost)', () => {
    const value = JSON.stringify(template.findOutputs('RebuildSchedulesCommand').RebuildSchedulesCommand!.Value);
    // The same four values the schedule function has, so the rebuilt schedules are the ones it makes.
    const scheduleFnVars = (
      template.findResources('AWS::Lambda::Function')[
        logicalId(stack, stack.functions.get('schedule')!.function)
      ] as Resource
    ).Properties.Environment.Variables;
    for (const name of ['SCHEDULE_TARGET_ARN', 'SCHEDULER_ROLE_ARN', 'SCHEDULE_DLQ_ARN'])
      expect(value).toContain(`${name}=",${JSON.stringify(scheduleFnVars[name])}`);
    expect(value).toContain(`SCHEDULE_GROUP_NAME=${stack.schedules.group.scheduleGroupName} `);
    expect(value).toContain(`TABLE_NAME=",{"Ref":"${logicalId(stack, stack.data.table)}"}`);
    expect(value).toContain('npm run rebuild-schedules');
    expect(
      rebuildSchedulesCommand({
        tableName: 'T',
        region: 'eu-west-1',
        groupName: 'G',
        targetArn: 'W',
        roleArn: 'R',
        deadLetterArn: 'Q',
      }),
    ).toBe(
      'TABLE_NAME=T AWS_REGION=eu-west-1 SCHEDULE_GROUP_NAME=G SCHEDULE_TARGET_ARN=W SCHEDULER_ROLE_ARN=R ' +
        'SCHEDULE_DLQ_ARN=Q npm run rebuild-schedules',
    );
  });

  it('refuses an alarmEmail that is not an e-mail address', () => {
    expect(() => testApp({ context: { alarmEmail: 'not-an-address' } })).toThrow(/alarmEmail/);
  });
});
