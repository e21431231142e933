import { createObjectStore } from '../adapters/aws/s3-object-store.js';
import { DynamoArticleStore } from '../adapters/dynamo/article-store.js';
import { deps } from './deps.js';
import { ApprovalNotifier } from '../domain/scheduling.js';
import { businessEvents } from '../metrics.js';
import { articleServices } from './articles.js';
import { automationEvents } from './automation-events.js';
import { integrations } from './integrations.js';
import { lazy } from './lazy.js';
import { activeWorkspaceOwner } from './workspace-access.js';

/** The scheduled run's content check and approval e-mail (worker; the local scheduler). */
export const approvalNotifier = lazy((): ApprovalNotifier => {
  const { config, db, signingKey } = deps();
  return new ApprovalNotifier({
    articles: new DynamoArticleStore(db, config.tableName),
    objects: createObjectStore(config),
    articleService: articleServices().articles,
    email: integrations().email,
    // A team workspace's runs and links act for its longest-standing active owner (workspace-access.ts).
    activeOwner: activeWorkspaceOwner,
    linkedInIdentity: (userId) => integrations().linkedin.status(userId),
    signingKey,
    publicUrl: () => config.publicUrl,
    events: businessEvents,
    automation: automationEvents(),
  });
});
