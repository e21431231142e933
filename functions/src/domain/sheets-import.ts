/**
 * Google Sheets import (docs/product.md, Sheets import; docs/integrations.md, Google): list the user's
 * spreadsheets and turn the rows of a range into articles, with the grant of domain/sheets-grant.ts.
 *
 * Re-importing does not duplicate: every imported row leaves an import marker, a conditional put of
 * USER#<userId> / IMPORT#<sha256(spreadsheet id, title, topic, keyword)>. A row is the same row when
 * its three required values are the same (compared trimmed, case- and space-insensitively), wherever
 * it stands: sorting the sheet, inserting rows above it, renaming its tab or editing its Details,
 * Image Description or Tags does not import it again; changing its Title, Topic or Keyword does
 * (that is a new article). Two rows of one range with the same three values import once.
 * The marker is written before the article and removed again when saving the article fails; only a
 * crash between the two writes would leave a row marked without its article (the import stops
 * starting rows well before the function's time limit).
 *
 * Write-back (optional, off by default): with `writeBack`, the import writes each row's status
 * ("Imported", "Already imported", "Not imported: <why>") into the column just after the six import
 * columns, on the rows of the range, with one values.update call. That needs a grant with the
 * `spreadsheets` scope (domain/sheets-grant.ts). A read-only grant, or a write Google refuses, never
 * fails the import: the rows are saved already, and the result says why the statuses are not in the sheet.
 */
import { createHash } from 'node:crypto';
import {
  CreateArticleSchema,
  hasUnsafeCharacters,
  unsafeCharactersMessage,
  MAX_IMPORT_ROWS,
  SHEET_COLUMNS,
  RowStatus,
  STATUS_COLUMN_TITLE,
  SheetsMessages,
  firstIssueMessage,
  statusColumn,
  unknownChannelsMessage,
  writeBackFailed,
  CHANNELS_COLUMN_TITLE,
  type CreateArticleInput,
  type SheetsImportResult,
  type SheetsWriteBack,
  type Spreadsheet,
} from '@app/shared';
import { IntegrationError } from './integrations.js';
import type { GoogleGrant, SheetsGrants, UserGrant } from './sheets-grant.js';

/** A values.get answer: `range` is the range read, in A1 notation with its sheet name. */
export interface SheetValues {
  range: string;
  values: string[][];
}

/**
 * The Google side. Errors are IntegrationErrors with a sentence a person can act on; code
 * `sheets_reconnect` means the stored grant no longer works (revoked, expired, wrong client).
 */
export interface SheetsClient {
  /** Every spreadsheet in the user's Drive that is not in the trash (all pages). */
  listSpreadsheets(grant: GoogleGrant): Promise<Spreadsheet[]>;
  readRange(grant: GoogleGrant, spreadsheetId: string, range: string): Promise<SheetValues>;
  /**
   * values.update with valueInputOption RAW, rows major. Code `sheets_write_scope` means the grant
   * may not edit spreadsheets (reconnect with write access).
   */
  writeValues(
    grant: GoogleGrant,
    spreadsheetId: string,
    range: string,
    values: string[][],
  ): Promise<{ updatedRange: string; updatedRows: number }>;
}

export interface ImportMarker {
  spreadsheetId: string;
  sheet: string;
  row: number;
  importedAt: string;
}

/** One marker per imported row, so a second import of the same rows creates nothing. */
export interface ImportMarkers {
  /** A conditional put: false when the marker is already there. */
  claim(userId: string, key: string, marker: ImportMarker): Promise<boolean>;
  release(userId: string, key: string): Promise<void>;
}

/**
 * The articles of one import: ArticleService.create (saved at once, drafting queued), with the
 * drafting jobs held back until every row is saved. Locally the jobs run in this process, and 500
 * drafts written while rows are still being saved would slow the import down several times.
 */
export interface ArticleImport {
  /** `channels`: the only channels the article goes to (Article.channels), from the row's Channels cell. */
  create(userId: string, input: Required<CreateArticleInput>, tags: string[], channels?: string[]): Promise<unknown>;
  /** Queues the drafting of every article created so far; resolves to how many could not be queued. */
  startDrafting(): Promise<number>;
}

export interface ImportRow {
  /** The row number in the sheet (1-based), for messages. */
  row: number;
  input: Required<CreateArticleInput>;
  tags: string[];
  /** The channels its Channels cell named (ids, in the registry's order); absent: no such column, or an empty cell. */
  channels?: string[];
}

/** A channel a Channels cell may name: by its name (its label) or its id, in any case. */
export interface ImportChannel {
  id: string;
  label: string;
}

