/**
 * A fake Google: a real HTTP server on 127.0.0.1 standing in for Google's OAuth endpoints, the
 * Gmail send call, Drive's file list and Sheets values (docs/integrations.md, Google). One base URL
 * serves everything, so both GOOGLE_OAUTH_URL and GOOGLE_API_URL are `fake.url`:
 *
 *   GET  /auth  (also /o/oauth2/auth, /o/oauth2/v2/auth)  checks client_id, redirect_uri, scope; 302 to
 *        redirect_uri?state=…&code=…&scope=… at once (the user "consents"); mode 'deny' → ?error=access_denied
 *   POST /token (also /o/oauth2/token)   authorization_code → {access_token, expires_in, refresh_token?, scope, token_type};
 *        a refresh_token only with access_type=offline AND (prompt=consent OR the first grant), like Google;
 *        refresh_token → a new access token; mode 'revoked' → 400 invalid_grant; bad client → 401 invalid_client
 *   POST /gmail/v1/users/me/messages/send   Bearer from this fake with a send scope; decodes `raw` (base64url),
 *        parses the MIME message and stores it in sentMessages; → {id, threadId, labelIds: ['SENT']}
 *   GET  /drive/v3/files        q (subset: mimeType =/!=, trashed =, name contains/=, 'x' in parents, joined by "and"),
 *        pageSize, pageToken, fields, orderBy; at most `drivePageSize` (default 2) files a page, so clients must page;
 *        trashed files are listed unless q says trashed = false
 *   GET  /v4/spreadsheets/{id}                 sheet titles
 *   GET  /v4/spreadsheets/{id}/values/{range}  A1 ranges; trailing empty cells and rows omitted, `values` absent when empty
 *   PUT  /v4/spreadsheets/{id}/values/{range}  values.update: valueInputOption (RAW|USER_ENTERED) required; body ValueRange
 *        {range (must be the URL's range), majorDimension, values}; values outside the range → 400; null cells are
 *        skipped; needs the spreadsheets (or drive) scope, else 403 insufficientPermissions; a `viewOnly` spreadsheet
 *        → 403 "The caller does not have permission"; writes into the sheet, records into sheetUpdates and answers
 *        {spreadsheetId, updatedRange, updatedRows, updatedColumns, updatedCells}
 * Errors use Google's shapes: OAuth {error, error_description}; APIs {error: {code, message, errors: [{reason}], status}}.
 *
 *   const g = await startFakeGoogle();
 *   new GoogleOAuth({ oauthUrl: g.oauthUrl }); new GmailSender({ …g.client, refreshToken, apiUrl: g.apiUrl, oauthUrl: g.oauthUrl })
 *   g.issueTokens([GMAIL_SEND]) → {accessToken, refreshToken} without the browser step
 *   g.sentMessages[0].subject, g.setMode('revoked'), g.files, g.spreadsheets, g.sheetUpdates, g.stop()
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { bearer, formBody, jsonBody, listen, redirect, safeHeaders, sendHtml, sendJson } from './http-helpers.js';
import { parseMime, type ParsedMime } from './mime.js';
import { trackSecret } from '../helpers/secrets.js';

export const GOOGLE_SCOPE = {
  gmailSend: 'https://www.googleapis.com/auth/gmail.send',
  driveMetadataReadonly: 'https://www.googleapis.com/auth/drive.metadata.readonly',
  driveReadonly: 'https://www.googleapis.com/auth/drive.readonly',
  driveFile: 'https://www.googleapis.com/auth/drive.file',
  drive: 'https://www.googleapis.com/auth/drive',
  spreadsheetsReadonly: 'https://www.googleapis.com/auth/spreadsheets.readonly',
  spreadsheets: 'https://www.googleapis.com/auth/spreadsheets',
} as const;

const SEND_SCOPES = [
  GOOGLE_SCOPE.gmailSend,
  'https://www.googleapis.com/auth/gmail.compose',
  'https://www.googleapis.com/auth/gmail.modify',
  'https://mail.google.com/',
];
const DRIVE_LIST_SCOPES = [
  GOOGLE_SCOPE.drive,
  GOOGLE_SCOPE.driveReadonly,
  GOOGLE_SCOPE.driveMetadataReadonly,
  'https://www.googleapis.com/auth/drive.metadata',
  GOOGLE_SCOPE.driveFile,
];
const SHEETS_READ_SCOPES = [
  GOOGLE_SCOPE.spreadsheets,
  GOOGLE_SCOPE.spreadsheetsReadonly,
  GOOGLE_SCOPE.drive,
  GOOGLE_SCOPE.driveReadonly,
  GOOGLE_SCOPE.driveFile,
];
const SHEETS_WRITE_SCOPES = [GOOGLE_SCOPE.spreadsheets, GOOGLE_SCOPE.drive, GOOGLE_SCOPE.driveFile];

export const SPREADSHEET_MIME = 'application/vnd.google-apps.spreadsheet';

export interface FakeGoogleClient {
  clientId: string;
  clientSecret: string;
  /** exact redirect URIs; empty = any absolute http(s) URI */
  redirectUris: string[];
}

