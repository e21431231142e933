import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { SheetsMessages } from '@app/shared';
import { deps } from '../wiring/deps.js';
import { sheets } from '../wiring/sheets.js';
import { defineHandlers } from './handlers.js';
import { callbackSessionOwner } from './oauth-session.js';
import { publicOrigin } from './origin.js';
import { json, redirect } from './response.js';

const callbackUri = (event: APIGatewayProxyEventV2) => `${publicOrigin(event, deps().config)}/api/sheets/callback`;

export const handlers = defineHandlers('sheets', {
  /** `?access=write`: also ask for permission to edit spreadsheets (to write statuses back). */
  'sheets.authUrl': async ({ event, user, workspace, query }) =>
    json(200, {
      success: true,
      authUrl: await sheets().authUrl(workspace.id, callbackUri(event), query.access, user.id),
    }),

  /** Public: Google's redirect. The signed state names (and binds) the owner; a session, if any, must be that user or one of that workspace's owners. */
  'sheets.callback': async ({ event, query }) => {
    const sessionUser = await callbackSessionOwner(event, query.state, 'sheets');
    return redirect(`/sheets-import?${await sheets().callback(query, sessionUser, callbackUri(event))}`);
  },

  'sheets.status': async ({ workspace }) => json(200, await sheets().status(workspace.id)),

  'sheets.disconnect': async ({ workspace }) => {
    await sheets().disconnect(workspace.id);
    return json(200, { success: true, message: SheetsMessages.disconnected });
  },

  'sheets.list': async ({ workspace }) =>
    json(200, { success: true, spreadsheets: await sheets().listSpreadsheets(workspace.id) }),

  'sheets.import': async ({ workspace, body }) => json(200, await sheets().import(workspace.id, body)),
});
