import { DynamoArticleStore } from '../adapters/dynamo/article-store.js';
import { DynamoSummaryStore } from '../adapters/dynamo/summary-store.js';
import { DashboardService } from '../domain/dashboard.js';
import { isFullyPublished } from '../domain/articles.js';
import { deps } from './deps.js';
import { lazy } from './lazy.js';

function build(): DashboardService {
  const { config, db } = deps();
  const articles = new DynamoArticleStore(db, config.tableName);
  const summaries = new DynamoSummaryStore(db, config.tableName);
  return new DashboardService({
    summary: async (userId) => (await summaries.get(userId)).summary,
    unpublished: async (userId) => (await articles.listOpen(userId)).filter((a) => !isFullyPublished(a)),
  });
}

/** The dashboard's service, built on first use (no AI, S3 or job queue: the dashboard bundle stays small). */
export const dashboardService = lazy(build);
