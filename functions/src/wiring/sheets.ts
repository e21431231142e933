import { createObjectStore } from '../adapters/aws/s3-object-store.js';
import { DynamoArticleStore } from '../adapters/dynamo/article-store.js';
import { DynamoImportMarkers } from '../adapters/dynamo/import-marker-store.js';
import { GoogleOAuth } from '../adapters/integrations/google.js';
import { GoogleSheetsClient } from '../adapters/integrations/google-sheets.js';
import { channelNames } from '../channels/ids.js';
import { deps } from './deps.js';
import { createBulkJobQueue } from './bulk-jobs.js';
import { lazy } from './lazy.js';
import { ArticleService } from '../domain/articles.js';
import { JobsNotQueuedError, type Job } from '../domain/ports.js';
import { SheetsService, type ArticleImport } from '../domain/sheets.js';
import { logger } from '../logger.js';

function build(): SheetsService {
  const { config, db, settings, oauthState } = deps();
  const { googleClientId, googleClientSecret } = config;
  // The article side of wiring/articles.ts without its AI clients (the openai SDK, ~430 KB of
  // bundle), which creating an article never calls: drafting runs in the worker, as for POST /api/articles.
  const store = new DynamoArticleStore(db, config.tableName);
  const objects = createObjectStore(config);
  // The import's drafting goes to the bulk queue (SQS in AWS, drained at a bounded concurrency).
  const jobs = createBulkJobQueue(config);

  /** ArticleService.create with its drafting jobs held until the import has saved every row. */
  const articleImport = (): ArticleImport => {
    const held: Job[] = [];
    const service = new ArticleService({
      articles: store,
      objects,
      jobs: { enqueue: async (job) => void held.push(job) },
      ai: () => Promise.reject(new Error('Drafting runs in the worker')),
    });
    return {
      create: (userId, input, tags, channels) => service.create(userId, input, tags, channels ? { channels } : {}),
      async startDrafting() {
        const batch = held.splice(0);
        if (!batch.length) return 0;
        try {
          await jobs.enqueueAll(batch);
          return 0;
        } catch (err) {
          const failed = err instanceof JobsNotQueuedError ? err.jobs.length : batch.length;
          logger.error('Could not queue drafting of imported articles', {
            failed,
            total: batch.length,
            error: (err instanceof JobsNotQueuedError && err.cause ? err.cause : err) as Error,
          });
          return failed;
        }
      },
    };
  };

  return new SheetsService({
    settings,
    google: new GoogleOAuth({ oauthUrl: config.googleOAuthUrl }),
    state: oauthState,
    sheets: new GoogleSheetsClient({ apiUrl: config.googleApiUrl, oauthUrl: config.googleOAuthUrl }),
    articles: articleImport,
    markers: new DynamoImportMarkers(db, config.tableName),
    // A Channels column names them by their labels (the registry's: no channel's module is loaded for it).
    channels: async () => channelNames,
    ...(googleClientId && googleClientSecret
      ? { defaultClient: { clientId: googleClientId, clientSecret: googleClientSecret } }
      : {}),
    onRowFailure: (row, error) => logger.error('Spreadsheet row import failed', { row, error: error as Error }),
    onWriteBackFailure: (error) =>
      logger.warn('Writing import statuses back to the sheet failed', { error: error as Error }),
  });
}

/** The Google Sheets import, built on first use (its own function group). */
export const sheets = lazy(build);
