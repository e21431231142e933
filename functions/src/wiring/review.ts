import { createObjectStore } from '../adapters/aws/s3-object-store.js';
import { DynamoArticleStore } from '../adapters/dynamo/article-store.js';
import { DynamoCommentStore } from '../adapters/dynamo/comment-store.js';
import { ReviewService, type ReviewDeps } from '../domain/review.js';
import type { UserRecord } from '../domain/users.js';
import { deps } from './deps.js';
import { lazy } from './lazy.js';
import { workspaceReads } from './workspace-access.js';

const person = (user: UserRecord | undefined) =>
  user && {
    id: user.id,
    email: user.email,
    name: `${user.name} ${user.surname}`.trim(),
    timezone: user.timezone,
    sessionVersion: user.sessionVersion,
  };

/** What every review service is built on: the table, the accounts and the signing key. */
function base(): ReviewDeps {
  const { config, db, signingKey, users } = deps();
  return {
    articles: new DynamoArticleStore(db, config.tableName),
    workspaces: workspaceReads(),
    activeUser: async (userId) => person(await users.activeUser(userId)),
    signingKey,
    publicUrl: () => config.publicUrl,
  };
}

/**
 * Review with the workspace's mail and publishing (the approvals function and the worker, which hold the
 * workspace's Gmail secret and publish): reviewers are e-mailed at once, and an approval past the slot publishes.
 */
export const reviewService = lazy(() => buildReviewService());

/** The service on the given clock (tests put a version's slot behind them this way, as the domain allows). */
export const buildReviewService = (now?: () => Date) => {
  const images = createObjectStore(deps().config);
  return new ReviewService({
    ...base(),
    ...(now ? { now } : {}),
    // Only a review that notifies sends mail: Gmail's code loads then, not at every cold start.
    mailer: async (workspaceId) =>
      (await (await import('./email-service.js')).emailService().notifier(workspaceId)).mailer,
    // The e-mails' rendering too: only a review that notifies renders one.
    render: async (...input) => (await import('../domain/approval-email.js')).approvalEmailContent(...input),
    renderChanges: async (...input) =>
      (await import('../domain/approval-email.js')).changesRequestedEmailContent(...input),
    comments: new DynamoCommentStore(deps().db, deps().config.tableName),
    objects: images,
    signer: images,
    // Only an approval past the version's slot publishes: the publishing code loads then.
    publish: async (workspaceId, articleId, platform, scheduledFor) => {
      const { publishing } = await import('./publishing.js');
      const origin = { trigger: 'approval', scheduledFor } as const;
      if (platform === 'blog') return (await publishing().publishWordPress(workspaceId, articleId, origin)).link;
      if (platform === 'linkedin') return (await publishing().publishLinkedIn(workspaceId, articleId, origin)).url;
      // A channel's own version: its channel (the one that owns its schedule), as its approval link would.
      const outcomes = await publishing().publishVersion(platform, workspaceId, articleId, origin);
      const failed = outcomes.find((o) => !o.ok);
      if (failed && !failed.ok) throw failed.error;
      return outcomes.flatMap((o) => (o.ok ? [o.url] : [])).find(Boolean) ?? null;
    },
  });
};
