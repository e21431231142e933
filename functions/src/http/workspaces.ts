import { ReviewMessages, WorkspaceMessages } from '@app/shared';
import { workspaceService } from '../wiring/workspaces.js';
import { defineHandlers } from './handlers.js';
import { json } from './response.js';

export const handlers = defineHandlers('workspaces', {
  'workspaces.list': async ({ user }) => json(200, { workspaces: await workspaceService().list(user) }),

  'workspaces.create': async ({ user, body }) =>
    json(201, { message: WorkspaceMessages.created, workspace: await workspaceService().create(user, body.name) }),

  'workspaces.members': async ({ user, workspace }) =>
    json(200, { members: await workspaceService().members(workspace, user) }),

  'workspaces.setRole': async ({ workspace, params, body }) => {
    await workspaceService().setRole(workspace, params.userId, body.role);
    return json(200, { message: WorkspaceMessages.memberUpdated });
  },

  'workspaces.removeMember': async ({ workspace, params }) => {
    await workspaceService().removeMember(workspace, params.userId);
    return json(200, { message: WorkspaceMessages.memberRemoved });
  },

  // Read with the request's workspace (middleware/workspace.ts).
  'workspaces.review': async ({ workspace }) =>
    json(200, { success: true, personal: workspace.personal, settings: workspace.review }),

  'workspaces.setReview': async ({ workspace, body }) => {
    // Rarely called: the review service (and the article store it brings) loads then, not at every cold start.
    const { reviewRules } = await import('../wiring/review-settings.js');
    const settings = await reviewRules().setSettings(workspace, body);
    return json(200, { success: true, personal: false, settings, message: ReviewMessages.settingsSaved });
  },

  'workspaces.invitations': async ({ workspace }) =>
    json(200, { invitations: await workspaceService().invitations(workspace) }),

  'workspaces.invite': async ({ user, workspace, body }) => {
    const invitation = await workspaceService().invite(workspace, user, body);
    return json(201, { message: WorkspaceMessages.invited(invitation.email), invitation });
  },

  'workspaces.revokeInvitation': async ({ workspace, params }) => {
    await workspaceService().revokeInvitation(workspace, params.id);
    return json(200, { message: WorkspaceMessages.invitationRevoked });
  },

  'workspaces.invitation': async ({ body }) => json(200, await workspaceService().preview(body.token)),

  'workspaces.accept': async ({ user, body }) => {
    const workspace = await workspaceService().accept(user, body.token);
    return json(200, { message: WorkspaceMessages.joined(workspace.name), workspace });
  },
});
