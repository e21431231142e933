import { createObjectStore } from '../adapters/aws/s3-object-store.js';
import { DynamoArticleStore } from '../adapters/dynamo/article-store.js';
import { deps } from './deps.js';
import { ApprovalNotifier } from '../domain/scheduling.js';
import { businessEvents } from '../business-events.js';
import { articleServices } from './articles.js';
import { emailService } from './email-service.js';
import { linkedInService } from './linkedin-service.js';
import { lazy } from './lazy.js';
import type { RunRetryScheduler, ScheduledRun } from '../domain/ports.js';
import type { RunRetry } from '../domain/run-retries.js';
import { logger } from '../logger.js';
import { schedulerServices } from './scheduler.js';
import { activeWorkspaceOwner } from './workspace-access.js';
import { reviewService } from './review.js';

/**
 * Where a failed run's next attempt is scheduled: the scheduler of the stack (EventBridge Scheduler with
 * SCHEDULE_* set, the `schedules:retry` capability, its client loaded by the first retry; local timers otherwise).
 */
function retryScheduler(): RunRetryScheduler {
  const env = process.env;
  if (env.AWS_LAMBDA_FUNCTION_NAME && !(env.SCHEDULE_GROUP_NAME && env.SCHEDULE_TARGET_ARN))
    // Local timers in a Lambda would die with the container: throwing keeps Lambda's retries and the failure queue.
    throw new Error(`${env.AWS_LAMBDA_FUNCTION_NAME} has no scheduler to retry with: give it schedules:retry`);
  return schedulerServices().scheduler;
}

async function scheduleRetry(run: ScheduledRun, next: RunRetry, cause: unknown): Promise<void> {
  logger.warn('Scheduled run failed; it is tried again later', {
    articleId: run.articleId,
    platform: run.platform,
    attempt: next.attempt - 1,
    nextAttempt: next.attempt,
    at: next.at.toISOString(),
    error: cause as Error,
  });
  try {
    await retryScheduler().retry(run, next.attempt, next.at);
  } catch (err) {
    logger.error('Could not schedule the retry of a scheduled run', { articleId: run.articleId, error: err as Error });
    throw err;
  }
}

/** The scheduled run's content check and approval e-mail (worker; the local scheduler). */
export const approvalNotifier = lazy((): ApprovalNotifier => {
  const { config, db, signingKey } = deps();
  return new ApprovalNotifier({
    articles: new DynamoArticleStore(db, config.tableName),
    objects: createObjectStore(config),
    articleService: articleServices().articles,
    email: emailService(),
    // A team workspace's runs and links act for its longest-standing active owner (workspace-access.ts).
    activeOwner: activeWorkspaceOwner,
    linkedInIdentity: (userId) => linkedInService().status(userId),
    // The channels approving publishes to, which the e-mail names and previews (only the article's, when an import
    // named them); loaded with the run's first e-mail.
    channelsOf: async (userId, platform, bundle, only) => {
      const { publishing } = await import('./publishing.js');
      const channels = [
        ...(await publishing().versionChannels(platform, userId)),
        // A blog-first bundle's social posts come after the blog post (domain/scheduling.ts, confirmApproval).
        ...(bundle
          ? (await publishing().socialChannels(userId)).map((c) => ({
              id: c.id,
              label: c.label,
              emailPreview: c.emailPreview,
              social: true,
            }))
          : []),
      ];
      return channels.filter((c) => !only?.length || only.includes(c.id));
    },
    signingKey,
    publicUrl: () => config.publicUrl,
    events: businessEvents,
    retries: { delaysS: config.runRetryDelaysS, schedule: scheduleRetry },
    // Team workspaces with review: the run publishes what was approved, or waits until the grace period ends.
    review: {
      service: reviewService(),
      expiryAt: (run, attempt, at) => retryScheduler().retry(run, attempt, at),
    },
  });
});