export interface FakeDriveFile {
  id: string;
  name: string;
  mimeType: string;
  trashed?: boolean;
  modifiedTime?: string;
  createdTime?: string;
  parents?: string[];
}

export type CellValue = string | number | boolean | null | undefined;

export interface FakeSpreadsheet {
  title: string;
  /** shared with the user as a viewer: reads work, values.update answers 403 */
  viewOnly?: boolean;
  /** sheet title → rows; the first key is the first sheet */
  sheets: Record<string, CellValue[][]>;
}

export interface SentMessage {
  id: string;
  threadId: string;
  labelIds: string[];
  /** the decoded RFC 5322 text */
  raw: string;
  /** decoded headers (encoded-words resolved) */
  to: string;
  from?: string;
  subject: string;
  text?: string;
  html?: string;
  mime: ParsedMime;
}

export interface SheetUpdate {
  spreadsheetId: string;
  /** the URL's range, decoded */
  range: string;
  valueInputOption: string;
  majorDimension: string;
  values: CellValue[][];
}

export interface RecordedGoogleRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  /** form/JSON body with secrets and tokens masked; Gmail raw left out */
  body?: unknown;
}

export type FakeGoogleMode = 'ok' | 'deny' | 'revoked' | 'down';

export interface FakeGoogle {
  url: string;
  /** GOOGLE_OAUTH_URL for the adapters: `${oauthUrl}/auth` and `${oauthUrl}/token` exist */
  oauthUrl: string;
  /** GOOGLE_API_URL (rootUrl) for Gmail, Drive and Sheets */
  apiUrl: string;
  client: FakeGoogleClient;
  user: { email: string; name: string };
  sentMessages: SentMessage[];
  files: FakeDriveFile[];
  spreadsheets: Record<string, FakeSpreadsheet>;
  sheetUpdates: SheetUpdate[];
  requests: RecordedGoogleRequest[];
  /** most files per Drive page (default 2) */
  drivePageSize: number;
  readonly mode: FakeGoogleMode;
  /** 'revoked': every refresh token answers invalid_grant; 'deny': the user refuses consent; 'down': 503 everywhere */
  setMode(mode: FakeGoogleMode): void;
  /** The next `count` Gmail sends answer 503 backendError (an outage that ends); then they go through again. */
  failNextSends(count: number): void;
  /** Gmail sends answered so far, failed ones included. */
  readonly sendAttempts: number;
  /** Tokens as if the user had consented, without the browser step. */
  issueTokens(scopes?: string[]): { accessToken: string; refreshToken: string };
  revokeRefreshToken(token: string): void;
  /** Every access token issued so far answers 401 (clients must refresh). */
  expireAccessTokens(): void;
  reset(): void;
  stop(): Promise<void>;
}

interface CodeGrant {
  clientId: string;
  redirectUri: string;
  scopes: string[];
  offline: boolean;
  withRefreshToken: boolean;
  used: boolean;
}

interface AccessGrant {
  scopes: string[];
  expiresAt: number;
}

export function defaultDriveFiles(): FakeDriveFile[] {
  return [
    {
      id: 'sheet-content-plan',
      name: 'Content plan 2025',
      mimeType: SPREADSHEET_MIME,
      modifiedTime: '2025-06-30T08:00:00.000Z',
    },
    {
      id: 'sheet-old-ideas',
      name: 'Old ideas',
      mimeType: SPREADSHEET_MIME,
      trashed: true,
      modifiedTime: '2024-01-10T08:00:00.000Z',
    },
    {
      id: 'doc-notes',
      name: 'Meeting notes',
      mimeType: 'application/vnd.google-apps.document',
      modifiedTime: '2025-06-01T08:00:00.000Z',
    },
    {
      id: 'sheet-editorial',
      name: 'Editorial calendar',
      mimeType: SPREADSHEET_MIME,
      modifiedTime: '2025-05-20T08:00:00.000Z',
    },
    { id: 'sheet-archive', name: 'Archive 2024', mimeType: SPREADSHEET_MIME, modifiedTime: '2024-12-31T08:00:00.000Z' },
  ];
}

export function defaultSpreadsheets(): Record<string, FakeSpreadsheet> {
  return {
    'sheet-content-plan': {
      title: 'Content plan 2025',
      sheets: {
        Articles: [
          ['Title', 'Topic', 'Keyword', 'Publish date', 'Status'],
          ['How Small Teams Automate Publishing', 'Content automation', 'content automation', '2025-07-01', ''],
          ['Grüße aus Berlin', 'Travel', 'berlin'],
          [],
          ['After an empty row', 'Testing', '', '', 'done', '', ''],
        ],
        Notes: [['Only notes here']],
      },
    },
    'sheet-editorial': {
      title: 'Editorial calendar',
      sheets: {
        Sheet1: [
          ['Title', 'Topic'],
          ['Q3 roadmap', 'Planning'],
        ],
      },
    },
    'sheet-archive': { title: 'Archive 2024', sheets: { Sheet1: [] } },
    'sheet-old-ideas': { title: 'Old ideas', sheets: { Sheet1: [['Title'], ['Stale idea']] } },
  };
}

