import { roleAtLeast, type WorkspaceRole } from '../workspaces.js';
import type { RouteId } from './routes.js';

/**
 * What each route needs in the current workspace (the X-Workspace header's; the caller's personal
 * workspace without it), beside the route's `access`: the lowest role that may call it, or `none` for
 * routes that are not about a workspace (public and admin routes, the caller's own account, the
 * workspace list). The middleware (functions/src/middleware/workspace.ts) enforces it and the
 * authorization suite (functions/test/workspace-roles.test.ts) is generated from it. A Record over
 * every RouteId: a new route does not compile until it says what it needs.
 *
 * owner: members, connections, settings; editor: publish; writer: create, edit and schedule (a slot publishes
 * only what an owner, editor or reviewer approved: the approval e-mail, or review); reviewer: read (docs/product.md,
 * Workspaces).
 */
export type RouteRole = WorkspaceRole | 'none';

export const ROUTE_ROLES = {
  'auth.register': 'none',
  'auth.login': 'none',
  'auth.me': 'none',
  'auth.logout': 'none',
  'auth.logoutEverywhere': 'none',
  'auth.changePassword': 'none',
  'auth.setup': 'none',
  'auth.registerInvited': 'none',
  'admin.listUsers': 'none',
  'admin.setUserStatus': 'none',
  'admin.getSettings': 'none',
  'admin.setSettings': 'none',

  'articles.list': 'reviewer',
  'articles.unpublished': 'reviewer',
  'articles.published': 'reviewer',
  'articles.get': 'reviewer',
  'articles.calendar': 'reviewer',
  'dashboard.get': 'reviewer',
  'articles.create': 'writer',
  'articles.updateBlog': 'writer',
  'articles.updateLinkedIn': 'writer',
  'articles.updateVersion': 'writer',
  'articles.retryGeneration': 'writer',
  'articles.gptEdit': 'writer',
  'schedule.set': 'writer',
  // Every member comments (a reviewer too) and reads the activity; only a comment's author deletes it (domain/comments.ts).
  'articles.comments': 'reviewer',
  'articles.addComment': 'reviewer',
  'articles.deleteComment': 'reviewer',
  'articles.activity': 'reviewer',

  'images.preview': 'reviewer',
  'images.status': 'reviewer',
  'images.original': 'reviewer',
  'images.generate': 'writer',
  'images.regenerate': 'writer',
  'images.uploadStart': 'writer',
  'images.uploadComplete': 'writer',
  'images.focalPoint': 'writer',

  // Settings and connections are the workspace's, set by its owner; their (masked) status is readable by every member.
  'settings.list': 'owner',
  'settings.save': 'owner',
  'settings.delete': 'owner',
  'wordpress.status': 'reviewer',
  'wordpress.testConnection': 'owner',
  'wordpress.saveCredentials': 'owner',
  'wordpress.publish': 'editor',
  'channels.status': 'reviewer',
  'channels.connect': 'owner',
  'channels.disconnect': 'owner',
  'channels.test': 'owner',
  'channels.publish': 'editor',
  'linkedin.status': 'reviewer',
  'linkedin.saveCredentials': 'owner',
  'linkedin.testConnection': 'owner',
  'linkedin.authUrl': 'owner',
  'linkedin.callback': 'none',
  'linkedin.getWebhook': 'owner',
  'linkedin.setWebhook': 'owner',
  'linkedin.publish': 'editor',
  'linkedin.getPostingMode': 'reviewer',
  'linkedin.setPostingMode': 'writer',
  'email.status': 'reviewer',
  'email.authUrl': 'owner',
  'email.callback': 'none',
  'email.test': 'owner',
  'approvals.preview': 'none',
  'approvals.confirm': 'none',
  'approvals.image': 'none',
  // Review: a writer submits; who may approve at a stage is the review's rule (shared/src/review.ts stageRoles).
  'approvals.submit': 'writer',
  'approvals.approve': 'reviewer',
  'approvals.requestChanges': 'reviewer',
  'approvals.reviewPreview': 'none',
  'approvals.reviewConfirm': 'none',
  'approvals.reviewImage': 'none',

  'sheets.authUrl': 'owner',
  'sheets.callback': 'none',
  'sheets.disconnect': 'owner',
  'sheets.status': 'reviewer',
  'sheets.list': 'writer',
  'sheets.import': 'writer',

  'workspaces.list': 'none',
  'workspaces.create': 'none',
  'workspaces.accept': 'none',
  'workspaces.invitation': 'none',
  'workspaces.members': 'reviewer',
  'workspaces.setRole': 'owner',
  'workspaces.removeMember': 'owner',
  'workspaces.review': 'reviewer',
  'workspaces.setReview': 'owner',
  'workspaces.invitations': 'owner',
  'workspaces.invite': 'owner',
  'workspaces.revokeInvitation': 'owner',
} as const satisfies Record<RouteId, RouteRole>;

/** The role route `id` needs in the current workspace (`none`: the route is not about one); an unknown id needs the most. */
export const routeRole = (id: string): RouteRole => (ROUTE_ROLES as Partial<Record<string, RouteRole>>)[id] ?? 'owner';

/**
 * Whether `role` may call route `id` in the current workspace: the same table the middleware enforces, so the
 * SPA shows only what the server would accept (docs/product.md, Workspaces).
 */
export const can = (role: WorkspaceRole, id: RouteId): boolean => {
  const needed = routeRole(id);
  return needed === 'none' || roleAtLeast(role, needed);
};
