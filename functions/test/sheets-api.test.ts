import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SPREADSHEET_MIME, defaultDriveFiles, defaultSpreadsheets, startFakeGoogle, type CellValue, type FakeGoogle } from './fakes/google.js';
import { Client, completeOAuth, drafted, registration, startTestApp, type TestApp } from './helpers/app.js';

const ENV_CLIENT_ID = '999999999999-deployment.apps.googleusercontent.com';
const SCOPES = ['https://www.googleapis.com/auth/spreadsheets.readonly', 'https://www.googleapis.com/auth/drive.metadata.readonly'];
const SELECT = 'Please select a spreadsheet and specify a range';

/** The import sheet: a heading, valid, short, blank, invalid and repeated rows (rows 1–10 of tab "Plan"). */
const planRows = (): CellValue[][] => [
  ['Title', 'Topic', 'Keyword', 'Details', 'Image Description', 'Tags'],
  ['Automate a content calendar', 'Content operations', 'content calendar', 'Plan a month in one sitting', 'A calendar on a desk', ' planning, automation ,, Planning ,ops '],
  ['Short rows are padded', 'Spreadsheets', 'padding'],
  ['Missing keyword', 'Spreadsheets'],
  [],
  ['', '', '', 'Only details here'],
  ['No topic', '', 'kw'],
  ['Serverless costs', 'Cloud', 'lambda pricing', 'Right-size memory', '', 'aws'],
  ['  automate a CONTENT calendar ', 'content operations', 'Content Calendar', 'The same article again'],
  ['T'.repeat(201), 'Too long', 'long'],
];

const bigRows = (n: number): CellValue[][] => [
  ['Title', 'Topic', 'Keyword', 'Details', 'Image Description', 'Tags'],
  ...Array.from({ length: n }, (_, i) => [`Bulk article ${i + 1}`, 'Bulk topic', `bulk-${i + 1}`, 'Some details', '', 'bulk, test']),
];

let app: TestApp;
let google: FakeGoogle;
let owner: Client;
let other: Client;
const seen: string[] = [];

async function call(c: Client, path: string, options?: Parameters<Client['call']>[1]) {
  const res = await c.call(path, options);
  seen.push(res.text, JSON.stringify(Object.fromEntries(res.headers)));
  return res;
}

const importRange = (c: Client, spreadsheetId: string, range: string) => call(c, '/api/sheets/import', { body: { spreadsheetId, range } });
const articles = async (c: Client) => (await call(c, '/api/articles')).json.articles as { _id: string; title: string; tags: string[]; keyword: string; details: string; imageDescription: string; generation: { status: string } }[];

async function connect(c: Client) {
  const { authUrl } = (await call(c, '/api/sheets/auth')).json;
  return completeOAuth(c, authUrl);
}

beforeAll(async () => {
  google = await startFakeGoogle({
    files: [
      ...defaultDriveFiles(),
      { id: 'sheet-plan', name: 'Import plan', mimeType: SPREADSHEET_MIME, modifiedTime: '2025-07-02T08:00:00.000Z' },
      { id: 'sheet-bulk', name: 'Bulk 500', mimeType: SPREADSHEET_MIME, modifiedTime: '2025-07-01T08:00:00.000Z' },
      { id: 'slides-deck', name: 'Import deck', mimeType: 'application/vnd.google-apps.presentation' },
    ],
    spreadsheets: {
      ...defaultSpreadsheets(),
      'sheet-plan': { title: 'Import plan', sheets: { Plan: planRows(), Other: [['Second tab', 'Tabs', 'tab']] } },
      'sheet-bulk': { title: 'Bulk 500', sheets: { Sheet1: bigRows(500) } },
    },
  });
  process.env.GOOGLE_OAUTH_URL = google.oauthUrl;
  process.env.GOOGLE_API_URL = google.apiUrl;
  // The deployment's client: used by users without a Gmail client of their own.
  process.env.GOOGLE_CLIENT_ID = ENV_CLIENT_ID;
  process.env.GOOGLE_CLIENT_SECRET = 'GOCSPX-deploymentSecret';
  delete process.env.OPENAI_API_KEY;
  app = await startTestApp();
  owner = new Client(app.url);
  await owner.call('/api/auth/register', { body: registration() });
  other = new Client(app.url);
  const body = registration();
  await other.call('/api/auth/register', { body });
  const id = (await owner.call('/api/admin/users')).json.users.find((u: { email: string }) => u.email === body.email)._id;
  await owner.call(`/api/admin/users/${id}/status`, { method: 'PATCH', body: { isActive: true } });
  await other.call('/api/auth/login', { body: { email: body.email, password: body.password } });
  // The owner's own Google OAuth client (the Gmail settings), as the Settings page saves it.
  for (const [key, value] of [
    ['gmail_client_id', google.client.clientId],
    ['gmail_client_secret', google.client.clientSecret],
  ]) {
    expect((await owner.call('/api/settings', { body: { key, value } })).status).toBeLessThan(300);
  }
});
afterAll(async () => {
  await app?.stop();
  await google?.stop();
  delete process.env.GOOGLE_CLIENT_ID;
  delete process.env.GOOGLE_CLIENT_SECRET;
});

