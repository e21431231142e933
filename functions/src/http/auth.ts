import { Messages, type ChangePasswordInput, type LoginInput, type RegisterInput, type SetupStatus } from '@app/shared';
import type { ApiRequest, RouteHandler, SignedInRequest } from '../middleware/api.js';
import { isCommonPassword } from '../domain/common-passwords.js';
import { readCookie, SESSION_COOKIE } from '../domain/sessions.js';
import { toPublicUser } from '../domain/users.js';
import { clientAddress } from './client-address.js';
import { json } from './response.js';

const context = (req: ApiRequest) => ({ address: clientAddress(req.event) });
const newPasswordContext = (req: ApiRequest) => ({ ...context(req), isCommonPassword });
const sessionOf = (req: ApiRequest) => req.deps.sessions.verify(readCookie(req.event.cookies, SESSION_COOKIE));

async function register(req: ApiRequest<RegisterInput>) {
  const { body, deps } = req;
  const user = await deps.users.register(body, newPasswordContext(req));
  if (user?.isActive) {
    return json(201, { user: toPublicUser(user), message: Messages.adminCreated }, [await deps.sessions.issue(user.id, user.sessionVersion)]);
  }
  // A new account awaiting approval and an e-mail that has an account already get the same answer.
  return json(201, { message: Messages.registrationReceived });
}

async function setupStatus({ deps }: ApiRequest) {
  const status: SetupStatus = { setupCodeRequired: await deps.users.setupCodeRequired() };
  return json(200, status);
}

async function login(req: ApiRequest<LoginInput>) {
  const { body, deps } = req;
  const user = await deps.users.login(body, context(req));
  return json(200, { user: toPublicUser(user), message: Messages.loggedIn }, [await deps.sessions.issue(user.id, user.sessionVersion)]);
}

async function me({ user }: SignedInRequest) {
  return json(200, { user: toPublicUser(user) });
}

/** Ends this browser's session on the server too, so a copied cookie stops working. */
async function logout(req: ApiRequest) {
  await req.deps.users.endSession(await sessionOf(req), context(req));
  return json(200, { message: Messages.loggedOut }, [req.deps.sessions.clear()]);
}

async function logoutEverywhere(req: SignedInRequest) {
  await req.deps.users.endAllSessions(req.user, context(req));
  return json(200, { message: Messages.loggedOutEverywhere }, [req.deps.sessions.clear()]);
}

/** Every session ends with the old password; this browser gets a new one so that it stays signed in. */
async function changePassword(req: SignedInRequest<ChangePasswordInput>) {
  const updated = await req.deps.users.changePassword(req.user, req.body, newPasswordContext(req));
  return json(200, { message: Messages.passwordChanged }, [await req.deps.sessions.issue(updated.id, updated.sessionVersion)]);
}

export const handlers: Record<string, RouteHandler> = {
  'auth.register': register,
  'auth.setup': setupStatus,
  'auth.login': login,
  'auth.me': me,
  'auth.logout': logout,
  'auth.logoutEverywhere': logoutEverywhere,
  'auth.changePassword': changePassword,
};
