import { IntegrationMessages } from '@app/shared';
import { wordPressService } from '../wiring/wordpress-service.js';
import { defineHandlers } from './handlers.js';
import { json } from './response.js';

export const handlers = defineHandlers('wordpress', {
  'wordpress.status': async ({ workspace }) => json(200, await wordPressService().status(workspace.id)),

  /** A failed check is an answer, not an error: {success:false, error, message} with the reason. */
  'wordpress.testConnection': async ({ workspace, body }) => {
    const check = await wordPressService().test(workspace.id, body);
    if (!check.ok) return json(200, { success: false, error: check.message, message: check.message, code: check.code });
    return json(200, {
      success: true,
      user: { name: check.user.name },
      message: `Connected to ${check.siteUrl} as ${check.user.name}`,
    });
  },

  'wordpress.saveCredentials': async ({ workspace, body }) => {
    const check = await wordPressService().save(workspace.id, body);
    return json(200, {
      success: true,
      user: { name: check.user.name },
      message: IntegrationMessages.wordpressSaved,
      siteUrl: check.siteUrl,
    });
  },

  // The connection's routes need no publishing: its code (the article store, review, the publisher) loads with the
  // first publish, not at every cold start.
  'wordpress.publish': async ({ workspace, user, params }) => {
    const [{ reviewRules }, { publishing }, { toApiArticle }] = await Promise.all([
      import('../wiring/review-settings.js'),
      import('../wiring/publishing.js'),
      import('./article-view.js'),
    ]);
    const { link, article } = await publishing().publishWordPress(workspace.id, params.id, {
      trigger: 'manual',
      actorId: user.id,
      check: reviewRules().publishNowCheck(workspace, 'blog'),
    });
    return json(200, {
      success: true,
      post: { link },
      article: toApiArticle(article),
      message: 'Successfully published to WordPress!',
    });
  },
});
