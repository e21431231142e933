/**
 * A Bluesky connection's credentials: the account's handle, an app password (never the account password) and the
 * service that hosts the account (https://bsky.social unless the account lives on a PDS of its own).
 * Validated before anything is sent, with messages that say what to enter; the app password is only ever shown
 * masked (maskSecret, the same mask as every other secret setting).
 */
import * as z from 'zod/mini';
import { lazySchema, maskSecret } from '@app/shared';
import { badRequest } from '../../domain/errors.js';

export const DEFAULT_SERVICE_URL = 'https://bsky.social';

export const CredentialMessages = {
  handleMissing: 'Enter your Bluesky handle, for example alice.bsky.social.',
  handleInvalid:
    'This is not a Bluesky handle. Enter the handle shown on your profile, for example alice.bsky.social (without spaces; a leading @ is fine).',
  appPasswordMissing: 'Enter an app password from Bluesky (Settings > Privacy and security > App passwords).',
  appPasswordInvalid:
    'Enter an app password: four groups of four letters or digits, like abcd-efgh-ijkl-mnop. Create one in Bluesky under Settings > Privacy and security > App passwords; your account password is not accepted here.',
  serviceUrlInvalid:
    'Enter the address of the server that hosts your account, like https://bsky.social (leave it empty for bsky.social).',
} as const;

/**
 * A handle as atproto defines it: dot-separated labels of ASCII letters, digits and hyphens (not at a label's
 * ends), at least two labels, at most 253 characters, the last label not starting with a digit.
 */
const HANDLE = /^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]([a-z0-9-]{0,61}[a-z0-9])?$/;
/** Bluesky's app passwords: xxxx-xxxx-xxxx-xxxx. An account password has no such shape. */
const APP_PASSWORD = /^[a-z0-9]{4}-[a-z0-9]{4}-[a-z0-9]{4}-[a-z0-9]{4}$/i;

export const BlueskyCredentialsSchema = lazySchema(() =>
  z.strictObject({
    handle: z.pipe(
      z.pipe(
        z.string({ error: CredentialMessages.handleMissing }).check(z.trim()),
        z.transform((value: string) => value.replace(/^@/, '').toLowerCase()),
      ),
      z
        .string()
        .check(
          z.minLength(1, CredentialMessages.handleMissing),
          z.maxLength(253, CredentialMessages.handleInvalid),
          z.regex(HANDLE, CredentialMessages.handleInvalid),
        ),
    ),
    appPassword: z
      .string({ error: CredentialMessages.appPasswordMissing })
      .check(
        z.trim(),
        z.minLength(1, CredentialMessages.appPasswordMissing),
        z.regex(APP_PASSWORD, CredentialMessages.appPasswordInvalid),
      ),
    serviceUrl: z.pipe(
      z.pipe(
        z.optional(z.string({ error: CredentialMessages.serviceUrlInvalid }).check(z.trim())),
        z.transform((value: string | undefined) => value || DEFAULT_SERVICE_URL),
      ),
      z.pipe(
        z
          .string()
          .check(
            z.maxLength(2048, CredentialMessages.serviceUrlInvalid),
            z.refine(isServiceUrl, CredentialMessages.serviceUrlInvalid),
          ),
        z.transform((value: string) => new URL(value).origin),
      ),
    ),
  }),
);

export type BlueskyCredentials = z.output<ReturnType<typeof BlueskyCredentialsSchema>>;
export type BlueskyCredentialsInput = z.input<ReturnType<typeof BlueskyCredentialsSchema>>;

function isServiceUrl(value: string): boolean {
  try {
    const url = new URL(value);
    // Only an origin: a path, query or credentials in it would be sent nowhere useful.
    return (
      (url.protocol === 'https:' || url.protocol === 'http:') &&
      !url.username &&
      !url.password &&
      (url.pathname === '/' || url.pathname === '') &&
      !url.search &&
      !url.hash
    );
  } catch {
    return false;
  }
}

/** The credentials, validated and normalised; an InvalidError (400) naming the first wrong field otherwise. */
export function parseBlueskyCredentials(input: unknown): BlueskyCredentials {
  const result = BlueskyCredentialsSchema().safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path[0];
  throw badRequest(
    issue?.code === 'unrecognized_keys'
      ? `Unknown field: ${(issue as { keys?: string[] }).keys?.join(', ')}.`
      : (issue?.message ?? CredentialMessages.handleInvalid),
    `bluesky_${typeof field === 'string' ? field : 'credentials'}_invalid`,
  );
}

/** The credentials as they may be shown: the app password masked. */
export function describeBlueskyCredentials(credentials: BlueskyCredentials): BlueskyCredentials {
  return { ...credentials, appPassword: maskSecret(credentials.appPassword) };
}
