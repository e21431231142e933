/**
 * The article side of the Google Sheets import (wiring/sheets.ts), loaded by an import's call: the other
 * calls of the sheets function (its grant, status, spreadsheet list) never parse the article store and
 * service (docs/testing.md, Performance budgets).
 */
import { createObjectStore } from '../adapters/aws/s3-object-store.js';
import { DynamoArticleStore } from '../adapters/dynamo/article-store.js';
import { ArticleService } from '../domain/articles.js';
import { JobsNotQueuedError, type Job } from '../domain/ports.js';
import type { ArticleImport } from '../domain/sheets.js';
import { logger } from '../logger.js';
import { createBulkJobQueue } from './bulk-jobs.js';
import { deps } from './deps.js';
import { lazy } from './lazy.js';

/**
 * The article side of wiring/articles.ts without its AI clients (the openai SDK, ~430 KB of bundle), which
 * creating an article never calls: drafting runs in the worker, as for POST /api/articles.
 */
const parts = lazy(() => {
  const { config, db } = deps();
  return {
    store: new DynamoArticleStore(db, config.tableName),
    objects: createObjectStore(config),
    // The import's drafting goes to the bulk queue (SQS in AWS, drained at a bounded concurrency).
    jobs: createBulkJobQueue(config),
  };
});

/** ArticleService.create with its drafting jobs held until the import has saved every row. */
export const articleImport = (): ArticleImport => {
  const { store, objects, jobs } = parts();
  const held: Job[] = [];
  const service = new ArticleService({
    articles: store,
    objects,
    jobs: { enqueue: async (job) => void held.push(job) },
    ai: () => Promise.reject(new Error('Drafting runs in the worker')),
  });
  return {
    create: (userId, input, tags, channels) => service.create(userId, input, tags, channels ? { channels } : {}),
    async startDrafting() {
      const batch = held.splice(0);
      if (!batch.length) return 0;
      try {
        await jobs.enqueueAll(batch);
        return 0;
      } catch (err) {
        const failed = err instanceof JobsNotQueuedError ? err.jobs.length : batch.length;
        logger.error('Could not queue drafting of imported articles', {
          failed,
          total: batch.length,
          error: (err instanceof JobsNotQueuedError && err.cause ? err.cause : err) as Error,
        });
        return failed;
      }
    },
  };
};
