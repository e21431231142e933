import { deps, onResetDeps } from '../deps.js';
import { ApprovalLinks } from '../domain/scheduling.js';
import { publishing } from './publishing.js';
import { schedulerServices } from './scheduler.js';

let current: ApprovalLinks | undefined;

/** The approval page's calls: preview and confirm a signed approval link (approvals group). */
export const approvalLinks = (): ApprovalLinks =>
  (current ??= (() => {
    const { users, signingKey } = deps();
    return new ApprovalLinks({
      articles: schedulerServices().articles,
      publishing: publishing(),
      isActive: async (userId) => (await users.get(userId))?.isActive === true,
      signingKey,
    });
  })());
onResetDeps(() => {
  current = undefined;
});
