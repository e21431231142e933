import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Compact JWTs signed with HMAC-SHA256 (HS256), the one kind the app makes and reads: sessions, OAuth state,
 * approval and review links (one key, told apart by a `purpose` claim), and Ghost's Admin API tokens.
 * node:crypto's HMAC is all they need; a JOSE library's key handling, algorithms and claim options were
 * ~17 KB of every function's cold start (docs/testing.md, Performance budgets), for one algorithm.
 */

/** A token's claims: registered ones (`sub`, `iat`, `exp`, `aud`, `jti`) beside the app's own. */
export type JwtClaims = Record<string, unknown>;

const encode = (value: unknown): string => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
const mac = (input: string, key: Uint8Array): Buffer => createHmac('sha256', key).update(input, 'ascii').digest();

/** Seconds since the epoch, as JWT claims count time. */
export const epochSeconds = (at: Date = new Date()): number => Math.floor(at.getTime() / 1000);

/**
 * A signed token of these claims. `header` adds to `alg` (Ghost wants `typ` and `kid`); times are the
 * caller's (`iat`, `exp` in epoch seconds).
 */
export function signJwt(claims: JwtClaims, key: Uint8Array, header: Record<string, string> = {}): string {
  const input = `${encode({ alg: 'HS256', ...header })}.${encode(claims)}`;
  return `${input}.${mac(input, key).toString('base64url')}`;
}

function decodeObject(part: string): Record<string, unknown> {
  const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('not an object');
  return value as Record<string, unknown>;
}

/**
 * The claims of a token this key signed with HS256, else it throws: a malformed token, another algorithm
 * (`none` included), a header naming extensions it must understand (`crit`), a signature that does not
 * match, an `exp` that has passed or an `nbf` still ahead (`now`, epoch seconds). Checking the claims that
 * say what a token is for stays with the caller.
 */
export function verifyJwt(token: string, key: Uint8Array, now: number = epochSeconds()): JwtClaims {
  const parts = token.split('.');
  if (parts.length !== 3 || parts.some((part) => !/^[A-Za-z0-9_-]*$/.test(part))) throw new Error('malformed');
  const [header, payload, signature] = parts as [string, string, string];
  const given = Buffer.from(signature, 'base64url');
  const expected = mac(`${header}.${payload}`, key);
  // Compared as bytes of equal length, in constant time; an encoding that is not the canonical one is refused too.
  if (
    given.length !== expected.length ||
    !timingSafeEqual(given, expected) ||
    given.toString('base64url') !== signature
  )
    throw new Error('signature');
  const head = decodeObject(header);
  if (head.alg !== 'HS256' || 'crit' in head) throw new Error('algorithm');
  const claims = decodeObject(payload);
  for (const name of ['exp', 'nbf', 'iat'] as const)
    if (name in claims && typeof claims[name] !== 'number') throw new Error(`${name} is not a number`);
  if (typeof claims.exp === 'number' && claims.exp <= now) throw new Error('expired');
  if (typeof claims.nbf === 'number' && claims.nbf > now) throw new Error('not yet valid');
  return claims;
}
