import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { deps } from '../wiring/deps.js';
import { emailService } from '../wiring/email-service.js';
import { defineHandlers } from './handlers.js';
import { callbackSessionOwner } from './oauth-session.js';
import { publicOrigin } from './origin.js';
import { json, redirect } from './response.js';

const callbackUri = (event: APIGatewayProxyEventV2) => `${publicOrigin(event, deps().config)}/api/email/oauth/callback`;

export const handlers = defineHandlers('email', {
  'email.status': async ({ workspace }) => json(200, await emailService().status(workspace.id)),

  'email.authUrl': async ({ event, user, workspace }) =>
    json(200, {
      success: true,
      authUrl: await emailService().authUrl(workspace.id, callbackUri(event), user.id),
    }),

  /** Public: Google's redirect. The signed state names (and binds) the owner; a session, if any, must be that user or one of that workspace's owners. */
  'email.callback': async ({ event, query }) => {
    const sessionUser = await callbackSessionOwner(event, query.state, 'gmail');
    return redirect(`/settings?${await emailService().callback(query, sessionUser, callbackUri(event))}`);
  },

  'email.test': async ({ workspace, body }) => json(200, await emailService().sendTest(workspace.id, body)),
});
