import { ReviewService } from '../domain/review.js';
import { DynamoArticleStore } from '../adapters/dynamo/article-store.js';
import { createJobQueue } from './jobs.js';
import { deps } from './deps.js';
import { lazy } from './lazy.js';
import { workspaceStore } from './workspace-access.js';

/**
 * Review where the function holds no mail secret (articles, workspaces, the publish routes): the setting, the
 * publish check and the return to review after an edit, whose reviewers' e-mails the worker sends (a job).
 * Kept apart from wiring/review.ts so these bundles carry neither the mail nor the publishing code.
 */
export const reviewRules = lazy(() => {
  const { config, db, signingKey } = deps();
  return new ReviewService({
    articles: new DynamoArticleStore(db, config.tableName),
    workspaces: workspaceStore(),
    activeUser: async () => undefined,
    jobs: createJobQueue(config),
    signingKey,
    publicUrl: () => config.publicUrl,
  });
});
