import { SheetsMessages, type SheetsAccess, type SheetsImportInput } from '@app/shared';
import { readCookie, SESSION_COOKIE } from '../domain/sessions.js';
import type { ApiRequest, RouteHandler, SignedInRequest } from '../middleware/api.js';
import { sheets } from '../wiring/sheets.js';
import { publicOrigin, redirect } from './origin.js';
import { json } from './response.js';

const callbackUri = (req: ApiRequest) => `${publicOrigin(req.event, req.deps.config)}/api/sheets/callback`;

/** `?access=write`: also ask for permission to edit spreadsheets (to write statuses back). */
async function authUrl(req: SignedInRequest<unknown, { access?: SheetsAccess }>) {
  return json(200, { success: true, authUrl: await sheets().authUrl(req.user.id, callbackUri(req), req.query.access) });
}

/** Public: Google's redirect. The signed state names (and binds) the user; a session, if any, must be the same user. */
async function callback(req: ApiRequest<unknown, { code?: string; state?: string; error?: string }>) {
  const sessionUser = (await req.deps.sessions.verify(readCookie(req.event.cookies, SESSION_COOKIE)))?.userId;
  return redirect(`/sheets-import?${await sheets().callback(req.query, sessionUser, callbackUri(req))}`);
}

async function status({ user }: SignedInRequest) {
  return json(200, await sheets().status(user.id));
}

async function disconnect({ user }: SignedInRequest) {
  await sheets().disconnect(user.id);
  return json(200, { success: true, message: SheetsMessages.disconnected });
}

async function list({ user }: SignedInRequest) {
  return json(200, { success: true, spreadsheets: await sheets().listSpreadsheets(user.id) });
}

async function importRows({ user, body }: SignedInRequest<SheetsImportInput & Pick<Required<SheetsImportInput>, 'spreadsheetId' | 'range'>>) {
  return json(200, await sheets().import(user.id, body));
}

export const handlers: Record<string, RouteHandler> = {
  'sheets.authUrl': authUrl,
  'sheets.callback': callback,
  'sheets.status': status,
  'sheets.disconnect': disconnect,
  'sheets.list': list,
  'sheets.import': importRows,
};
