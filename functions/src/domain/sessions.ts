import { SignJWT, jwtVerify } from 'jose';

export const SESSION_COOKIE = 'session';

export interface SessionOptions {
  /** Returns the HMAC key; fetched lazily (Secrets Manager in AWS, a file locally). */
  key: () => Promise<Uint8Array>;
  ttlSeconds: number;
  secureCookie: boolean;
}

/** Stateless signed session: the token names the user; every request re-reads that user. */
export class Sessions {
  constructor(private readonly options: SessionOptions) {}

  async issue(userId: string): Promise<string> {
    const token = await new SignJWT({})
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

  /** The user id in a valid token, else undefined (expired, forged or malformed tokens alike). */
  async verify(token: string | undefined): Promise<string | undefined> {
    if (!token) return undefined;
    try {
      const { payload } = await jwtVerify(token, await this.options.key(), { algorithms: ['HS256'] });
      return typeof payload.sub === 'string' ? payload.sub : undefined;
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
