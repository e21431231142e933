import {
  EMAIL_SETTING_KEYS,
  EmailSchema,
  IntegrationMessages,
  MAX_API_KEYS,
  SettingMessages,
  isHiddenSettingKey,
  maskSecret,
  type SaveSettingInput,
  type Setting,
} from '@app/shared';
import { channelIds, connectionExpiryKey, connectionExpiryToldKey, isChannelSettingKey } from '../channels/ids.js';
import { EMAIL_KEYS } from './email.js';
import { badRequest, conflict, notFound } from './errors.js';
import type { SecretStore, SecretValues, SettingRecord, SettingStore } from './ports.js';
import { SHEETS_GRANT_CLIENT_KEY, SHEETS_GRANT_SCOPES_KEY, SHEETS_TOKEN_KEY } from './sheets-grant.js';

/**
 * Settings whose values are not secret (addresses, ids, expiry times, granted scopes): kept in the
 * table beside their record, and shown in full when the caller asks for `mask=false`. Every other
 * value (passwords, client secrets, tokens, signing secrets, every key of the API Keys page) is a
 * secret: kept in the owner's one secret (SecretStore), never leaving the server unmasked.
 */
export const PUBLIC_SETTING_KEYS = new Set([
  'notification_email',
  'gmail_client_id',
  'linkedin_client_id',
  // Every channel's connection expiry and the expiry its owner was last told of: times, which the table keeps by time
  // (adapters/dynamo/time-keys.ts) and the health sweep reads (domain/connection-health.ts).
  ...channelIds.flatMap((id) => [connectionExpiryKey(id), connectionExpiryToldKey(id)]),
  'linkedin_member_id',
  'linkedin_member_name',
  'linkedin_scopes',
  'wordpress_site_url',
  'wordpress_username',
  'wordpress_api_style',
  SHEETS_GRANT_SCOPES_KEY,
  SHEETS_GRANT_CLIENT_KEY,
]);

/** Secrets Manager keeps at most 65,536 bytes per secret value: the values, with room for the envelope. */
export const SECRET_VALUES_MAX_BYTES = 60_000;

/** Writes of the owner's secret that found another write first are tried again this many times in all. */
const SECRET_WRITE_ATTEMPTS = 6;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Keys of the e-mail panel: saved through the API Keys call, yet not API keys of the person's own. */
const EMAIL_PANEL_KEYS = new Set<string>(Object.values(EMAIL_KEYS));
/** What MAX_API_KEYS counts: the keys the API Keys page lists, but the e-mail panel's. */
export const isApiKey = (key: string) => !isPanelKey(key) && !EMAIL_PANEL_KEYS.has(key);

/**
 * Keys the integration panels write (the shared rule, which the form checks too) and every registry channel's own
 * (channels/ids.ts): the API Keys call neither lists, writes nor deletes them.
 */
const isPanelKey = (key: string) => isHiddenSettingKey(key) || isChannelSettingKey(key);
const refusePanelKey = (key: string) => {
  if (isPanelKey(key)) throw badRequest(SettingMessages.integrationKey, 'validation_failed');
};

const inTable = (key: string) => PUBLIC_SETTING_KEYS.has(key);

/** Old secrets a move reads or deletes at once: well within Secrets Manager's request quotas (DeleteSecret: 50 per second). */
const MOVE_BATCH = 10;
async function inBatches<T>(items: readonly T[], run: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += MOVE_BATCH) await Promise.all(items.slice(i, i + MOVE_BATCH).map(run));
}
const isAccessDenied = (err: unknown) => /AccessDenied/.test((err as { name?: string }).name ?? '');

const MASK_CHARS = /[\u2022\u25CF]/;

/**
 * What belongs to the Google OAuth client saved as gmail_client_id (domain/email.ts, and the
 * Sheets import's client in domain/sheets-grant.ts). The client is saved through the generic settings
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

/** Warnings worth a log line (key names only, never values). */
export type SettingsWarn = (message: string, fields: Record<string, unknown>) => void;

