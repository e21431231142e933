import * as z from 'zod/mini';
import { lazySchema } from './lazy-schema.js';
import { safeCharacters } from './text.js';

/**
 * At most this many API keys per user on the API Keys page (SettingMessages.tooManyApiKeys): each
 * is a secret kept in the user's one Secrets Manager secret. The keys of the integration panels
 * (hidden ones, and the e-mail panel's) do not count.
 */
export const MAX_API_KEYS = 50;

export const SettingMessages = {
  keyRequired: 'Key name is required',
  valueRequired: 'Value is required',
  noValueChange: 'No changes were made to the value',
  created: 'Created settings entry successfully',
  updated: 'Updated settings entry successfully',
  deleted: 'Settings entry deleted successfully',
  notFound: 'Settings entry not found',
  loadFailed: 'Failed to load settings data',
  saveFailed: 'Failed to create/update settings entry',
  integrationKey:
    'This key belongs to one of the connections on the Settings page (its name starts with the connection’s): change it in that connection’s panel.',
  deleteFailed: 'Failed to delete settings entry',
  reservedKey: 'This key name is reserved: choose another one.',
  tooManyApiKeys: `You can keep at most ${MAX_API_KEYS} API keys. Delete one you no longer use first.`,
  secretsTooLarge:
    'Your saved keys and connections together are too large to keep (64 KB at most). Delete a key you no longer use first.',
  secretsBusy: 'Your settings were being saved elsewhere at the same moment. Try again.',
} as const;

/** Settings with these prefixes belong to the integration panels (and the Sheets import's token) and are hidden from the API Keys list. */
export const HIDDEN_SETTING_PREFIXES = ['wordpress_', 'linkedin_', 'ghost_', 'google_sheets_'] as const;
export const isHiddenSettingKey = (key: string) => HIDDEN_SETTING_PREFIXES.some((p) => key.startsWith(p));

/** Key names are lower-cased with spaces turned into underscores (docs/product.md, Settings). */
export const normalizeSettingKey = (key: string): string => key.trim().toLowerCase().replace(/\s+/g, '_');

/**
 * A key name as the form shows it while it is typed: lower case, spaces between words already
 * underscores. Spaces before the first and after the last word stay spaces, so a name of spaces
 * alone stays blank and is refused (SettingKeySchema) rather than saved as underscores;
 * normalizeSettingKey gives the same key for the typed form as for the raw text.
 */
export const typedSettingKey = (key: string): string => key.toLowerCase().replace(/(?<=\S)\s+(?=\S)/g, '_');

export const SETTING_KEY_MAX = 64;
export const SETTING_VALUE_MAX = 10_000;
export const SETTING_DESCRIPTION_MAX = 500;

const RESERVED_SETTING_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

export const SettingKeySchema = lazySchema(() =>
  z.pipe(
    z.pipe(
      z.string({ error: SettingMessages.keyRequired }).check(
        // Blank (spaces only) is refused before the spaces could become underscores.
        z.trim(),
        z.minLength(1, SettingMessages.keyRequired),
      ),
      z.transform(normalizeSettingKey),
    ),
    z.string().check(
      z.maxLength(SETTING_KEY_MAX, `Key names must be at most ${SETTING_KEY_MAX} characters`),
      z.regex(/^[a-z0-9_.-]+$/, 'Key names may contain only letters, digits, _ . and -'),
      // The integration panels write these after a live check (WordPress's site is locked, the
      // webhook URL validated): the generic call must not write or delete them around that.
      z.refine((key) => !isHiddenSettingKey(key), SettingMessages.integrationKey),
      // Keys become property names of the stored secret's JSON object, where these three name
      // JavaScript's own machinery (`__proto__` would set the object's prototype and lose the value).
      z.refine((key) => !RESERVED_SETTING_KEYS.has(key), SettingMessages.reservedKey),
    ),
  ),
);

const SettingValueSchema = lazySchema(() =>
  z
    .string({ error: SettingMessages.valueRequired })
    .check(
      z.minLength(1, SettingMessages.valueRequired),
      z.maxLength(SETTING_VALUE_MAX, `Values must be at most ${SETTING_VALUE_MAX} characters`),
      safeCharacters('The value'),
    ),
);

export const SaveSettingSchema = lazySchema(() =>
  z.strictObject({
    key: SettingKeySchema(),
    /**
     * Absent: the saved value stays as it is (an edit of the description only, the value being masked in every
     * answer). A key that is not saved yet needs one (functions/src/domain/settings.ts).
     */
    value: z.optional(SettingValueSchema()),
    description: z._default(
      z.optional(
        z
          .string({ error: 'Description must be text' })
          .check(
            z.trim(),
            z.maxLength(SETTING_DESCRIPTION_MAX, `Descriptions must be at most ${SETTING_DESCRIPTION_MAX} characters`),
            safeCharacters('The description'),
          ),
      ),
      '',
    ),
  }),
);
export type SaveSettingInput = z.input<ReturnType<typeof SaveSettingSchema>>;
/** Adding a key (the API Keys page's Add New API Key): the same payload, its value required. */
export const NewSettingSchema = lazySchema(() => z.extend(SaveSettingSchema(), { value: SettingValueSchema() }));

export const SettingsQuerySchema = lazySchema(() =>
  z.strictObject({
    mask: z._default(z.optional(z.enum(['true', 'false'], { error: 'mask must be true or false' })), 'true'),
  }),
);
export const SettingParamsSchema = lazySchema(() => z.strictObject({ key: SettingKeySchema() }));

export interface Setting {
  _id: string;
  key: string;
  value: string;
  description: string;
  updatedAt: string | null;
}

/** At most the last 4 characters stay visible (docs/product.md, Settings); short values are fully hidden. */
/**
 * A URL that acts as a credential (an automation webhook's, whose path is its key): the origin, so the
 * owner can tell where it goes, and the path masked like a secret.
 */
export function maskSecretUrl(value: string): string {
  if (!value) return '';
  try {
    const url = new URL(value);
    return `${url.origin}/${maskSecret(`${url.pathname.slice(1)}${url.search}`)}`;
  } catch {
    return maskSecret(value);
  }
}

export function maskSecret(value: string): string {
  if (!value) return '';
  const visible = value.length >= 12 ? value.slice(-4) : '';
  return `${'•'.repeat(8)}${visible}`;
}
