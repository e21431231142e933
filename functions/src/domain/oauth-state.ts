import { randomBytes } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';

export type OAuthPurpose = 'linkedin' | 'gmail' | 'sheets';

/** Whether `userId` is an owner of team workspace `workspaceId` now (the workspace store answers it). */
export type IsWorkspaceOwner = (workspaceId: string, userId: string) => Promise<boolean>;

/** Why a callback's state does not let the flow finish: not genuine, or its starter no longer an owner. */
export type OAuthRefusal = 'invalid_state' | 'not_owner';

/**
 * OAuth `state`: signed, short-lived, bound to the user (the workspace the connection is stored in: the
 * personal one's id is the user's) and to the flow it was made for. A team workspace's flow also names the
 * member who started it, who must still be one of its owners when the provider sends them back
 * (docs/product.md, Workspaces: connections are set by owners).
 */
export class OAuthState {
  constructor(
    private readonly key: () => Promise<Uint8Array>,
    private readonly ttlSeconds = 600,
    private readonly isOwner?: IsWorkspaceOwner,
  ) {}

  /**
   * `extra`: what the flow needs to remember across the provider's redirect (e.g. the access asked for);
   * `startedBy`: the member starting a team workspace's flow (the same id as `userId` for a personal one).
   */
  async sign(
    userId: string,
    purpose: OAuthPurpose,
    extra: Record<string, string> = {},
    startedBy: string = userId,
  ): Promise<string> {
    const by = startedBy === userId ? {} : { by: startedBy };
    return new SignJWT({ ...extra, ...by, purpose, nonce: randomBytes(8).toString('hex') })
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

  /**
   * What a callback may act on: the workspace (`userId`) and the `extra` values, or why not. A team
   * workspace's flow finishes only while the member who started it is still one of its owners.
   */
  async finish(
    state: string | undefined,
    purpose: OAuthPurpose,
  ): Promise<{ userId: string; extra: Record<string, unknown> } | { refused: OAuthRefusal }> {
    const signed = await this.read(state, purpose);
    if (!signed) return { refused: 'invalid_state' };
    const { by, ...extra } = signed.extra;
    if (by !== undefined) {
      if (typeof by !== 'string' || !this.isOwner) return { refused: 'invalid_state' };
      if (!(await this.isOwner(signed.userId, by))) return { refused: 'not_owner' };
    }
    return { userId: signed.userId, extra };
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
