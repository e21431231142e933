import { Messages, WorkspaceMessages } from '@app/shared';
import { toPublicUser } from '../domain/users.js';
import { deps } from '../wiring/deps.js';
import { workspaceStore } from '../wiring/workspace-store.js';
import { defineHandlers } from './handlers.js';
import { json } from './response.js';

export const handlers = defineHandlers('admin', {
  'admin.listUsers': async () => json(200, { users: (await deps().users.list()).map(toPublicUser) }),

  'admin.setUserStatus': async ({ params, body, user: admin }) => {
    const user = await deps().users.setActive(admin, params.id, body.isActive);
    return json(200, {
      user: toPublicUser(user),
      message: user.isActive ? Messages.userActivated : Messages.userDeactivated,
    });
  },

  // Whether an invitation's link activates the account it registers (docs/product.md, Admin).
  'admin.getSettings': async () => json(200, { settings: await workspaceStore().instanceSettings() }),

  'admin.setSettings': async ({ body }) => {
    await workspaceStore().setInstanceSettings(body);
    return json(200, { settings: body, message: WorkspaceMessages.settingsSaved });
  },
});