/** The Channels column's index in a heading row: a cell after the six import columns that reads "Channels". */
export function channelsColumnOf(heading: unknown[]): number | undefined {
  const index = heading.findIndex(
    (cell, i) =>
      i >= SHEET_COLUMNS.length &&
      typeof cell === 'string' &&
      cell.trim().toLowerCase() === CHANNELS_COLUMN_TITLE.toLowerCase(),
  );
  return index === -1 ? undefined : index;
}

/**
 * A Channels cell: the channels it names (ids, in the registry's order, each once), or the names that are none;
 * an empty cell names none (the article goes to every channel, as without the column).
 */
export function parseChannelsCell(
  cell: string,
  channels: readonly ImportChannel[],
): { channels?: string[]; unknown?: string[] } {
  const names = cell
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  if (!names.length) return {};
  const known = (name: string) =>
    channels.find((c) => c.label.toLowerCase() === name.toLowerCase() || c.id === name.toLowerCase());
  const unknown = names.filter((name) => !known(name));
  if (unknown.length) return { unknown: [...new Set(unknown)] };
  const ids = new Set(names.map((name) => known(name)!.id));
  return { channels: channels.filter((c) => ids.has(c.id)).map((c) => c.id) };
}

interface RowError {
  row: number;
  message: string;
}

const HEADER_WORDS = new Set([
  'title',
  'topic',
  'keyword',
  'keywords',
  'details',
  'detail',
  'image description',
  'image',
  'tags',
  'tag',
]);
const headerWord = (cell: string) =>
  cell
    .toLowerCase()
    .replace(/\([^)]*\)|\brequired\b|\boptional\b/g, ' ')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

/** A heading row: it starts with "Title", or at least two of its cells name expected columns. */
export function looksLikeHeader(cells: string[]): boolean {
  const words = cells.map(headerWord);
  return words[0] === 'title' || words.filter((w) => HEADER_WORDS.has(w)).length >= 2;
}

/** "Title, Topic and Keyword are required" / "Keyword is required". */
function missingMessage(labels: string[]): string {
  const list = labels.length === 1 ? labels[0]! : `${labels.slice(0, -1).join(', ')} and ${labels.at(-1)}`;
  return `${list} ${labels.length === 1 ? 'is' : 'are'} required`;
}

/** Comma separated, trimmed, empty ones dropped; a tag repeated in another case is kept once, as first written. */
export function splitTags(cell: string): string[] {
  const tags = new Map<string, string>();
  for (const tag of cell.split(',').map((t) => t.trim()))
    if (tag && !tags.has(tag.toLowerCase())) tags.set(tag.toLowerCase(), tag);
  return [...tags.values()];
}

/**
 * The rows of a values.get answer as articles to create, and an error for each row that cannot be
 * one. `firstRow` is the sheet row of `values[0]`. A first row that looks like the heading is
 * skipped, blank rows are skipped, short rows (Sheets leaves out trailing empty cells) are padded.
 */
export function parseSheetRows(
  values: unknown[][],
  firstRow: number,
  channels: readonly ImportChannel[] = [],
): { rows: ImportRow[]; errors: RowError[]; header: boolean; channelsColumn?: number } {
  const rows: ImportRow[] = [];
  const errors: RowError[] = [];
  let header = false;
  // Only a heading row names the optional Channels column; without one, rows are read as ever.
  let channelsColumn: number | undefined;
  values.forEach((raw, index) => {
    const row = firstRow + index;
    const cells = SHEET_COLUMNS.map((_, i) => (raw[i] === undefined || raw[i] === null ? '' : String(raw[i]).trim()));
    const channelsCell =
      channelsColumn === undefined || raw[channelsColumn] === undefined || raw[channelsColumn] === null
        ? ''
        : String(raw[channelsColumn]).trim();
    if (cells.every((c) => c === '') && !channelsCell) return;
    if (index === 0 && looksLikeHeader(cells)) {
      header = true;
      channelsColumn = channelsColumnOf(raw);
      return;
    }
    const [title, topic, keyword, details, imageDescription, tags] = cells as [
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    const missing = SHEET_COLUMNS.filter((column, i) => column.required && !cells[i]).map((c) => c.label);
    if (missing.length) {
      errors.push({ row, message: missingMessage(missing) });
      return;
    }
    const parsed = CreateArticleSchema().safeParse({ title, topic, keyword, details, imageDescription });
    if (!parsed.success) {
      errors.push({ row, message: firstIssueMessage(parsed.error) });
      return;
    }
    // Tags are stored too: the same characters are refused as in every other text field.
    if (hasUnsafeCharacters(tags)) {
      errors.push({ row, message: unsafeCharactersMessage('Tags') });
      return;
    }
    // Nothing of a row that names a channel there is none of is written (docs/product.md, Sheets import).
    const named = parseChannelsCell(channelsCell, channels);
    if (named.unknown) {
      errors.push({
        row,
        message: unknownChannelsMessage(
          named.unknown,
          channels.map((c) => c.label),
        ),
      });
      return;
    }
    rows.push({
      row,
      input: parsed.data,
      tags: splitTags(tags),
      ...(named.channels ? { channels: named.channels } : {}),
    });
  });
  return { rows, errors, header, ...(channelsColumn !== undefined ? { channelsColumn } : {}) };
}

/** The sheet name and first row of an A1 range such as `'My sheet'!B3:G10` or `Sheet1!A:F`. */
export function rangeStart(range: string): { sheet: string; row: number } {
  const m = /^(?:'((?:[^']|'')+)'|([^!]+))!(.*)$/.exec(range);
  const sheet = m ? (m[1] !== undefined ? m[1].replace(/''/g, "'") : m[2]!) : '';
  const row = /^[A-Za-z]*(\d+)/.exec(m ? m[3]! : range)?.[1];
  return { sheet, row: row ? Number(row) : 1 };
}

