import type { ScheduleInput } from '@app/shared';
import { toApiArticle } from './article-view.js';
import { scheduleArticle } from '../domain/scheduling.js';
import type { RouteHandler, SignedInRequest } from '../middleware/api.js';
import { schedulerServices } from '../wiring/scheduler.js';
import { json } from './response.js';

async function setSchedule({ user, params, body }: SignedInRequest<ScheduleInput, unknown, { id: string }>) {
  const { articles, scheduler } = schedulerServices();
  const article = await scheduleArticle({ articles, scheduler }, user.id, params.id, body);
  return json(200, { success: true, article: toApiArticle(article), scheduledFor: article.scheduled[body.platform] });
}

export const handlers: Record<string, RouteHandler> = { 'schedule.set': setSchedule };
