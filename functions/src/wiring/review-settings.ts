import { ReviewService } from '../domain/review.js';
import { DynamoArticleStore } from '../adapters/dynamo/article-store.js';
import { deps } from './deps.js';
import { lazy } from './lazy.js';
import { workspaceReads } from './workspace-access.js';

/**
 * Review where the function holds no mail secret (workspaces, the publish routes): the setting and the publish
 * check. Kept apart from wiring/review.ts so these bundles carry neither the mail nor the publishing code. (An
 * edit's return to review is the article store's write: domain/review-edit.ts.)
 */
export const reviewRules = lazy(() => {
  const { config, db, signingKey } = deps();
  return new ReviewService({
    articles: new DynamoArticleStore(db, config.tableName),
    workspaces: workspaceReads(),
    activeUser: async () => undefined,
    signingKey,
    publicUrl: () => config.publicUrl,
  });
});
