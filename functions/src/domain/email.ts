import { IntegrationMessages, TEST_EMAIL_SUBJECT, maskSecret, type EmailStatus } from '@app/shared';
import type { SuccessAnswer } from '@app/shared/api';
import { UpstreamError, badRequest } from './errors.js';
import { IntegrationError, type GoogleOAuthClient, type MailMessage, type MailSender } from './integrations.js';
import { providerErrorCode, type OAuthState } from './oauth-state.js';
import type { SettingService } from './settings.js';

export const EMAIL_KEYS = {
  notificationEmail: 'notification_email',
  clientId: 'gmail_client_id',
  clientSecret: 'gmail_client_secret',
  refreshToken: 'gmail_refresh_token',
} as const;

/** Keys of the SMTP set-up this product used before Gmail: only ever deleted. */
export const LEGACY_EMAIL_KEYS = ['email_host', 'email_port', 'email_user', 'email_password', 'email_method'] as const;

/**
 * Gmail failures only the owner can fix (IntegrationError codes of adapters/integrations/google.ts): the
 * grant revoked or expired, the client changed or deleted, the scope or the Gmail API missing in their
 * project, an address Gmail refuses. Trying again changes nothing until they act in Settings, so a
 * scheduled run records such a failure and ends instead of failing (docs/operations.md, Alarms).
 */
export const MAIL_FAILURES_THE_OWNER_FIXES: ReadonlySet<string> = new Set([
  'google_invalid_grant',
  'google_token_invalid',
  'google_invalid_client',
  'google_insufficient_scope',
  'gmail_api_disabled',
  'mail_invalid_address',
]);

/** Whether a mailer's failure is one only the owner can fix (MAIL_FAILURES_THE_OWNER_FIXES). */
export const isOwnersMailFailure = (err: unknown): boolean =>
  err instanceof IntegrationError && MAIL_FAILURES_THE_OWNER_FIXES.has(err.code);

export interface GmailCredentials {
  clientId: string;
  clientSecret: string;
  refreshToken: string;
}

export interface MailerFactory {
  gmail(credentials: GmailCredentials): MailSender;
  /** Where mail goes when Gmail is not configured (the local outbox); undefined in AWS. */
  fallback(): MailSender | undefined;
}

export class EmailService {
  constructor(
    private readonly settings: SettingService,
    private readonly google: GoogleOAuthClient,
    private readonly state: OAuthState,
    private readonly mailers: MailerFactory,
    private readonly scopes: string[],
  ) {}

  private values(userId: string) {
    return this.settings.values(userId, Object.values(EMAIL_KEYS));
  }

  async status(userId: string): Promise<EmailStatus> {
    const v = await this.values(userId);
    return {
      success: true,
      notificationEmail: v.get(EMAIL_KEYS.notificationEmail) ?? '',
      gmailClientId: v.get(EMAIL_KEYS.clientId) ?? '',
      gmailClientSecret: maskSecret(v.get(EMAIL_KEYS.clientSecret) ?? ''),
      gmailRefreshToken: maskSecret(v.get(EMAIL_KEYS.refreshToken) ?? ''),
      authenticated: v.has(EMAIL_KEYS.refreshToken),
    };
  }

  /** `startedBy`: the owner starting a team workspace's sign-in (oauth-state.ts). */
  async authUrl(userId: string, redirectUri: string, startedBy?: string): Promise<string> {
    const v = await this.values(userId);
    const clientId = v.get(EMAIL_KEYS.clientId);
    const clientSecret = v.get(EMAIL_KEYS.clientSecret);
    if (!clientId || !clientSecret)
      throw badRequest(IntegrationMessages.gmailCredentialsRequired, 'gmail_not_configured');
    return this.google.authorizationUrl({
      clientId,
      clientSecret,
      redirectUri,
      state: await this.state.sign(userId, 'gmail', {}, startedBy),
      scopes: this.scopes,
    });
  }

  async callback(
    query: { code?: string; state?: string; error?: string },
    sessionUserId: string | undefined,
    redirectUri: string,
  ): Promise<string> {
    const signed = await this.state.finish(query.state, 'gmail');
    if ('refused' in signed) return `gmail_error=${signed.refused}`;
    const { userId } = signed;
    if (sessionUserId && sessionUserId !== userId) return 'gmail_error=invalid_state';
    if (query.error) return `gmail_error=${providerErrorCode(query.error)}`;
    if (!query.code) return 'gmail_error=missing_code';
    const v = await this.values(userId);
    const clientId = v.get(EMAIL_KEYS.clientId);
    const clientSecret = v.get(EMAIL_KEYS.clientSecret);
    if (!clientId || !clientSecret) return 'gmail_error=not_configured';
    try {
      const tokens = await this.google.exchangeCode({ clientId, clientSecret, redirectUri, code: query.code });
      // Google sends a refresh token only when the consent screen was shown; prompt=consent asks for it.
      if (!tokens.refreshToken) return 'gmail_error=no_refresh_token';
      await this.settings.put(userId, EMAIL_KEYS.refreshToken, tokens.refreshToken, 'Gmail API refresh token');
      return 'gmail_connected=true';
    } catch (err) {
      return `gmail_error=${encodeURIComponent(err instanceof IntegrationError ? err.code : 'exchange_failed')}`;
    }
  }

  /**
   * Where a user's notifications go, from one read of the e-mail settings: the notification
   * address (if set) and the mailer, Gmail when it is fully configured, else the fallback (local
   * outbox); undefined when neither.
   */
  async notifier(userId: string): Promise<{ address: string | undefined; mailer: MailSender | undefined }> {
    const v = await this.values(userId);
    const clientId = v.get(EMAIL_KEYS.clientId);
    const clientSecret = v.get(EMAIL_KEYS.clientSecret);
    const refreshToken = v.get(EMAIL_KEYS.refreshToken);
    const mailer =
      clientId && clientSecret && refreshToken
        ? this.mailers.gmail({ clientId, clientSecret, refreshToken })
        : this.mailers.fallback();
    return { address: v.get(EMAIL_KEYS.notificationEmail), mailer };
  }

  /** The configuration test: always through the Gmail API (SPEC: method gmail). */
  async sendTest(userId: string, input: { to: string; subject?: string; message?: string }): Promise<SuccessAnswer> {
    const v = await this.values(userId);
    const clientId = v.get(EMAIL_KEYS.clientId);
    const clientSecret = v.get(EMAIL_KEYS.clientSecret);
    const refreshToken = v.get(EMAIL_KEYS.refreshToken);
    if (!clientId || !clientSecret || !refreshToken)
      throw badRequest(IntegrationMessages.gmailNotConfigured, 'gmail_not_configured');
    const text = input.message?.trim() || 'This is a test e-mail from Content Publisher. Gmail API sending works.';
    const message: MailMessage = {
      to: input.to,
      subject: input.subject?.trim() || TEST_EMAIL_SUBJECT,
      text,
      html: `<p>${text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!)}</p>`,
    };
    try {
      await this.mailers.gmail({ clientId, clientSecret, refreshToken }).send(message);
    } catch (err) {
      if (err instanceof IntegrationError) throw new UpstreamError(err.message, err.code);
      throw new UpstreamError(
        'Gmail did not accept the message. Check the Gmail API settings and try again.',
        'gmail_failed',
      );
    }
    return { success: true, message: IntegrationMessages.testEmailSent };
  }
}