describe('Google Sheets: connecting', () => {
  it('needs a session for everything but the callback', async () => {
    const anonymous = new Client(app.url);
    for (const path of ['/api/sheets/status', '/api/sheets/auth', '/api/sheets/spreadsheets']) {
      expect((await anonymous.call(path)).status, path).toBe(401);
    }
    expect((await anonymous.call('/api/sheets/import', { body: { spreadsheetId: 'x', range: 'A1' } })).status).toBe(401);
  });

  it('is not connected at first: listing and importing say "Connect Google Sheets first"', async () => {
    expect((await call(owner, '/api/sheets/status')).json).toEqual({ success: true, authenticated: false, clientConfigured: true });
    const list = await call(owner, '/api/sheets/spreadsheets');
    expect(list.status).toBe(400);
    expect(list.json).toMatchObject({ message: 'Connect Google Sheets first', error: 'Connect Google Sheets first', code: 'sheets_not_connected' });
    const imported = await importRange(owner, 'sheet-plan', 'Plan!A1:F10');
    expect(imported.status).toBe(400);
    expect(imported.json.message).toBe('Connect Google Sheets first');
  });

  it('refuses a missing spreadsheet or range with one message, and writes nothing', async () => {
    const before = await app.items();
    for (const body of [{ range: 'Sheet1!A1:F50' }, { spreadsheetId: 'sheet-plan' }, { spreadsheetId: '', range: '' }, { spreadsheetId: 'sheet-plan', range: '   ' }, {}]) {
      const res = await call(owner, '/api/sheets/import', { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.message).toBe(SELECT);
    }
    expect(await app.items()).toEqual(before);
  });

  it("asks Google for read-only access with the user's own OAuth client, offline, with the consent screen", async () => {
    const res = await call(owner, '/api/sheets/auth');
    expect(res.json.success).toBe(true);
    const url = new URL(res.json.authUrl);
    expect(url.origin + url.pathname).toBe(`${google.oauthUrl}/auth`);
    const q = url.searchParams;
    expect(q.get('client_id')).toBe(google.client.clientId);
    expect(q.get('redirect_uri')).toBe(`${app.url}/api/sheets/callback`);
    expect(q.get('scope')!.split(' ').sort()).toEqual([...SCOPES].sort());
    expect(q.get('access_type')).toBe('offline');
    expect(q.get('prompt')).toBe('consent');
    expect(q.get('response_type')).toBe('code');
    expect(q.get('state')).toBeTruthy();
  });

  it("falls back to the deployment's OAuth client for a user without one", async () => {
    expect((await call(other, '/api/sheets/status')).json).toEqual({ success: true, authenticated: false, clientConfigured: true });
    const url = new URL((await call(other, '/api/sheets/auth')).json.authUrl);
    expect(url.searchParams.get('client_id')).toBe(ENV_CLIENT_ID);
  });

  it('connects nothing for a forged state, a state of another user, or a refused consent', async () => {
    const before = await app.items();
    const forged = await fetch(`${app.url}/api/sheets/callback?code=abc&state=forged`, { redirect: 'manual' });
    expect(forged.status).toBe(302);
    expect(forged.headers.get('location')).toBe('/sheets-import?sheets_error=invalid_state');
    const noState = await fetch(`${app.url}/api/sheets/callback?code=abc`, { redirect: 'manual' });
    expect(noState.headers.get('location')).toBe('/sheets-import?sheets_error=invalid_state');

    // A state made for another flow (Gmail) is not accepted here.
    const gmailState = new URL((await call(owner, '/api/email/oauth/auth')).json.authUrl).searchParams.get('state');
    const crossFlow = await fetch(`${app.url}/api/sheets/callback?code=abc&state=${encodeURIComponent(gmailState!)}`, { redirect: 'manual' });
    expect(crossFlow.headers.get('location')).toBe('/sheets-import?sheets_error=invalid_state');

    // The owner's consent link completed in another user's browser session.
    const { authUrl } = (await call(owner, '/api/sheets/auth')).json;
    const stolen = await completeOAuth(other, authUrl);
    expect(stolen.location).toBe('/sheets-import?sheets_error=invalid_state');

    google.setMode('deny');
    try {
      const denied = await connect(owner);
      expect(denied.location).toBe('/sheets-import?sheets_error=access_denied');
    } finally {
      google.setMode('ok');
    }
    expect(await app.items()).toEqual(before);
    expect((await call(owner, '/api/sheets/status')).json.authenticated).toBe(false);
  });

  it('connects through the OAuth flow: the refresh token is stored, never shown, and the SPA is told', async () => {
    const done = await connect(owner);
    expect(done).toMatchObject({ status: 302, location: '/sheets-import?sheets_connected=true' });
    expect((await call(owner, '/api/sheets/status')).json).toEqual({ success: true, authenticated: true, clientConfigured: true });
    const items = await app.items();
    expect(items.some((i) => i.SK === 'SETTING#google_sheets_refresh_token')).toBe(true);
    // Encrypted at rest (local SecretStore): Google's refresh tokens start with 1//.
    expect(JSON.stringify(items)).not.toMatch(/"1\/\//);
    const listed = (await call(owner, '/api/settings?mask=false')).json as { key: string; value: string }[];
    // The import's own token is not an API key: it is kept out of the API Keys list.
    expect(listed.some((s) => s.key === 'google_sheets_refresh_token')).toBe(false);
    // Another user is still not connected.
    expect((await call(other, '/api/sheets/status')).json.authenticated).toBe(false);
  });
});

describe('Google Sheets: listing', () => {
  it('lists every spreadsheet of every Drive page, leaving out trashed files and other kinds', async () => {
    google.requests.length = 0;
    const res = await call(owner, '/api/sheets/spreadsheets');
    expect(res.status).toBe(200);
    expect(res.json.success).toBe(true);
    const names = (res.json.spreadsheets as { id: string; name: string }[]).map((s) => s.name);
    expect(names.sort()).toEqual(['Archive 2024', 'Bulk 500', 'Content plan 2025', 'Editorial calendar', 'Import plan']);
    expect(res.json.spreadsheets.find((s: { name: string }) => s.name === 'Import plan')).toEqual({ id: 'sheet-plan', name: 'Import plan' });
    // Most recently modified first.
    expect(res.json.spreadsheets[0].name).toBe('Import plan');

    const driveCalls = google.requests.filter((r) => r.path.startsWith('/drive/v3/files')).map((r) => new URL(r.path, google.url).searchParams);
    expect(driveCalls).toHaveLength(3); // 5 spreadsheets, 2 a page
    expect(driveCalls[0]!.get('q')).toBe("mimeType='application/vnd.google-apps.spreadsheet' and trashed=false");
    expect(driveCalls[0]!.get('fields')).toBe('nextPageToken,files(id,name)');
    expect(driveCalls[0]!.get('pageToken')).toBeNull();
    expect(driveCalls[1]!.get('pageToken')).toBeTruthy();
    // The access token was fetched once (refresh grant) and reused for every page.
    expect(google.requests.filter((r) => r.path === '/token')).toHaveLength(1);
  });

  it('shows another user nothing of the owner', async () => {
    const list = await call(other, '/api/sheets/spreadsheets');
    expect(list.status).toBe(400);
    expect(list.json.message).toBe('Connect Google Sheets first');
  });
});

describe('Google Sheets: importing', () => {
  let firstIds: string[] = [];

  it('imports the valid rows, skips the heading and blank rows, and names each row it could not import', async () => {
    const before = (await articles(owner)).length;
    const res = await importRange(owner, 'sheet-plan', 'Plan!A1:F20');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      success: true,
      importedCount: 3,
      alreadyImported: 0,
      errors: [
        'Row 4: Keyword is required',
        'Row 6: Title, Topic and Keyword are required',
        'Row 7: Topic is required',
        'Row 9: Duplicate of row 2 (same Title, Topic and Keyword)',
        'Row 10: Title must be at most 200 characters',
      ],
    });
    const all = await articles(owner);
    expect(all).toHaveLength(before + 3);
    const byTitle = new Map(all.map((a) => [a.title, a]));
    expect(byTitle.get('Automate a content calendar')).toMatchObject({
      keyword: 'content calendar',
      details: 'Plan a month in one sitting',
      imageDescription: 'A calendar on a desk',
      tags: ['planning', 'automation', 'ops'],
    });
    expect(byTitle.get('Short rows are padded')).toMatchObject({ keyword: 'padding', details: '', imageDescription: '', tags: [] });
    expect(byTitle.get('Serverless costs')).toMatchObject({ tags: ['aws'] });
    firstIds = ['Automate a content calendar', 'Short rows are padded', 'Serverless costs'].map((t) => byTitle.get(t)!._id);

    // Imported without content; the drafts are written in the background, as for a created article.
    const article = await drafted(owner, firstIds[0]!);
    expect(article.generation.status).toBe('done');
    expect(article.blog.content).not.toBe('');
    expect(article.linkedin.content).not.toBe('');
  });

  it('does not duplicate on a second import, nor after sorting, inserting rows or editing details', async () => {
    const before = await articles(owner);
    const again = await importRange(owner, 'sheet-plan', 'Plan!A1:F20');
    expect(again.json).toMatchObject({ importedCount: 0, alreadyImported: 3 });
    expect(again.json.errors).toHaveLength(5);

    // Rows moved down, a detail edited, the tab read without its name (A1 ranges read the first tab).
    const plan = google.spreadsheets['sheet-plan']!.sheets.Plan!;
    plan.splice(1, 0, ['A brand-new idea', 'Ideas', 'new idea']);
    plan[3]![3] = 'Edited details';
    const moved = await importRange(owner, 'sheet-plan', 'A1:F20');
    expect(moved.json).toMatchObject({ importedCount: 1, alreadyImported: 3 });
    expect(moved.json.errors[0]).toBe('Row 5: Keyword is required');

    // A changed title is a new article.
    plan[3]![0] = 'Short rows are padded, renamed';
    expect((await importRange(owner, 'sheet-plan', 'Plan!A1:F20')).json).toMatchObject({ importedCount: 1, alreadyImported: 3 });
    const after = await articles(owner);
    expect(after).toHaveLength(before.length + 2);
    expect(after.map((a) => a._id)).toEqual(expect.arrayContaining(firstIds));
  });

  it('numbers rows from where the range starts, on the named tab', async () => {
    const res = await importRange(owner, 'sheet-plan', "'Other'!A1:F1");
    expect(res.json).toMatchObject({ importedCount: 1, errors: [] });
    const partial = await importRange(owner, 'sheet-plan', 'Plan!A5:C8');
    // Columns A–C only: row 7 (details in D) is blank here.
    expect(partial.json.errors).toEqual(['Row 5: Keyword is required', 'Row 8: Topic is required']);
  });

  it('explains an unknown spreadsheet, a range Sheets cannot read, and an empty range', async () => {
    const missing = await importRange(owner, 'no-such-sheet', 'Sheet1!A1:F50');
    expect(missing.status).toBe(400);
    expect(missing.json).toMatchObject({ code: 'spreadsheet_not_found' });
    const badRange = await importRange(owner, 'sheet-plan', 'Nope!A1:F50');
    expect(badRange.status).toBe(400);
    expect(badRange.json.message).toBe('Google Sheets cannot read the range "Nope!A1:F50". Use A1 notation with the tab\'s name, e.g. Sheet1!A1:F50.');
    const empty = await importRange(owner, 'sheet-archive', 'Sheet1!A1:F50');
    expect(empty.json).toEqual({ success: true, importedCount: 0, alreadyImported: 0, errors: ['The range Sheet1!A1:F50 has no rows to import.'] });
  });

  it('keeps everything to its owner', async () => {
    const imported = await importRange(other, 'sheet-plan', 'Plan!A1:F20');
    expect(imported.status).toBe(400);
    expect(imported.json.message).toBe('Connect Google Sheets first');
    expect(await articles(other)).toEqual([]);
    // Import markers live in the owner's own partition.
    const markers = (await app.items()).filter((i) => String(i.SK).startsWith('IMPORT#'));
    expect(new Set(markers.map((m) => m.PK)).size).toBe(1);
    expect(markers).toContainEqual(expect.objectContaining({ spreadsheetId: 'sheet-plan', sheet: 'Plan', type: 'import' }));
  });

  it('imports 500 rows well within the API time limit (without waiting for the drafts)', async () => {
    const before = (await articles(owner)).length;
    const started = Date.now();
    const res = await importRange(owner, 'sheet-bulk', 'Sheet1!A1:F501');
    const ms = Date.now() - started;
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ success: true, importedCount: 500, alreadyImported: 0, errors: [] });
    expect(ms).toBeLessThan(10_000);
    console.log(`500-row import: ${ms} ms`);
    const all = await articles(owner);
    expect(all).toHaveLength(before + 500);
    expect(all.find((a) => a.title === 'Bulk article 500')).toMatchObject({ keyword: 'bulk-500', tags: ['bulk', 'test'] });
  });
});

