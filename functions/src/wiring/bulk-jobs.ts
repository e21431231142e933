import type { Config } from '../config.js';
import { SqsJobQueue } from '../adapters/aws/sqs-job-queue.js';
import { BULK_JOB_CONCURRENCY, type BulkJobQueue } from '../domain/ports.js';
import { createJobQueue, eachToQueue } from './jobs.js';

/**
 * Bulk jobs (a spreadsheet import's drafting): the SQS queue of BULK_JOB_QUEUE_URL in AWS, which
 * the worker drains BULK_JOB_CONCURRENCY at a time; locally an in-process queue with the same bound.
 * Interactive jobs (a user's own drafting, images) keep createJobQueue, so they never wait behind an
 * import. (Its own module, so only the sheets bundle carries the SQS client.)
 */
export function createBulkJobQueue(
  config: Pick<Config, 'region' | 'workerFunctionName' | 'bulkJobQueueUrl'>,
): BulkJobQueue {
  if (config.bulkJobQueueUrl)
    return new SqsJobQueue((sdk) => new sdk.SQSClient({ region: config.region }), config.bulkJobQueueUrl);
  return eachToQueue(createJobQueue(config, BULK_JOB_CONCURRENCY));
}
