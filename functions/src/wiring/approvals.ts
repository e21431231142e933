import { DynamoArticleStore } from '../adapters/dynamo/article-store.js';
import { deps } from './deps.js';
import { lazy } from './lazy.js';
import { ApprovalLinks } from '../domain/scheduling.js';
import { publishing } from './publishing.js';
import { automationEvents } from './automation-events.js';

/** The approval page's calls: preview and confirm a signed approval link (approvals group). */
export const approvalLinks = lazy((): ApprovalLinks => {
  const { config, db, users, signingKey } = deps();
  return new ApprovalLinks({
    articles: new DynamoArticleStore(db, config.tableName),
    publishing: publishing(),
    activeSessionVersion: async (userId) => {
      const user = await users.activeUser(userId);
      return user && (user.sessionVersion ?? 0);
    },
    signingKey,
    automation: automationEvents(),
  });
});
