import * as z from 'zod';

/** SPEC.md §2 /sheets-import, §5, §8, §9: the spreadsheet import's texts, columns and payloads. */
export const SheetsMessages = {
  selectSpreadsheetAndRange: 'Please select a spreadsheet and specify a range',
  notConnected: 'Connect Google Sheets first',
  clientMissing:
    'Add your Google OAuth client first: enter the Gmail Client ID and Client Secret in Settings → Email (the same client is used for Google Sheets).',
  connected: 'Google Sheets authentication successful!',
  disconnected: 'Disconnected from Google Sheets',
  statusFailed: 'Failed to check authentication status',
  listFailed: 'Failed to fetch spreadsheets',
  authFailed: 'Authentication failed',
  authUrlFailed: 'Failed to get authentication URL',
  disconnectFailed: 'Failed to disconnect from Google Sheets',
  importFailed: 'Failed to import articles from Google Sheets',
  noSpreadsheets: 'No spreadsheets found in your Google Drive',
} as const;

export const noSpreadsheetsMatching = (search: string) => `No spreadsheets found matching "${search}"`;

/** The results box's first line (SPEC.md §2). */
export const importResultText = (count: number) => `Successfully imported ${count} ${count === 1 ? 'article' : 'articles'}.`;

/** SPEC.md §9. */
export const DEFAULT_IMPORT_RANGE = 'Sheet1!A1:F50';

/** Rows of one range imported per call: the call has to answer within the API's 30 s. */
export const MAX_IMPORT_ROWS = 1000;

/** The expected sheet columns, in order (A–F). */
export const SHEET_COLUMNS = [
  { key: 'title', label: 'Title', required: true },
  { key: 'topic', label: 'Topic', required: true },
  { key: 'keyword', label: 'Keyword', required: true },
  { key: 'details', label: 'Details', required: false },
  { key: 'imageDescription', label: 'Image Description', required: false },
  { key: 'tags', label: 'Tags', required: false, note: 'comma separated' },
] as const;
export type SheetColumnKey = (typeof SHEET_COLUMNS)[number]['key'];

/** Drive file ids: letters, digits, - and _. */
export const SpreadsheetIdSchema = z
  .string({ error: SheetsMessages.selectSpreadsheetAndRange })
  .trim()
  .min(1, SheetsMessages.selectSpreadsheetAndRange)
  .max(200, 'The spreadsheet id is not valid')
  .regex(/^[A-Za-z0-9_-]+$/, 'The spreadsheet id is not valid');

export const SheetsImportSchema = z.strictObject({
  spreadsheetId: SpreadsheetIdSchema,
  range: z
    .string({ error: SheetsMessages.selectSpreadsheetAndRange })
    .trim()
    .min(1, SheetsMessages.selectSpreadsheetAndRange)
    .max(300, 'The range must be at most 300 characters'),
});
export type SheetsImportInput = z.input<typeof SheetsImportSchema>;

export interface Spreadsheet {
  id: string;
  name: string;
}

export interface SheetsStatus {
  success: true;
  authenticated: boolean;
  /** Whether a Google OAuth client is available (the user's Gmail client, else the deployment's). */
  clientConfigured: boolean;
}

export interface SheetsImportResult {
  success: true;
  importedCount: number;
  /** One line per row that was not imported, naming its sheet row ("Row 4: Keyword is required"). */
  errors: string[];
  /** Rows imported by an earlier import of this spreadsheet, skipped this time. */
  alreadyImported: number;
}
