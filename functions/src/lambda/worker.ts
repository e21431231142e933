import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { Job } from '../domain/ports.js';
import { runJob } from '../jobs/run-job.js';
import { logger } from '../logger.js';

const JOB_TYPES: ReadonlySet<string> = new Set<Job['type']>(['generate-content', 'generate-image', 'generate-and-notify']);

const isSqsEvent = (event: unknown): event is SQSEvent =>
  typeof event === 'object' && event !== null && Array.isArray((event as { Records?: unknown }).Records);

/** A record's job, or undefined when its body is not one (such a message is dropped, never retried). */
function jobOf(record: SQSRecord): Job | undefined {
  try {
    const job = JSON.parse(record.body) as Partial<Job> | null;
    if (job && typeof job === 'object' && JOB_TYPES.has(job.type as string) && typeof job.userId === 'string' && typeof job.articleId === 'string') {
      return job as Job;
    }
  } catch {
    // Not JSON: dropped below.
  }
  return undefined;
}

/** Bulk jobs from the SQS queue: the records whose job threw are redelivered after the visibility timeout. */
async function runRecords(event: SQSEvent): Promise<SQSBatchResponse> {
  const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    const job = jobOf(record);
    if (!job) {
      logger.error('Dropped a queue message that is not a job', { messageId: record.messageId, bodyLength: record.body?.length ?? 0 });
      continue;
    }
    logger.info('job', { type: job.type, articleId: job.articleId, messageId: record.messageId, receiveCount: record.attributes?.ApproximateReceiveCount });
    try {
      await runJob(job, { retryTransient: true });
    } catch (err) {
      logger.warn('Queued job failed; it will be retried', { type: job.type, articleId: job.articleId, messageId: record.messageId, error: err as Error });
      batchItemFailures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures };
}

/**
 * The worker: AI drafting and image generation, which may outlast an API request. Two shapes:
 * - a Job (async invoke by the API functions, EventBridge Scheduler's scheduled runs): run it;
 * - an SQS event from the bulk queue (a spreadsheet import's drafting): run each record's job and
 *   report those that failed (ReportBatchItemFailures), so only they are redelivered.
 */
export async function handler(event: Job | SQSEvent): Promise<SQSBatchResponse | void> {
  if (isSqsEvent(event)) return runRecords(event);
  logger.info('job', { type: event.type, articleId: event.articleId });
  await runJob(event);
}
