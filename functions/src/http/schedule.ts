import { versionChannelIds } from '../channels/ids.js';
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
        // The channels' facts (channels/ids.ts): no channel's module is loaded for it.
        scheduleChannels: async (platform) => versionChannelIds(platform),
      },
      workspace.id,
      params.id,
      body,
    );
    return json(200, { success: true, article: toApiArticle(article), scheduledFor: article.scheduled[body.platform] });
  },
});
