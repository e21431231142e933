import { randomBytes } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';

export type OAuthPurpose = 'linkedin' | 'gmail' | 'sheets';

/** OAuth `state`: signed, short-lived, bound to the user and to the flow it was made for. */
export class OAuthState {
  constructor(
    private readonly key: () => Promise<Uint8Array>,
    private readonly ttlSeconds = 600,
  ) {}

  /** `extra`: what the flow needs to remember across the provider's redirect (e.g. the access asked for). */
  async sign(userId: string, purpose: OAuthPurpose, extra: Record<string, string> = {}): Promise<string> {
    return new SignJWT({ ...extra, purpose, nonce: randomBytes(8).toString('hex') })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(userId)
      .setIssuedAt()
      .setExpirationTime(`${this.ttlSeconds}s`)
      .sign(await this.key());
  }

  /** The user id, or undefined for a forged, expired, reused-for-another-flow or missing state. */
  async verify(state: string | undefined, purpose: OAuthPurpose): Promise<string | undefined> {
    return (await this.read(state, purpose))?.userId;
  }

  /** The user id and the `extra` values signed with it, or undefined (as verify). */
  async read(state: string | undefined, purpose: OAuthPurpose): Promise<{ userId: string; extra: Record<string, unknown> } | undefined> {
    if (!state) return undefined;
    try {
      const { payload } = await jwtVerify(state, await this.key(), { algorithms: ['HS256'] });
      if (payload.purpose !== purpose || typeof payload.sub !== 'string') return undefined;
      const { purpose: _purpose, nonce: _nonce, sub, iat: _iat, exp: _exp, ...extra } = payload;
      return { userId: sub, extra };
    } catch {
      return undefined;
    }
  }
}
