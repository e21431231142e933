import { IntegrationMessages } from '@app/shared';

/** Texts of the WordPress settings panel that only the browser shows (docs/product.md, Texts). */
export const WordPressPanelMessages = {
  loadFailed: 'Failed to load WordPress credentials',
  connectionFailed: (error: string) => `Connection failed: ${error}`,
  saveFailed: (message: string) => `Failed to save credentials: ${message}`,
  connected: (name: string) => `Connection successful! Connected as ${name}.`,
  saved: (name: string) => `${IntegrationMessages.wordpressSaved}. Connected as ${name}.`,
} as const;
