import { IntegrationMessages, type WordPressCredentialsInput, type WordPressStatus } from '@app/shared';
import { badRequest } from '../../domain/errors.js';
import type { WordPressCheck, WordPressClient } from '../../domain/integrations.js';
import type { SettingService } from '../../domain/settings.js';
import { sameSiteUrl } from '../../domain/site-url.js';

export const WP_KEYS = {
  siteUrl: 'wordpress_site_url',
  username: 'wordpress_username',
  appPassword: 'wordpress_app_password',
  apiStyle: 'wordpress_api_style',
} as const;

export interface StoredWordPress {
  siteUrl: string;
  username: string;
  appPassword: string;
  apiStyle: 'pretty' | 'query';
}

/** The saved site and its credentials, or undefined while any is missing. */
export async function storedWordPress(
  settings: Pick<SettingService, 'values'>,
  userId: string,
): Promise<StoredWordPress | undefined> {
  const v = await settings.values(userId, Object.values(WP_KEYS));
  const siteUrl = v.get(WP_KEYS.siteUrl);
  const username = v.get(WP_KEYS.username);
  const appPassword = v.get(WP_KEYS.appPassword);
  if (!siteUrl || !username || !appPassword) return undefined;
  return { siteUrl, username, appPassword, apiStyle: v.get(WP_KEYS.apiStyle) === 'query' ? 'query' : 'pretty' };
}

type Input = Required<Omit<WordPressCredentialsInput, 'siteId' | 'skipPasswordUpdate'>> &
  Pick<WordPressCredentialsInput, 'skipPasswordUpdate'>;

/** WordPress connection: only credentials that pass a live check are saved; the site URL is fixed once saved. */
export class WordPressService {
  constructor(
    private readonly settings: SettingService,
    private readonly client: WordPressClient,
  ) {}

  async stored(userId: string): Promise<StoredWordPress | undefined> {
    return storedWordPress(this.settings, userId);
  }

  async status(userId: string): Promise<WordPressStatus> {
    const v = await this.settings.values(userId, [WP_KEYS.siteUrl, WP_KEYS.username, WP_KEYS.appPassword]);
    return {
      success: true,
      configured: v.has(WP_KEYS.siteUrl) && v.has(WP_KEYS.appPassword),
      siteUrl: v.get(WP_KEYS.siteUrl) ?? null,
      username: v.get(WP_KEYS.username) ?? null,
      hasAppPassword: v.has(WP_KEYS.appPassword),
      updatedAt: await this.settings.updatedAt(userId, WP_KEYS.appPassword),
    };
  }

  /**
   * A blank application password means "the saved one" (editing), and only for the saved site:
   * the password is checked against the address before anything is sent, so a stored password
   * never goes to another host. Compared in the stored form (normaliseSiteUrl: scheme, lower-case
   * host, no default port, no trailing slash), so http:// and https:// are different sites.
   *
   * The user name may change with a blank password: the password still only goes to its own site,
   * which accepts it only for the account it belongs to (WordPress takes that account's login
   * name or e-mail address, so switching between the two is a real edit).
   */
  private async resolve(userId: string, input: Input) {
    let appPassword = input.appPassword.trim();
    const existing = await this.stored(userId);
    if (!appPassword) {
      if (!existing) throw badRequest(IntegrationMessages.allFieldsRequired, 'validation_failed');
      if (!sameSiteUrl(input.siteUrl, existing.siteUrl)) {
        throw badRequest(IntegrationMessages.wordpressPasswordForSite, 'password_for_site_required');
      }
      appPassword = existing.appPassword;
    }
    return { existing, credentials: { siteUrl: input.siteUrl, username: input.username, appPassword } };
  }

  async test(userId: string, input: Input): Promise<WordPressCheck> {
    const { credentials } = await this.resolve(userId, input);
    return this.client.check(credentials);
  }

  async save(userId: string, input: Input): Promise<Extract<WordPressCheck, { ok: true }>> {
    const { existing, credentials } = await this.resolve(userId, input);
    // The site is fixed once saved: another address is refused before any request goes out.
    if (existing && !sameSiteUrl(input.siteUrl, existing.siteUrl))
      throw badRequest(IntegrationMessages.siteUrlLocked, 'site_url_locked');
    const check = await this.client.check(credentials);
    if (!check.ok) throw badRequest(`${IntegrationMessages.cannotSaveInvalid}: ${check.message}`, check.code);
    // …and a site that redirected elsewhere (www., https) is not the saved one either.
    if (existing && !sameSiteUrl(check.siteUrl, existing.siteUrl))
      throw badRequest(IntegrationMessages.siteUrlLocked, 'site_url_locked');
    await this.settings.put(userId, WP_KEYS.siteUrl, check.siteUrl, 'WordPress site');
    await this.settings.put(userId, WP_KEYS.username, credentials.username, 'WordPress user');
    await this.settings.put(userId, WP_KEYS.apiStyle, check.apiStyle, 'WordPress REST API style');
    if (!input.skipPasswordUpdate || !existing) {
      await this.settings.put(userId, WP_KEYS.appPassword, credentials.appPassword, 'WordPress application password');
    }
    return check;
  }
}
