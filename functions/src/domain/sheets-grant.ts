/**
 * The Google grant of the Sheets import (docs/product.md, Sheets import; docs/integrations.md, Google):
 * connecting with a read-only Google grant through the user's Google OAuth client (else the
 * deployment's), its status, and forgetting it.
 *
 * Write access (for the import's optional write-back of row statuses, domain/sheets-import.ts) needs
 * the `spreadsheets` scope, asked for only when the user connects with write access (incremental
 * consent); the scopes of the stored grant are kept beside it.
 */
import { SheetsMessages, type SheetsAccess, type SheetsStatus } from '@app/shared';
import { EMAIL_KEYS } from './email.js';
import { InvalidError, UpstreamError, badRequest } from './errors.js';
import { IntegrationError, type GoogleOAuthClient } from './integrations.js';
import { providerErrorCode, type OAuthState } from './oauth-state.js';
import type { SettingService } from './settings.js';

/** Where the connection lives: a secret setting of the user (never returned unmasked). */
export const SHEETS_TOKEN_KEY = 'google_sheets_refresh_token';

/** Read-only: cell values, and the names of Drive files (docs/integrations.md, Google). */
export const SHEETS_SCOPES = [
  'https://www.googleapis.com/auth/spreadsheets.readonly',
  'https://www.googleapis.com/auth/drive.metadata.readonly',
];

/** The scopes of the stored grant, space separated (as Google's token answer lists them). */
export const SHEETS_GRANT_SCOPES_KEY = 'google_sheets_scopes';

/**
 * The OAuth client id the stored grant was issued to: the refresh token is used only with that
 * client (the user's Gmail client and the deployment's take turns as secrets are saved and removed).
 * Absent for grants made before it was kept: those are used with the client of the moment, as before.
 */
export const SHEETS_GRANT_CLIENT_KEY = 'google_sheets_client_id';

/** Asked for only when the user wants statuses written back: see, edit, create and delete spreadsheets. */
export const SHEETS_WRITE_SCOPE = 'https://www.googleapis.com/auth/spreadsheets';

/** Write access: the edit scope replaces the read-only one (Google adds earlier grants, include_granted_scopes). */
export const SHEETS_WRITE_SCOPES = [SHEETS_WRITE_SCOPE, 'https://www.googleapis.com/auth/drive.metadata.readonly'];

/** Granted scopes that allow values.update on any of the user's spreadsheets. */
const WRITE_GRANT_SCOPES = [SHEETS_WRITE_SCOPE, 'https://www.googleapis.com/auth/drive'];
const allowsWrite = (scopes: string | undefined) => !!scopes?.split(/\s+/).some((s) => WRITE_GRANT_SCOPES.includes(s));

/** Scopes that also allow what the requested ones allow (a grant may name a broader one). */
const SCOPE_GROUPS = [
  ['spreadsheets.readonly', 'spreadsheets', 'drive.readonly', 'drive'],
  ['drive.metadata.readonly', 'drive.metadata', 'drive.readonly', 'drive'],
].map((group) => group.map((s) => `https://www.googleapis.com/auth/${s}`));

export interface GoogleClientCredentials {
  clientId: string;
  clientSecret: string;
}

export interface GoogleGrant extends GoogleClientCredentials {
  refreshToken: string;
}

/** A user's grant, and whether it allows writing to their spreadsheets. */
export type UserGrant = GoogleGrant & { canWrite: boolean };

export interface SheetsGrantsDeps {
  settings: SettingService;
  google: GoogleOAuthClient;
  state: OAuthState;
  /** The deployment's OAuth client (GOOGLE_CLIENT_ID / _SECRET), used when the user has none. */
  defaultClient?: GoogleClientCredentials;
}

export class SheetsGrants {
  constructor(private readonly deps: SheetsGrantsDeps) {}

  /** The user's Google OAuth client (the Gmail one), else the deployment's; and the stored grant. */
  private async connection(
    userId: string,
  ): Promise<{ client?: GoogleClientCredentials; refreshToken?: string; canWrite: boolean }> {
    const v = await this.deps.settings.values(userId, [
      EMAIL_KEYS.clientId,
      EMAIL_KEYS.clientSecret,
      SHEETS_TOKEN_KEY,
      SHEETS_GRANT_SCOPES_KEY,
      SHEETS_GRANT_CLIENT_KEY,
    ]);
    const clientId = v.get(EMAIL_KEYS.clientId);
    const clientSecret = v.get(EMAIL_KEYS.clientSecret);
    const client = clientId && clientSecret ? { clientId, clientSecret } : this.deps.defaultClient;
    const grantClient = v.get(SHEETS_GRANT_CLIENT_KEY);
    // A grant of another client is no grant: its token never goes to Google with this client's secret.
    const refreshToken =
      grantClient === undefined || grantClient === client?.clientId ? v.get(SHEETS_TOKEN_KEY) : undefined;
    return {
      client,
      refreshToken,
      // A grant stored before the scopes were kept was a read-only one.
      canWrite: !!refreshToken && allowsWrite(v.get(SHEETS_GRANT_SCOPES_KEY)),
    };
  }

