/**
 * What the Ghost channel needs from its owner (docs/integrations.md, Ghost): the site's address and the Admin API
 * key of a custom integration (Ghost Admin → Settings → Integrations → Add custom integration), `id:secret`.
 *
 * The key is checked for its shape before anything is sent, so a pasted Content API key or a key cut short is
 * refused with a sentence saying which one to copy. The parsed key keeps its secret out of JSON and of
 * util.inspect (logs), showing it masked there.
 */
import { inspect } from 'node:util';
import * as z from 'zod/mini';
import { lazySchema, maskSecret, safeCharacters } from '@app/shared';
import { GHOST_ADMIN_KEY, GhostMessages, ghostAdminKeyProblem } from '@app/shared/channels/ghost';
import { badRequest } from '../../domain/errors.js';

export { GhostMessages };

/** The address readers visit, as stored: https:// when no scheme was typed, no /ghost/… admin suffix, no trailing slash. */
export function normaliseGhostUrl(input: string): string {
  let text = input.trim();
  if (!text) throw badRequest(GhostMessages.siteUrlRequired, 'ghost_site_url');
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) text = `https://${text}`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw badRequest(GhostMessages.siteUrlInvalid, 'ghost_site_url');
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname || url.username || url.password)
    throw badRequest(GhostMessages.siteUrlInvalid, 'ghost_site_url');
  // people paste the admin address (https://example.com/ghost/#/dashboard)
  const path = url.pathname.replace(/\/ghost(\/.*)?$/i, '').replace(/\/+$/, '');
  return `${url.protocol}//${url.host}${path}`;
}

/** An Admin API key: `id` names it (the token's kid), `secret` (hex) signs the tokens and never leaves this object. */
export class GhostAdminKey {
  readonly id: string;
  readonly #secret: string;

  constructor(key: string) {
    const text = key.trim();
    const problem = ghostAdminKeyProblem(text);
    if (problem) throw badRequest(problem, 'ghost_admin_key');
    const match = GHOST_ADMIN_KEY.exec(text)!;
    this.id = match[1]!.toLowerCase();
    this.#secret = match[2]!.toLowerCase();
  }

  /** The secret's bytes, the HS256 key of the tokens. */
  signingKey(): Uint8Array {
    return Buffer.from(this.#secret, 'hex');
  }

  /** `id:••••••••abcd`: what may be shown or logged. */
  masked(): string {
    return `${this.id}:${maskSecret(this.#secret)}`;
  }

  toJSON(): string {
    return this.masked();
  }

  toString(): string {
    return this.masked();
  }

  [inspect.custom](): string {
    return `GhostAdminKey(${this.masked()})`;
  }
}

/** The channel's settings as a form or the API sends them. */
export const GhostCredentialsSchema = lazySchema(() =>
  z.strictObject({
    siteUrl: z
      .string({ error: GhostMessages.siteUrlRequired })
      .check(
        z.trim(),
        z.minLength(1, GhostMessages.siteUrlRequired),
        z.maxLength(300, 'The site address is too long'),
        safeCharacters('The site address'),
      ),
    adminApiKey: z
      .string({ error: GhostMessages.adminKeyRequired })
      .check(
        z.trim(),
        z.minLength(1, GhostMessages.adminKeyRequired),
        z.maxLength(200, GhostMessages.adminKeyShape),
        safeCharacters('The Admin API key'),
      ),
  }),
);
export type GhostCredentialsInput = z.input<ReturnType<typeof GhostCredentialsSchema>>;

export interface GhostCredentials {
  siteUrl: string;
  adminKey: GhostAdminKey;
}

/** Checks and normalises the settings; InvalidError (400) with the first problem's sentence. */
export function parseGhostCredentials(input: unknown): GhostCredentials {
  const parsed = GhostCredentialsSchema().safeParse(input);
  if (!parsed.success)
    throw badRequest(parsed.error.issues[0]?.message ?? GhostMessages.adminKeyRequired, 'ghost_credentials');
  return { siteUrl: normaliseGhostUrl(parsed.data.siteUrl), adminKey: new GhostAdminKey(parsed.data.adminApiKey) };
}
