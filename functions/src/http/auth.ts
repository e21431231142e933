import { Messages, type LoginInput, type RegisterInput } from '@app/shared';
import type { ApiRequest, RouteHandler, SignedInRequest } from '../middleware/api.js';
import { toPublicUser } from '../domain/users.js';
import { json } from './response.js';

async function register({ body, deps }: ApiRequest<RegisterInput>) {
  const user = await deps.users.register(body);
  if (user.isActive) {
    return json(201, { user: toPublicUser(user), message: Messages.adminCreated }, [await deps.sessions.issue(user.id)]);
  }
  return json(201, { message: Messages.registrationReceived });
}

async function login({ body, deps }: ApiRequest<LoginInput>) {
  const user = await deps.users.login(body);
  return json(200, { user: toPublicUser(user), message: Messages.loggedIn }, [await deps.sessions.issue(user.id)]);
}

async function me({ user }: SignedInRequest) {
  return json(200, { user: toPublicUser(user) });
}

async function logout({ deps }: ApiRequest) {
  return json(200, { message: Messages.loggedOut }, [deps.sessions.clear()]);
}

export const handlers: Record<string, RouteHandler> = {
  'auth.register': register,
  'auth.login': login,
  'auth.me': me,
  'auth.logout': logout,
};
