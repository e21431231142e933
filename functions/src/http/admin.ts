import { Messages, type UserStatusInput } from '@app/shared';
import type { RouteHandler, SignedInRequest } from '../middleware/api.js';
import { toPublicUser } from '../domain/users.js';
import { json } from './response.js';

async function listUsers({ deps }: SignedInRequest) {
  const users = await deps.users.list();
  return json(200, { users: users.map(toPublicUser) });
}

async function setUserStatus({ deps, params, body, user: admin }: SignedInRequest<UserStatusInput, unknown, { id: string }>) {
  const user = await deps.users.setActive(admin, params.id, body.isActive);
  return json(200, { user: toPublicUser(user), message: user.isActive ? Messages.userActivated : Messages.userDeactivated });
}

export const handlers: Record<string, RouteHandler> = {
  'admin.listUsers': listUsers,
  'admin.setUserStatus': setUserStatus,
};