  /** The grant the import's Google calls use; a bad request when there is none or no client. */
  async grant(userId: string): Promise<UserGrant> {
    const { client, refreshToken, canWrite } = await this.connection(userId);
    if (!refreshToken) throw badRequest(SheetsMessages.notConnected, 'sheets_not_connected');
    if (!client) throw badRequest(SheetsMessages.clientMissing, 'google_not_configured');
    return { ...client, refreshToken, canWrite };
  }

  private async forget(userId: string): Promise<void> {
    await this.deps.settings.remove(userId, SHEETS_TOKEN_KEY);
    await this.deps.settings.remove(userId, SHEETS_GRANT_SCOPES_KEY);
    await this.deps.settings.remove(userId, SHEETS_GRANT_CLIENT_KEY);
  }

  /** Runs a Google call; a grant Google refuses is forgotten, so the page offers to connect again. */
  async callGoogle<T>(userId: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (err) {
      if (!(err instanceof IntegrationError)) throw err;
      if (err.code === 'sheets_reconnect') await this.forget(userId);
      const userFixable =
        err.code === 'sheets_reconnect' || (err.status !== undefined && err.status >= 400 && err.status < 500);
      throw userFixable ? new InvalidError(err.message, err.code) : new UpstreamError(err.message, err.code);
    }
  }

  /** The edit permission was taken back at Google: the stored grant reads only now. */
  async markReadOnly(userId: string): Promise<void> {
    await this.deps.settings.put(userId, SHEETS_GRANT_SCOPES_KEY, SHEETS_SCOPES.join(' '));
  }

  async status(userId: string): Promise<SheetsStatus> {
    const { client, refreshToken, canWrite } = await this.connection(userId);
    return { success: true, authenticated: !!refreshToken, canWrite, clientConfigured: !!client };
  }

  /**
   * Read-only by default; `write` asks for the edit scope too (Google keeps the earlier grant's scopes).
   * `startedBy`: the owner starting a team workspace's sign-in (oauth-state.ts).
   */
  async authUrl(
    userId: string,
    redirectUri: string,
    access: SheetsAccess = 'read',
    startedBy?: string,
  ): Promise<string> {
    const { client } = await this.connection(userId);
    if (!client) throw badRequest(SheetsMessages.clientMissing, 'google_not_configured');
    const state = await this.deps.state.sign(userId, 'sheets', { access }, startedBy);
    return this.deps.google.authorizationUrl({
      ...client,
      redirectUri,
      state,
      scopes: access === 'write' ? SHEETS_WRITE_SCOPES : SHEETS_SCOPES,
    });
  }

  /**
   * The provider's redirect: the query string for /sheets-import (`sheets_connected=true` or
   * `sheets_error=…`); after asking for write access, also `sheets_write=granted` or `=denied`
   * (the person unticked the edit permission: connected read-only).
   */
  async callback(
    query: { code?: string; state?: string; error?: string },
    sessionUserId: string | undefined,
    redirectUri: string,
  ): Promise<string> {
    const state = await this.deps.state.finish(query.state, 'sheets');
    if ('refused' in state) return `sheets_error=${state.refused}`;
    const { userId } = state;
    if (sessionUserId && sessionUserId !== userId) return 'sheets_error=invalid_state';
    const askedWrite = state.extra.access === 'write';
    if (query.error) return `sheets_error=${providerErrorCode(query.error)}`;
    if (!query.code) return 'sheets_error=missing_code';
    const { client } = await this.connection(userId);
    if (!client) return 'sheets_error=not_configured';
    try {
      const tokens = await this.deps.google.exchangeCode({ ...client, redirectUri, code: query.code });
      // Google sends a refresh token only when the consent screen was shown (prompt=consent asks for it).
      if (!tokens.refreshToken) return 'sheets_error=no_refresh_token';
      // The consent screen lets a person untick a scope: a grant that cannot list or read is no use.
      const granted = tokens.scope?.split(/\s+/);
      if (granted && !SCOPE_GROUPS.every((group) => group.some((s) => granted.includes(s))))
        return 'sheets_error=missing_scope';
      // Google lists the granted scopes; an answer without them grants what was asked for.
      const scopes = (granted ?? (askedWrite ? SHEETS_WRITE_SCOPES : SHEETS_SCOPES)).join(' ');
      const canWrite = allowsWrite(scopes);
      await this.deps.settings.put(
        userId,
        SHEETS_TOKEN_KEY,
        tokens.refreshToken,
        `Google Sheets import: ${canWrite ? 'read and write' : 'read-only'} refresh token`,
      );
      await this.deps.settings.put(
        userId,
        SHEETS_GRANT_SCOPES_KEY,
        scopes,
        'Google Sheets import: the scopes Google granted',
      );
      await this.deps.settings.put(
        userId,
        SHEETS_GRANT_CLIENT_KEY,
        client.clientId,
        'Google Sheets import: the OAuth client the grant belongs to',
      );
      return askedWrite
        ? `sheets_connected=true&sheets_write=${canWrite ? 'granted' : 'denied'}`
        : 'sheets_connected=true';
    } catch (err) {
      return `sheets_error=${encodeURIComponent(err instanceof IntegrationError ? err.code : 'exchange_failed')}`;
    }
  }

  /**
   * Forgets the grant. It is not revoked at Google: the OAuth client is shared with Gmail sending,
   * and Google's revocation ends every grant of the client (it would stop approval e-mails too).
   */
  async disconnect(userId: string): Promise<void> {
    await this.forget(userId);
  }
}
