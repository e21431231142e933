import { createObjectStore } from '../adapters/aws/s3-object-store.js';
import { DynamoArticleStore } from '../adapters/dynamo/article-store.js';
import { deps } from './deps.js';
import { lazy } from './lazy.js';
import { ApprovalLinks } from '../domain/scheduling.js';
import { publishing } from './publishing.js';
import { integrations } from './integrations.js';

/** The approval page's calls: preview and confirm a signed approval link, and its image (approvals group). */
export const approvalLinks = lazy((): ApprovalLinks => {
  const { config, db, users, signingKey } = deps();
  return new ApprovalLinks({
    articles: new DynamoArticleStore(db, config.tableName),
    publishing: publishing(),
    activeOwner: (userId) => users.activeUser(userId),
    signer: createObjectStore(config),
    linkedInIdentity: (userId) => integrations().linkedin.status(userId),
    signingKey,
  });
});
