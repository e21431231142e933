import { RunFailureMessages, type RunFailureCode } from '@app/shared';
import { TransientDraftingError } from '../domain/articles.js';
import type { Job } from '../domain/ports.js';
import { RecordedRunFailure } from '../domain/scheduling.js';
import { logger } from '../logger.js';
import { draftFailed, jobDuration } from '../metrics.js';
import { approvalNotifier } from '../wiring/approval-notifier.js';
import { articleServices } from '../wiring/articles.js';
import { jobLimits } from '../wiring/job-limits.js';
import { reviewService } from '../wiring/review.js';

const FAILURE_CODES: Record<Job['type'], RunFailureCode> = {
  'generate-content': 'draft_failed',
  'generate-image': 'image_failed',
  'generate-and-notify': 'run_failed',
  'review-mail': 'email_failed',
};

/** Failures that were recorded on the article already. */
const alreadyRecorded = (err: unknown) => err instanceof TransientDraftingError || err instanceof RecordedRunFailure;

/** Keeps a failed job's reason on its article (lastError), so the Schedule card and the dashboard show it. */
async function recordFailure(job: Job, err: unknown): Promise<void> {
  const code = FAILURE_CODES[job.type];
  logger.error('Job failed', { type: job.type, articleId: job.articleId, code, error: err as Error });
  try {
    await articleServices().articles.recordFailure(job.userId, job.articleId, {
      code,
      message: RunFailureMessages[code],
    });
  } catch (recordErr) {
    logger.error('Could not record the failure on the article', {
      articleId: job.articleId,
      error: recordErr as Error,
    });
  }
}

export interface RunJobOptions {
  /**
   * Throw on a transient AI failure of drafting (after recording it as the article's lastError), so
   * that the bulk queue redelivers the job later. Without it (async invoke, local runs) the failure
   * is recorded and the job ends.
   */
  retryTransient?: boolean;
}

/**
 * The worker's one entry: the same code runs in the worker Lambda and in the local process. A failure
 * is recorded on the article and thrown (the caller retries, or sends it to the failure queue).
 */
export async function runJob(job: Job, options: RunJobOptions = {}): Promise<void> {
  const started = Date.now();
  try {
    await run(job, options);
  } catch (err) {
    if (!alreadyRecorded(err)) {
      // Drafting's own AI failures are counted where they are recorded (domain/articles.ts); this is any other.
      if (job.type === 'generate-content') draftFailed(FAILURE_CODES[job.type]);
      await recordFailure(job, err);
    }
    throw err;
  } finally {
    jobDuration(job.type, Date.now() - started);
    if ((job.type === 'generate-content' || job.type === 'generate-image') && job.inFlight)
      await giveBackPlace(job.userId);
  }
}

/** The job's place among its owner's jobs in flight is free again (domain/job-limits.ts), whatever its outcome. */
async function giveBackPlace(userId: string): Promise<void> {
  try {
    await jobLimits().finished(userId);
  } catch (err) {
    // The place is forgotten with its count (IN_FLIGHT_MEMORY_MS); the job's own outcome stands.
    logger.warn('Could not give back the job place', { error: err as Error });
  }
}

async function run(job: Job, options: RunJobOptions): Promise<void> {
  const { articles } = articleServices();
  switch (job.type) {
    case 'generate-content':
      await articles.generateContent(job.userId, job.articleId, {
        throwIfTransient: options.retryTransient,
        ...(job.actorId ? { actorId: job.actorId } : {}),
      });
      return;
    case 'generate-image':
      await articles.generateImage(job.userId, job.articleId, job.description, job.requestedAt);
      return;
    case 'generate-and-notify': {
      const { type: _type, attempt, ...run } = job;
      const outcome = await approvalNotifier().generateAndNotify(run, attempt);
      // Recorded on the article and counted (ApprovalEmailFailed), but no function error: retrying cannot help.
      if (outcome === 'email-refused')
        logger.warn('approval e-mail refused: the owner must reconnect Gmail', {
          articleId: job.articleId,
          platform: job.platform,
          code: 'email_failed',
        });
      if (outcome === 'in-progress')
        logger.info('approval e-mail being sent by another delivery', {
          articleId: job.articleId,
          platform: job.platform,
        });
      return;
    }
    case 'review-mail':
      await reviewService().mailReviewers(job.userId, job.articleId, job.platform, job.rev);
      return;
  }
}
