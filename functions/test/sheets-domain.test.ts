import { describe, expect, it } from 'vitest';
import { MAX_IMPORT_ROWS, SheetsMessages, statusColumn, writeBackFailed } from '@app/shared';
import { IntegrationError } from '../src/domain/integrations.js';
import { OAuthState } from '../src/domain/oauth-state.js';
import { SettingService } from '../src/domain/settings.js';
import { MemorySecretStore, MemorySettingStore } from './helpers/memory-settings.js';
import { SheetsService } from '../src/domain/sheets.js';
import { SHEETS_GRANT_SCOPES_KEY, SHEETS_TOKEN_KEY } from '../src/domain/sheets-grant.js';
import {
  statusRange,
  importKey,
  looksLikeHeader,
  parseSheetRows,
  rangeStart,
  splitTags,
  type ImportMarkers,
  type SheetsClient,
} from '../src/domain/sheets-import.js';
import type { GoogleOAuthClient } from '../src/domain/integrations.js';

describe('spreadsheet rows', () => {
  it('recognises a heading row by its column names, in any case', () => {
    expect(looksLikeHeader(['Title', 'Topic', 'Keyword'])).toBe(true);
    expect(looksLikeHeader(['TITLE (required)', 'topic*'])).toBe(true);
    expect(looksLikeHeader(['Name', 'Topic', 'Keywords', 'Notes'])).toBe(true);
    expect(looksLikeHeader(['How small teams automate', 'Content automation', 'automation'])).toBe(false);
    expect(looksLikeHeader(['The title of my life', 'Memoir', 'life'])).toBe(false);
    expect(looksLikeHeader(['Title 1', 'Topic', 'kw'])).toBe(false);
  });

  it('skips the heading and blank rows, pads short rows, names missing columns, splits tags', () => {
    const { rows, errors } = parseSheetRows(
      [
        ['Title', 'Topic', 'Keyword', 'Details', 'Image Description', 'Tags'],
        ['A', 'B', 'C', 'D', 'E', ' x, y ,, X ,z '],
        ['Short', 'Row', 'kw'],
        [],
        ['  ', ''],
        ['Only title'],
        ['', 'Topic', ''],
        ['T'.repeat(201), 'Topic', 'kw'],
      ],
      3,
    );
    expect(rows).toEqual([
      {
        row: 4,
        input: { title: 'A', topic: 'B', keyword: 'C', details: 'D', imageDescription: 'E' },
        tags: ['x', 'y', 'z'],
      },
      { row: 5, input: { title: 'Short', topic: 'Row', keyword: 'kw', details: '', imageDescription: '' }, tags: [] },
    ]);
    expect(errors).toEqual([
      { row: 8, message: 'Topic and Keyword are required' },
      { row: 9, message: 'Title and Keyword are required' },
      { row: 10, message: 'Title must be at most 200 characters' },
    ]);
  });

  it('refuses control and text-direction characters in any stored cell, tags included, naming the column', () => {
    const { rows, errors } = parseSheetRows(
      [
        ['Fine', 'Topic', 'kw', 'Line one\nline two', '', 'a, b'],
        ['Bad\u0000title', 'Topic', 'kw'],
        ['Title', 'Topic', 'kw', 'details \u202eeulav', ''],
        ['Title', 'Topic', 'kw', '', '', 'ok, evil\u2066tag'],
      ],
      2,
    );
    expect(rows.map((r) => r.row)).toEqual([2]);
    expect(errors).toEqual([
      { row: 3, message: 'Title contains characters that are not allowed (control or text-direction characters)' },
      { row: 4, message: 'Details contains characters that are not allowed (control or text-direction characters)' },
      { row: 5, message: 'Tags contains characters that are not allowed (control or text-direction characters)' },
    ]);
  });

  it('treats a first row of data as data', () => {
    expect(parseSheetRows([['Launch plan', 'Marketing', 'launch']], 2).rows).toHaveLength(1);
  });

  it('reads the sheet name and first row of a range', () => {
    expect(rangeStart('Sheet1!A1:F50')).toEqual({ sheet: 'Sheet1', row: 1 });
    expect(rangeStart("'Q3 plan ''25'!B7:G9")).toEqual({ sheet: "Q3 plan '25", row: 7 });
    expect(rangeStart('Plan!A:F')).toEqual({ sheet: 'Plan', row: 1 });
  });

  it('keys a row by spreadsheet and its required values, ignoring case and spacing', () => {
    const a = importKey('s1', { title: 'Hello  World', topic: 'T', keyword: 'K' });
    expect(importKey('s1', { title: ' hello world', topic: 't', keyword: 'k ' })).toBe(a);
    expect(importKey('s2', { title: 'Hello World', topic: 'T', keyword: 'K' })).not.toBe(a);
    expect(importKey('s1', { title: 'Hello World!', topic: 'T', keyword: 'K' })).not.toBe(a);
  });

  it('splits tags on commas', () => {
    expect(splitTags('')).toEqual([]);
    expect(splitTags('AI, ai , Cloud')).toEqual(['AI', 'Cloud']);
  });
});

