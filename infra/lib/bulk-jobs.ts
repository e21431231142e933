import { Duration } from 'aws-cdk-lib';
import type { Alarm } from 'aws-cdk-lib/aws-cloudwatch';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { BULK_JOB_CONCURRENCY } from '../../functions/src/domain/ports.js';
import { deadLetterAlarm } from './dead-letter-alarm.js';

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

/** The worker's asynchronous invocations (an API function's job, a schedule's run): how often and how long they are tried. */
export const WORKER_ASYNC_DEFAULTS = {
  /** Lambda's own retries after a failed run, a minute and then two minutes later; then the failure queue. */
  retryAttempts: 2,
  /** An invocation still not run after this long (throttled for hours) goes to the failure queue too. */
  maxEventAge: Duration.hours(6),
} as const;

export interface BulkJobsProps {
  /**
   * The function that runs the jobs: the worker's live alias, so that the queue's event source mapping and the
   * async invocations' retries and failure destination (set per alias) follow a deployment's traffic shift.
   */
  worker: IFunction;
  /**
   * The worker function itself (unqualified): the one-off schedules made before the live alias still invoke
   * it (schedules.ts, formerTarget), so its async invocations keep the same retries and failure destination.
   */
  unqualifiedWorker?: IFunction;
  /** The worker's timeout: the queue's visibility timeout is BULK_JOBS_DEFAULTS.visibilityTimeoutFactor times it. */
  workerTimeout: Duration;
}

/**
 * The job queue and the job failure queue. The job queue: a spreadsheet import's drafting jobs go to this SQS queue (the sheets function
 * sends them, BULK_JOB_QUEUE_URL) and the worker drains it one job per invocation, at most
 * BULK_JOBS_DEFAULTS.maxConcurrency at once. A job whose run throws (a transient AI failure) is
 * redelivered after the visibility timeout; after maxReceiveCount deliveries it goes to the
 * dead-letter queue, which is alarmed. Interactive jobs keep the direct async invoke.
 *
 * The dead-letter queue is every job's failure queue: it is also the worker's on-failure destination,
 * so a directly invoked job (an API function's drafting or image, a schedule's approval e-mail) that
 * failed on every attempt lands there as Lambda's invocation record, and the schedules' dead-letter
 * queue (schedules.ts), so a run EventBridge Scheduler could not deliver lands there as the job itself.
 * Each is alarmed the same way (Schedules sends the alarm to the alarm topic) and never lost. Every
 * failure is recorded on its article too (functions/src/jobs/run-job.ts). A DLQ redrive
 * (StartMessageMoveTask to the job queue) runs them again: the worker takes a job or an invocation
 * record alike (functions/src/jobs/job-schema.ts).
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
    for (const target of [props.worker, ...(props.unqualifiedWorker ? [props.unqualifiedWorker] : [])]) {
      target.configureAsyncInvoke({
        onFailure: new SqsDestination(this.deadLetterQueue),
        retryAttempts: WORKER_ASYNC_DEFAULTS.retryAttempts,
        maxEventAge: WORKER_ASYNC_DEFAULTS.maxEventAge,
      });
    }

    this.deadLetterAlarm = deadLetterAlarm(
      this,
      this.deadLetterQueue,
      'A worker job failed on every attempt: a bulk job (drafting for a spreadsheet import), a directly invoked one ' +
        '(drafting, an image, a scheduled approval e-mail after its automatic retries) or a scheduled run EventBridge ' +
        'Scheduler could not deliver. Its message waits in this failure queue and the article shows the last error; fix ' +
        'the cause, then redrive the queue to the job queue (docs/operations.md: Failed jobs and redrive).',
      { period: BULK_JOBS_DEFAULTS.alarmPeriod, threshold: BULK_JOBS_DEFAULTS.alarmThreshold },
    );
  }
}
