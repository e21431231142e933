/**
 * Google OAuth (authorization code flow) with google-auth-library's OAuth2Client
 * (docs/integrations.md, Google). GOOGLE_OAUTH_URL, when set, replaces both endpoints:
 * authorization `${oauthUrl}/auth`, token `${oauthUrl}/token` (OAuth2Client's `endpoints` option).
 */
import type { OAuth2Client, OAuth2ClientOptions } from 'google-auth-library';
import { createOAuth2Client } from './google-auth.js';
import { IntegrationError, type GoogleOAuthClient } from '../../domain/integrations.js';

/** Send mail only: no read or modify access to the mailbox (a "sensitive" scope). */
export const GMAIL_SEND_SCOPE = 'https://www.googleapis.com/auth/gmail.send';

export interface GoogleOAuthOptions {
  /** GOOGLE_OAUTH_URL; unset = Google's own endpoints. */
  oauthUrl?: string;
}

/** The `endpoints` option for OAuth2Client when GOOGLE_OAUTH_URL is set, else undefined. */
export function googleOAuthEndpoints(oauthUrl: string | undefined): OAuth2ClientOptions['endpoints'] | undefined {
  if (!oauthUrl) return undefined;
  const base = oauthUrl.replace(/\/+$/, '');
  return {
    oauth2AuthBaseUrl: `${base}/auth`,
    oauth2TokenUrl: `${base}/token`,
    oauth2RevokeUrl: `${base}/revoke`,
  };
}

export class GoogleOAuth implements GoogleOAuthClient {
  private readonly endpoints: OAuth2ClientOptions['endpoints'] | undefined;

  constructor(options: GoogleOAuthOptions = {}) {
    this.endpoints = googleOAuthEndpoints(options.oauthUrl);
  }

  async authorizationUrl(input: {
    clientId: string;
    clientSecret: string;
    redirectUri: string;
    state: string;
    scopes: string[];
  }): Promise<string> {
    return (await this.client(input)).generateAuthUrl({
      // offline: Google returns a refresh token, so mail can be sent later without the user
      access_type: 'offline',
      // consent: Google returns a refresh token only when the consent screen was shown
      prompt: 'consent',
      include_granted_scopes: true,
      scope: input.scopes,
      state: input.state,
    });
  }

  async exchangeCode(input: {
    clientId: string;
    clientSecret: string;
    redirectUri: string;
    code: string;
  }): Promise<{ refreshToken?: string; accessToken?: string; expiryDate?: number; scope?: string }> {
    try {
      const { tokens } = await (
        await this.client(input)
      ).getToken({ code: input.code, redirect_uri: input.redirectUri });
      return {
        ...(tokens.refresh_token ? { refreshToken: tokens.refresh_token } : {}),
        ...(tokens.access_token ? { accessToken: tokens.access_token } : {}),
        ...(typeof tokens.expiry_date === 'number' ? { expiryDate: tokens.expiry_date } : {}),
        ...(tokens.scope ? { scope: tokens.scope } : {}),
      };
    } catch (error) {
      throw googleError(error, 'oauth');
    }
  }

  private client(input: { clientId: string; clientSecret: string; redirectUri: string }): Promise<OAuth2Client> {
    return createOAuth2Client({
      clientId: input.clientId,
      clientSecret: input.clientSecret,
      redirectUri: input.redirectUri,
      ...(this.endpoints ? { endpoints: this.endpoints } : {}),
    });
  }
}

/**
 * An IntegrationError with an actionable sentence for a google-auth-library / googleapis
 * (gaxios) error. Never copies the error's own message: gaxios errors carry the request,
 * including form bodies with secrets.
 */
export function googleError(error: unknown, during: 'oauth' | 'gmail'): IntegrationError {
  const err = error as {
    status?: number;
    code?: string | number;
    name?: string;
    response?: { status?: number; data?: unknown };
    cause?: { code?: string };
  };
  const status = err?.response?.status ?? (typeof err?.status === 'number' ? err.status : undefined);
  const data = err?.response?.data as
    | {
        error?: string | { code?: number; message?: string; status?: string; errors?: { reason?: string }[] };
        error_description?: string;
      }
    | undefined;
  const oauthError = typeof data?.error === 'string' ? data.error : undefined;
  const apiError = typeof data?.error === 'object' && data.error !== null ? data.error : undefined;
  const reason = apiError?.errors?.[0]?.reason;

  if (oauthError === 'invalid_grant') {
    return during === 'oauth'
      ? new IntegrationError(
          'Google refused the authorization code (it works once and expires after a few minutes). Authenticate with Google again in Settings.',
          'google_invalid_grant',
          status,
        )
      : new IntegrationError(
          'Google refused the saved refresh token. Authenticate with Google again in Settings.',
          'google_invalid_grant',
          status,
        );
  }
  if (oauthError === 'invalid_client' || oauthError === 'unauthorized_client') {
    return new IntegrationError(
      'Google rejected the OAuth client ID or secret. Check both in Settings against the Google Cloud console (APIs & Services → Credentials).',
      'google_invalid_client',
      status,
    );
  }
  if (oauthError === 'redirect_uri_mismatch') {
    return new IntegrationError(
      'Google refused the redirect URI. Add this app\'s callback address to the OAuth client\'s "Authorized redirect URIs" in the Google Cloud console.',
      'google_redirect_uri_mismatch',
      status,
    );
  }
  if (oauthError) {
    const description = data?.error_description ? `: ${data.error_description}` : ` (${oauthError})`;
    return new IntegrationError(
      `Google refused the request${description}. Authenticate with Google again in Settings.`,
      `google_${oauthError}`,
      status,
    );
  }
  if (apiError) {
    if (status === 401) {
      return new IntegrationError(
        'Google refused the access token. Authenticate with Google again in Settings.',
        'google_token_invalid',
        status,
      );
    }
    if (status === 403 && (reason === 'insufficientPermissions' || /scope/i.test(apiError.message ?? ''))) {
      return new IntegrationError(
        'The Google authorization does not include permission to send mail. Authenticate with Google again in Settings and allow sending e-mail.',
        'google_insufficient_scope',
        status,
      );
    }
    if (
      status === 429 ||
      reason === 'userRateLimitExceeded' ||
      reason === 'rateLimitExceeded' ||
      reason === 'dailyLimitExceeded'
    ) {
      return new IntegrationError(
        "Gmail's sending limit has been reached. Try again later.",
        'gmail_rate_limited',
        status,
      );
    }
    if (status === 403 && /has not been used|is disabled/i.test(apiError.message ?? '')) {
      return new IntegrationError(
        'The Gmail API is not enabled for this Google Cloud project. Enable it under APIs & Services → Library, then try again.',
        'gmail_api_disabled',
        status,
      );
    }
    const what = during === 'gmail' ? 'Gmail refused the message' : 'Google refused the request';
    return new IntegrationError(
      `${what}: ${apiError.message ?? `HTTP ${status}`}.`,
      during === 'gmail' ? 'gmail_error' : 'google_error',
      status,
    );
  }
  if (status !== undefined) {
    return new IntegrationError(
      `${during === 'gmail' ? 'Gmail' : 'Google'} answered HTTP ${status}. Try again later.`,
      during === 'gmail' ? 'gmail_error' : 'google_error',
      status,
    );
  }
  return new IntegrationError(
    `Could not reach ${during === 'gmail' ? 'Gmail' : 'Google'}. Check the server's internet connection and try again later.`,
    'google_unreachable',
  );
}
