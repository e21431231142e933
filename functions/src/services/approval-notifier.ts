import { createObjectStore } from '../adapters/aws/s3-object-store.js';
import { deps, onResetDeps } from '../deps.js';
import { ApprovalNotifier } from '../domain/scheduling.js';
import { articleServices } from './articles.js';
import { integrations } from './integrations.js';
import { schedulerServices } from './scheduler.js';

let current: ApprovalNotifier | undefined;

/** The scheduled run's content check and approval e-mail (worker; the local scheduler). */
export const approvalNotifier = (): ApprovalNotifier =>
  (current ??= (() => {
    const { config, users, signingKey } = deps();
    return new ApprovalNotifier({
      articles: schedulerServices().articles,
      objects: createObjectStore(config),
      articleService: articleServices().articles,
      email: integrations().email,
      activeOwner: async (userId) => {
        const user = await users.get(userId);
        return user?.isActive ? { email: user.email, name: user.name, timezone: user.timezone } : undefined;
      },
      signingKey,
      publicUrl: () => config.publicUrl,
    });
  })());
onResetDeps(() => {
  current = undefined;
});
