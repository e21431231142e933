import { LambdaClient } from '@aws-sdk/client-lambda';
import type { Config } from '../config.js';
import { LambdaJobQueue } from '../adapters/aws/lambda-job-queue.js';
import { InProcessJobQueue, runLocalJob } from '../adapters/local/in-process-job-queue.js';
import type { JobQueue } from '../domain/ports.js';
import { logger } from '../logger.js';

/** The worker Lambda (async invoke) in AWS; the local server's in-process runner otherwise. */
export function createJobQueue(config: Pick<Config, 'region' | 'workerFunctionName'>): JobQueue {
  return config.workerFunctionName
    ? new LambdaJobQueue(new LambdaClient({ region: config.region }), config.workerFunctionName)
    : new InProcessJobQueue(
        (job) => runLocalJob(job),
        (job, err) => logger.error('Job failed', { type: job.type, articleId: job.articleId, error: err as Error }),
      );
}
