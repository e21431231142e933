/**
 * The Ghost channel's settings texts and the shape of its Admin API key (docs/integrations.md, Ghost), shared so that
 * the settings panel refuses a wrong key with the same sentence as the server (functions/src/channels/ghost/
 * credentials.ts) before anything is sent.
 */

export const GhostMessages = {
  siteUrlRequired: 'Enter the address of the Ghost site, e.g. https://example.com.',
  siteUrlInvalid: 'Enter the Ghost site address like https://example.com (http:// or https://).',
  adminKeyRequired:
    'Paste the Admin API key of a custom integration (Ghost Admin → Settings → Integrations → Add custom integration).',
  contentKeyGiven:
    'This is the Content API key, which can only read. Copy the Admin API key of the same integration: it has a colon in the middle (id:secret).',
  adminKeyShape:
    'This is not a Ghost Admin API key: it is 24 hexadecimal characters, a colon, then 64 more (id:secret). Copy it again from the custom integration in Ghost Admin → Settings → Integrations.',
} as const;

/** An Admin API key: the key's id (24 hex), a colon, its secret (64 hex). */
export const GHOST_ADMIN_KEY = /^([0-9a-f]{24}):([0-9a-f]{64})$/i;
/** A Content API key (read-only), the one people paste by mistake. */
export const GHOST_CONTENT_KEY = /^[0-9a-f]{26}$/i;

/** What is wrong with a pasted Admin API key (trimmed first), or null when it has the right shape. */
export function ghostAdminKeyProblem(key: string): string | null {
  const text = key.trim();
  if (!text) return GhostMessages.adminKeyRequired;
  if (GHOST_CONTENT_KEY.test(text)) return GhostMessages.contentKeyGiven;
  return GHOST_ADMIN_KEY.test(text) ? null : GhostMessages.adminKeyShape;
}
