import { scheduledTime, ScheduleMessages } from '@app/shared';
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
    const article = await scheduleArticle({ articles, scheduler }, workspace.id, params.id, { ...body, platform });
    return json(200, {
      success: true,
      article: toApiArticle(article),
      scheduledFor: scheduledTime(article.scheduled, platform),
    });
  },
});
