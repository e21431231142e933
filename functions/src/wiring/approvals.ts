import { createObjectStore } from '../adapters/aws/s3-object-store.js';
import { DynamoArticleStore } from '../adapters/dynamo/article-store.js';
import { deps } from './deps.js';
import { lazy } from './lazy.js';
import { activeWorkspaceOwner } from './workspace-access.js';
import { ApprovalLinks } from '../domain/scheduling.js';
import { publishing } from './publishing.js';

/** The approval page's calls: preview and confirm a signed approval link, and its image (approvals group). */
export const approvalLinks = lazy((): ApprovalLinks => {
  const { config, db, signingKey } = deps();
  return new ApprovalLinks({
    articles: new DynamoArticleStore(db, config.tableName),
    publishing: publishing(),
    // A team workspace's runs and links act for its longest-standing active owner (workspace-access.ts).
    activeOwner: activeWorkspaceOwner,
    signer: createObjectStore(config),
    // Only a LinkedIn approval asks: LinkedIn's service loads then, not at the approvals function's cold start.
    linkedInIdentity: async (userId) => (await import('./linkedin-service.js')).linkedInService().status(userId),
    signingKey,
  });
});
