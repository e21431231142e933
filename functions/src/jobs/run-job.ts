import type { Job } from '../domain/ports.js';
import { approvalNotifier } from '../services/approval-notifier.js';
import { articleServices } from '../services/articles.js';

export interface RunJobOptions {
  /**
   * Throw on a transient AI failure of drafting (after recording it as the article's lastError), so
   * that the bulk queue redelivers the job later. Without it (async invoke, local runs) the failure
   * is recorded and the job ends.
   */
  retryTransient?: boolean;
}

/** The worker's one entry: the same code runs in the worker Lambda and in the local process. */
export async function runJob(job: Job, options: RunJobOptions = {}): Promise<void> {
  const { articles } = articleServices();
  switch (job.type) {
    case 'generate-content':
      await articles.generateContent(job.userId, job.articleId, { throwIfTransient: options.retryTransient });
      return;
    case 'generate-image':
      await articles.generateImage(job.userId, job.articleId, job.description, job.requestedAt);
      return;
    case 'generate-and-notify': {
      const { type: _type, ...run } = job;
      await approvalNotifier().generateAndNotify(run);
      return;
    }
  }
}
