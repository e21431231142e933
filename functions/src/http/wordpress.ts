import { IntegrationMessages } from '@app/shared';
import { integrations } from '../wiring/integrations.js';
import { publishing } from '../wiring/publishing.js';
import { reviewRules } from '../wiring/review-settings.js';
import { toApiArticle } from './article-view.js';
import { defineHandlers } from './handlers.js';
import { json } from './response.js';

export const handlers = defineHandlers('wordpress', {
  'wordpress.status': async ({ workspace }) => json(200, await integrations().wordpress.status(workspace.id)),

  /** A failed check is an answer, not an error: {success:false, error, message} with the reason. */
  'wordpress.testConnection': async ({ workspace, body }) => {
    const check = await integrations().wordpress.test(workspace.id, body);
    if (!check.ok) return json(200, { success: false, error: check.message, message: check.message, code: check.code });
    return json(200, {
      success: true,
      user: { name: check.user.name },
      message: `Connected to ${check.siteUrl} as ${check.user.name}`,
    });
  },

  'wordpress.saveCredentials': async ({ workspace, body }) => {
    const check = await integrations().wordpress.save(workspace.id, body);
    return json(200, {
      success: true,
      user: { name: check.user.name },
      message: IntegrationMessages.wordpressSaved,
      siteUrl: check.siteUrl,
    });
  },

  'wordpress.publish': async ({ workspace, user, params }) => {
    await reviewRules().checkPublishNow(workspace, params.id, 'blog');
    const { link, article } = await publishing().publishWordPress(workspace.id, params.id, {
      trigger: 'manual',
      actorId: user.id,
    });
    return json(200, {
      success: true,
      post: { link },
      article: toApiArticle(article),
      message: 'Successfully published to WordPress!',
    });
  },
});
