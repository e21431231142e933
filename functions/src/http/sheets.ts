import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { SheetsMessages } from '@app/shared';
import { readCookie, SESSION_COOKIE } from '../domain/sessions.js';
import { deps } from '../wiring/deps.js';
import { sheets } from '../wiring/sheets.js';
import { defineHandlers } from './handlers.js';
import { publicOrigin } from './origin.js';
import { json, redirect } from './response.js';

const callbackUri = (event: APIGatewayProxyEventV2) => `${publicOrigin(event, deps().config)}/api/sheets/callback`;

export const handlers = defineHandlers('sheets', {
  /** `?access=write`: also ask for permission to edit spreadsheets (to write statuses back). */
  'sheets.authUrl': async ({ event, user, query }) =>
    json(200, { success: true, authUrl: await sheets().authUrl(user.id, callbackUri(event), query.access) }),

  /** Public: Google's redirect. The signed state names (and binds) the user; a session, if any, must be the same user. */
  'sheets.callback': async ({ event, query }) => {
    const sessionUser = (await deps().sessions.verify(readCookie(event.cookies, SESSION_COOKIE)))?.userId;
    return redirect(`/sheets-import?${await sheets().callback(query, sessionUser, callbackUri(event))}`);
  },

  'sheets.status': async ({ user }) => json(200, await sheets().status(user.id)),

  'sheets.disconnect': async ({ user }) => {
    await sheets().disconnect(user.id);
    return json(200, { success: true, message: SheetsMessages.disconnected });
  },

  'sheets.list': async ({ user }) =>
    json(200, { success: true, spreadsheets: await sheets().listSpreadsheets(user.id) }),

  'sheets.import': async ({ user, body }) => json(200, await sheets().import(user.id, body)),
});
