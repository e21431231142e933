import { DynamoArticleStore } from '../adapters/dynamo/article-store.js';
import { deps, onResetDeps } from '../deps.js';
import { ApprovalLinks } from '../domain/scheduling.js';
import { publishing } from './publishing.js';

let current: ApprovalLinks | undefined;

/** The approval page's calls: preview and confirm a signed approval link (approvals group). */
export const approvalLinks = (): ApprovalLinks =>
  (current ??= (() => {
    const { config, db, users, signingKey } = deps();
    return new ApprovalLinks({
      articles: new DynamoArticleStore(db, config.tableName),
      publishing: publishing(),
      isActive: async (userId) => (await users.activeUser(userId)) !== undefined,
      signingKey,
    });
  })());
onResetDeps(() => {
  current = undefined;
});