/**
 * One owner's settings as read in one service call: the records (one Query), and their values,
 * reading the owner's secret at most once and only when a secret value is asked for. Built anew
 * for every call: another Lambda container may have written since.
 */
class OwnerSettings {
  private secret: Promise<SecretValues> | undefined;

  constructor(
    readonly records: Map<string, SettingRecord>,
    /** Values of records not yet moved to the new layout (see SettingService.migrate). */
    private readonly unmoved: ReadonlyMap<string, string>,
    private readonly readSecret: () => Promise<SecretValues>,
    secret?: SecretValues,
  ) {
    if (secret) this.secret = Promise.resolve(secret);
  }

  async value(key: string): Promise<string | undefined> {
    const record = this.records.get(key);
    if (!record) return undefined;
    if (record.storedIn === 'table') return record.value;
    if (record.storedIn === 'secret') return (await (this.secret ??= this.readSecret())).values[key];
    return this.unmoved.get(key);
  }

  async values(keys: readonly string[]): Promise<Map<string, string>> {
    const values = new Map<string, string>();
    for (const key of keys) {
      const value = await this.value(key);
      if (value !== undefined) values.set(key, value);
    }
    return values;
  }
}

/**
 * Settings: a record per key in the table (key, description, dates), the values that are not
 * secret beside it, and every secret value of an owner in one secret of theirs (a Secrets Manager
 * secret costs the same whatever it holds). A write of that secret reads it, changes its keys and
 * writes it back only if nobody wrote in between (SecretStore.write), else reads again: two saves
 * at the same moment both keep their key.
 *
 * Records written before (one secret per key, no `storedIn`) are moved on first use, see migrate.
 */
export class SettingService {
  /** This function may not write secrets (the IAM policy of a reader): old values are read where they are. */
  private migrationDenied = false;

  constructor(
    private readonly settings: SettingStore,
    private readonly secrets: SecretStore,
    private readonly warn: SettingsWarn = () => undefined,
  ) {}

  /** The owner's settings for one service call, moved to the new layout first when they were not. */
  private async owner(userId: string): Promise<OwnerSettings> {
    const records = new Map((await this.settings.list(userId)).map((r) => [r.key, r] as const));
    const { unmoved, secret } = await this.migrate(
      userId,
      [...records.values()].filter((r) => r.storedIn === undefined || (r.storedIn === 'table' && !inTable(r.key))),
    );
    return new OwnerSettings(records, unmoved, () => this.secrets.read(userId), secret);
  }

  /**
   * Moves records of the one-secret-per-key layout, and values kept in the table under a key that has
   * become secret since (the automation webhook's URL): each value to its place (the table, or the
   * owner's secret unless a newer value is there), then the old secret is scheduled for deletion,
   * then the record says where its value is (and a secret value leaves the table). Every step may be repeated, so a call cut off half way
   * is finished by the next one; until then the values are read where they are. A function that
   * may not write secrets (a reader) only reads them.
   * @returns the values of those records, and the owner's secret when it was read.
   */
  private async migrate(
    userId: string,
    legacy: SettingRecord[],
  ): Promise<{ unmoved: Map<string, string>; secret?: SecretValues }> {
    const unmoved = new Map<string, string>();
    if (legacy.length === 0) return { unmoved };
    let secret = await this.secrets.read(userId);
    await inBatches(legacy, async (r) => {
      const value =
        r.storedIn === 'table'
          ? r.value
          : ((inTable(r.key) ? r.value : secret.values[r.key]) ?? (await this.secrets.readLegacy(userId, r.key)));
      if (value !== undefined) unmoved.set(r.key, value);
    });
    if (this.migrationDenied) return { unmoved, secret };
    try {
      const toSecret = legacy.filter(
        (r) => !inTable(r.key) && unmoved.has(r.key) && secret.values[r.key] === undefined,
      );
      if (toSecret.length > 0) {
        secret = await this.updateSecret(userId, (values) => {
          for (const r of toSecret) values[r.key] ??= unmoved.get(r.key)!;
        });
      }
      for (const r of legacy) {
        if (inTable(r.key) && r.value === undefined && unmoved.has(r.key)) {
          await this.settings.migrate(userId, r.key, r.updatedAt, { value: unmoved.get(r.key) });
        }
      }
      await inBatches(
        legacy.filter((r) => r.storedIn === undefined),
        (r) => this.secrets.deleteLegacy(userId, r.key),
      );
      for (const r of legacy) {
        await this.settings.migrate(
          userId,
          r.key,
          r.updatedAt,
          { storedIn: inTable(r.key) ? 'table' : 'secret' },
          r.storedIn,
        );
      }
    } catch (err) {
      if (isAccessDenied(err)) this.migrationDenied = true;
      this.warn('Moving settings to one secret per user did not finish; the next use goes on with it', {
        userId,
        keys: legacy.map((r) => r.key),
        error: (err as Error).name,
      });
    }
    return { unmoved, secret };
  }

