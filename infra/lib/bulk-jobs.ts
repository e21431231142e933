import { Duration } from 'aws-cdk-lib';
import type { Alarm } from 'aws-cdk-lib/aws-cloudwatch';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { Topic } from 'aws-cdk-lib/aws-sns';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { BULK_JOB_CONCURRENCY } from '../../functions/src/domain/ports.js';
import { deadLetterAlarm, notifyTopic } from './dead-letter-alarm.js';

/** Settings of the bulk job queue, its event source mapping and its dead-letter queue (asserted by the tests). */
export const BULK_JOBS_DEFAULTS = {
  /** Worker instances draining the queue at once (why five: BULK_JOB_CONCURRENCY). */
  maxConcurrency: BULK_JOB_CONCURRENCY,
  /** One job per invocation: a failure redelivers that job alone, and the worker's timeout is per job. */
  batchSize: 1,
  /** AWS recommends a visibility timeout of at least 6× the function's timeout for an SQS event source. */
  visibilityTimeoutFactor: 6,
  retention: Duration.days(4),
  /** Deliveries of a job before it goes to the dead-letter queue (a transient AI failure throws and is redelivered). */
  maxReceiveCount: 3,
  deadLetterRetention: Duration.days(14),
  /** The alarm fires when at least this many dead letters are waiting… */
  alarmThreshold: 1,
  /** …looking at the queue every this often. */
  alarmPeriod: Duration.minutes(5),
} as const;

export interface BulkJobsProps {
  /** The function that runs the jobs (the worker). */
  worker: IFunction;
  /** The worker's timeout: the queue's visibility timeout is BULK_JOBS_DEFAULTS.visibilityTimeoutFactor times it. */
  workerTimeout: Duration;
  /** Optional topic (the alarm e-mail) the dead-letter alarm notifies. */
  alarmTopic?: Topic;
}

/**
 * The bulk job queue: a spreadsheet import's drafting jobs go to this SQS queue (the sheets function
 * sends them, BULK_JOB_QUEUE_URL) and the worker drains it one job per invocation, at most
 * BULK_JOBS_DEFAULTS.maxConcurrency at once. A job whose run throws (a transient AI failure) is
 * redelivered after the visibility timeout; after maxReceiveCount deliveries it goes to the
 * dead-letter queue, which is alarmed. Interactive jobs keep the direct async invoke.
 */
export class BulkJobs extends Construct {
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;
  readonly deadLetterAlarm: Alarm;
  readonly eventSource: SqsEventSource;

  constructor(scope: Construct, id: string, props: BulkJobsProps) {
    super(scope, id);

    this.deadLetterQueue = new Queue(this, 'DeadLetterQueue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: BULK_JOBS_DEFAULTS.deadLetterRetention,
    });
    this.queue = new Queue(this, 'Queue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: BULK_JOBS_DEFAULTS.retention,
      visibilityTimeout: Duration.seconds(props.workerTimeout.toSeconds() * BULK_JOBS_DEFAULTS.visibilityTimeoutFactor),
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: BULK_JOBS_DEFAULTS.maxReceiveCount },
    });

    this.eventSource = new SqsEventSource(this.queue, {
      batchSize: BULK_JOBS_DEFAULTS.batchSize,
      maxConcurrency: BULK_JOBS_DEFAULTS.maxConcurrency,
      reportBatchItemFailures: true,
    });
    props.worker.addEventSource(this.eventSource);

    this.deadLetterAlarm = deadLetterAlarm(
      this,
      this.deadLetterQueue,
      'A bulk job (drafting an article of a spreadsheet import) failed on every delivery to the worker: its message ' +
        'waits in the bulk jobs dead-letter queue; the article shows the last error.',
      { period: BULK_JOBS_DEFAULTS.alarmPeriod, threshold: BULK_JOBS_DEFAULTS.alarmThreshold },
    );
    if (props.alarmTopic) notifyTopic(this.deadLetterAlarm, props.alarmTopic);
  }
}
