import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { IntegrationMessages, PostingModeMessages } from '@app/shared';
import { badRequest } from '../domain/errors.js';
import { deps } from '../wiring/deps.js';
import { integrations } from '../wiring/integrations.js';
import { publishing } from '../wiring/publishing.js';
import { reviewRules } from '../wiring/review-settings.js';
import { toApiArticle } from './article-view.js';
import { defineHandlers } from './handlers.js';
import { callbackSessionOwner } from './oauth-session.js';
import { publicOrigin } from './origin.js';
import { json, redirect } from './response.js';

const callbackUri = (event: APIGatewayProxyEventV2) => `${publicOrigin(event, deps().config)}/api/linkedin/callback`;

export const handlers = defineHandlers('linkedin', {
  'linkedin.status': async ({ workspace }) => json(200, await integrations().linkedin.status(workspace.id)),

  'linkedin.saveCredentials': async ({ workspace, body }) => {
    await integrations().linkedin.saveCredentials(workspace.id, body);
    return json(200, { success: true, message: IntegrationMessages.linkedinSaved });
  },

  'linkedin.testConnection': async ({ event, workspace, body }) =>
    json(200, await integrations().linkedin.test(workspace.id, body, callbackUri(event))),

  /** The redirect URI is always our own callback; a caller may name it, but not change it. */
  'linkedin.authUrl': async ({ event, user, workspace, query }) => {
    const expected = callbackUri(event);
    if (query.redirectUri && query.redirectUri !== expected) {
      throw badRequest(`redirectUri must be ${expected}`, 'invalid_redirect_uri');
    }
    return json(200, {
      success: true,
      authUrl: await integrations().linkedin.authUrl(workspace.id, expected, query.pages === 'true', user.id),
    });
  },

  /** Public: the provider's redirect. The signed state names (and binds) the owner; a session, if any, must be that user or one of that workspace's owners. */
  'linkedin.callback': async ({ event, query }) => {
    const sessionUser = await callbackSessionOwner(event, query.state, 'linkedin');
    const outcome = await integrations().linkedin.callback(query, sessionUser, callbackUri(event));
    return redirect(`/settings?${outcome}`);
  },

  'linkedin.getWebhook': async ({ workspace }) =>
    json(200, { success: true, ...(await integrations().linkedin.webhook(workspace.id)) }),

  'linkedin.setWebhook': async ({ workspace, body }) =>
    json(200, {
      success: true,
      message: IntegrationMessages.webhookSaved,
      ...(await integrations().linkedin.setWebhook(workspace.id, body.webhookUrl)),
    }),

  'linkedin.publish': async ({ workspace, user, params }) => {
    await reviewRules().checkPublishNow(workspace, params.id, 'linkedin');
    const { url, article } = await publishing().publishLinkedIn(workspace.id, params.id, {
      trigger: 'manual',
      actorId: user.id,
    });
    return json(200, {
      success: true,
      post: { url },
      article: toApiArticle(article),
      message: 'Successfully published to LinkedIn!',
    });
  },

  'linkedin.setPostingMode': async ({ workspace, params, body }) => {
    await publishing().setPostingMode(workspace.id, params.id, body.mode);
    return json(200, { success: true, mode: body.mode, message: PostingModeMessages[body.mode] });
  },

  'linkedin.getPostingMode': async ({ workspace, params }) =>
    json(200, { success: true, mode: await publishing().postingMode(workspace.id, params.id) }),
});
