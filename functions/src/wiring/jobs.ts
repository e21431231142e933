import type { Config } from '../config.js';
import { LambdaJobQueue } from '../adapters/aws/lambda-job-queue.js';
import { InProcessJobQueue, runLocalJob } from '../adapters/local/in-process-job-queue.js';
import { JobsNotQueuedError, type BulkJobQueue, type Job, type JobQueue } from '../domain/ports.js';
import { logger } from '../logger.js';

/**
 * The worker Lambda (async invoke) in AWS; the local server's in-process runner otherwise, where
 * `localConcurrency` bounds the jobs running at once.
 */
export function createJobQueue(
  config: Pick<Config, 'region' | 'workerFunctionName'>,
  localConcurrency?: number,
): JobQueue {
  return config.workerFunctionName
    ? new LambdaJobQueue((sdk) => new sdk.LambdaClient({ region: config.region }), config.workerFunctionName)
    : new InProcessJobQueue(
        (job) => runLocalJob(job),
        (job, err) => logger.error('Job failed', { type: job.type, articleId: job.articleId, error: err as Error }),
        localConcurrency,
      );
}

/** Jobs handed to a JobQueue at once when there is no bulk queue. */
const ENQUEUE_CONCURRENCY = 25;

/** Hands many jobs to an ordinary JobQueue, ENQUEUE_CONCURRENCY at a time; reports those it refused. */
export function eachToQueue(queue: JobQueue): BulkJobQueue {
  return {
    async enqueueAll(jobs) {
      const notQueued: Job[] = [];
      let cause: unknown;
      for (let i = 0; i < jobs.length; i += ENQUEUE_CONCURRENCY) {
        const chunk = jobs.slice(i, i + ENQUEUE_CONCURRENCY);
        const results = await Promise.allSettled(chunk.map((job) => queue.enqueue(job)));
        results.forEach((r, j) => {
          if (r.status === 'rejected') {
            notQueued.push(chunk[j]!);
            cause ??= r.reason;
          }
        });
      }
      if (notQueued.length) throw new JobsNotQueuedError(notQueued, jobs.length, { cause });
    },
  };
}
