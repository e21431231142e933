import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readCookie, Sessions } from '../src/domain/sessions.js';

// Counts the signature checks (jose's HS256 verification is WebCrypto's): a browser sends the same token with every call.
const checks = { count: 0 };
beforeEach(() => {
  const verify = crypto.subtle.verify.bind(crypto.subtle);
  vi.spyOn(crypto.subtle, 'verify').mockImplementation((algorithm, key, signature, data) => {
    checks.count++;
    return verify(algorithm, key, signature, data);
  });
});

const secret = new TextEncoder().encode('k'.repeat(48));
const tokenOf = (cookie: string) => readCookie([cookie.split(';')[0]!], 'session')!;

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  checks.count = 0;
});

describe('sessions: a token verified once', () => {
  it('is not checked again while it is valid, and says the same', async () => {
    const sessions = new Sessions({ key: async () => secret, ttlSeconds: 60, secureCookie: false });
    const token = tokenOf(await sessions.issue('user-1', 2));
    const first = await sessions.verify(token);
    expect(first).toMatchObject({ userId: 'user-1', version: 2 });
    for (let i = 0; i < 3; i++) expect(await sessions.verify(token)).toEqual(first);
    expect(checks.count).toBe(1);
  });

  it('is refused once it expires', async () => {
    vi.useFakeTimers({ now: new Date('2030-01-01T00:00:00Z'), toFake: ['Date'] });
    const sessions = new Sessions({ key: async () => secret, ttlSeconds: 60, secureCookie: false });
    const token = tokenOf(await sessions.issue('user-1'));
    expect(await sessions.verify(token)).toBeDefined();
    vi.setSystemTime(new Date('2030-01-01T00:00:59Z'));
    expect(await sessions.verify(token)).toBeDefined();
    vi.setSystemTime(new Date('2030-01-01T00:01:00Z'));
    expect(await sessions.verify(token)).toBeUndefined();
    expect(await sessions.verify(token)).toBeUndefined();
  });

  it('is checked again under another key, and a forged one is never kept', async () => {
    let key = secret;
    const sessions = new Sessions({ key: async () => key, ttlSeconds: 60, secureCookie: false });
    const token = tokenOf(await sessions.issue('user-1'));
    expect(await sessions.verify(token)).toBeDefined();
    key = new TextEncoder().encode('x'.repeat(48));
    expect(await sessions.verify(token)).toBeUndefined();
    const forged = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`;
    key = secret;
    expect(await sessions.verify(forged)).toBeUndefined();
    expect(await sessions.verify(forged)).toBeUndefined();
    expect(checks.count).toBe(4);
  });
});
