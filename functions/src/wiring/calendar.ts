import { DynamoArticleStore } from '../adapters/dynamo/article-store.js';
import type { ArticleStore } from '../domain/ports.js';
import { deps } from './deps.js';
import { lazy } from './lazy.js';

export interface CalendarServices {
  articles: ArticleStore;
}

/** The article store the calendar reads its range from (domain/calendar.ts), built on first use. */
export const calendarServices = lazy((): CalendarServices => ({
  articles: new DynamoArticleStore(deps().db, deps().config.tableName),
}));