export async function startFakeGoogle(
  options: {
    client?: Partial<FakeGoogleClient>;
    files?: FakeDriveFile[];
    spreadsheets?: Record<string, FakeSpreadsheet>;
    drivePageSize?: number;
  } = {},
): Promise<FakeGoogle> {
  const client: FakeGoogleClient = {
    clientId: '123456789012-fakeclient.apps.googleusercontent.com',
    clientSecret: 'GOCSPX-fakeGoogleSecret0123456789',
    redirectUris: [],
    ...options.client,
  };
  trackSecret(client.clientSecret, 'Google client secret (fake)');
  const user = { email: 'owner@example.com', name: 'Olivia Owner' };
  let mode: FakeGoogleMode = 'ok';
  let failingSends = 0;
  let sendAttempts = 0;
  const codes = new Map<string, CodeGrant>();
  const refreshTokens = new Map<string, { scopes: string[]; revoked: boolean }>();
  const accessTokens = new Map<string, AccessGrant>();
  const consented = new Set<string>(); // client ids with an earlier refresh token
  const granted = new Set<string>(); // scopes granted before (include_granted_scopes)
  const sentMessages: SentMessage[] = [];
  const sheetUpdates: SheetUpdate[] = [];
  const requests: RecordedGoogleRequest[] = [];

  const newAccessToken = (scopes: string[]) => {
    const token = `ya29.${randomBytes(60).toString('base64url')}`;
    trackSecret(token, 'Google access token (issued by the fake)');
    accessTokens.set(token, { scopes, expiresAt: Date.now() + 3_599_000 });
    return token;
  };
  const newRefreshToken = (scopes: string[]) => {
    const token = `1//${randomBytes(48).toString('base64url')}`;
    trackSecret(token, 'Google refresh token (issued by the fake)');
    refreshTokens.set(token, { scopes, revoked: false });
    return token;
  };

  function apiError(
    res: ServerResponse,
    code: number,
    message: string,
    status: string,
    reason: string,
    extra: Record<string, string> = {},
  ) {
    sendJson(res, code, {
      error: { code, message, errors: [{ message, domain: 'global', reason, ...extra }], status },
    });
  }

  /** The access grant, or undefined after answering 401/403. */
  function authorize(req: IncomingMessage, res: ServerResponse, scopes: string[]): AccessGrant | undefined {
    const token = bearer(req);
    const grant = token ? accessTokens.get(token) : undefined;
    if (!grant || grant.expiresAt <= Date.now()) {
      apiError(
        res,
        401,
        'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.',
        'UNAUTHENTICATED',
        'authError',
        { location: 'Authorization', locationType: 'header' },
      );
      return undefined;
    }
    if (!grant.scopes.some((s) => scopes.includes(s))) {
      apiError(
        res,
        403,
        'Request had insufficient authentication scopes.',
        'PERMISSION_DENIED',
        'insufficientPermissions',
      );
      return undefined;
    }
    return grant;
  }

  function clientAuth(req: IncomingMessage, form: Record<string, string>): { id?: string; secret?: string } {
    const basic = /^Basic\s+(.+)$/i.exec(req.headers.authorization ?? '');
    if (basic) {
      trackSecret(basic[1], 'Google client credentials (Basic auth sent to the fake)');
      const [id, secret] = Buffer.from(basic[1]!, 'base64').toString('utf8').split(':');
      return { id: decodeURIComponent(id ?? ''), secret: decodeURIComponent(secret ?? '') };
    }
    return { id: form.client_id, secret: form.client_secret };
  }

  const oauthAuth = (res: ServerResponse, url: URL) => {
    const q = url.searchParams;
    if (q.get('client_id') !== client.clientId) {
      return sendHtml(
        res,
        401,
        '<html><body><h1>Access blocked: Authorization Error</h1><p>The OAuth client was not found.</p><p>Error 401: invalid_client</p></body></html>',
      );
    }
    const redirectUri = q.get('redirect_uri') ?? '';
    if (!validRedirect(redirectUri, client.redirectUris)) {
      return sendHtml(
        res,
        400,
        "<html><body><h1>Access blocked: This app's request is invalid</h1><p>Error 400: redirect_uri_mismatch</p></body></html>",
      );
    }
    if (q.get('response_type') !== 'code') {
      return sendHtml(
        res,
        400,
        '<html><body><p>Error 400: invalid_request</p><p>Invalid response_type</p></body></html>',
      );
    }
    const scopes = (q.get('scope') ?? '').split(/\s+/).filter(Boolean);
    if (scopes.length === 0) {
      return sendHtml(
        res,
        400,
        '<html><body><p>Error 400: invalid_request</p><p>Missing required parameter: scope</p></body></html>',
      );
    }
    const target = new URL(redirectUri);
    const state = q.get('state');
    if (state !== null) target.searchParams.set('state', state);
    if (mode === 'deny') {
      target.searchParams.set('error', 'access_denied');
      return redirect(res, target.toString());
    }
    const all = q.get('include_granted_scopes') === 'true' ? [...new Set([...granted, ...scopes])] : scopes;
    for (const s of scopes) granted.add(s);
    const offline = q.get('access_type') === 'offline';
    const prompt = (q.get('prompt') ?? '').split(/\s+/);
    const code = `4/0A${randomBytes(40).toString('base64url')}`;
    trackSecret(code, 'Google authorization code (issued by the fake)');
    codes.set(code, {
      clientId: client.clientId,
      redirectUri,
      scopes: all,
      offline,
      withRefreshToken: offline && (prompt.includes('consent') || !consented.has(client.clientId)),
      used: false,
    });
    target.searchParams.set('code', code);
    target.searchParams.set('scope', all.join(' '));
    return redirect(res, target.toString());
  };

  const oauthToken = (req: IncomingMessage, res: ServerResponse, raw: Buffer, record: RecordedGoogleRequest) => {
    const form = formBody(req, raw);
    record.body = mask(form, ['client_secret', 'code', 'refresh_token', 'code_verifier']);
    const auth = clientAuth(req, form);
    if (auth.id !== client.clientId)
      return sendJson(res, 401, { error: 'invalid_client', error_description: 'The OAuth client was not found.' });
    if (auth.secret !== client.clientSecret)
      return sendJson(res, 401, { error: 'invalid_client', error_description: 'Unauthorized' });
    if (form.grant_type === 'authorization_code') {
      const grant = form.code ? codes.get(form.code) : undefined;
      if (!grant || grant.used)
        return sendJson(res, 400, { error: 'invalid_grant', error_description: 'Malformed auth code.' });
      if (grant.redirectUri !== form.redirect_uri)
        return sendJson(res, 400, { error: 'redirect_uri_mismatch', error_description: 'Bad Request' });
      grant.used = true;
      const body: Record<string, unknown> = {
        access_token: newAccessToken(grant.scopes),
        expires_in: 3599,
        scope: grant.scopes.join(' '),
        token_type: 'Bearer',
      };
      if (grant.withRefreshToken) {
        body.refresh_token = newRefreshToken(grant.scopes);
        consented.add(grant.clientId);
      }
      return sendJson(res, 200, body);
    }
    if (form.grant_type === 'refresh_token') {
      const stored = form.refresh_token ? refreshTokens.get(form.refresh_token) : undefined;
      if (mode === 'revoked' || !stored || stored.revoked) {
        return sendJson(res, 400, { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' });
      }
      return sendJson(res, 200, {
        access_token: newAccessToken(stored.scopes),
        expires_in: 3599,
        scope: stored.scopes.join(' '),
        token_type: 'Bearer',
      });
    }
    return sendJson(res, 400, {
      error: 'unsupported_grant_type',
      error_description: `Invalid grant_type: ${form.grant_type ?? ''}`,
    });
  };

  const gmailSend = (req: IncomingMessage, res: ServerResponse, raw: Buffer, userId: string) => {
    if (!authorize(req, res, SEND_SCOPES)) return;
    sendAttempts++;
    if (failingSends > 0) {
      failingSends--;
      return apiError(res, 503, 'The service is currently unavailable.', 'UNAVAILABLE', 'backendError');
    }
    if (userId !== 'me' && userId !== user.email) {
      return apiError(res, 403, 'Delegation denied for ' + user.email, 'PERMISSION_DENIED', 'forbidden');
    }
    const body = jsonBody(raw);
    if (!body || typeof body.raw !== 'string' || !body.raw) {
      return apiError(res, 400, "Invalid value at 'message.raw'", 'INVALID_ARGUMENT', 'invalidArgument');
    }
    if (!/^[A-Za-z0-9+/_=-]+$/.test(body.raw)) {
      return apiError(
        res,
        400,
        "Invalid value at 'message.raw' (TYPE_BYTES), Base64 decoding failed",
        'INVALID_ARGUMENT',
        'invalidArgument',
      );
    }
    const text = Buffer.from(body.raw, 'base64url').toString('utf8');
    const mime = parseMime(text);
    const recipients = [mime.to, mime.headers.cc ?? '', mime.headers.bcc ?? '']
      .join(',')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    if (recipients.length === 0)
      return apiError(res, 400, 'Recipient address required', 'INVALID_ARGUMENT', 'invalidArgument');
    if (recipients.some((r) => !/@/.test(r)))
      return apiError(res, 400, 'Invalid To header', 'INVALID_ARGUMENT', 'invalidArgument');
    const id = randomBytes(8).toString('hex');
    const message: SentMessage = {
      id,
      threadId: id,
      labelIds: ['SENT'],
      raw: text,
      to: mime.to,
      ...(mime.from !== undefined ? { from: mime.from } : {}),
      subject: mime.subject,
      ...(mime.text !== undefined ? { text: mime.text } : {}),
      ...(mime.html !== undefined ? { html: mime.html } : {}),
      mime,
    };
    sentMessages.push(message);
    return sendJson(res, 200, { id, threadId: id, labelIds: ['SENT'] });
  };

  const driveList = (req: IncomingMessage, res: ServerResponse, url: URL, api: FakeGoogle) => {
    if (!authorize(req, res, DRIVE_LIST_SCOPES)) return;
    const q = url.searchParams.get('q') ?? '';
    const filter = parseDriveQuery(q);
    if (!filter)
      return apiError(res, 400, 'Invalid Value', 'INVALID_ARGUMENT', 'invalid', {
        location: 'q',
        locationType: 'parameter',
      });
    const pageSizeParam = url.searchParams.get('pageSize');
    const requested = pageSizeParam === null ? 100 : Number(pageSizeParam);
    if (!Number.isInteger(requested) || requested < 1 || requested > 1000) {
      return apiError(
        res,
        400,
        `Invalid value '${pageSizeParam}'. Values must be within the range: [1, 1000]`,
        'INVALID_ARGUMENT',
        'invalid',
        { location: 'pageSize', locationType: 'parameter' },
      );
    }
    let offset = 0;
    const pageToken = url.searchParams.get('pageToken');
    if (pageToken) {
      const decoded = /^offset:(\d+)$/.exec(Buffer.from(pageToken, 'base64url').toString('utf8'));
      if (!decoded)
        return apiError(res, 400, 'Invalid Value', 'INVALID_ARGUMENT', 'invalid', {
          location: 'pageToken',
          locationType: 'parameter',
        });
      offset = Number(decoded[1]);
    }
    let matches = api.files.filter(filter);
    const orderBy = url.searchParams.get('orderBy');
    if (orderBy) {
      const [key, dir] = orderBy.split(',')[0]!.trim().split(/\s+/) as [string, string?];
      const field = key === 'modifiedTime' || key === 'name' || key === 'createdTime' ? key : undefined;
      if (field) {
        matches = [...matches].sort(
          (a, b) => String(a[field] ?? '').localeCompare(String(b[field] ?? '')) * (dir === 'desc' ? -1 : 1),
        );
      }
    }
    const size = Math.min(requested, api.drivePageSize);
    const page = matches.slice(offset, offset + size);
    const next =
      offset + size < matches.length ? Buffer.from(`offset:${offset + size}`).toString('base64url') : undefined;
    const fields = url.searchParams.get('fields');
    const fileFields = fields
      ? /files\(([^)]*)\)/
          .exec(fields)?.[1]
          ?.split(',')
          .map((f) => f.trim())
      : undefined;
    const shape = (f: FakeDriveFile): Record<string, unknown> => {
      const full: Record<string, unknown> = {
        kind: 'drive#file',
        id: f.id,
        name: f.name,
        mimeType: f.mimeType,
        trashed: !!f.trashed,
        modifiedTime: f.modifiedTime ?? '2025-01-01T00:00:00.000Z',
        createdTime: f.createdTime ?? '2024-01-01T00:00:00.000Z',
        parents: f.parents ?? ['root'],
        webViewLink: `https://docs.google.com/spreadsheets/d/${f.id}/edit`,
      };
      const keep =
        fileFields && !fileFields.includes('*')
          ? fileFields
          : fields === '*'
            ? Object.keys(full)
            : ['kind', 'id', 'name', 'mimeType'];
      return Object.fromEntries(Object.entries(full).filter(([k]) => keep.includes(k)));
    };
    const all: Record<string, unknown> = {
      kind: 'drive#fileList',
      ...(next ? { nextPageToken: next } : {}),
      incompleteSearch: false,
      files: page.map(shape),
    };
    const top =
      fields && fields !== '*'
        ? fields
            .replace(/\([^)]*\)/g, '')
            .split(',')
            .map((f) => f.trim())
        : undefined;
    return sendJson(res, 200, top ? Object.fromEntries(Object.entries(all).filter(([k]) => top.includes(k))) : all);
  };

  const sheets = (
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    raw: Buffer,
    api: FakeGoogle,
    record: RecordedGoogleRequest,
  ) => {
    const match = /^\/v4\/spreadsheets\/([^/]+)(?:\/values\/(.+))?$/.exec(url.pathname);
    if (!match) return false;
    const id = decodeURIComponent(match[1]!);
    const write = req.method === 'PUT';
    if (!authorize(req, res, write ? SHEETS_WRITE_SCOPES : SHEETS_READ_SCOPES)) return true;
    const book = api.spreadsheets[id];
    if (!book) {
      apiError(res, 404, 'Requested entity was not found.', 'NOT_FOUND', 'notFound');
      return true;
    }
    if (match[2] === undefined) {
      if (req.method !== 'GET') return false;
      sendJson(res, 200, {
        spreadsheetId: id,
        properties: { title: book.title, locale: 'en_US', timeZone: 'Etc/GMT' },
        sheets: Object.entries(book.sheets).map(([title, rows], index) => ({
          properties: { sheetId: index, title, index, sheetType: 'GRID', gridProperties: gridSize(rows) },
        })),
        spreadsheetUrl: `https://docs.google.com/spreadsheets/d/${id}/edit`,
      });
      return true;
    }
    const rangeText = decodeURIComponent(match[2]);
    const range = parseRange(rangeText, book);
    if (!range) {
      apiError(res, 400, `Unable to parse range: ${rangeText}`, 'INVALID_ARGUMENT', 'badRequest');
      return true;
    }
    const rows = book.sheets[range.sheet]!;
    if (req.method === 'GET') {
      const grid = gridSize(rows);
      const r2 = Math.min(range.r2 ?? grid.rowCount, grid.rowCount);
      const c2 = Math.min(range.c2 ?? grid.columnCount, grid.columnCount);
      const unformatted = url.searchParams.get('valueRenderOption') === 'UNFORMATTED_VALUE';
      const format = (v: CellValue) => (unformatted ? v : typeof v === 'boolean' ? (v ? 'TRUE' : 'FALSE') : String(v));
      let values: unknown[][] = [];
      for (let r = range.r1; r <= r2; r++) {
        const row = rows[r - 1] ?? [];
        const cells: unknown[] = [];
        for (let c = range.c1; c <= c2; c++) cells.push(row[c - 1]);
        while (cells.length && isEmpty(cells[cells.length - 1] as CellValue)) cells.pop();
        values.push(cells.map((v) => (isEmpty(v as CellValue) ? '' : format(v as CellValue))));
      }
      while (values.length && values[values.length - 1]!.length === 0) values.pop();
      const major = url.searchParams.get('majorDimension') === 'COLUMNS' ? 'COLUMNS' : 'ROWS';
      if (major === 'COLUMNS') values = transpose(values);
      sendJson(res, 200, {
        range: `${quoteSheet(range.sheet)}!${a1(range.c1, range.r1)}:${a1(c2, r2)}`,
        majorDimension: major,
        ...(values.length ? { values } : {}),
      });
      return true;
    }
    if (req.method === 'PUT') {
      const option = url.searchParams.get('valueInputOption');
      if (option !== 'RAW' && option !== 'USER_ENTERED') {
        apiError(
          res,
          400,
          option
            ? `Invalid value at 'value_input_option' (${option})`
            : "'valueInputOption' is required but not specified",
          'INVALID_ARGUMENT',
          'badRequest',
        );
        return true;
      }
      if (book.viewOnly) {
        apiError(res, 403, 'The caller does not have permission', 'PERMISSION_DENIED', 'forbidden');
        return true;
      }
      const body = jsonBody(raw);
      record.body = body;
      const where = rangeText.includes('!') ? rangeText : `${quoteSheet(range.sheet)}!${rangeText}`;
      if (typeof body?.range === 'string' && !sameRange(parseRange(body.range, book), range)) {
        apiError(
          res,
          400,
          `Requested range [${where}] doesn't match the range in the body [${body.range}]`,
          'INVALID_ARGUMENT',
          'badRequest',
        );
        return true;
      }
      const major = body?.majorDimension ?? 'ROWS';
      if (major !== 'ROWS' && major !== 'COLUMNS') {
        apiError(
          res,
          400,
          `Invalid value at 'data.major_dimension' (${String(major)})`,
          'INVALID_ARGUMENT',
          'badRequest',
        );
        return true;
      }
      const given: unknown = body?.values ?? [];
      const valid =
        Array.isArray(given) &&
        given.every(
          (r) => Array.isArray(r) && r.every((v) => v === null || ['string', 'number', 'boolean'].includes(typeof v)),
        );
      if (!valid) {
        apiError(res, 400, "Invalid value at 'data.values'", 'INVALID_ARGUMENT', 'badRequest');
        return true;
      }
      const values = given as CellValue[][];
      const rowsMajor: CellValue[][] = [];
      if (major === 'COLUMNS') values.forEach((column, j) => column.forEach((v, i) => ((rowsMajor[i] ??= [])[j] = v)));
      else rowsMajor.push(...values);
      const height = rowsMajor.length;
      const width = Math.max(0, ...rowsMajor.map((r) => r.length));
      if (range.r2 !== undefined && range.r1 + height - 1 > range.r2) {
        apiError(
          res,
          400,
          `Requested writing within range [${where}], but tried writing to row [${range.r2 + 1}]`,
          'INVALID_ARGUMENT',
          'badRequest',
        );
        return true;
      }
      if (range.c2 !== undefined && range.c1 + width - 1 > range.c2) {
        apiError(
          res,
          400,
          `Requested writing within range [${where}], but tried writing to column [${a1(range.c2 + 1, 1).replace(/\d+$/, '')}]`,
          'INVALID_ARGUMENT',
          'badRequest',
        );
        return true;
      }
      // null (and, after transposing, a missing cell) leaves the cell as it is; "" empties it.
      let top = Infinity;
      let left = Infinity;
      let bottom = 0;
      let right = 0;
      let cellsWritten = 0;
      const columnsWritten = new Set<number>();
      let rowsWritten = 0;
      rowsMajor.forEach((cells, i) => {
        const r = range.r1 - 1 + i;
        let any = false;
        cells.forEach((v, j) => {
          if (v === null || v === undefined) return;
          const c = range.c1 - 1 + j;
          while (rows.length <= r) rows.push([]);
          const row = rows[r]!;
          while (row.length <= c) row.push('');
          row[c] = v;
          any = true;
          cellsWritten++;
          columnsWritten.add(c);
          top = Math.min(top, r + 1);
          bottom = Math.max(bottom, r + 1);
          left = Math.min(left, c + 1);
          right = Math.max(right, c + 1);
        });
        if (any) rowsWritten++;
      });
      sheetUpdates.push({
        spreadsheetId: id,
        range: rangeText,
        valueInputOption: option,
        majorDimension: major,
        values,
      });
      sendJson(res, 200, {
        spreadsheetId: id,
        updatedRange: cellsWritten
          ? `${quoteSheet(range.sheet)}!${a1(left, top)}${cellsWritten > 1 ? `:${a1(right, bottom)}` : ''}`
          : `${quoteSheet(range.sheet)}!${a1(range.c1, range.r1)}`,
        ...(cellsWritten
          ? { updatedRows: rowsWritten, updatedColumns: columnsWritten.size, updatedCells: cellsWritten }
          : {}),
      });
      return true;
    }
    return false;
  };

  const fake: FakeGoogle = {
    url: '',
    oauthUrl: '',
    apiUrl: '',
    client,
    user,
    sentMessages,
    files: options.files ?? defaultDriveFiles(),
    spreadsheets: options.spreadsheets ?? defaultSpreadsheets(),
    sheetUpdates,
    requests,
    drivePageSize: options.drivePageSize ?? 2,
    get mode() {
      return mode;
    },
    setMode(next) {
      mode = next;
    },
    failNextSends(count) {
      failingSends = count;
    },
    get sendAttempts() {
      return sendAttempts;
    },
    issueTokens(scopes = [GOOGLE_SCOPE.gmailSend]) {
      return { accessToken: newAccessToken(scopes), refreshToken: newRefreshToken(scopes) };
    },
    revokeRefreshToken(token) {
      const t = refreshTokens.get(token);
      if (t) t.revoked = true;
    },
    expireAccessTokens() {
      for (const grant of accessTokens.values()) grant.expiresAt = 0;
    },
    reset() {
      mode = 'ok';
      failingSends = 0;
      sentMessages.length = 0;
      sheetUpdates.length = 0;
      requests.length = 0;
      fake.files = options.files ?? defaultDriveFiles();
      fake.spreadsheets = options.spreadsheets ?? defaultSpreadsheets();
    },
    stop: async () => undefined,
  };

  const server = await listen((req, res, raw, url) => {
    const record: RecordedGoogleRequest = {
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      headers: safeHeaders(req),
    };
    requests.push(record);
    if (mode === 'down')
      return apiError(res, 503, 'The service is currently unavailable.', 'UNAVAILABLE', 'backendError');
    const path = url.pathname;
    if (req.method === 'GET' && ['/auth', '/o/oauth2/auth', '/o/oauth2/v2/auth'].includes(path))
      return oauthAuth(res, url);
    if (req.method === 'POST' && ['/token', '/o/oauth2/token'].includes(path)) return oauthToken(req, res, raw, record);
    if (req.method === 'POST' && path === '/revoke') {
      const token = formBody(req, raw).token ?? url.searchParams.get('token') ?? '';
      const t = refreshTokens.get(token);
      if (t) t.revoked = true;
      accessTokens.delete(token);
      return sendJson(res, 200, {});
    }
    const send = /^\/gmail\/v1\/users\/([^/]+)\/messages\/send$/.exec(path);
    if (req.method === 'POST' && send) return gmailSend(req, res, raw, decodeURIComponent(send[1]!));
    if (req.method === 'GET' && path === '/drive/v3/files') return driveList(req, res, url, fake);
    if (path.startsWith('/v4/spreadsheets/') && sheets(req, res, url, raw, fake, record)) return;
    return apiError(res, 404, `Method not found: ${req.method} ${path}`, 'NOT_FOUND', 'notFound');
  });
  fake.url = server.url;
  fake.oauthUrl = server.url;
  fake.apiUrl = server.url;
  fake.stop = server.stop;
  return fake;
}

