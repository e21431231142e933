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

/** Stateless signed session: the token names the user; every request re-reads that user. */
export class Sessions {
  constructor(private readonly options: SessionOptions) {}

  async issue(userId: string): Promise<string> {
    const token = await new SignJWT({ purpose: SESSION_PURPOSE })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(userId)
      .setIssuedAt()
      .setExpirationTime(`${this.options.ttlSeconds}s`)
      .sign(await this.options.key());
    return this.cookie(token, this.options.ttlSeconds);
  }

  clear(): string {
    return this.cookie('', 0);
  }

  /** The user id in a valid session token, else undefined (expired, forged, malformed or made for another purpose alike). */
  async verify(token: string | undefined): Promise<string | undefined> {
    if (!token) return undefined;
    try {
      const { payload } = await jwtVerify(token, await this.options.key(), { algorithms: ['HS256'] });
      return payload.purpose === SESSION_PURPOSE && typeof payload.sub === 'string' ? payload.sub : undefined;
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
