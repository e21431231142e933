import { DynamoArticleStore } from '../adapters/dynamo/article-store.js';
import { ownVersionIds } from '../channels/registry.js';
import type { CalendarChannels } from '../domain/calendar.js';
import type { ArticleStore } from '../domain/ports.js';
import { deps } from './deps.js';
import { lazy } from './lazy.js';

export interface CalendarServices {
  articles: ArticleStore;
  channels: CalendarChannels;
}

/** The article store the calendar reads its range from (domain/calendar.ts), built on first use. */
export const calendarServices = lazy((): CalendarServices => ({
  articles: new DynamoArticleStore(deps().db, deps().config.tableName),
  channels: {
    // The channels' modules load only when the range has a schedule in it (import(): no cold start parses them).
    async scheduledChannels(userId, platform, bundle) {
      const { publishing } = await import('./publishing.js');
      const service = publishing();
      const [ofVersion, social] = await Promise.all([
        service.versionChannels(platform, userId),
        bundle ? service.socialChannels(userId) : [],
      ]);
      return [...ofVersion, ...social].map((channel) => channel.id);
    },
    ownVersions: ownVersionIds,
  },
}));