function mask(form: Record<string, string>, keys: string[]): Record<string, string> {
  return Object.fromEntries(Object.entries(form).map(([k, v]) => [k, keys.includes(k) ? '***' : v]));
}

function validRedirect(uri: string, registered: string[]): boolean {
  if (registered.length > 0) return registered.includes(uri);
  try {
    const url = new URL(uri);
    return (url.protocol === 'http:' || url.protocol === 'https:') && !uri.includes('#');
  } catch {
    return false;
  }
}

/** A predicate for the supported subset of Drive's query language, or undefined for anything else. */
export function parseDriveQuery(q: string): ((f: FakeDriveFile) => boolean) | undefined {
  if (!q.trim()) return () => true;
  const terms: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < q.length; i++) {
    const char = q[i]!;
    if (char === "'" && q[i - 1] !== '\\') quoted = !quoted;
    if (!quoted && /^\s+and\s+/i.test(q.slice(i)) && /\s/.test(char)) {
      terms.push(current);
      current = '';
      i += /^\s+and\s+/i.exec(q.slice(i))![0].length - 1;
      continue;
    }
    current += char;
  }
  terms.push(current);
  const str = "'((?:[^'\\\\]|\\\\.)*)'";
  const unescape = (s: string) => s.replace(/\\(.)/g, '$1');
  const predicates: ((f: FakeDriveFile) => boolean)[] = [];
  for (const raw of terms) {
    const term = raw
      .trim()
      .replace(/^\((.*)\)$/, '$1')
      .trim();
    let m: RegExpExecArray | null;
    if ((m = new RegExp(`^mimeType\\s*(=|!=)\\s*${str}$`).exec(term))) {
      const [, op, value] = m as unknown as [string, string, string];
      predicates.push((f) => (f.mimeType === unescape(value)) === (op === '='));
    } else if ((m = /^trashed\s*(=|!=)\s*(true|false)$/i.exec(term))) {
      const want = (m[2]!.toLowerCase() === 'true') === (m[1] === '=');
      predicates.push((f) => !!f.trashed === want);
    } else if ((m = new RegExp(`^name\\s+contains\\s+${str}$`).exec(term))) {
      const value = unescape(m[1]!).toLowerCase();
      predicates.push((f) => f.name.toLowerCase().includes(value));
    } else if ((m = new RegExp(`^name\\s*=\\s*${str}$`).exec(term))) {
      const value = unescape(m[1]!);
      predicates.push((f) => f.name === value);
    } else if ((m = new RegExp(`^${str}\\s+in\\s+parents$`).exec(term))) {
      const value = unescape(m[1]!);
      predicates.push((f) => (f.parents ?? ['root']).includes(value));
    } else {
      return undefined;
    }
  }
  return (f) => predicates.every((p) => p(f));
}

