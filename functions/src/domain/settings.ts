import {
  EMAIL_SETTING_KEYS,
  EmailSchema,
  IntegrationMessages,
  SettingMessages,
  isHiddenSettingKey,
  maskSecret,
  type SaveSettingInput,
  type Setting,
} from '@app/shared';
import { EMAIL_KEYS } from './email.js';
import { badRequest, notFound } from './errors.js';
import type { SecretStore, SettingStore } from './ports.js';
import { SHEETS_GRANT_CLIENT_KEY, SHEETS_GRANT_SCOPES_KEY, SHEETS_TOKEN_KEY } from './sheets.js';

/**
 * Settings whose values are not secret (addresses, ids, expiry times): shown in full when the
 * caller asks for `mask=false`. Every other value is a secret and never leaves the server unmasked.
 */
export const PUBLIC_SETTING_KEYS = new Set([
  'notification_email',
  'gmail_client_id',
  'linkedin_client_id',
  'linkedin_token_expiry',
  'wordpress_site_url',
  'wordpress_username',
  'wordpress_api_style',
  'linkedin_member_name',
  'linkedin_webhook_url',
]);

const MASK_CHARS = /[•●]/;

/**
 * What belongs to the Google OAuth client saved as gmail_client_id (domain/email.ts, and the
 * Sheets import's client in domain/sheets.ts). The client is saved through the generic settings
 * call, so this is where a change of client is seen: a stored secret only ever goes with the client
 * it was saved for, and a refresh token only works for the client that it was issued to.
 */
const GOOGLE_CLIENT = {
  id: EMAIL_KEYS.clientId,
  /** Saved for the previous client id: removed when another one is saved, or the id is deleted. */
  secret: EMAIL_KEYS.clientSecret,
  /** Issued to the previous client (or, for Sheets, to the deployment's when the user had none): removed on any change. */
  grants: [EMAIL_KEYS.refreshToken, SHEETS_TOKEN_KEY, SHEETS_GRANT_SCOPES_KEY, SHEETS_GRANT_CLIENT_KEY],
} as const;

export class SettingService {
  constructor(
    private readonly settings: SettingStore,
    private readonly secrets: SecretStore,
  ) {}

  /** The API Keys list: integration keys (wordpress_, linkedin_) are left out. */
  async list(userId: string, mask: boolean): Promise<Setting[]> {
    const records = (await this.settings.list(userId)).filter((r) => !isHiddenSettingKey(r.key));
    const values = await this.secrets.getMany(userId, records.map((r) => r.key));
    return records.map((r) => {
      const value = values.get(r.key) ?? '';
      return {
        _id: r.key,
        key: r.key,
        value: !mask && PUBLIC_SETTING_KEYS.has(r.key) ? value : maskSecret(value),
        description: r.description,
        updatedAt: r.updatedAt ?? null,
      };
    });
  }

  async save(userId: string, input: Required<SaveSettingInput>, now = new Date().toISOString()) {
    // A masked value sent back unchanged would overwrite the real secret with bullets.
    if (MASK_CHARS.test(input.value)) throw badRequest(IntegrationMessages.obfuscated, 'masked_value');
    if (EMAIL_SETTING_KEYS.has(input.key) && !EmailSchema.safeParse(input.value).success) {
      throw badRequest('Enter a valid email address', 'validation_failed');
    }
    const existing = await this.settings.get(userId, input.key);
    if (input.key === GOOGLE_CLIENT.id) await this.clientChanged(userId, await this.secrets.get(userId, input.key), input.value);
    await this.secrets.put(userId, input.key, input.value);
    await this.settings.put(userId, {
      key: input.key,
      description: input.description,
      hasValue: true,
      createdAt: existing?.createdAt ?? now,
      updatedAt: now,
    });
    const setting: Setting = {
      _id: input.key,
      key: input.key,
      value: PUBLIC_SETTING_KEYS.has(input.key) ? input.value : maskSecret(input.value),
      description: input.description,
      updatedAt: now,
    };
    return { created: !existing, setting };
  }

  async delete(userId: string, key: string): Promise<void> {
    const previous = key === GOOGLE_CLIENT.id ? await this.secrets.get(userId, key) : undefined;
    const existed = await this.settings.delete(userId, key);
    if (!existed) throw notFound(SettingMessages.notFound, 'setting_not_found');
    await this.secrets.delete(userId, key);
    if (key === GOOGLE_CLIENT.id) await this.clientChanged(userId, previous, undefined);
  }

  /** gmail_client_id goes from `previous` to `next` (undefined: none): forgets what belonged to the previous client. */
  private async clientChanged(userId: string, previous: string | undefined, next: string | undefined): Promise<void> {
    if (previous === next) return;
    if (previous !== undefined) await this.remove(userId, GOOGLE_CLIENT.secret);
    for (const key of GOOGLE_CLIENT.grants) await this.remove(userId, key);
  }

  /** A value for server-side use (e.g. the user's openai_api_key). */
  async value(userId: string, key: string): Promise<string | undefined> {
    return this.secrets.get(userId, key);
  }

  async values(userId: string, keys: string[]): Promise<Map<string, string>> {
    return this.secrets.getMany(userId, keys);
  }

  /** Saves server-side values (integration tokens, ids) without the API's masking rules. */
  async put(userId: string, key: string, value: string, description = '', now = new Date().toISOString()) {
    const existing = await this.settings.get(userId, key);
    await this.secrets.put(userId, key, value);
    await this.settings.put(userId, { key, description, hasValue: true, createdAt: existing?.createdAt ?? now, updatedAt: now });
  }

  async updatedAt(userId: string, key: string): Promise<string | null> {
    return (await this.settings.get(userId, key))?.updatedAt ?? null;
  }

  /** Deletes a setting if it is there (no error when absent). */
  async remove(userId: string, key: string): Promise<void> {
    if (await this.settings.delete(userId, key)) await this.secrets.delete(userId, key);
  }
}
