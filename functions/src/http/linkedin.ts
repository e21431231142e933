import { IntegrationMessages, PostingModeMessages } from '@app/shared';
import { toApiArticle } from './article-view.js';
import { publishing } from '../wiring/publishing.js';
import { readCookie, SESSION_COOKIE } from '../domain/sessions.js';
import { badRequest } from '../domain/errors.js';
import type { ApiRequest, RouteHandler, SignedInRequest } from '../middleware/api.js';
import { integrations } from '../wiring/integrations.js';
import { publicOrigin, redirect } from './origin.js';
import { json } from './response.js';

const callbackUri = (req: ApiRequest) => `${publicOrigin(req.event, req.deps.config)}/api/linkedin/callback`;

async function status({ user }: SignedInRequest) {
  return json(200, await integrations().linkedin.status(user.id));
}

async function saveCredentials({ user, body }: SignedInRequest<{ clientId: string; clientSecret: string }>) {
  await integrations().linkedin.saveCredentials(user.id, body);
  return json(200, { success: true, message: IntegrationMessages.linkedinSaved });
}

async function testConnection(req: SignedInRequest<{ clientId: string; clientSecret: string }>) {
  return json(200, await integrations().linkedin.test(req.user.id, req.body, callbackUri(req)));
}

/** The redirect URI is always our own callback; a caller may name it, but not change it. */
async function authUrl(req: SignedInRequest<unknown, { redirectUri?: string; pages?: 'true' | 'false' }>) {
  const expected = callbackUri(req);
  if (req.query.redirectUri && req.query.redirectUri !== expected) {
    throw badRequest(`redirectUri must be ${expected}`, 'invalid_redirect_uri');
  }
  return json(200, { success: true, authUrl: await integrations().linkedin.authUrl(req.user.id, expected, req.query.pages === 'true') });
}

async function callback(req: ApiRequest<unknown, { code?: string; state?: string; error?: string }>) {
  const sessionUser = (await req.deps.sessions.verify(readCookie(req.event.cookies, SESSION_COOKIE)))?.userId;
  const outcome = await integrations().linkedin.callback(req.query, sessionUser, callbackUri(req));
  return redirect(`/settings?${outcome}`);
}

async function getWebhook({ user }: SignedInRequest) {
  return json(200, { success: true, ...(await integrations().linkedin.webhook(user.id)) });
}

async function setWebhook({ user, body }: SignedInRequest<{ webhookUrl: string }>) {
  return json(200, { success: true, message: IntegrationMessages.webhookSaved, ...(await integrations().linkedin.setWebhook(user.id, body.webhookUrl)) });
}


async function publish({ user, params }: SignedInRequest<unknown, unknown, { id: string }>) {
  const { url, article } = await publishing().publishLinkedIn(user.id, params.id);
  return json(200, { success: true, post: { url }, article: toApiArticle(article), message: 'Successfully published to LinkedIn!' });
}

async function setPostingMode({ user, params, body }: SignedInRequest<{ mode: 'personal' | 'company' }, unknown, { id: string }>) {
  await publishing().setPostingMode(user.id, params.id, body.mode);
  return json(200, { success: true, mode: body.mode, message: PostingModeMessages[body.mode] });
}

async function getPostingMode({ user, params }: SignedInRequest<unknown, unknown, { id: string }>) {
  return json(200, { success: true, mode: await publishing().postingMode(user.id, params.id) });
}

export const handlers: Record<string, RouteHandler> = {
  'linkedin.status': status,
  'linkedin.saveCredentials': saveCredentials,
  'linkedin.testConnection': testConnection,
  'linkedin.authUrl': authUrl,
  'linkedin.callback': callback,
  'linkedin.getWebhook': getWebhook,
  'linkedin.setWebhook': setWebhook,
  'linkedin.publish': publish,
  'linkedin.setPostingMode': setPostingMode,
  'linkedin.getPostingMode': getPostingMode,
};