function isEmpty(v: CellValue): boolean {
  return v === undefined || v === null || v === '';
}

function gridSize(rows: CellValue[][]): { rowCount: number; columnCount: number } {
  return { rowCount: Math.max(1000, rows.length), columnCount: Math.max(26, ...rows.map((r) => r.length)) };
}

function transpose(values: unknown[][]): unknown[][] {
  const width = Math.max(0, ...values.map((r) => r.length));
  const out: unknown[][] = [];
  for (let c = 0; c < width; c++) {
    const col = values.map((r) => r[c] ?? '');
    while (col.length && col[col.length - 1] === '') col.pop();
    out.push(col);
  }
  return out;
}

function sameRange(a: ReturnType<typeof parseRange>, b: NonNullable<ReturnType<typeof parseRange>>): boolean {
  return !!a && a.sheet === b.sheet && a.r1 === b.r1 && a.c1 === b.c1 && a.r2 === b.r2 && a.c2 === b.c2;
}

function columnNumber(letters: string): number {
  return [...letters.toUpperCase()].reduce((n, ch) => n * 26 + (ch.charCodeAt(0) - 64), 0);
}

function a1(column: number, row: number): string {
  let letters = '';
  for (let n = column; n > 0; n = Math.floor((n - 1) / 26))
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return `${letters}${row}`;
}

