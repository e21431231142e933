import { readCookie, SESSION_COOKIE } from '../domain/sessions.js';
import type { ApiRequest, RouteHandler, SignedInRequest } from '../middleware/api.js';
import { integrations } from '../wiring/integrations.js';
import { publicOrigin, redirect } from './origin.js';
import { json } from './response.js';

const callbackUri = (req: ApiRequest) => `${publicOrigin(req.event, req.deps.config)}/api/email/oauth/callback`;

async function status({ user }: SignedInRequest) {
  return json(200, await integrations().email.status(user.id));
}

async function authUrl(req: SignedInRequest) {
  return json(200, { success: true, authUrl: await integrations().email.authUrl(req.user.id, callbackUri(req)) });
}

async function callback(req: ApiRequest<unknown, { code?: string; state?: string; error?: string }>) {
  const sessionUser = (await req.deps.sessions.verify(readCookie(req.event.cookies, SESSION_COOKIE)))?.userId;
  return redirect(`/settings?${await integrations().email.callback(req.query, sessionUser, callbackUri(req))}`);
}

async function sendTest({ user, body }: SignedInRequest<{ to: string; subject?: string; message?: string }>) {
  return json(200, await integrations().email.sendTest(user.id, body));
}

export const handlers: Record<string, RouteHandler> = {
  'email.status': status,
  'email.authUrl': authUrl,
  'email.callback': callback,
  'email.test': sendTest,
};
