import { createObjectStore } from '../adapters/aws/s3-object-store.js';
import { deps, onResetDeps } from '../deps.js';
import { ApprovalService } from '../domain/scheduling.js';
import { articleServices } from './articles.js';
import { integrations } from './integrations.js';
import { publishing } from './publishing.js';
import { schedulerServices } from './scheduler.js';

let current: ApprovalService | undefined;

/** Generate-and-notify and the approval links (worker and the approvals group). */
export const approvals = (): ApprovalService =>
  (current ??= (() => {
    const { config, users, signingKey } = deps();
    return new ApprovalService({
      articles: schedulerServices().articles,
      objects: createObjectStore(config),
      articleService: articleServices().articles,
      email: integrations().email,
      publishing: publishing(),
      userEmail: async (userId) => {
        const user = await users.get(userId);
        return user && { email: user.email, name: user.name, timezone: user.timezone };
      },
      signingKey,
      publicUrl: () => config.publicUrl,
    });
  })());
onResetDeps(() => {
  current = undefined;
});