/* ---- SheetsService with in-memory stores ---- */

function memorySettings(): SettingService {
  return new SettingService(new MemorySettingStore(), new MemorySecretStore());
}

function service(
  options: {
    values?: string[][];
    now?: () => number;
    defaultClient?: boolean;
    failCreate?: (title: string) => boolean;
    onCreate?: () => void;
    concurrency?: number;
    notQueued?: number;
    writeValues?: SheetsClient['writeValues'];
    exchangeScope?: string;
  } = {},
) {
  const settings = memorySettings();
  /** Titles whose drafting was started, in that order. */
  const drafting: string[] = [];
  const markers = new Set<string>();
  /** values.update calls: [range, values]. */
  const writes: [string, string[][]][] = [];
  const sheets: SheetsClient = {
    listSpreadsheets: async () => [],
    readRange: async (_grant, _id, range) => ({ range, values: options.values ?? [] }),
    writeValues:
      options.writeValues ??
      (async (_grant, _id, range, values) => {
        writes.push([range, values]);
        return { updatedRange: range.replace(/'/g, ''), updatedRows: values.length };
      }),
  };
  const importMarkers: ImportMarkers = {
    claim: async (u, k) => (markers.has(`${u}/${k}`) ? false : (markers.add(`${u}/${k}`), true)),
    release: async (u, k) => void markers.delete(`${u}/${k}`),
  };
  const google: GoogleOAuthClient = {
    authorizationUrl: async ({ clientId, state }) =>
      `https://accounts.example/auth?client_id=${clientId}&state=${state}`,
    exchangeCode: async () => ({
      refreshToken: 'refresh',
      ...(options.exchangeScope !== undefined ? { scope: options.exchangeScope } : {}),
    }),
  };
  const svc = new SheetsService({
    settings,
    google,
    state: new OAuthState(async () => new TextEncoder().encode('k'.repeat(48))),
    sheets,
    markers: importMarkers,
    articles: () => {
      const held: string[] = [];
      return {
        create: async (_u, input) => {
          if (options.failCreate?.(input.title)) throw new Error('store down');
          options.onCreate?.();
          held.push(input.title);
        },
        startDrafting: async () => {
          drafting.push(...held);
          return options.notQueued ?? 0;
        },
      };
    },
    ...(options.defaultClient ? { defaultClient: { clientId: 'env-client', clientSecret: 'env-secret' } } : {}),
    concurrency: options.concurrency ?? 2,
    deadlineMs: 1000,
    ...(options.now ? { now: options.now } : {}),
  });
  return { svc, settings, drafting, markers, writes };
}

const rows = (n: number) => Array.from({ length: n }, (_, i) => [`Title ${i + 1}`, 'Planning', 'kw']);

describe('SheetsService', () => {
  it('needs an OAuth client: the user’s Gmail client, else the deployment’s', async () => {
    const none = service();
    expect(await none.svc.status('u1')).toEqual({
      success: true,
      authenticated: false,
      canWrite: false,
      clientConfigured: false,
    });
    await expect(none.svc.authUrl('u1', 'http://x/cb')).rejects.toMatchObject({
      kind: 'invalid',
      message: SheetsMessages.clientMissing,
    });

    const env = service({ defaultClient: true });
    expect(await env.svc.authUrl('u1', 'http://x/cb')).toContain('client_id=env-client');
    await env.settings.put('u1', 'gmail_client_id', 'own-client');
    await env.settings.put('u1', 'gmail_client_secret', 'own-secret');
    expect(await env.svc.authUrl('u1', 'http://x/cb')).toContain('client_id=own-client');
  });

  it('refuses to list or import before connecting', async () => {
    const { svc } = service({ defaultClient: true });
    await expect(svc.listSpreadsheets('u1')).rejects.toMatchObject({
      kind: 'invalid',
      message: 'Connect Google Sheets first',
    });
    await expect(svc.import('u1', { spreadsheetId: 's', range: 'A1:F5' })).rejects.toMatchObject({
      kind: 'invalid',
      code: 'sheets_not_connected',
    });
  });

  it('stops starting rows when time runs out, and the next import picks up the rest', async () => {
    // Saving an article "takes" 300 ms; rows start at 0, 300, 600 and 900 ms, none after the 1000 ms deadline.
    let clock = 0;
    const s = service({
      values: rows(10),
      defaultClient: true,
      concurrency: 1,
      now: () => clock,
      onCreate: () => (clock += 300),
    });
    await s.settings.put('u1', SHEETS_TOKEN_KEY, 'refresh');
    const first = await s.svc.import('u1', { spreadsheetId: 's', range: 'Sheet1!A1:F10' });
    expect(first.importedCount).toBe(4);
    expect(first.errors).toEqual([
      '6 rows were not imported (rows 5 to 10) because the import ran out of time. Import again to continue: rows already imported are skipped.',
    ]);
    // Drafting starts once the rows are saved, for the saved ones.
    expect(s.drafting).toEqual(['Title 1', 'Title 2', 'Title 3', 'Title 4']);
    clock = 0;
    expect(await s.svc.import('u1', { spreadsheetId: 's', range: 'Sheet1!A1:F10' })).toMatchObject({
      importedCount: 4,
      alreadyImported: 4,
    });
    clock = 0;
    expect(await s.svc.import('u1', { spreadsheetId: 's', range: 'Sheet1!A1:F10' })).toEqual({
      success: true,
      importedCount: 2,
      errors: [],
      alreadyImported: 8,
    });
    expect(s.drafting).toHaveLength(10);
  });

  it('says when drafting could not be started', async () => {
    const s = service({ values: rows(3), defaultClient: true, notQueued: 2 });
    await s.settings.put('u1', SHEETS_TOKEN_KEY, 'refresh');
    expect((await s.svc.import('u1', { spreadsheetId: 's', range: 'A1:F3' })).errors).toEqual([
      'Drafting could not be started for 2 of the imported articles. They are saved without drafts: open them from the Schedule page to write their content.',
    ]);
  });

  it('reports a row that cannot be saved and lets a later import retry it', async () => {
    let failing = true;
    const s = service({ values: rows(3), defaultClient: true, failCreate: (t) => failing && t === 'Title 2' });
    await s.settings.put('u1', SHEETS_TOKEN_KEY, 'refresh');
    const first = await s.svc.import('u1', { spreadsheetId: 's', range: 'A1:F3' });
    expect(first).toMatchObject({ importedCount: 2, errors: ['Row 2: Could not be saved. Import again to retry it.'] });
    failing = false;
    expect(await s.svc.import('u1', { spreadsheetId: 's', range: 'A1:F3' })).toMatchObject({
      importedCount: 1,
      alreadyImported: 2,
      errors: [],
    });
  });

  it(`reads at most ${MAX_IMPORT_ROWS} rows and says where to go on`, async () => {
    const s = service({ values: rows(MAX_IMPORT_ROWS + 5), defaultClient: true });
    await s.settings.put('u1', SHEETS_TOKEN_KEY, 'refresh');
    // Plenty of time for this one.
    const result = await s.svc.import('u1', { spreadsheetId: 's', range: 'A:F' });
    expect(result.errors.at(-1)).toBe(
      `Only ${MAX_IMPORT_ROWS} rows are imported at a time: rows ${MAX_IMPORT_ROWS + 1} to ${MAX_IMPORT_ROWS + 5} were left out. ` +
        `Import them with a second range that starts at row ${MAX_IMPORT_ROWS + 1}.`,
    );
  });

  it('says so when the range is empty', async () => {
    const s = service({ values: [], defaultClient: true });
    await s.settings.put('u1', SHEETS_TOKEN_KEY, 'refresh');
    expect(await s.svc.import('u1', { spreadsheetId: 's', range: 'Sheet1!A1:F50' })).toEqual({
      success: true,
      importedCount: 0,
      errors: ['The range Sheet1!A1:F50 has no rows to import.'],
      alreadyImported: 0,
    });
  });
});

const READ =
  'https://www.googleapis.com/auth/spreadsheets.readonly https://www.googleapis.com/auth/drive.metadata.readonly';
const WRITE = 'https://www.googleapis.com/auth/spreadsheets https://www.googleapis.com/auth/drive.metadata.readonly';

describe('SheetsService: writing statuses back', () => {
  it('puts the status column just after the six import columns of the range', () => {
    expect(statusColumn('Sheet1!A1:F50')).toBe('G');
    expect(statusColumn("'Q3 plan'!C3:H9")).toBe('I');
    expect(statusColumn('A:F')).toBe('G');
    expect(statusColumn('Plan')).toBe('G');
    expect(statusColumn('Plan!T1:Y9')).toBe('Z');
    expect(statusColumn('Plan!U1:Z9')).toBe('AA');
    expect(statusRange("Q3 plan '25", "'Q3 plan ''25'!A2:F9", 2, 8)).toBe("'Q3 plan ''25'!G2:G9");
    expect(statusRange('', 'A1:F3', 1, 3)).toBe('G1:G3');
  });

  async function connectWith(s: ReturnType<typeof service>, access: 'read' | 'write') {
    const url = new URL(await s.svc.authUrl('u1', 'http://x/cb', access));
    return s.svc.callback({ code: 'c', state: url.searchParams.get('state')! }, 'u1', 'http://x/cb');
  }

  it('remembers the granted scopes: write access when Google granted the edit scope', async () => {
    const granted = service({ defaultClient: true, exchangeScope: WRITE });
    expect(await connectWith(granted, 'write')).toBe('sheets_connected=true&sheets_write=granted');
    expect(await granted.settings.value('u1', SHEETS_GRANT_SCOPES_KEY)).toBe(WRITE);
    expect(await granted.svc.status('u1')).toMatchObject({ authenticated: true, canWrite: true });

    // The person unticked the edit permission on Google's screen: connected, read-only.
    const unticked = service({ defaultClient: true, exchangeScope: READ });
    expect(await connectWith(unticked, 'write')).toBe('sheets_connected=true&sheets_write=denied');
    expect(await unticked.svc.status('u1')).toMatchObject({ authenticated: true, canWrite: false });

    // A read-only connection says nothing about writing.
    const read = service({ defaultClient: true, exchangeScope: READ });
    expect(await connectWith(read, 'read')).toBe('sheets_connected=true');
    // A grant kept before scopes were remembered is read-only.
    const legacy = service({ defaultClient: true });
    await legacy.settings.put('u1', SHEETS_TOKEN_KEY, 'refresh');
    expect(await legacy.svc.status('u1')).toMatchObject({ authenticated: true, canWrite: false });
  });

  it('writes nothing without writeBack, and with a read-only grant only says why', async () => {
    const s = service({ values: rows(2), defaultClient: true });
    await s.settings.put('u1', SHEETS_TOKEN_KEY, 'refresh');
    expect(await s.svc.import('u1', { spreadsheetId: 's', range: 'Sheet1!A1:F2' })).not.toHaveProperty('writeBack');
    const res = await s.svc.import('u1', { spreadsheetId: 's', range: 'Sheet1!A1:F2', writeBack: true });
    expect(res).toMatchObject({
      importedCount: 0,
      alreadyImported: 2,
      writeBack: { status: 'not_allowed', code: 'sheets_write_scope' },
    });
    expect(s.writes).toEqual([]);
  });

  it('marks the rows the deadline left out', async () => {
    let clock = 0;
    const s = service({
      values: rows(3),
      defaultClient: true,
      concurrency: 1,
      now: () => clock,
      onCreate: () => (clock += 600),
    });
    await s.settings.put('u1', SHEETS_TOKEN_KEY, 'refresh');
    await s.settings.put('u1', SHEETS_GRANT_SCOPES_KEY, WRITE);
    const res = await s.svc.import('u1', { spreadsheetId: 's', range: 'Sheet1!A5:F7', writeBack: true });
    expect(res.writeBack).toEqual({ status: 'written', updatedRange: 'Sheet1!G5:G7', updatedRows: 3 });
    expect(s.writes).toEqual([
      [
        "'Sheet1'!G5:G7",
        [['Imported'], ['Imported'], ['Not imported: the import ran out of time. Import again to continue.']],
      ],
    ]);
  });

  it('an edit permission taken back at Google: the import stands, the grant is read-only from then on', async () => {
    const s = service({
      values: rows(1),
      defaultClient: true,
      writeValues: async () => {
        throw new IntegrationError(
          'The Google authorization does not allow editing spreadsheets.',
          'sheets_write_scope',
          403,
        );
      },
    });
    await s.settings.put('u1', SHEETS_TOKEN_KEY, 'refresh');
    await s.settings.put('u1', SHEETS_GRANT_SCOPES_KEY, WRITE);
    const res = await s.svc.import('u1', { spreadsheetId: 's', range: 'A1:F1', writeBack: true });
    expect(res).toMatchObject({
      importedCount: 1,
      writeBack: { status: 'not_allowed', message: SheetsMessages.writeBackNotAllowed },
    });
    expect(await s.svc.status('u1')).toMatchObject({ authenticated: true, canWrite: false });
  });

  it('any other failure is a warning, never a failed import', async () => {
    const s = service({
      values: rows(2),
      defaultClient: true,
      writeValues: async () => {
        throw new Error('socket hang up');
      },
    });
    await s.settings.put('u1', SHEETS_TOKEN_KEY, 'refresh');
    await s.settings.put('u1', SHEETS_GRANT_SCOPES_KEY, WRITE);
    expect(await s.svc.import('u1', { spreadsheetId: 's', range: 'A1:F2', writeBack: true })).toEqual({
      success: true,
      importedCount: 2,
      alreadyImported: 0,
      errors: [],
      writeBack: {
        status: 'failed',
        code: 'write_back_failed',
        message: writeBackFailed('Something went wrong while writing to Google Sheets. Try again later.'),
      },
    });
  });
});

describe('SheetsService: the grant belongs to the OAuth client it was issued to', () => {
  it('uses the stored refresh token only with that client (never with another client’s secret)', async () => {
    const s = service({ defaultClient: true, values: rows(1) });
    const url = new URL(await s.svc.authUrl('u1', 'http://x/cb'));
    expect(await s.svc.callback({ code: 'c', state: url.searchParams.get('state')! }, 'u1', 'http://x/cb')).toBe(
      'sheets_connected=true',
    );
    expect(await s.svc.status('u1')).toMatchObject({ authenticated: true });

    // The user's own client takes over: the deployment client's grant is not one of it.
    await s.settings.put('u1', 'gmail_client_id', 'own-client');
    await s.settings.put('u1', 'gmail_client_secret', 'own-secret');
    expect(await s.svc.status('u1')).toMatchObject({ authenticated: false, canWrite: false, clientConfigured: true });
    await expect(s.svc.import('u1', { spreadsheetId: 's', range: 'A1:F1' })).rejects.toMatchObject({
      code: 'sheets_not_connected',
    });

    // Back to the client the grant was issued to: it works again.
    await s.settings.remove('u1', 'gmail_client_secret');
    expect(await s.svc.status('u1')).toMatchObject({ authenticated: true });
  });

  it('a grant stored before its client was kept is used with the client of the moment, as before', async () => {
    const s = service({ defaultClient: true });
    await s.settings.put('u1', SHEETS_TOKEN_KEY, 'refresh');
    expect(await s.svc.status('u1')).toMatchObject({ authenticated: true });
  });
});