/** A1 range of the status column for `count` rows from `firstRow`, on `sheet` (quoted; none = the first sheet). */
export function statusRange(
  sheet: string,
  readRange: string,
  firstRow: number,
  count: number,
  columns?: number,
): string {
  const column = statusColumn(readRange, columns);
  const cells = `${column}${firstRow}:${column}${firstRow + count - 1}`;
  return sheet ? `'${sheet.replace(/'/g, "''")}'!${cells}` : cells;
}

const normalize = (s: string) => s.normalize('NFC').replace(/\s+/g, ' ').trim().toLowerCase();

/** The import marker's key of a row (see the note at the top of this file). */
export function importKey(
  spreadsheetId: string,
  input: Pick<CreateArticleInput, 'title' | 'topic' | 'keyword'>,
): string {
  return createHash('sha256')
    .update(
      [spreadsheetId, normalize(input.title), normalize(input.topic), normalize(input.keyword ?? '')].join('\u001f'),
    )
    .digest('base64url');
}

export interface SheetsImportDeps {
  grants: SheetsGrants;
  sheets: SheetsClient;
  /** A new one for every import (the article side may load on the import's call: wiring/sheets.ts). */
  articles: () => ArticleImport | Promise<ArticleImport>;
  markers: ImportMarkers;
  /** Rows saved in parallel. */
  concurrency?: number;
  /** Stop starting new rows after this long, so the call answers within the API's limit. */
  deadlineMs?: number;
  now?: () => number;
  onRowFailure?: (row: number, error: unknown) => void;
  onWriteBackFailure?: (error: unknown) => void;
  /** The channels a Channels column may name (read only when the range has one). */
  channels?: () => Promise<readonly ImportChannel[]>;
}

export class SheetsImport {
  private readonly concurrency: number;
  private readonly deadlineMs: number;
  private readonly now: () => number;

  constructor(private readonly deps: SheetsImportDeps) {
    this.concurrency = deps.concurrency ?? 50;
    this.deadlineMs = deps.deadlineMs ?? 20_000;
    this.now = deps.now ?? Date.now;
  }

  async listSpreadsheets(userId: string): Promise<Spreadsheet[]> {
    const grant = await this.deps.grants.grant(userId);
    return this.deps.grants.callGoogle(userId, () => this.deps.sheets.listSpreadsheets(grant));
  }

