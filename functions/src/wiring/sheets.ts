import { DynamoImportMarkers } from '../adapters/dynamo/import-marker-store.js';
import { GoogleOAuth } from '../adapters/integrations/google.js';
import { GoogleSheetsClient } from '../adapters/integrations/google-sheets.js';
import { channelNames } from '../channels/ids.js';
import { deps } from './deps.js';
import { lazy } from './lazy.js';
import { SheetsService } from '../domain/sheets.js';
import { logger } from '../logger.js';
import { oauthState } from './oauth-state.js';
import { settingService } from './settings.js';

function build(): SheetsService {
  const { config, db } = deps();
  const settings = settingService();
  const { googleClientId, googleClientSecret } = config;
  return new SheetsService({
    settings,
    google: new GoogleOAuth({ oauthUrl: config.googleOAuthUrl }),
    state: oauthState(),
    sheets: new GoogleSheetsClient({ apiUrl: config.googleApiUrl, oauthUrl: config.googleOAuthUrl }),
    // Only an import creates articles: the article store and service load on its call, not at every cold start.
    articles: async () => (await import('./sheets-articles.js')).articleImport(),
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
