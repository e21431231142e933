import { SignJWT, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { epochSeconds, signJwt, verifyJwt } from '../src/domain/jwt.js';

const key = new TextEncoder().encode('a-session-key-of-thirty-two-bytes!');
const otherKey = new TextEncoder().encode('another-key-of-thirty-two-bytes!!!');
const now = epochSeconds();
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('HS256 tokens (domain/jwt.ts)', () => {
  it('reads what a standard JOSE library signs, and the library reads what it signs', async () => {
    const byLibrary = await new SignJWT({ purpose: 'session', sv: 3 })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('u1')
      .setIssuedAt(now)
      .setExpirationTime(now + 60)
      .sign(key);
    expect(verifyJwt(byLibrary, key)).toEqual({ purpose: 'session', sv: 3, sub: 'u1', iat: now, exp: now + 60 });

    const ours = signJwt({ sub: 'u2', iat: now, exp: now + 60, aud: '/admin/' }, key, { typ: 'JWT', kid: 'k1' });
    const { payload, protectedHeader } = await jwtVerify(ours, key, { algorithms: ['HS256'], audience: '/admin/' });
    expect(payload).toEqual({ sub: 'u2', iat: now, exp: now + 60, aud: '/admin/' });
    expect(protectedHeader).toEqual({ alg: 'HS256', typ: 'JWT', kid: 'k1' });
  });

  it('refuses another key, a changed payload or signature, and a malformed token', () => {
    const token = signJwt({ sub: 'u1', exp: now + 60 }, key);
    const [header, , signature] = token.split('.');
    expect(() => verifyJwt(token, otherKey)).toThrow();
    expect(() => verifyJwt(`${header}.${b64({ sub: 'admin', exp: now + 60 })}.${signature}`, key)).toThrow();
    expect(() => verifyJwt(`${token.slice(0, -2)}AA`, key)).toThrow();
    expect(() => verifyJwt(`${token}=`, key)).toThrow();
    for (const bad of ['', 'a.b', 'a.b.c.d', `${token}.x`, 'not a token']) expect(() => verifyJwt(bad, key)).toThrow();
  });

  it('refuses the none algorithm, another algorithm and critical header extensions, even correctly signed', () => {
    expect(() => verifyJwt(`${b64({ alg: 'none' })}.${b64({ sub: 'u1' })}.`, key)).toThrow();
    for (const header of [{ alg: 'HS512' }, { crit: ['b64'], b64: false }])
      expect(() => verifyJwt(signJwt({ sub: 'u1' }, key, header as unknown as Record<string, string>), key)).toThrow();
  });

  it('refuses an expired token, one not valid yet, and time claims that are not numbers', () => {
    expect(verifyJwt(signJwt({ exp: now + 1 }, key), key, now)).toEqual({ exp: now + 1 });
    expect(() => verifyJwt(signJwt({ exp: now }, key), key, now)).toThrow('expired');
    expect(() => verifyJwt(signJwt({ exp: now - 3600 }, key), key)).toThrow('expired');
    expect(() => verifyJwt(signJwt({ nbf: now + 60 }, key), key, now)).toThrow('not yet valid');
    expect(() => verifyJwt(signJwt({ exp: String(now + 60) }, key), key, now)).toThrow();
  });

  it('refuses a payload that is not an object', () => {
    expect(() => verifyJwt(signJwt([1, 2] as never, key), key)).toThrow();
  });
});
