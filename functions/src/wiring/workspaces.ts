import { WorkspaceService } from '../domain/workspaces.js';
import { deps } from './deps.js';
import { lazy } from './lazy.js';
import { workspaceStore } from './workspace-store.js';

/**
 * Workspaces, members and invitations (the workspaces group). An invitation goes out through the
 * workspace's Gmail, else the inviter's own (their personal workspace's), else the local outbox.
 */
export const workspaceService = lazy((): WorkspaceService => {
  const { config } = deps();
  return new WorkspaceService({
    store: workspaceStore(),
    publicUrl: () => config.publicUrl,
    mailer: async (workspaceId, inviterId) => {
      // Only an invitation sends mail: Gmail's code loads then, not at the workspaces function's cold start.
      const email = (await import('./email-service.js')).emailService();
      const own = await email.notifier(workspaceId);
      if (own.mailer?.kind === 'gmail') return own.mailer;
      return (await email.notifier(inviterId)).mailer ?? own.mailer;
    },
  });
});