  /**
   * Changes the owner's secret: read, change, write if still at the version read, else again.
   * @returns the values written and their version.
   */
  private async updateSecret(userId: string, change: (values: Record<string, string>) => void): Promise<SecretValues> {
    for (let attempt = 1; ; attempt++) {
      const current = await this.secrets.read(userId);
      const values = { ...current.values };
      change(values);
      if (Buffer.byteLength(JSON.stringify(values)) > SECRET_VALUES_MAX_BYTES) {
        throw badRequest(SettingMessages.secretsTooLarge, 'secrets_too_large');
      }
      const version = await this.secrets.write(userId, values, current.version);
      if (version !== undefined) return { values, version };
      if (attempt >= SECRET_WRITE_ATTEMPTS) throw conflict(SettingMessages.secretsBusy, 'settings_busy');
      await sleep(20 * attempt + Math.random() * 50 * attempt);
    }
  }

  /** Writes one value where it belongs, then its record. */
  private async store(
    userId: string,
    existing: SettingRecord | undefined,
    key: string,
    value: string,
    description: string,
    now: string,
  ) {
    const record = { key, description, hasValue: true, createdAt: existing?.createdAt ?? now, updatedAt: now };
    if (inTable(key)) {
      await this.settings.put(userId, { ...record, storedIn: 'table', value });
    } else {
      await this.updateSecret(userId, (values) => {
        values[key] = value;
      });
      await this.settings.put(userId, { ...record, storedIn: 'secret' });
    }
    // A record that was not moved (a move cut off): its old secret would otherwise stay, unread.
    if (existing && existing.storedIn === undefined) await this.secrets.deleteLegacy(userId, key);
  }

  /** Deletes the values of these records, secret ones in one write, then the records. */
  private async drop(userId: string, records: SettingRecord[]): Promise<void> {
    const secret = records.filter((r) => r.storedIn === 'secret' || (r.storedIn === undefined && !inTable(r.key)));
    if (secret.length > 0) {
      await this.updateSecret(userId, (values) => {
        for (const r of secret) delete values[r.key];
      });
    }
    // Not moved yet (a reader's call): the old secret goes too.
    await inBatches(
      records.filter((r) => r.storedIn === undefined),
      (r) => this.secrets.deleteLegacy(userId, r.key),
    );
    for (const r of records) await this.settings.delete(userId, r.key);
  }

