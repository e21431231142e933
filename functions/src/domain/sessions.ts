import { randomBytes } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';

export const SESSION_COOKIE = 'session';

export interface SessionOptions {
  /** Returns the HMAC key; fetched lazily (Secrets Manager in AWS, a file locally). */
  key: () => Promise<Uint8Array>;
  ttlSeconds: number;
  secureCookie: boolean;
}

/**
 * What a session token says it is. Sessions share their signing key with OAuth states and approval
 * links, which also name a user: only a token made for a session may act as one.
 */
const SESSION_PURPOSE = 'session';

/** A verified session token: whose it is, and what can end it before it expires. */
export interface Session {
  userId: string;
  /** The user's session version when it was issued: moving the version ends every older session. */
  version: number;
  /** This session's own id (for ending just this one, at logout). */
  id: string;
  /** Expiry, seconds since the epoch. */
  expiresAt: number;
}

/** How a revoked session is recorded: expiry first, so that stale entries can be pruned without parsing tokens. */
export const revokedSessionEntry = (session: Pick<Session, 'id' | 'expiresAt'>): string =>
  `${session.expiresAt}:${session.id}`;
export const revokedEntryExpiry = (entry: string): number => Number(entry.slice(0, entry.indexOf(':')));

/**
 * A signed session token (JWT). Every request re-reads the user it names, and that read also decides
 * whether the session still holds: the user's `sessionVersion` must match the token's (logout
 * everywhere, a password change and deactivation move it) and the token's id must not be among the
 * user's revoked sessions (logout).
 */
export class Sessions {
  constructor(private readonly options: SessionOptions) {}

  /** A cookie with a new session of this user at their current session version. */
  async issue(userId: string, version = 0): Promise<string> {
    const token = await new SignJWT({ purpose: SESSION_PURPOSE, sv: version })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(userId)
      .setJti(randomBytes(16).toString('base64url'))
      .setIssuedAt()
      .setExpirationTime(`${this.options.ttlSeconds}s`)
      .sign(await this.options.key());
    return this.cookie(token, this.options.ttlSeconds);
  }

  clear(): string {
    return this.cookie('', 0);
  }

  /**
   * The session in a valid token, else undefined (expired, forged, malformed, made for another
   * purpose, or issued before sessions carried a version and an id).
   */
  async verify(token: string | undefined): Promise<Session | undefined> {
    if (!token) return undefined;
    try {
      const { payload } = await jwtVerify(token, await this.options.key(), { algorithms: ['HS256'] });
      const { purpose, sub, sv, jti, exp } = payload;
      if (purpose !== SESSION_PURPOSE || typeof sub !== 'string' || typeof jti !== 'string' || typeof exp !== 'number')
        return undefined;
      if (typeof sv !== 'number' || !Number.isInteger(sv)) return undefined;
      return { userId: sub, version: sv, id: jti, expiresAt: exp };
    } catch {
      return undefined;
    }
  }

  private cookie(value: string, maxAge: number): string {
    const parts = [`${SESSION_COOKIE}=${value}`, 'Path=/', 'HttpOnly', 'SameSite=Lax', `Max-Age=${maxAge}`];
    if (this.options.secureCookie) parts.push('Secure');
    return parts.join('; ');
  }
}

export function readCookie(cookies: string[] | undefined, name: string): string | undefined {
  for (const header of cookies ?? []) {
    for (const part of header.split(';')) {
      const eq = part.indexOf('=');
      if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
    }
  }
  return undefined;
}
