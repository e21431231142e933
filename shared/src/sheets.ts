import * as z from 'zod/mini';
import { lazySchema } from './lazy-schema.js';
import { safeCharacters } from './text.js';

/** docs/product.md (Sheets import): the spreadsheet import's texts, columns and payloads. */
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
  writeBackLabel: "Write each row's status back to the sheet",
  /** The import ran, but the stored Google grant may only read (SheetsImportResult.writeBack). */
  writeBackNotAllowed:
    'The statuses were not written to the sheet: the Google Sheets connection is read-only. Reconnect with write access to write them.',
  writeBackNeedsAccess:
    'Writing statuses needs permission to edit your spreadsheets. Reconnect with write access; without it the rows are still imported, but no status is written.',
  reconnectWithWrite: 'Reconnect with write access',
  writeAccessGranted: 'Write access granted: statuses can now be written back to your sheets.',
  writeAccessDenied:
    'Google Sheets is connected read-only: permission to edit spreadsheets was not allowed, so statuses cannot be written back.',
} as const;

/** SheetsImportResult.writeBack when Google refused the statuses: the import itself is kept. */
export const writeBackFailed = (reason: string) =>
  `The articles are imported, but the statuses were not written to the sheet. ${reason}`;

/** The results box's line after a write-back. */
export const writeBackDoneText = (updatedRange: string) =>
  `Each row's status was written to the sheet (${updatedRange}).`;

export const noSpreadsheetsMatching = (search: string) => `No spreadsheets found matching "${search}"`;

/** The results box's first line (docs/product.md, Sheets import). */
export const importResultText = (count: number) =>
  `Successfully imported ${count} ${count === 1 ? 'article' : 'articles'}.`;

/** docs/product.md, Sheets import. */
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

/**
 * The optional column after the six (docs/product.md, Sheets import): found by its heading (this word, in any case)
 * in the range's heading row; each row lists the channels its article goes to, by name, comma separated.
 */
export const CHANNELS_COLUMN_TITLE = 'Channels';

/** A row's Channels cell names a channel there is none of: the row is not imported. */
export const unknownChannelsMessage = (unknown: string[], known: string[]) =>
  `Unknown ${unknown.length === 1 ? 'channel' : 'channels'} in Channels: ${unknown.map((name) => `"${name}"`).join(', ')}. ` +
  `Use ${known.length > 1 ? `${known.slice(0, -1).join(', ')} or ${known.at(-1)}` : known.join('')}, comma separated.`;

/** The title written above the statuses when the range starts with a heading row. */
export const STATUS_COLUMN_TITLE = 'Status';

/** The statuses written back to the sheet, one per data row. */
export const RowStatus = {
  imported: 'Imported',
  alreadyImported: 'Already imported',
  notImported: (reason: string) => `Not imported: ${reason}`,
} as const;

/** Column number (1 = A) → letters. */
export function columnLetters(column: number): string {
  let letters = '';
  for (let n = column; n > 0; n = Math.floor((n - 1) / 26))
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

/**
 * The column the statuses go to: the one just after the six import columns of an A1 range
 * (`Sheet1!A1:F50` → G, `'Plan'!C3:H9` → I), or after the `columns` the import read when it read more (a Channels
 * column beyond them). A range without a start column starts at A.
 */
export function statusColumn(range: string, columns: number = SHEET_COLUMNS.length): string {
  const cells = /^(?:'(?:[^']|'')+'|[^!]*)!(.*)$/.exec(range.trim())?.[1] ?? range.trim();
  const letters = /^([A-Za-z]{1,3})(?:\d|:|$)/.exec(cells)?.[1];
  const start = letters ? [...letters.toUpperCase()].reduce((n, ch) => n * 26 + (ch.charCodeAt(0) - 64), 0) : 1;
  return columnLetters(start + Math.max(columns, SHEET_COLUMNS.length));
}

/** Drive file ids: letters, digits, - and _. */
export const SpreadsheetIdSchema = lazySchema(() =>
  z
    .string({ error: SheetsMessages.selectSpreadsheetAndRange })
    .check(
      z.trim(),
      z.minLength(1, SheetsMessages.selectSpreadsheetAndRange),
      z.maxLength(200, 'The spreadsheet id is not valid'),
      z.regex(/^[A-Za-z0-9_-]+$/, 'The spreadsheet id is not valid'),
    ),
);

export const SheetsImportSchema = lazySchema(() =>
  z.strictObject({
    spreadsheetId: SpreadsheetIdSchema(),
    range: z
      .string({ error: SheetsMessages.selectSpreadsheetAndRange })
      .check(
        z.trim(),
        z.minLength(1, SheetsMessages.selectSpreadsheetAndRange),
        z.maxLength(300, 'The range must be at most 300 characters'),
        safeCharacters('The range'),
      ),
    /** Write each row's status into the column after the six import columns (needs write access). Off by default. */
    writeBack: z.optional(z.boolean({ error: 'writeBack must be true or false' })),
  }),
);
export type SheetsImportInput = z.input<ReturnType<typeof SheetsImportSchema>>;

export interface Spreadsheet {
  id: string;
  name: string;
}

/** GET /api/sheets/auth?access=write asks Google for permission to edit spreadsheets too (incremental consent). */
export const SheetsAuthQuerySchema = lazySchema(() =>
  z.strictObject({
    access: z.optional(z.enum(['read', 'write'], { error: 'access must be read or write' })),
  }),
);
export type SheetsAccess = NonNullable<z.infer<ReturnType<typeof SheetsAuthQuerySchema>>['access']>;

export interface SheetsStatus {
  success: true;
  authenticated: boolean;
  /** Whether the stored Google grant may edit spreadsheets (needed to write statuses back). */
  canWrite?: boolean;
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
  /** Only when the import asked for write-back: what was written to the sheet, or why nothing was. */
  writeBack?: SheetsWriteBack;
  /**
   * Only when the range has a Channels column: how many of the imported articles go only to the channels their row
   * names (Article.channels); the others go to every channel, as without the column.
   */
  channelsNamed?: number;
}

/** The results box's line about a Channels column (SheetsImportResult.channelsNamed). */
export const channelsNamedText = (count: number) =>
  count === 1
    ? '1 article goes only to the channels its row names in the Channels column.'
    : `${count} articles go only to the channels their rows name in the Channels column.`;

/**
 * `written`: one status per row went to `updatedRange`. `not_allowed`: the grant is read-only
 * (reconnect with write access). `failed`: Google refused or did not answer; the import itself is kept.
 */
export type SheetsWriteBack =
  | { status: 'written'; updatedRange: string; updatedRows: number }
  | { status: 'not_allowed' | 'failed'; message: string; code: string };
