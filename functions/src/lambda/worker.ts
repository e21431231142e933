import type { Job } from '../domain/ports.js';
import { runJob } from '../jobs/run-job.js';
import { logger } from '../logger.js';

/** Async-invoked worker: AI drafting and image generation, which may outlast an API request. */
export const handler = async (job: Job): Promise<void> => {
  logger.info('job', { type: job.type, articleId: job.articleId });
  await runJob(job);
};
