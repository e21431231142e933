/**
 * Drive's file list and Sheets' values.get (docs/integrations.md, Google) as plain authorized requests through
 * google-auth-library's OAuth2Client, which refreshes the access token from the stored refresh token
 * (and once more on a 401). The @googleapis/drive and @googleapis/sheets clients would add their
 * generated code and googleapis-common to this function's bundle for two GET calls.
 * GOOGLE_API_URL, when set, is the root of both APIs; GOOGLE_OAUTH_URL replaces the token endpoint.
 */
import type { OAuth2Client } from 'google-auth-library';
import { createOAuth2Client } from './google-auth.js';
import type { Spreadsheet } from '@app/shared';
import { IntegrationError } from '../../domain/integrations.js';
import type { GoogleGrant } from '../../domain/sheets-grant.js';
import type { SheetValues, SheetsClient } from '../../domain/sheets-import.js';
import { googleError, googleOAuthEndpoints } from './google.js';

export const SPREADSHEET_MIME_TYPE = 'application/vnd.google-apps.spreadsheet';
const SPREADSHEETS_QUERY = `mimeType='${SPREADSHEET_MIME_TYPE}' and trashed=false`;
/** Drive's largest page; a safety stop after this many pages. */
const DRIVE_PAGE_SIZE = 1000;
const MAX_PAGES = 100;

export interface GoogleSheetsOptions {
  /** GOOGLE_API_URL; unset = Google's own hosts. */
  apiUrl?: string;
  /** GOOGLE_OAUTH_URL; unset = Google's own endpoints. */
  oauthUrl?: string;
}

type Operation = 'list' | 'read' | 'write';

export class GoogleSheetsClient implements SheetsClient {
  private readonly driveRoot: string;
  private readonly sheetsRoot: string;
  private readonly endpoints: ReturnType<typeof googleOAuthEndpoints>;

  constructor(options: GoogleSheetsOptions = {}) {
    const root = options.apiUrl?.replace(/\/+$/, '');
    this.driveRoot = root ?? 'https://www.googleapis.com';
    this.sheetsRoot = root ?? 'https://sheets.googleapis.com';
    this.endpoints = googleOAuthEndpoints(options.oauthUrl);
  }

  private async auth(grant: GoogleGrant): Promise<OAuth2Client> {
    const client = await createOAuth2Client({
      clientId: grant.clientId,
      clientSecret: grant.clientSecret,
      ...(this.endpoints ? { endpoints: this.endpoints } : {}),
    });
    client.setCredentials({ refresh_token: grant.refreshToken });
    return client;
  }

  async listSpreadsheets(grant: GoogleGrant): Promise<Spreadsheet[]> {
    const auth = await this.auth(grant);
    const spreadsheets: Spreadsheet[] = [];
    let pageToken: string | undefined;
    let pages = 0;
    try {
      do {
        const { data } = await auth.request<{ files?: { id?: string; name?: string }[]; nextPageToken?: string }>({
          url: `${this.driveRoot}/drive/v3/files`,
          params: {
            q: SPREADSHEETS_QUERY,
            fields: 'nextPageToken,files(id,name)',
            orderBy: 'modifiedTime desc',
            pageSize: DRIVE_PAGE_SIZE,
            // Spreadsheets on shared drives the user can open, too.
            includeItemsFromAllDrives: true,
            supportsAllDrives: true,
            ...(pageToken ? { pageToken } : {}),
          },
        });
        for (const file of data.files ?? []) {
          if (file.id) spreadsheets.push({ id: file.id, name: file.name ?? file.id });
        }
        pageToken = data.nextPageToken || undefined;
      } while (pageToken && ++pages < MAX_PAGES);
    } catch (err) {
      throw sheetsError(err, 'list');
    }
    return spreadsheets;
  }

  async readRange(grant: GoogleGrant, spreadsheetId: string, range: string): Promise<SheetValues> {
    try {
      const { data } = await (
        await this.auth(grant)
      ).request<{ range?: string; values?: unknown[][] }>({
        url: `${this.sheetsRoot}/v4/spreadsheets/${encodeURIComponent(spreadsheetId)}/values/${encodeURIComponent(range)}`,
        params: { majorDimension: 'ROWS', valueRenderOption: 'FORMATTED_VALUE' },
      });
      const values = (data.values ?? []).map((row) =>
        Array.isArray(row) ? row.map((cell) => (cell === null || cell === undefined ? '' : String(cell))) : [],
      );
      return { range: data.range ?? range, values };
    } catch (err) {
      throw sheetsError(err, 'read', range);
    }
  }

