import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { Messages, WorkspaceMessages } from '@app/shared';
import { conflict } from '../domain/errors.js';
import { WorkspaceService } from '../domain/workspaces.js';
import { isCommonPassword } from '../domain/common-passwords.js';
import { readCookie, SESSION_COOKIE } from '../domain/sessions.js';
import { toPublicUser } from '../domain/users.js';
import { accounts } from '../wiring/accounts.js';
import { deps } from '../wiring/deps.js';
import { workspaceStore } from '../wiring/workspace-store.js';
import { clientAddress } from './client-address.js';
import { defineHandlers } from './handlers.js';
import { json } from './response.js';

const context = (event: APIGatewayProxyEventV2) => ({ address: clientAddress(event) });
const newPasswordContext = (event: APIGatewayProxyEventV2) => ({ ...context(event), isCommonPassword });

export const handlers = defineHandlers('auth', {
  'auth.register': async ({ event, body }) => {
    const { sessions } = deps();
    const user = await accounts().register(body, newPasswordContext(event));
    if (user?.isActive) {
      return json(201, { user: toPublicUser(user), message: Messages.adminCreated }, [
        await sessions.issue(user.id, user.sessionVersion),
      ]);
    }
    // A new account awaiting approval and an e-mail that has an account already get the same answer.
    return json(201, { message: Messages.registrationReceived });
  },

  /**
   * A new account through an invitation link (docs/product.md, Workspaces): the invitation's address, a
   * member at once; signed in at once only when the admin lets invitations activate accounts.
   */
  'auth.registerInvited': async ({ event, body }) => {
    const { sessions, config } = deps();
    const store = workspaceStore();
    // No mail is sent here, so the service needs no mailer (the auth function has no integrations).
    const workspaces = new WorkspaceService({ store, publicUrl: () => config.publicUrl });
    const invitation = await workspaces.verify(body.token);
    const { invitationsActivateAccounts } = await store.instanceSettings();
    const { token: _token, ...registration } = body;
    const user = await accounts().registerInvited(
      registration,
      invitation.email,
      invitationsActivateAccounts,
      newPasswordContext(event),
    );
    if (!user) throw conflict(WorkspaceMessages.accountExists, 'account_exists');
    const workspace = await workspaces.join(user, invitation);
    if (!user.isActive) return json(201, { message: WorkspaceMessages.registeredPending });
    return json(201, { user: toPublicUser(user), workspace, message: WorkspaceMessages.registeredActive }, [
      await sessions.issue(user.id, user.sessionVersion),
    ]);
  },

  'auth.setup': async () => json(200, { setupCodeRequired: await accounts().setupCodeRequired() }),

  'auth.login': async ({ event, body }) => {
    const { sessions } = deps();
    const user = await accounts().login(body, context(event));
    return json(200, { user: toPublicUser(user), message: Messages.loggedIn }, [
      await sessions.issue(user.id, user.sessionVersion),
    ]);
  },

  /** The session check (public): no valid session is an answer, `{user: null}`, not a failure. */
  'auth.me': async ({ event }) => {
    const { users, sessions } = deps();
    const user = await users.sessionUser(await sessions.verify(readCookie(event.cookies, SESSION_COOKIE)));
    return json(200, { user: user ? toPublicUser(user) : null });
  },

  /** Ends this browser's session on the server too, so a copied cookie stops working. */
  'auth.logout': async ({ event }) => {
    const { sessions } = deps();
    await accounts().endSession(await sessions.verify(readCookie(event.cookies, SESSION_COOKIE)), context(event));
    return json(200, { message: Messages.loggedOut }, [sessions.clear()]);
  },

  'auth.logoutEverywhere': async ({ event, user }) => {
    const { sessions } = deps();
    await accounts().endAllSessions(user, context(event));
    return json(200, { message: Messages.loggedOutEverywhere }, [sessions.clear()]);
  },

  /** Every session ends with the old password; this browser gets a new one so that it stays signed in. */
  'auth.changePassword': async ({ event, user, body }) => {
    const { sessions } = deps();
    const updated = await accounts().changePassword(user, body, newPasswordContext(event));
    return json(200, { message: Messages.passwordChanged }, [await sessions.issue(updated.id, updated.sessionVersion)]);
  },
});
