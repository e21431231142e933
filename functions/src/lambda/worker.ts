import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { Context, DynamoDBBatchResponse, DynamoDBStreamEvent, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { HEALTH_SWEEP_INPUT } from '@app/shared';
import { deliverStreamRecords, isStreamEvent } from '../jobs/deliver-events.js';
import { JobSchema, jobOfMessage } from '../jobs/job-schema.js';
import { logger } from '../logger.js';
import { flushMetrics } from '../business-events.js';

/**
 * The jobs' code (drafting, image generation, scheduled runs, and what they bring: the AI and publishing adapters,
 * the integrations) loads with the first job, a chunk of the bundle of its own (infra/lib/bundling.ts): a
 * container that only delivers the table's stream, the worker's most frequent invocation, never parses it.
 */
const runJob: typeof import('../jobs/run-job.js').runJob = async (...args) =>
  (await import('../jobs/run-job.js')).runJob(...args);

const isSqsEvent = (event: unknown): event is SQSEvent =>
  typeof event === 'object' && event !== null && Array.isArray((event as { Records?: unknown }).Records);

/** The sweep's input from its rate schedule (infra/lib/schedules.ts): not a job of one article. */
const isHealthSweep = (event: unknown): boolean =>
  typeof event === 'object' && event !== null && (event as { type?: unknown }).type === HEALTH_SWEEP_INPUT.type;

/** The check before each slot (domain/connection-health.ts), loaded by the first sweep like the jobs. */
async function runHealthSweep(): Promise<void> {
  const result = await (await import('../wiring/connection-health.js')).connectionHealth().sweep();
  logger.info('connection health sweep', { ...result });
}

type WorkerResult = SQSBatchResponse | DynamoDBBatchResponse | void;

/** Bulk jobs from the SQS queue: the records whose job threw are redelivered after the visibility timeout. */
async function runRecords(event: SQSEvent): Promise<SQSBatchResponse> {
  const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    const job = jobOfMessage(record.body);
    if (!job) {
      logger.error('Dropped a queue message that is not a job', {
        messageId: record.messageId,
        bodyLength: record.body?.length ?? 0,
      });
      continue;
    }
    logger.info('job', {
      type: job.type,
      articleId: job.articleId,
      messageId: record.messageId,
      receiveCount: record.attributes?.ApproximateReceiveCount,
    });
    try {
      await runJob(job, { retryTransient: true });
    } catch (err) {
      logger.warn('Queued job failed; it will be retried', {
        type: job.type,
        articleId: job.articleId,
        messageId: record.messageId,
        error: err as Error,
      });
      batchItemFailures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures };
}

/**
 * The worker: AI drafting and image generation, which may outlast an API request, and the delivery of the
 * domain events. Three shapes:
 * - a batch of the table's stream (the outbox's new event items, infra/lib/event-delivery.ts): deliver them
 *   to the bus and the owners' webhooks, reporting the first not delivered (Lambda retries from it);
 * - a Job (async invoke by the API functions, EventBridge Scheduler's scheduled runs): run it; a
 *   failure is recorded on the article and thrown, so Lambda retries it (twice) and then sends the
 *   invocation to the failure queue (alarmed), from which a redrive puts it on the job queue again;
 * - an SQS event from the job queue (a spreadsheet import's drafting, redriven failures): run each
 *   record's job and report those that failed (ReportBatchItemFailures), so only they are redelivered.
 */
async function runWorker(event: unknown): Promise<WorkerResult> {
  if (isStreamEvent(event)) return deliverStreamRecords(event as DynamoDBStreamEvent);
  if (isSqsEvent(event)) return runRecords(event);
  if (isHealthSweep(event)) return runHealthSweep();
  const job = JobSchema().safeParse(event);
  if (!job.success) {
    // Not a job: thrown, so that it ends in the failure queue where someone sees it.
    logger.error('The worker was invoked with something that is not a job', { issues: job.error.issues.length });
    throw new Error('Not a job: the worker runs generate-content, generate-image and generate-and-notify jobs');
  }
  logger.info('job', { type: job.data.type, articleId: job.data.articleId });
  await runJob(job.data);
}

/**
 * The worker schedules the retries of failed scheduled runs (schedules:retry), whose target is this function. Its
 * ARN cannot be in its own environment (a function referencing itself is a circular dependency CloudFormation
 * refuses), so it comes from the invocation: with the alias it was invoked through (the live alias, which the
 * schedule function's SCHEDULE_TARGET_ARN names too, so retries shift with a deployment), never a version number
 * (a retry must not pin a version a deployment replaced); unqualified when invoked so (infra/lib/schedules.ts lets
 * the scheduler role invoke both).
 */
export function rememberOwnArn(context: Pick<Context, 'invokedFunctionArn'> | undefined): void {
  const arn = context?.invokedFunctionArn;
  if (!arn || process.env.SCHEDULE_TARGET_ARN) return;
  const parts = arn.split(':');
  const qualifier = parts[7];
  const isAlias = qualifier !== undefined && !/^(\d+|\$LATEST)$/.test(qualifier);
  process.env.SCHEDULE_TARGET_ARN = parts.slice(0, isAlias ? 8 : 7).join(':');
}

/**
 * The Lambda entry: every log line carries the invocation's Lambda context (function_request_id,
 * cold_start, …), and the business metrics the jobs recorded (metrics.ts) are flushed when the
 * invocation ends, also when it throws (the error still reaches Lambda, which retries the job).
 */
export const handler = middy<unknown, WorkerResult, Error, Context>()
  .use(injectLambdaContext(logger, { resetKeys: true }))
  .use(flushMetrics())
  .handler((event, context) => {
    rememberOwnArn(context);
    return runWorker(event);
  }) as unknown as (event: unknown, context?: Context) => Promise<WorkerResult>;
