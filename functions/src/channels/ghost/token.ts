/**
 * The token of one Admin API call: a JWT signed HS256 with the key's secret (hex-decoded), `kid` the key's id,
 * audience `/admin/`. Ghost refuses a token valid for more than 5 minutes, so each is made for that long at most
 * and a new one is made per request.
 */
import { SignJWT } from 'jose';
import type { GhostAdminKey } from './credentials.js';

export const TOKEN_LIFETIME_SECONDS = 5 * 60;

export function adminToken(key: GhostAdminKey, now: Date = new Date()): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid: key.id })
    .setIssuedAt(iat)
    .setExpirationTime(iat + TOKEN_LIFETIME_SECONDS)
    .setAudience('/admin/')
    .sign(key.signingKey());
}
