import { randomBytes } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';

export type OAuthPurpose = 'linkedin' | 'gmail' | 'sheets';

/** OAuth `state`: signed, short-lived, bound to the user and to the flow it was made for. */
export class OAuthState {
  constructor(
    private readonly key: () => Promise<Uint8Array>,
    private readonly ttlSeconds = 600,
  ) {}

  async sign(userId: string, purpose: OAuthPurpose): Promise<string> {
    return new SignJWT({ purpose, nonce: randomBytes(8).toString('hex') })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(userId)
      .setIssuedAt()
      .setExpirationTime(`${this.ttlSeconds}s`)
      .sign(await this.key());
  }

  /** The user id, or undefined for a forged, expired, reused-for-another-flow or missing state. */
  async verify(state: string | undefined, purpose: OAuthPurpose): Promise<string | undefined> {
    if (!state) return undefined;
    try {
      const { payload } = await jwtVerify(state, await this.key(), { algorithms: ['HS256'] });
      return payload.purpose === purpose && typeof payload.sub === 'string' ? payload.sub : undefined;
    } catch {
      return undefined;
    }
  }
}