describe('Google Sheets: losing the connection', () => {
  it('disconnect forgets the token: status, listing and import say so', async () => {
    const res = await call(owner, '/api/sheets/disconnect', { method: 'POST' });
    expect(res.json).toEqual({ success: true, message: 'Disconnected from Google Sheets' });
    expect((await call(owner, '/api/sheets/status')).json.authenticated).toBe(false);
    expect((await app.items()).some((i) => i.SK === 'SETTING#google_sheets_refresh_token' || i.SK === 'SECRET#google_sheets_refresh_token')).toBe(false);
    expect((await call(owner, '/api/sheets/spreadsheets')).json.message).toBe('Connect Google Sheets first');
    // Twice is fine.
    expect((await call(owner, '/api/sheets/disconnect', { method: 'POST' })).status).toBe(200);
  });

  it('a grant Google no longer accepts is forgotten, with a request to connect again', async () => {
    expect((await connect(owner)).location).toBe('/sheets-import?sheets_connected=true');
    google.setMode('revoked');
    try {
      const res = await call(owner, '/api/sheets/spreadsheets');
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({ code: 'sheets_reconnect', message: 'Google no longer accepts the Google Sheets connection. Connect Google Sheets again.' });
    } finally {
      google.setMode('ok');
    }
    expect((await call(owner, '/api/sheets/status')).json.authenticated).toBe(false);
  });

  it('says when Google is down, and keeps the connection', async () => {
    expect((await connect(owner)).location).toBe('/sheets-import?sheets_connected=true');
    google.setMode('down');
    try {
      const res = await call(owner, '/api/sheets/spreadsheets');
      expect(res.status).toBe(502);
      expect(res.json.message).toMatch(/Try again later/);
    } finally {
      google.setMode('ok');
    }
    expect((await call(owner, '/api/sheets/status')).json.authenticated).toBe(true);
  });

  it('no response contained a client secret or a token', () => {
    const all = seen.join('\n');
    expect(all).not.toContain(google.client.clientSecret);
    expect(all).not.toContain('GOCSPX-deploymentSecret');
    expect(all).not.toMatch(/"access_token"|"refresh_token"|ya29\.|"1\/\//);
  });
});
