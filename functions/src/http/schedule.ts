import { scheduledTime, ScheduleMessages } from '@app/shared';
import { versionChannelIds } from '../channels/ids.js';
import { scheduleArticle } from '../domain/scheduling.js';
import { schedulerServices } from '../wiring/scheduler.js';
import { toApiArticle } from './article-view.js';
import { defineHandlers } from './handlers.js';
import { json } from './response.js';
import { requestedVersion } from './versions.js';

export const handlers = defineHandlers('schedule', {
  'schedule.set': async ({ workspace, params, body }) => {
    // The blog, LinkedIn, or a channel's own version (`scheduled.<id>`); any other name: 400, as the schema's.
    const platform = requestedVersion(body.platform, ScheduleMessages.invalidPlatform);
    const { articles, scheduler } = schedulerServices();
    const article = await scheduleArticle(
      {
        articles,
        scheduler,
        // The channels' facts (channels/ids.ts): no channel's module is loaded for it.
        scheduleChannels: async (version) => versionChannelIds(version),
      },
      workspace.id,
      params.id,
      { ...body, platform },
    );
    return json(200, {
      success: true,
      article: toApiArticle(article),
      scheduledFor: scheduledTime(article.scheduled, platform),
    });
  },
});
