import { createObjectStore } from '../adapters/aws/s3-object-store.js';
import { DynamoArticleStore } from '../adapters/dynamo/article-store.js';
import { deps } from './deps.js';
import { createJobQueue } from './jobs.js';
import { lazy } from './lazy.js';
import { ArticleService } from '../domain/articles.js';
import type { JobQueue } from '../domain/ports.js';
import { logger } from '../logger.js';
import { businessEvents } from '../business-events.js';
import { jobLimits } from './job-limits.js';

export interface ArticleServices {
  articles: ArticleService;
  jobs: JobQueue;
}

function build(): ArticleServices {
  const { config, db } = deps();
  // The settings are read by drafting and AI edits only: loaded with them, not by every call of these functions.
  const settings = async () => (await import('./settings.js')).settingService();
  const jobs = createJobQueue(config);
  const articles = new ArticleService({
    articles: new DynamoArticleStore(db, config.tableName),
    objects: createObjectStore(config),
    jobs,
    // The user's own openai_api_key setting wins over the deployment's OPENAI_API_KEY. The AI adapters (OpenAI's
    // and the offline generators) load with the first drafting or edit, a chunk of the Lambda bundle of their own
    // (infra/lib/bundling.ts): listing, saving or publishing articles never parses them.
    ai: async (userId) => {
      const { aiSettingsFromEnv, createContentGenerator, createImageGenerator } =
        await import('../adapters/ai/index.js');
      const ai = aiSettingsFromEnv(await (await settings()).value(userId, 'openai_api_key'));
      return { content: createContentGenerator(ai), image: createImageGenerator(ai) };
    },
    // The channels' own versions to draft: those whose channel the owner has connected now (channels/registry.ts).
    ownVersions: async (ownerId) => {
      const { loadChannelVersion, ownVersionIds } = await import('../channels/registry.js');
      const [versions, settingService] = await Promise.all([
        Promise.all(ownVersionIds.map((id) => loadChannelVersion(id))),
        settings(),
      ]);
      const connected = await Promise.all(
        versions.map((v) => v.connected({ config, settings: settingService }, ownerId)),
      );
      return versions.filter((_, i) => connected[i]).map(({ id, drafting }) => ({ id, drafting }));
    },
    versionDrafting: async (version) => {
      const { loadChannelVersion } = await import('../channels/registry.js');
      return (await loadChannelVersion(version)).drafting;
    },
    events: businessEvents,
    onJobNotQueued: (job, error) =>
      logger.error('Job not queued: the article is marked failed', {
        type: job.type,
        articleId: job.articleId,
        error: error as Error,
      }),
    limits: jobLimits(),
  });
  return { articles, jobs };
}

/** Articles, images and the job queue, built on first use. */
export const articleServices = lazy(build);
