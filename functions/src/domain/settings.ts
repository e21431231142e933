import { SettingMessages, isHiddenSettingKey, maskSecret, type SaveSettingInput, type Setting } from '@app/shared';
import { notFound } from './errors.js';
import type { SecretStore, SettingStore } from './ports.js';

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
]);

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
    const existing = await this.settings.get(userId, input.key);
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
    const existed = await this.settings.delete(userId, key);
    if (!existed) throw notFound(SettingMessages.notFound, 'setting_not_found');
    await this.secrets.delete(userId, key);
  }

  /** A value for server-side use (e.g. the user's openai_api_key). */
  async value(userId: string, key: string): Promise<string | undefined> {
    return this.secrets.get(userId, key);
  }
}
