import { IntegrationMessages, maskSecretUrl, type LinkedInStatus } from '@app/shared';
import { randomBytes } from 'node:crypto';
import { badRequest } from '../../domain/errors.js';
import { IntegrationError, type LinkedInClient, type LinkedInPublisher } from '../../domain/integrations.js';
import { providerErrorCode, type OAuthState } from '../../domain/oauth-state.js';
import type { SettingService } from '../../domain/settings.js';
import { grantAllowsPages, LI_KEYS, LINKEDIN_PAGE_SCOPES, scopeList } from './keys.js';

export { grantAllowsPages, LI_KEYS, LINKEDIN_PAGE_SCOPES };

/** How long connecting waits for the page's name before going on without it. */
const PAGE_NAME_TIMEOUT_MS = 10_000;

const DAY = 24 * 3600 * 1000;

export class LinkedInService {
  constructor(
    private readonly settings: SettingService,
    private readonly client: LinkedInClient,
    private readonly state: OAuthState,
    private readonly scopes: string[],
    /** Finds the page company mode posts as (the same lookup publishing makes), for its name. */
    private readonly pages?: Pick<LinkedInPublisher, 'administeredOrganizations'>,
  ) {}

  async status(userId: string, now = Date.now()): Promise<LinkedInStatus> {
    const v = await this.settings.values(userId, [
      LI_KEYS.clientId,
      LI_KEYS.clientSecret,
      LI_KEYS.accessToken,
      LI_KEYS.tokenExpiry,
      LI_KEYS.memberName,
      LI_KEYS.scopes,
      LI_KEYS.pageName,
    ]);
    const expiresAt = v.get(LI_KEYS.tokenExpiry) ?? null;
    const expiresMs = expiresAt ? Date.parse(expiresAt) : NaN;
    const expired = Number.isFinite(expiresMs) && expiresMs <= now;
    return {
      success: true,
      clientId: v.get(LI_KEYS.clientId) ?? null,
      hasClientSecret: v.has(LI_KEYS.clientSecret),
      connected: v.has(LI_KEYS.accessToken) && !expired,
      memberName: v.get(LI_KEYS.memberName) ?? null,
      expiresAt,
      expiringSoon: Number.isFinite(expiresMs) && !expired && expiresMs - now <= 7 * DAY,
      expired,
      // Unknown for a connection made before the granted scopes were kept: company mode still tries.
      canPostAsPage: v.has(LI_KEYS.accessToken) ? (grantAllowsPages(v.get(LI_KEYS.scopes)) ?? null) : false,
      pageName: v.has(LI_KEYS.accessToken) ? (v.get(LI_KEYS.pageName) ?? null) : null,
    };
  }

  /** The saved app client id and secret, read together. */
  private async storedClient(userId: string): Promise<{ clientId?: string; clientSecret?: string }> {
    const v = await this.settings.values(userId, [LI_KEYS.clientId, LI_KEYS.clientSecret]);
    return { clientId: v.get(LI_KEYS.clientId), clientSecret: v.get(LI_KEYS.clientSecret) };
  }

  /**
   * The credentials to use, and the client id saved before. A blank secret means the saved one,
   * and only for the Client ID it was saved with: a stored secret never goes with another app's id
   * (the token endpoint is LINKEDIN_OAUTH_URL from config, never an address from the request).
   */
  private async clientCredentials(userId: string, input: { clientId: string; clientSecret: string }) {
    const stored = await this.storedClient(userId);
    const clientSecret = input.clientSecret || (stored.clientId === input.clientId ? stored.clientSecret : undefined);
    if (!clientSecret) {
      const otherApp = !!stored.clientSecret && stored.clientId !== input.clientId;
      throw badRequest(
        otherApp ? IntegrationMessages.linkedinSecretForClient : IntegrationMessages.linkedinClientSecretRequired,
        'validation_failed',
      );
    }
    return { creds: { clientId: input.clientId, clientSecret }, previousClientId: stored.clientId };
  }

  async saveCredentials(userId: string, input: { clientId: string; clientSecret: string }): Promise<void> {
    const { creds, previousClientId } = await this.clientCredentials(userId, input);
    await this.settings.put(userId, LI_KEYS.clientId, creds.clientId, 'LinkedIn app client ID');
    await this.settings.put(userId, LI_KEYS.clientSecret, creds.clientSecret, 'LinkedIn app client secret');
    // A token belongs to the app that issued it: another app means connecting again.
    if (previousClientId && previousClientId !== creds.clientId) {
      for (const key of [
        LI_KEYS.accessToken,
        LI_KEYS.tokenExpiry,
        LI_KEYS.memberId,
        LI_KEYS.memberName,
        LI_KEYS.scopes,
        LI_KEYS.pageName,
      ]) {
        await this.settings.remove(userId, key);
      }
    }
  }

  async test(userId: string, input: { clientId: string; clientSecret: string }, redirectUri: string) {
    const { creds } = await this.clientCredentials(userId, input);
    const check = await this.client.checkClient({ ...creds, redirectUri });
    if (!check.ok) return { success: false as const, error: check.message, message: check.message };
    const token = await this.settings.value(userId, LI_KEYS.accessToken);
    if (token) {
      try {
        const member = await this.client.userInfo(token);
        return { success: true as const, message: `Connected to LinkedIn as ${member.name ?? member.sub}` };
      } catch (err) {
        const message =
          err instanceof IntegrationError
            ? err.message
            : 'LinkedIn refused the access token. Reconnect LinkedIn in Settings.';
        return { success: false as const, error: message, message };
      }
    }
    return {
      success: true as const,
      message: 'LinkedIn accepted the client ID and secret. Authenticate to connect your account.',
    };
  }

