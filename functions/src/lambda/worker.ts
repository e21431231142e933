import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import middy from '@middy/core';
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { JobSchema, jobOfMessage } from '../jobs/job-schema.js';
import { runJob } from '../jobs/run-job.js';
import { logger } from '../logger.js';
import { metrics } from '../metrics.js';

const isSqsEvent = (event: unknown): event is SQSEvent =>
  typeof event === 'object' && event !== null && Array.isArray((event as { Records?: unknown }).Records);

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
 * The worker: AI drafting and image generation, which may outlast an API request. Two shapes:
 * - a Job (async invoke by the API functions, EventBridge Scheduler's scheduled runs): run it; a
 *   failure is recorded on the article and thrown, so Lambda retries it (twice) and then sends the
 *   invocation to the failure queue (alarmed), from which a redrive puts it on the job queue again;
 * - an SQS event from the job queue (a spreadsheet import's drafting, redriven failures): run each
 *   record's job and report those that failed (ReportBatchItemFailures), so only they are redelivered.
 */
async function runWorker(event: unknown): Promise<SQSBatchResponse | void> {
  if (isSqsEvent(event)) return runRecords(event);
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
 * The Lambda entry: every log line carries the invocation's Lambda context (function_request_id,
 * cold_start, …), and the business metrics the jobs recorded (metrics.ts) are flushed when the
 * invocation ends, also when it throws (the error still reaches Lambda, which retries the job).
 */
export const handler = middy<unknown, SQSBatchResponse | void, Error, Context>()
  .use(injectLambdaContext(logger, { resetKeys: true }))
  .use(logMetrics(metrics, { throwOnEmptyMetrics: false }))
  .handler((event) => runWorker(event)) as unknown as (
  event: unknown,
  context?: Context,
) => Promise<SQSBatchResponse | void>;
