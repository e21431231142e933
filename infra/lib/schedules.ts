import { ArnFormat, Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import type { Alarm } from 'aws-cdk-lib/aws-cloudwatch';
import { Grant, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { ScheduleGroup } from 'aws-cdk-lib/aws-scheduler';
import { Topic, type ITopic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { deadLetterAlarm, notifyTopic } from './dead-letter-alarm.js';

/** What the functions call to manage the one-off schedules (functions/src/adapters/aws/eventbridge-scheduler.ts). */
export const SCHEDULE_MANAGE_ACTIONS = [
  'scheduler:CreateSchedule',
  'scheduler:UpdateSchedule',
  'scheduler:DeleteSchedule',
] as const;

/** Settings of the dead-letter queue and its alarm (asserted by the tests). */
export const SCHEDULE_DLQ_DEFAULTS = {
  retention: Duration.days(14),
  /** The alarm fires when at least this many dead letters are waiting… */
  alarmThreshold: 1,
  /** …looking at the queue every this often. */
  alarmPeriod: Duration.minutes(5),
} as const;

export interface SchedulesProps {
  /** What the schedules invoke: the function that runs the `generate-and-notify` job (the worker's live alias). */
  target: IFunction;
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
 * for this account and this group only; it may invoke the target and write dead letters, nothing
 * else), and the dead-letter queue for runs that could not be delivered, with an alarm on it.
 * The schedules themselves are created at run time by the schedule function (`schedules:manage`).
 */
export class Schedules extends Construct {
  readonly group: ScheduleGroup;
  readonly role: Role;
  readonly deadLetterQueue: Queue;
  readonly deadLetterAlarm: Alarm;
  /** With `alarmEmail` (a topic of the stack's) or `alarmTopicArn` (one of yours): the topic the alarms notify. */
  readonly alarmTopic?: ITopic;
  /** ARN pattern of the schedules of the group: `arn:…:scheduler:<region>:<account>:schedule/<group>/*`. */
  readonly schedulesArn: string;

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

    this.deadLetterQueue = new Queue(this, 'DeadLetterQueue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: SCHEDULE_DLQ_DEFAULTS.retention,
    });
    Validations.of(this.deadLetterQueue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason:
        'This queue is itself the dead-letter queue of the one-off schedules (their DeadLetterConfig, set at run time ' +
        'by the schedule function, so cdk-nag cannot see it); a dead-letter queue for the dead-letter queue would add ' +
        'nothing: nothing consumes these messages, an alarm reports them.',
    });

    // The execution role: assumed by EventBridge Scheduler only for schedules of this account's group
    // (confused-deputy protection), allowed to invoke the target and to write dead letters, nothing else.
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

    this.deadLetterAlarm = deadLetterAlarm(
      this,
      this.deadLetterQueue,
      'A scheduled run (generate the content and e-mail the approval link) could not be delivered to the job function ' +
        'after its retries: its message waits in the schedules dead-letter queue.',
      { period: SCHEDULE_DLQ_DEFAULTS.alarmPeriod, threshold: SCHEDULE_DLQ_DEFAULTS.alarmThreshold },
    );

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
    if (this.alarmTopic) notifyTopic(this.deadLetterAlarm, this.alarmTopic);
  }
}