  /** The API Keys list: integration keys (wordpress_, linkedin_) are left out. */
  async list(userId: string, mask: boolean): Promise<Setting[]> {
    const owner = await this.owner(userId);
    const records = [...owner.records.values()].filter((r) => !isPanelKey(r.key));
    const values = await owner.values(records.map((r) => r.key));
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

  /** Saves a key's value and description; without a value, only the description of a saved key (its value stays). */
  async save(
    userId: string,
    input: Required<Omit<SaveSettingInput, 'value'>> & Pick<SaveSettingInput, 'value'>,
    now = new Date().toISOString(),
  ) {
    refusePanelKey(input.key);
    if (input.value === undefined) return this.describe(userId, input.key, input.description, now);
    // A masked value sent back unchanged would overwrite the real secret with bullets.
    if (MASK_CHARS.test(input.value)) throw badRequest(IntegrationMessages.obfuscated, 'masked_value');
    if (EMAIL_SETTING_KEYS.has(input.key) && !EmailSchema().safeParse(input.value).success) {
      throw badRequest('Enter a valid email address', 'validation_failed');
    }
    const owner = await this.owner(userId);
    const existing = owner.records.get(input.key);
    // Each key is kept in the owner's one secret: a bound on their number bounds its size and cost.
    if (!existing && isApiKey(input.key) && [...owner.records.keys()].filter(isApiKey).length >= MAX_API_KEYS) {
      throw badRequest(SettingMessages.tooManyApiKeys, 'too_many_api_keys');
    }
    if (input.key === GOOGLE_CLIENT.id)
      await this.clientChanged(userId, owner, await owner.value(input.key), input.value);
    await this.store(userId, existing, input.key, input.value, input.description, now);
    const setting: Setting = {
      _id: input.key,
      key: input.key,
      value: PUBLIC_SETTING_KEYS.has(input.key) ? input.value : maskSecret(input.value),
      description: input.description,
      updatedAt: now,
    };
    return { created: !existing, setting };
  }

  /** A new description for a saved key: its record changes, its value stays where it is, unwritten. */
  private async describe(userId: string, key: string, description: string, now: string) {
    const owner = await this.owner(userId);
    const existing = owner.records.get(key);
    if (!existing) throw badRequest(SettingMessages.valueRequired, 'validation_failed');
    await this.settings.put(userId, { ...existing, description, updatedAt: now });
    const value = (await owner.value(key)) ?? '';
    const setting: Setting = {
      _id: key,
      key,
      value: PUBLIC_SETTING_KEYS.has(key) ? value : maskSecret(value),
      description,
      updatedAt: now,
    };
    return { created: false, setting };
  }

  async delete(userId: string, key: string): Promise<void> {
    refusePanelKey(key);
    const owner = await this.owner(userId);
    const record = owner.records.get(key);
    if (!record) throw notFound(SettingMessages.notFound, 'setting_not_found');
    const previous = key === GOOGLE_CLIENT.id ? await owner.value(key) : undefined;
    await this.drop(userId, [record]);
    if (key === GOOGLE_CLIENT.id) await this.clientChanged(userId, owner, previous, undefined);
  }

  /** gmail_client_id goes from `previous` to `next` (undefined: none): forgets what belonged to the previous client. */
  private async clientChanged(
    userId: string,
    owner: OwnerSettings,
    previous: string | undefined,
    next: string | undefined,
  ): Promise<void> {
    if (previous === next) return;
    const keys: string[] = [...(previous !== undefined ? [GOOGLE_CLIENT.secret] : []), ...GOOGLE_CLIENT.grants];
    await this.drop(
      userId,
      keys.map((k) => owner.records.get(k)).filter((r): r is SettingRecord => r !== undefined),
    );
  }

  /** A value for server-side use (e.g. the user's openai_api_key). */
  async value(userId: string, key: string): Promise<string | undefined> {
    return (await this.values(userId, [key])).get(key);
  }

  /** Values read together: one Query of the records, and one read of the owner's secret when a secret value is asked for. */
  async values(userId: string, keys: string[]): Promise<Map<string, string>> {
    return (await this.owner(userId)).values(keys);
  }

  /** Saves server-side values (integration tokens, ids) without the API's masking rules. */
  async put(userId: string, key: string, value: string, description = '', now = new Date().toISOString()) {
    const owner = await this.owner(userId);
    await this.store(userId, owner.records.get(key), key, value, description, now);
  }

  async updatedAt(userId: string, key: string): Promise<string | null> {
    return (await this.settings.get(userId, key))?.updatedAt ?? null;
  }

  /** Deletes a setting if it is there (no error when absent). */
  async remove(userId: string, key: string): Promise<void> {
    const record = (await this.owner(userId)).records.get(key);
    if (record) await this.drop(userId, [record]);
  }
}