function quoteSheet(title: string): string {
  return /^[A-Za-z0-9_]+$/.test(title) ? title : `'${title.replace(/'/g, "''")}'`;
}

/** A1 notation: "Sheet1!A1:D5", "'My sheet'!A:D", "Sheet1", "A1:B2" (first sheet), "2:5", "B3". */
function parseRange(
  text: string,
  book: FakeSpreadsheet,
): { sheet: string; r1: number; c1: number; r2?: number; c2?: number } | undefined {
  const titles = Object.keys(book.sheets);
  let sheet: string | undefined;
  let cells = text;
  const bang = /^(?:'((?:[^']|'')+)'|([^!]+))!(.*)$/.exec(text);
  if (bang) {
    sheet = bang[1] !== undefined ? bang[1].replace(/''/g, "'") : bang[2];
    cells = bang[3]!;
  } else if (titles.includes(text.replace(/^'(.*)'$/, '$1').replace(/''/g, "'"))) {
    sheet = text.replace(/^'(.*)'$/, '$1').replace(/''/g, "'");
    cells = '';
  } else {
    sheet = titles[0];
  }
  if (sheet === undefined || !titles.includes(sheet)) return undefined;
  if (cells === '') return { sheet, r1: 1, c1: 1 };
  const ref = /^([A-Za-z]*)(\d*)$/;
  const [from, to = from] = cells.split(':') as [string, string?];
  const a = ref.exec(from);
  const b = ref.exec(to);
  if (!a || !b || (!a[1] && !a[2]) || (!b[1] && !b[2])) return undefined;
  return {
    sheet,
    c1: a[1] ? columnNumber(a[1]) : 1,
    r1: a[2] ? Number(a[2]) : 1,
    ...(b[1] ? { c2: columnNumber(b[1]) } : {}),
    ...(b[2] ? { r2: Number(b[2]) } : {}),
  };
}
