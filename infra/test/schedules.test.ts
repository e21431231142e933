import { Match, Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { SCHEDULE_DLQ_DEFAULTS } from '../lib/schedules.js';
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
  const queueId = () => logicalId(stack, stack.schedules.deadLetterQueue);

  it('has one schedule group, named per stack, deleted with the stack', () => {
    const [id, group] = only(template.findResources('AWS::Scheduler::ScheduleGroup') as Record<string, Resource>);
    expect(id).toBe(groupId());
    expect(group.Properties.Name).toBe(`${stack.stackName}-schedules`);
    expect(group.Properties.Name).toMatch(/^[0-9a-zA-Z-_.]{1,64}$/);
    expect(group.DeletionPolicy).toBe('Delete');
    // The schedules themselves are made at run time by the schedule function.
    template.resourceCountIs('AWS::Scheduler::Schedule', 0);
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

  it("the scheduler role may invoke the worker's live alias (what the schedules target) and write dead letters, nothing else", () => {
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

  it('the dead-letter queue is encrypted, refuses requests without TLS and keeps messages 14 days', () => {
    const queue = template.findResources('AWS::SQS::Queue')[queueId()] as Resource;
    expect(queue.Properties.SqsManagedSseEnabled).toBe(true);
    expect(queue.Properties.MessageRetentionPeriod).toBe(14 * 24 * 3600);
    expect(SCHEDULE_DLQ_DEFAULTS.retention.toSeconds()).toBe(14 * 24 * 3600);
    template.hasResourceProperties('AWS::SQS::QueuePolicy', {
      Queues: [{ Ref: queueId() }],
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Effect: 'Deny',
            Principal: { AWS: '*' },
            Condition: { Bool: { 'aws:SecureTransport': 'false' } },
          }),
        ]),
      },
    });
    const policies = Object.values(template.findResources('AWS::SQS::QueuePolicy') as Record<string, Resource>);
    for (const policy of policies) {
      for (const statement of policy.Properties.PolicyDocument.Statement as Statement[])
        expect(statement.Effect).toBe('Deny');
    }
  });

  it('an alarm fires as soon as one dead letter waits (5-minute period); no topic without alarmEmail', () => {
    const alarm = template.findResources('AWS::CloudWatch::Alarm')[
      logicalId(stack, stack.schedules.deadLetterAlarm)
    ] as Resource;
    expect(alarm.Properties).toMatchObject(deadLetterAlarmProperties(queueId()));
    expect(alarm.Properties.AlarmActions).toBeUndefined();
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
    const alarmId = logicalId(s, s.schedules.deadLetterAlarm);
    const alarm = t.findResources('AWS::CloudWatch::Alarm')[alarmId] as Resource;
    expect(alarm.Properties.AlarmActions).toEqual([{ Ref: topicId }]);
    // The bulk jobs' dead-letter alarm notifies the same topic (one subscription to confirm).
    const bulkAlarmId = logicalId(s, s.bulkJobs.deadLetterAlarm);
    expect((t.findResources('AWS::CloudWatch::Alarm')[bulkAlarmId] as Resource).Properties.AlarmActions).toEqual([
      { Ref: topicId },
    ]);
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
    // One Allow per alarm of the stack (these two, and the functions' and the API's, alarms.ts), each by its own ARN;
    // not the rollback alarms, which CodeDeploy reads and which notify nobody (alarms.ts, ROLLBACK_ALARM_DEFAULTS).
    const rollback = new Set([...s.alarms.rollback.values()].flat().map((a) => logicalId(s, a)));
    const alarmIds = Object.keys(t.findResources('AWS::CloudWatch::Alarm')).filter((id) => !rollback.has(id));
    expect(alarmIds).toEqual(expect.arrayContaining([alarmId, bulkAlarmId]));
    expect(
      statements.filter((st) => st.Effect === 'Allow').map((st) => (st.Condition as { ArnLike: unknown }).ArnLike),
    ).toEqual(alarmIds.map((id) => ({ 'aws:SourceArn': { 'Fn::GetAtt': [id, 'Arn'] } })));
  });

  it('refuses an alarmEmail that is not an e-mail address', () => {
    expect(() => testApp({ context: { alarmEmail: 'not-an-address' } })).toThrow(/alarmEmail/);
  });
});
