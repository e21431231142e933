import { EventBridgeScheduler } from '../adapters/aws/eventbridge-scheduler.js';
import { DynamoArticleStore } from '../adapters/dynamo/article-store.js';
import { runLocalJob } from '../adapters/local/in-process-job-queue.js';
import { TimerScheduler } from '../adapters/local/timer-scheduler.js';
import { deps } from './deps.js';
import { lazy } from './lazy.js';
import type { ArticleStore, Scheduler } from '../domain/ports.js';
import { logger } from '../logger.js';

export interface SchedulerServices {
  articles: ArticleStore;
  scheduler: Scheduler;
  /** Local only: re-arms stored schedules at start-up. */
  restore(): Promise<number>;
  stop(): void;
}

function build(): SchedulerServices {
  const { config, db } = deps();
  const articles = new DynamoArticleStore(db, config.tableName);
  const env = process.env;
  if (env.SCHEDULE_GROUP_NAME && env.SCHEDULE_TARGET_ARN && env.SCHEDULER_ROLE_ARN && env.SCHEDULE_DLQ_ARN) {
    const scheduler = new EventBridgeScheduler((sdk) => new sdk.SchedulerClient({ region: config.region }), {
      groupName: env.SCHEDULE_GROUP_NAME,
      targetArn: env.SCHEDULE_TARGET_ARN,
      roleArn: env.SCHEDULER_ROLE_ARN,
      deadLetterArn: env.SCHEDULE_DLQ_ARN,
    });
    return { articles, scheduler, restore: async () => 0, stop: () => undefined };
  }
  const timers = new TimerScheduler(
    db,
    config.tableName,
    // Locally the run goes where EventBridge would send it: the job runner (loaded on first fire).
    (run) => runLocalJob({ type: 'generate-and-notify', ...run }),
    (run, err) =>
      logger.error('Scheduled run failed', { articleId: run.articleId, platform: run.platform, error: err as Error }),
  );
  return { articles, scheduler: timers, restore: () => timers.restore(), stop: () => timers.stopAll() };
}

/** The scheduler and the store it schedules for, built on first use; a reset stops the local timers. */
export const schedulerServices = lazy(build, (services) => services.stop());
