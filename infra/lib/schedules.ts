import { ArnFormat, RemovalPolicy, Stack } from 'aws-cdk-lib';
import type { Alarm } from 'aws-cdk-lib/aws-cloudwatch';
import { Grant, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { CfnSchedule, ScheduleGroup } from 'aws-cdk-lib/aws-scheduler';
import { HEALTH_SWEEP_INPUT, HEALTH_SWEEP_MINUTES } from '@app/shared';
import { Topic, type ITopic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { notifyTopic } from './dead-letter-alarm.js';

/** What the functions call to manage the one-off schedules (functions/src/adapters/aws/eventbridge-scheduler.ts). */
export const SCHEDULE_MANAGE_ACTIONS = [
  'scheduler:CreateSchedule',
  'scheduler:UpdateSchedule',
  'scheduler:DeleteSchedule',
] as const;

/**
 * What the worker calls to schedule the next attempt of a failed run (EventBridgeScheduler.retry): a schedule of
 * its own, created once, so it may not move or delete any schedule.
 */
export const SCHEDULE_RETRY_ACTIONS = ['scheduler:CreateSchedule'] as const;

/**
 * The command that makes every scheduled run again from the table, when the schedule group was lost or emptied
 * (the RebuildSchedulesCommand output; functions/src/local/rebuild-schedules.ts, docs/operations.md).
 */
export const rebuildSchedulesCommand = (values: {
  tableName: string;
  region: string;
  groupName: string;
  targetArn: string;
  roleArn: string;
  deadLetterArn: string;
}): string =>
  `TABLE_NAME=${values.tableName} AWS_REGION=${values.region} SCHEDULE_GROUP_NAME=${values.groupName} ` +
  `SCHEDULE_TARGET_ARN=${values.targetArn} SCHEDULER_ROLE_ARN=${values.roleArn} ` +
  `SCHEDULE_DLQ_ARN=${values.deadLetterArn} npm run rebuild-schedules`;

export interface SchedulesProps {
  /** What the schedules invoke: the function that runs the `generate-and-notify` job (the worker's live alias). */
  target: IFunction;
  /**
   * Where runs the Scheduler could not deliver go: the job failure queue (bulk-jobs.ts) and its alarm. Its
   * messages are redriven to the job queue by the one documented command (docs/operations.md, Failed jobs
   * and redrive), which a queue of its own could not be: StartMessageMoveTask moves only from a queue that
   * is some queue's dead-letter queue.
   */
  failures: { deadLetterQueue: IQueue; deadLetterAlarm: Alarm };
  /**
   * The function itself (unqualified), which schedules created before the live alias existed name as their
   * target (each schedule keeps the target it was created with until it is moved): they may still invoke it.
   */
  formerTarget?: IFunction;
  /** Optional e-mail address told (through an SNS topic of the stack's) when an alarm fires. */
  alarmEmail?: string;
  /** Or an existing SNS topic every alarm notifies (its policy must let CloudWatch publish). */
  alarmTopicArn?: string;
}

/**
 * EventBridge Scheduler for the app's one-off schedules (one per article and platform): the stack's
 * schedule group, the role EventBridge Scheduler assumes to deliver them (trusted by the service
 * for this account and this group only; it may invoke the target and write dead letters to the job
 * failure queue, nothing else), and the alarm topic. The schedules themselves are created at run time
 * by the schedule function (`schedules:manage`) and the worker's retries of failed runs (`schedules:retry`).
 */
export class Schedules extends Construct {
  readonly group: ScheduleGroup;
  readonly role: Role;
  /** The schedules' DeadLetterConfig (SCHEDULE_DLQ_ARN): the job failure queue, not a queue of their own. */
  readonly deadLetterQueue: IQueue;
  /** With `alarmEmail` (a topic of the stack's) or `alarmTopicArn` (one of yours): the topic the alarms notify. */
  readonly alarmTopic?: ITopic;
  /** ARN pattern of the schedules of the group: `arn:…:scheduler:<region>:<account>:schedule/<group>/*`. */
  readonly schedulesArn: string;
  /**
   * The one recurring schedule: the check before each slot (functions/src/domain/connection-health.ts), every
   * HEALTH_SWEEP_MINUTES, invoking the worker's live alias with the sweep's input through the same role.
   */
  readonly healthSweep: CfnSchedule;

  constructor(scope: Construct, id: string, props: SchedulesProps) {
    super(scope, id);
    const stack = Stack.of(this);

    this.group = new ScheduleGroup(this, 'Group', {
      // Named per stack (1–64 of [0-9a-zA-Z-_.]; stack names are [A-Za-z0-9-]).
      scheduleGroupName: `${stack.stackName.slice(0, 54)}-schedules`,
      // Deleting the group deletes its schedules: they would invoke a function deleted with the
      // stack anyway, and a retained group of this fixed name would block creating the stack again.
      removalPolicy: RemovalPolicy.DESTROY,
    });

    this.schedulesArn = stack.formatArn({
      service: 'scheduler',
      resource: 'schedule',
      resourceName: `${this.group.scheduleGroupName}/*`,
      arnFormat: ArnFormat.SLASH_RESOURCE_NAME,
    });

    this.deadLetterQueue = props.failures.deadLetterQueue;

    // The execution role: assumed by EventBridge Scheduler only for schedules of this account's group
    // (confused-deputy protection), allowed to invoke the target and to write dead letters to the job failure
    // queue, nothing else.
    this.role = new Role(this, 'Role', {
      description: 'Content publisher: EventBridge Scheduler delivers the one-off schedules (invokes the job function)',
      assumedBy: new ServicePrincipal('scheduler.amazonaws.com', {
        conditions: {
          StringEquals: {
            'aws:SourceAccount': stack.account,
            'aws:SourceArn': this.group.scheduleGroupArn,
          },
        },
      }),
    });
    // The target's own ARN (the worker's live alias, which the schedules name): no other version or alias;
    // and the unqualified function for the schedules made before the alias.
    Grant.addToPrincipal({
      grantee: this.role,
      actions: ['lambda:InvokeFunction'],
      resourceArns: [props.target.functionArn, ...(props.formerTarget ? [props.formerTarget.functionArn] : [])],
    });
    Grant.addToPrincipal({
      grantee: this.role,
      actions: ['sqs:SendMessage'],
      resourceArns: [this.deadLetterQueue.queueArn],
    });

    // No retries and no dead letter: the next sweep, minutes later, does what a missed one would have (each window
    // is checked by the first sweep inside it); a sweep the Scheduler dropped counts in the group's alarm.
    this.healthSweep = new CfnSchedule(this, 'ConnectionHealth', {
      name: 'connection-health',
      groupName: this.group.scheduleGroupName,
      description: 'Content publisher: the check of connections and content before each scheduled slot',
      scheduleExpression: `rate(${HEALTH_SWEEP_MINUTES} minutes)`,
      flexibleTimeWindow: { mode: 'OFF' },
      state: 'ENABLED',
      target: {
        arn: props.target.functionArn,
        roleArn: this.role.roleArn,
        input: JSON.stringify(HEALTH_SWEEP_INPUT),
        retryPolicy: { maximumRetryAttempts: 0, maximumEventAgeInSeconds: HEALTH_SWEEP_MINUTES * 60 },
      },
    });
    this.healthSweep.node.addDependency(this.group);

    if (props.alarmEmail) {
      const topic = new Topic(this, 'AlarmTopic', {
        displayName: 'Content publisher alarms',
        enforceSSL: true,
      });
      topic.addSubscription(new EmailSubscription(props.alarmEmail));
      this.alarmTopic = topic;
    } else if (props.alarmTopicArn) {
      // A topic of the operator's: its own policy must let cloudwatch.amazonaws.com publish (docs/operations.md).
      this.alarmTopic = Topic.fromTopicArn(this, 'AlarmTopic', props.alarmTopicArn);
    }
    if (this.alarmTopic) notifyTopic(props.failures.deadLetterAlarm, this.alarmTopic);
  }
}
