import { scheduleArticle } from '../domain/scheduling.js';
import { schedulerServices } from '../wiring/scheduler.js';
import { toApiArticle } from './article-view.js';
import { defineHandlers } from './handlers.js';
import { json } from './response.js';

export const handlers = defineHandlers('schedule', {
  'schedule.set': async ({ workspace, params, body }) => {
    const { articles, scheduler } = schedulerServices();
    const article = await scheduleArticle(
      {
        articles,
        scheduler,
        // Only an article imported for some channels asks: the channels' modules load then (import()).
        scheduleChannels: async (platform) =>
          (await import('../wiring/publishing.js')).publishing().scheduleChannelIds(platform),
      },
      workspace.id,
      params.id,
      body,
    );
    return json(200, { success: true, article: toApiArticle(article), scheduledFor: article.scheduled[body.platform] });
  },
});
