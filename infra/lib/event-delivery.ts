import { Duration, Validations } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, Stats, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { FilterCriteria, FilterRule, StartingPosition, type IFunction } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { Archive, EventBus } from 'aws-cdk-lib/aws-events';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { OUTBOX_ITEM_TYPE } from '../../functions/src/adapters/dynamo/event-outbox.js';
import { EVENT_SOURCE } from '../../functions/src/domain/automation-events.js';
import { deadLetterAlarm, notifyTopic } from './dead-letter-alarm.js';

/** Settings of the domain events' delivery (asserted by the tests; why each: docs/operations.md, Domain events). */
export const EVENT_DELIVERY_DEFAULTS = {
  /** PutEvents takes at most 10 entries: a batch is one round of deliveries. */
  batchSize: 10,
  /** Batches of one shard delivered at once, split by partition key (the owner): one user's failing webhook holds up little else. */
  parallelizationFactor: 4,
  /** Retries of a failed batch (halved each time: bisectBatchOnError) before it goes to the failure queue. */
  retryAttempts: 10,
  /** A record older than this is not retried any more (the stream keeps 24 hours). */
  maxRecordAge: Duration.hours(6),
  deadLetterRetention: Duration.days(14),
  alarmThreshold: 1,
  alarmPeriod: Duration.minutes(5),
  /** The stream read falling this far behind means the worker is throttled or failing on every batch. */
  iteratorAgeAlarm: Duration.minutes(15),
  /** How long the bus's archive keeps every event for a replay (context `eventArchiveDays`). */
  archiveRetentionDays: 90,
} as const;

export interface EventDeliveryProps {
  /** The table, with its stream (NEW_IMAGE): the outbox items are written there with each change. */
  table: ITable;
  /**
   * The function that delivers (the worker: it already may put events on the bus and read the owners' webhook
   * secrets), as its live alias: the stream's batches shift with a deployment like every other invocation.
   */
  worker: IFunction;
  /** The worker itself (unqualified), whose IteratorAge covers every version; default `worker`. */
  unqualifiedWorker?: IFunction;
  eventBus: EventBus;
  alarmTopic?: ITopic;
  /** Days the bus's archive keeps the events (default EVENT_DELIVERY_DEFAULTS.archiveRetentionDays). */
  archiveRetentionDays?: number;
}

/**
 * At-least-once delivery of the domain events (functions/src/domain/automation-events.ts): each event is
 * an outbox item written in the transaction of its change (functions/src/adapters/dynamo/event-outbox.ts);
 * the table's stream, filtered to new outbox items, invokes the worker, which puts them on the bus and posts
 * them to the owners' webhooks, marking each target's success on the item. A batch that fails is retried
 * (bisected), then described in an alarmed failure queue; the items stay in the table for a redelivery.
 * The bus's archive keeps every event for a replay (docs/operations.md, Domain events).
 */
export class EventDelivery extends Construct {
  readonly eventSource: DynamoEventSource;
  readonly deadLetterQueue: Queue;
  readonly deadLetterAlarm: Alarm;
  readonly iteratorAgeAlarm: Alarm;
  readonly archive: Archive;

  constructor(scope: Construct, id: string, props: EventDeliveryProps) {
    super(scope, id);
    const settings = EVENT_DELIVERY_DEFAULTS;

    this.deadLetterQueue = new Queue(this, 'DeadLetterQueue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: settings.deadLetterRetention,
    });
    this.eventSource = new DynamoEventSource(props.table, {
      // From the oldest record the stream keeps: a mapping made again (or a first deployment) misses none;
      // items delivered already are skipped by their marks.
      startingPosition: StartingPosition.TRIM_HORIZON,
      batchSize: settings.batchSize,
      parallelizationFactor: settings.parallelizationFactor,
      retryAttempts: settings.retryAttempts,
      maxRecordAge: settings.maxRecordAge,
      bisectBatchOnError: true,
      reportBatchItemFailures: true,
      onFailure: new SqsDlq(this.deadLetterQueue),
      // Only new outbox items: not the articles, not the delivery's own marks (MODIFY), not TTL deletions.
      filters: [
        FilterCriteria.filter({
          eventName: FilterRule.isEqual('INSERT'),
          dynamodb: { NewImage: { type: { S: FilterRule.isEqual(OUTBOX_ITEM_TYPE) } } },
        }),
      ],
    });
    props.worker.addEventSource(this.eventSource);
    Validations.of(this.deadLetterQueue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason:
        'This queue is itself a dead-letter queue: the on-failure destination of the table stream’s event source mapping.',
    });
    if (props.worker.role) {
      Validations.of(props.worker.role).acknowledge({
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason:
          'dynamodb:ListStreams has no resource to name (AWS grants it on * only); it lists stream ARNs and reads no data. ' +
          'Reading records is allowed on the table’s own stream ARN only.',
      });
    }

    this.deadLetterAlarm = deadLetterAlarm(
      this,
      this.deadLetterQueue,
      'Domain events were not delivered to the bus after every retry of their stream batch. The message names the ' +
        'stream records; the events wait in the table: fix the cause, then redeliver (docs/operations.md, Domain events).',
      { period: settings.alarmPeriod, threshold: settings.alarmThreshold },
    );
    this.iteratorAgeAlarm = new Alarm(this, 'IteratorAgeAlarm', {
      alarmDescription:
        'The delivery of domain events from the table stream is falling behind: look at the worker’s throttles and errors.',
      metric: (props.unqualifiedWorker ?? props.worker).metric('IteratorAge', {
        period: settings.alarmPeriod,
        statistic: Stats.MAXIMUM,
      }),
      threshold: settings.iteratorAgeAlarm.toMilliseconds(),
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    if (props.alarmTopic) {
      notifyTopic(this.deadLetterAlarm, props.alarmTopic);
      notifyTopic(this.iteratorAgeAlarm, props.alarmTopic);
    }

    this.archive = props.eventBus.archive('Archive', {
      description: 'Content publisher: every domain event, kept for a replay (docs/operations.md, Domain events)',
      eventPattern: { source: [EVENT_SOURCE] },
      retention: Duration.days(props.archiveRetentionDays ?? settings.archiveRetentionDays),
    });
  }
}