  /** The scopes to ask for: the configured (self-serve) ones, plus the organization scopes for `pages`. */
  private scopesFor(pages: boolean): string[] {
    return pages ? [...new Set([...this.scopes, ...LINKEDIN_PAGE_SCOPES])] : this.scopes;
  }

  /**
   * `pages`: also ask for posting as the LinkedIn Pages the member administers (needs the Community Management API
   * product). `startedBy`: the owner starting a team workspace's sign-in (oauth-state.ts).
   */
  async authUrl(userId: string, redirectUri: string, pages = false, startedBy?: string): Promise<string> {
    const { clientId, clientSecret } = await this.storedClient(userId);
    if (!clientId || !clientSecret) throw badRequest(IntegrationMessages.linkedinSaveFirst, 'linkedin_not_configured');
    const state = await this.state.sign(userId, 'linkedin', pages ? { pages: 'true' } : {}, startedBy);
    return this.client.authorizationUrl({ clientId, redirectUri, state, scopes: this.scopesFor(pages) });
  }

  /**
   * The provider's redirect. Nothing is stored unless the state is genuine, fresh, made for this
   * flow and (when a session is present) for the signed-in user.
   * @returns the query to put on /settings.
   */
  async callback(
    query: { code?: string; state?: string; error?: string },
    sessionUserId: string | undefined,
    redirectUri: string,
    now = Date.now(),
  ): Promise<string> {
    const signed = await this.state.finish(query.state, 'linkedin');
    if ('refused' in signed) return `linkedin_error=${signed.refused}`;
    const { userId } = signed;
    if (sessionUserId && sessionUserId !== userId) return 'linkedin_error=invalid_state';
    if (query.error) return `linkedin_error=${providerErrorCode(query.error)}`;
    if (!query.code) return 'linkedin_error=missing_code';
    const { clientId, clientSecret } = await this.storedClient(userId);
    if (!clientId || !clientSecret) return 'linkedin_error=not_configured';
    try {
      const tokens = await this.client.exchangeCode({ clientId, clientSecret, code: query.code, redirectUri });
      const member = await this.client.userInfo(tokens.accessToken);
      await this.settings.put(userId, LI_KEYS.accessToken, tokens.accessToken, 'LinkedIn access token');
      await this.settings.put(
        userId,
        LI_KEYS.tokenExpiry,
        new Date(now + tokens.expiresIn * 1000).toISOString(),
        'LinkedIn token expiry',
      );
      await this.settings.put(userId, LI_KEYS.memberId, member.sub, 'LinkedIn member id');
      await this.settings.put(userId, LI_KEYS.memberName, member.name ?? member.sub, 'LinkedIn member');
      // LinkedIn lists the granted scopes; an answer without them granted what was asked for.
      const granted =
        tokens.scope !== undefined ? scopeList(tokens.scope) : this.scopesFor(signed.extra.pages === 'true');
      await this.settings.put(userId, LI_KEYS.scopes, granted.join(' '), 'LinkedIn: the scopes LinkedIn granted');
      await this.rememberPageName(userId, tokens.accessToken, granted);
      return 'linkedin_connected=true';
    } catch (err) {
      return `linkedin_error=${encodeURIComponent(err instanceof IntegrationError ? err.code : 'exchange_failed')}`;
    }
  }

  /**
   * Keeps the name of the page publishing would post as (its first page, functions/src/domain/publishing.ts), for
   * the preview card. Best effort: without page access, or when LinkedIn does not say, none is kept and the
   * card shows a placeholder; connecting never fails for it.
   */
  private async rememberPageName(userId: string, accessToken: string, granted: string[]): Promise<void> {
    let name: string | undefined;
    if (this.pages && grantAllowsPages(granted.join(' '))) {
      try {
        const [page] = await this.pages.administeredOrganizations(
          accessToken,
          { deadline: Date.now() + PAGE_NAME_TIMEOUT_MS },
          { names: true },
        );
        name = page?.name;
      } catch {
        // Refused or unreachable: the card shows the placeholder.
      }
    }
    if (name) await this.settings.put(userId, LI_KEYS.pageName, name, 'LinkedIn: the page posted as');
    else await this.settings.remove(userId, LI_KEYS.pageName);
  }

  async webhook(userId: string) {
    const v = await this.settings.values(userId, [LI_KEYS.webhookUrl, LI_KEYS.webhookSecret]);
    // The URL is a credential (whoever has it can post to the hook): kept secret, shown masked.
    return {
      webhookUrl: maskSecretUrl(v.get(LI_KEYS.webhookUrl) ?? ''),
      hasSigningSecret: v.has(LI_KEYS.webhookSecret),
    };
  }

  /** Sets (or clears) the outgoing webhook; a new signing secret is shown once, on creation. */
  async setWebhook(userId: string, webhookUrl: string): Promise<{ webhookUrl: string; signingSecret?: string }> {
    if (!webhookUrl) {
      await this.settings.remove(userId, LI_KEYS.webhookUrl);
      await this.settings.remove(userId, LI_KEYS.webhookSecret);
      return { webhookUrl: '' };
    }
    await this.settings.put(userId, LI_KEYS.webhookUrl, webhookUrl, 'LinkedIn publication webhook');
    const masked = maskSecretUrl(webhookUrl);
    if (await this.settings.value(userId, LI_KEYS.webhookSecret)) return { webhookUrl: masked };
    const signingSecret = `whsec_${randomBytes(24).toString('base64url')}`;
    await this.settings.put(userId, LI_KEYS.webhookSecret, signingSecret, 'Webhook HMAC signing secret');
    return { webhookUrl: masked, signingSecret };
  }
}