  async import(
    userId: string,
    input: { spreadsheetId: string; range: string; writeBack?: boolean },
  ): Promise<SheetsImportResult> {
    const started = this.now();
    const grant = await this.deps.grants.grant(userId);
    const read = await this.deps.grants.callGoogle(userId, () =>
      this.deps.sheets.readRange(grant, input.spreadsheetId, input.range),
    );
    const { sheet, row: firstRow } = rangeStart(read.range);
    const values = read.values.slice(0, MAX_IMPORT_ROWS);
    const heading = values[0] ?? [];
    const withChannels =
      channelsColumnOf(heading) !== undefined && looksLikeHeader(heading.map((c) => String(c ?? '')));
    const channels = withChannels && this.deps.channels ? await this.deps.channels() : [];
    const { rows, errors, header, channelsColumn } = parseSheetRows(values, firstRow, channels);
    const notes: string[] = [];
    if (read.values.length > values.length) {
      notes.push(
        `Only ${MAX_IMPORT_ROWS} rows are imported at a time: rows ${firstRow + values.length} to ${firstRow + read.values.length - 1} ` +
          `were left out. Import them with a second range that starts at row ${firstRow + values.length}.`,
      );
    }
    if (!rows.length && !errors.length && !notes.length)
      notes.push(`The range ${read.range || input.range} has no rows to import.`);

    // The same row twice in one range: import it once.
    const unique: (ImportRow & { key: string })[] = [];
    const firstSeen = new Map<string, number>();
    for (const row of rows) {
      const key = importKey(input.spreadsheetId, row.input);
      const earlier = firstSeen.get(key);
      if (earlier !== undefined) {
        errors.push({ row: row.row, message: `Duplicate of row ${earlier} (same Title, Topic and Keyword)` });
        continue;
      }
      firstSeen.set(key, row.row);
      unique.push({ ...row, key });
    }

    let importedCount = 0;
    let alreadyImported = 0;
    let channelsNamed = 0;
    /** Sheet row → its status, for write-back. */
    const outcome = new Map<number, string>();
    const importedAt = new Date(this.now()).toISOString();
    const articles = await this.deps.articles();
    const save = async ({ row, input: article, tags, channels: only, key }: (typeof unique)[number]) => {
      let claimed = false;
      try {
        claimed = await this.deps.markers.claim(userId, key, {
          spreadsheetId: input.spreadsheetId,
          sheet,
          row,
          importedAt,
        });
        if (!claimed) {
          alreadyImported++;
          outcome.set(row, RowStatus.alreadyImported);
          return;
        }
        await articles.create(userId, article, tags, only);
        importedCount++;
        if (only) channelsNamed++;
        outcome.set(row, RowStatus.imported);
      } catch (err) {
        // Without its article the marker would block this row forever.
        if (claimed) await this.deps.markers.release(userId, key).catch(() => undefined);
        this.deps.onRowFailure?.(row, err);
        errors.push({ row, message: 'Could not be saved. Import again to retry it.' });
      }
    };
    // A few rows at a time; no new row is started after the deadline.
    let next = 0;
    const worker = async () => {
      while (next < unique.length && this.now() - started <= this.deadlineMs) await save(unique[next++]!);
    };
    await Promise.all(Array.from({ length: Math.min(this.concurrency, unique.length) }, worker));
    if (next < unique.length) {
      const left = unique.slice(next);
      for (const { row } of left)
        outcome.set(row, RowStatus.notImported('the import ran out of time. Import again to continue.'));
      notes.push(
        `${left.length} ${left.length === 1 ? 'row was' : 'rows were'} not imported (rows ${left[0]!.row} to ${left.at(-1)!.row}) ` +
          'because the import ran out of time. Import again to continue: rows already imported are skipped.',
      );
    }
    const notQueued = await articles.startDrafting();
    if (notQueued) {
      notes.push(
        `Drafting could not be started for ${notQueued} of the imported articles. They are saved without drafts: open them from the Schedule page to write their content.`,
      );
    }

    errors.sort((a, b) => a.row - b.row);
    const result: SheetsImportResult = {
      success: true,
      importedCount,
      errors: [...errors.map((e) => `Row ${e.row}: ${e.message}`), ...notes],
      alreadyImported,
      ...(channelsColumn !== undefined ? { channelsNamed } : {}),
    };
    if (input.writeBack && values.length > 0) {
      for (const e of errors) outcome.set(e.row, RowStatus.notImported(e.message));
      // One status a row; the heading gets a title; blank rows get an empty cell (clearing an old status).
      const statuses = values.map((_, i) => [
        i === 0 && header ? STATUS_COLUMN_TITLE : (outcome.get(firstRow + i) ?? ''),
      ]);
      result.writeBack = await this.writeBack(
        userId,
        grant,
        input.spreadsheetId,
        // After the Channels column when the range has one beyond the six.
        statusRange(
          sheet,
          read.range || input.range,
          firstRow,
          values.length,
          channelsColumn === undefined ? undefined : channelsColumn + 1,
        ),
        statuses,
      );
    }
    return result;
  }

  /** Writes the statuses; never throws: the import is saved whatever happens here. */
  private async writeBack(
    userId: string,
    grant: UserGrant,
    spreadsheetId: string,
    range: string,
    statuses: string[][],
  ): Promise<SheetsWriteBack> {
    const notAllowed: SheetsWriteBack = {
      status: 'not_allowed',
      message: SheetsMessages.writeBackNotAllowed,
      code: 'sheets_write_scope',
    };
    if (!grant.canWrite) return notAllowed;
    try {
      const { updatedRange, updatedRows } = await this.deps.sheets.writeValues(grant, spreadsheetId, range, statuses);
      return { status: 'written', updatedRange, updatedRows };
    } catch (err) {
      this.deps.onWriteBackFailure?.(err);
      if (err instanceof IntegrationError && err.code === 'sheets_write_scope') {
        // The edit permission was taken back at Google: the grant reads only now.
        await this.deps.grants.markReadOnly(userId).catch(() => undefined);
        return notAllowed;
      }
      const reason =
        err instanceof IntegrationError
          ? err.message
          : 'Something went wrong while writing to Google Sheets. Try again later.';
      return {
        status: 'failed',
        message: writeBackFailed(reason),
        code: err instanceof IntegrationError ? err.code : 'write_back_failed',
      };
    }
  }
}
