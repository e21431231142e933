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
  async read(
    state: string | undefined,
    purpose: OAuthPurpose,
  ): Promise<{ userId: string; extra: Record<string, unknown> } | undefined> {
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

/**
 * The provider's `error` parameter as it may travel on to the SPA's address: an OAuth error code
 * (RFC 6749 §4.1.2.1: access_denied, LinkedIn's user_cancelled_login…) or 'provider_error' for
 * anything that is not shaped like one. The callback is a public address, so the parameter can be
 * anything a link puts there; the SPA maps codes to its own texts and never shows them.
 */
export function providerErrorCode(error: string): string {
  return /^[a-z][a-z0-9_]{0,63}$/.test(error) ? error : 'provider_error';
}