  /** values.update: RAW (the statuses are text, never formulas), rows major; null cells are left as they are. */
  async writeValues(
    grant: GoogleGrant,
    spreadsheetId: string,
    range: string,
    values: string[][],
  ): Promise<{ updatedRange: string; updatedRows: number }> {
    try {
      const { data } = await (
        await this.auth(grant)
      ).request<{ updatedRange?: string; updatedRows?: number }>({
        url: `${this.sheetsRoot}/v4/spreadsheets/${encodeURIComponent(spreadsheetId)}/values/${encodeURIComponent(range)}`,
        method: 'PUT',
        params: { valueInputOption: 'RAW' },
        data: { range, majorDimension: 'ROWS', values },
      });
      return { updatedRange: data.updatedRange ?? range, updatedRows: data.updatedRows ?? 0 };
    } catch (err) {
      throw sheetsError(err, 'write', range);
    }
  }
}

const RECONNECT = 'Connect Google Sheets again.';

/**
 * An IntegrationError with a sentence a person can act on. Like googleError, it never copies the
 * library's own message (gaxios errors carry the request, tokens included).
 */
export function sheetsError(error: unknown, operation: Operation, range?: string): IntegrationError {
  const err = error as { status?: number; response?: { status?: number; data?: unknown } };
  const status = err?.response?.status ?? (typeof err?.status === 'number' ? err.status : undefined);
  const data = err?.response?.data as
    { error?: string | { message?: string; status?: string; errors?: { reason?: string }[] } } | undefined;
  const oauthError = typeof data?.error === 'string' ? data.error : undefined;
  const apiError = typeof data?.error === 'object' && data.error !== null ? data.error : undefined;
  const message = apiError?.message ?? '';
  const reason = apiError?.errors?.[0]?.reason;

  // A wrong client id or secret: fixed in Settings, after which the stored grant works again.
  if (oauthError === 'invalid_client') return googleError(error, 'oauth');
  // The refresh token no longer works: revoked at Google, expired, or issued to another OAuth client.
  if (oauthError === 'invalid_grant' || oauthError === 'unauthorized_client' || status === 401) {
    return new IntegrationError(
      `Google no longer accepts the Google Sheets connection. ${RECONNECT}`,
      'sheets_reconnect',
      status,
    );
  }
  if (operation === 'write' && status === 403 && (reason === 'insufficientPermissions' || /scope/i.test(message))) {
    return new IntegrationError(
      'The Google authorization does not allow editing spreadsheets. Reconnect Google Sheets with write access.',
      'sheets_write_scope',
      status,
    );
  }
  if (status === 403 && (reason === 'insufficientPermissions' || /scope/i.test(message))) {
    return new IntegrationError(
      `The Google authorization does not allow reading spreadsheets and listing Drive files. ${RECONNECT}`,
      'sheets_reconnect',
      status,
    );
  }
  if (status === 403 && /has not been used|is disabled|not enabled/i.test(message)) {
    const api = operation === 'list' ? 'Google Drive API' : 'Google Sheets API';
    return new IntegrationError(
      `The ${api} is not enabled for the Google Cloud project of your OAuth client. Enable it under APIs & Services → Library, then try again.`,
      'google_api_disabled',
      status,
    );
  }
  if (operation === 'write' && status === 403 && reason !== 'rateLimitExceeded' && reason !== 'userRateLimitExceeded') {
    return new IntegrationError(
      'Your Google account can view this spreadsheet but not edit it. Ask its owner for edit access, or import without writing statuses.',
      'spreadsheet_read_only',
      status,
    );
  }
  if (operation === 'write' && status === 400) {
    return new IntegrationError(
      `Google Sheets refused to write to ${range}${message ? `: ${message.replace(/\.$/, '')}` : ''}.`,
      /protected/i.test(message) ? 'status_column_protected' : 'write_refused',
      status,
    );
  }
  if ((operation === 'read' || operation === 'write') && (status === 404 || status === 403)) {
    return new IntegrationError(
      'The spreadsheet was not found, or your Google account cannot open it. Pick it again from the list.',
      'spreadsheet_not_found',
      status,
    );
  }
  if (operation === 'read' && status === 400) {
    return new IntegrationError(
      `Google Sheets cannot read the range "${range}". Use A1 notation with the tab's name, e.g. Sheet1!A1:F50.`,
      'invalid_range',
      status,
    );
  }
  if (status === 429 || reason === 'rateLimitExceeded' || reason === 'userRateLimitExceeded') {
    return new IntegrationError(
      'Google is limiting requests right now. Wait a minute and try again.',
      'google_rate_limited',
      status,
    );
  }
  if (status !== undefined && status >= 500) {
    return new IntegrationError(
      `Google ${operation === 'list' ? 'Drive' : 'Sheets'} is not answering properly (HTTP ${status}). Try again later.`,
      'google_unavailable',
      status,
    );
  }
  return googleError(error, 'oauth');
}
