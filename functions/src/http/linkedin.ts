import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { IntegrationMessages, PostingModeMessages } from '@app/shared';
import { badRequest } from '../domain/errors.js';
import { readCookie, SESSION_COOKIE } from '../domain/sessions.js';
import { deps } from '../wiring/deps.js';
import { integrations } from '../wiring/integrations.js';
import { publishing } from '../wiring/publishing.js';
import { toApiArticle } from './article-view.js';
import { defineHandlers } from './handlers.js';
import { publicOrigin } from './origin.js';
import { json, redirect } from './response.js';

const callbackUri = (event: APIGatewayProxyEventV2) => `${publicOrigin(event, deps().config)}/api/linkedin/callback`;

export const handlers = defineHandlers('linkedin', {
  'linkedin.status': async ({ user }) => json(200, await integrations().linkedin.status(user.id)),

  'linkedin.saveCredentials': async ({ user, body }) => {
    await integrations().linkedin.saveCredentials(user.id, body);
    return json(200, { success: true, message: IntegrationMessages.linkedinSaved });
  },

  'linkedin.testConnection': async ({ event, user, body }) =>
    json(200, await integrations().linkedin.test(user.id, body, callbackUri(event))),

  /** The redirect URI is always our own callback; a caller may name it, but not change it. */
  'linkedin.authUrl': async ({ event, user, query }) => {
    const expected = callbackUri(event);
    if (query.redirectUri && query.redirectUri !== expected) {
      throw badRequest(`redirectUri must be ${expected}`, 'invalid_redirect_uri');
    }
    return json(200, {
      success: true,
      authUrl: await integrations().linkedin.authUrl(user.id, expected, query.pages === 'true'),
    });
  },

  /** Public: the provider's redirect. The signed state names (and binds) the user; a session, if any, must be the same user. */
  'linkedin.callback': async ({ event, query }) => {
    const sessionUser = (await deps().sessions.verify(readCookie(event.cookies, SESSION_COOKIE)))?.userId;
    const outcome = await integrations().linkedin.callback(query, sessionUser, callbackUri(event));
    return redirect(`/settings?${outcome}`);
  },

  'linkedin.getWebhook': async ({ user }) =>
    json(200, { success: true, ...(await integrations().linkedin.webhook(user.id)) }),

  'linkedin.setWebhook': async ({ user, body }) =>
    json(200, {
      success: true,
      message: IntegrationMessages.webhookSaved,
      ...(await integrations().linkedin.setWebhook(user.id, body.webhookUrl)),
    }),

  'linkedin.publish': async ({ user, params }) => {
    const { url, article } = await publishing().publishLinkedIn(user.id, params.id);
    return json(200, {
      success: true,
      post: { url },
      article: toApiArticle(article),
      message: 'Successfully published to LinkedIn!',
    });
  },

  'linkedin.setPostingMode': async ({ user, params, body }) => {
    await publishing().setPostingMode(user.id, params.id, body.mode);
    return json(200, { success: true, mode: body.mode, message: PostingModeMessages[body.mode] });
  },

  'linkedin.getPostingMode': async ({ user, params }) =>
    json(200, { success: true, mode: await publishing().postingMode(user.id, params.id) }),
});
