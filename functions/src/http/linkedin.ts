import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { IntegrationMessages, PostingModeMessages } from '@app/shared';
import { badRequest } from '../domain/errors.js';
import { deps } from '../wiring/deps.js';
import { linkedInService } from '../wiring/linkedin-service.js';
import { defineHandlers } from './handlers.js';
import { callbackSessionOwner } from './oauth-session.js';
import { publicOrigin } from './origin.js';
import { json, redirect } from './response.js';

/**
 * The publishing side (the article store, review, the publisher): only the publish and posting-mode routes use it, so it
 * loads with the first of them, not at every cold start of the connection's routes.
 */
const publishingSide = async () => {
  const [{ reviewRules }, { publishing }, { toApiArticle }] = await Promise.all([
    import('../wiring/review-settings.js'),
    import('../wiring/publishing.js'),
    import('./article-view.js'),
  ]);
  return { reviewRules, publishing, toApiArticle };
};

const callbackUri = (event: APIGatewayProxyEventV2) => `${publicOrigin(event, deps().config)}/api/linkedin/callback`;

export const handlers = defineHandlers('linkedin', {
  'linkedin.status': async ({ workspace }) => json(200, await linkedInService().status(workspace.id)),

  'linkedin.saveCredentials': async ({ workspace, body }) => {
    await linkedInService().saveCredentials(workspace.id, body);
    return json(200, { success: true, message: IntegrationMessages.linkedinSaved });
  },

  'linkedin.testConnection': async ({ event, workspace, body }) =>
    json(200, await linkedInService().test(workspace.id, body, callbackUri(event))),

  /** The redirect URI is always our own callback; a caller may name it, but not change it. */
  'linkedin.authUrl': async ({ event, user, workspace, query }) => {
    const expected = callbackUri(event);
    if (query.redirectUri && query.redirectUri !== expected) {
      throw badRequest(`redirectUri must be ${expected}`, 'invalid_redirect_uri');
    }
    return json(200, {
      success: true,
      authUrl: await linkedInService().authUrl(workspace.id, expected, query.pages === 'true', user.id),
    });
  },

  /** Public: the provider's redirect. The signed state names (and binds) the owner; a session, if any, must be that user or one of that workspace's owners. */
  'linkedin.callback': async ({ event, query }) => {
    const sessionUser = await callbackSessionOwner(event, query.state, 'linkedin');
    const outcome = await linkedInService().callback(query, sessionUser, callbackUri(event));
    return redirect(`/settings?${outcome}`);
  },

  'linkedin.getWebhook': async ({ workspace }) =>
    json(200, { success: true, ...(await linkedInService().webhook(workspace.id)) }),

  'linkedin.setWebhook': async ({ workspace, body }) =>
    json(200, {
      success: true,
      message: IntegrationMessages.webhookSaved,
      ...(await linkedInService().setWebhook(workspace.id, body.webhookUrl)),
    }),

  'linkedin.publish': async ({ workspace, user, params }) => {
    const { reviewRules, publishing, toApiArticle } = await publishingSide();
    const { url, article } = await publishing().publishLinkedIn(workspace.id, params.id, {
      trigger: 'manual',
      actorId: user.id,
      check: reviewRules().publishNowCheck(workspace, 'linkedin'),
    });
    return json(200, {
      success: true,
      post: { url },
      article: toApiArticle(article),
      message: 'Successfully published to LinkedIn!',
    });
  },

  'linkedin.setPostingMode': async ({ workspace, params, body }) => {
    const { publishing } = await publishingSide();
    await publishing().setPostingMode(workspace.id, params.id, body.mode);
    return json(200, { success: true, mode: body.mode, message: PostingModeMessages[body.mode] });
  },

  'linkedin.getPostingMode': async ({ workspace, params }) => {
    const { publishing } = await publishingSide();
    return json(200, { success: true, mode: await publishing().postingMode(workspace.id, params.id) });
  },
});
