import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { readCookie, SESSION_COOKIE } from '../domain/sessions.js';
import { deps } from '../wiring/deps.js';
import { integrations } from '../wiring/integrations.js';
import { defineHandlers } from './handlers.js';
import { publicOrigin } from './origin.js';
import { json, redirect } from './response.js';

const callbackUri = (event: APIGatewayProxyEventV2) => `${publicOrigin(event, deps().config)}/api/email/oauth/callback`;

export const handlers = defineHandlers('email', {
  'email.status': async ({ user }) => json(200, await integrations().email.status(user.id)),

  'email.authUrl': async ({ event, user }) =>
    json(200, { success: true, authUrl: await integrations().email.authUrl(user.id, callbackUri(event)) }),

  /** Public: Google's redirect. The signed state names (and binds) the user; a session, if any, must be the same user. */
  'email.callback': async ({ event, query }) => {
    const sessionUser = (await deps().sessions.verify(readCookie(event.cookies, SESSION_COOKIE)))?.userId;
    return redirect(`/settings?${await integrations().email.callback(query, sessionUser, callbackUri(event))}`);
  },

  'email.test': async ({ user, body }) => json(200, await integrations().email.sendTest(user.id, body)),
});
