import { genericChannel } from '../wiring/channels.js';
import { defineHandlers } from './handlers.js';
import { json } from './response.js';

/** The channels of the registry without documented routes of their own (functions/src/channels/registry.ts). */
export const handlers = defineHandlers('channels', {
  'channels.status': async ({ workspace, params }) => {
    const channel = await genericChannel(params.channel);
    return json(200, { success: true, channel: channel.id, ...(await channel.settings.status(workspace.id)) });
  },

  /** Checked against the service, then saved; bad input or a refused check: 400, nothing saved. */
  'channels.connect': async ({ workspace, params, body }) => {
    const channel = await genericChannel(params.channel);
    const check = await channel.settings.connect(workspace.id, body);
    return json(200, {
      success: true,
      message: check.message,
      channel: channel.id,
      ...(await channel.settings.status(workspace.id)),
    });
  },

  'channels.disconnect': async ({ workspace, params }) => {
    const channel = await genericChannel(params.channel);
    await channel.settings.disconnect(workspace.id);
    return json(200, { success: true, message: `${channel.label} disconnected.` });
  },

  /** A failed check is an answer, not an error: {success:false, message, code}. No fields: the saved connection. */
  'channels.test': async ({ workspace, params, body }) => {
    const channel = await genericChannel(params.channel);
    const check = await channel.settings.test(workspace.id, Object.keys(body).length ? body : undefined);
    return json(
      200,
      check.ok
        ? { success: true, message: check.message }
        : { success: false, message: check.message, code: check.code },
    );
  },

  // The connection's routes need no publishing: its code (the article store, review, the publisher) loads with the
  // first publish, not at every cold start.
  'channels.publish': async ({ workspace, user, params }) => {
    const channel = await genericChannel(params.channel);
    const [{ reviewRules }, { publishing }, { toApiArticle }] = await Promise.all([
      import('../wiring/review-settings.js'),
      import('../wiring/publishing.js'),
      import('./article-view.js'),
    ]);
    const { url, article } = await publishing().publish(channel.id, workspace.id, params.id, {
      trigger: 'manual',
      actorId: user.id,
      // Its own version's approval where it has one, else that of the version it shares (the blog one, for a blog).
      check: reviewRules().publishNowCheck(workspace, channel.version ?? channel.platform),
    });
    return json(200, {
      success: true,
      post: { url },
      article: toApiArticle(article),
      message: `Successfully published to ${channel.label}!`,
    });
  },
});
