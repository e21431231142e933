import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from '../src/domain/passwords.js';
import { readCookie, Sessions } from '../src/domain/sessions.js';

describe('passwords', () => {
  it('hashes with a per-user salt and verifies only the right password', async () => {
    const a = await hashPassword('correct horse');
    const b = await hashPassword('correct horse');
    expect(a).not.toBe(b);
    expect(a).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(await verifyPassword('correct horse', a)).toBe(true);
    expect(await verifyPassword('correct horsE', a)).toBe(false);
    expect(await verifyPassword('correct horse', 'garbage')).toBe(false);
  });
});

describe('sessions', () => {
  const key = async () => new TextEncoder().encode('k'.repeat(48));
  it('issues a cookie whose token verifies to the user, and refuses other keys and expired tokens', async () => {
    const sessions = new Sessions({ key, ttlSeconds: 60, secureCookie: true });
    const cookie = await sessions.issue('user-1');
    expect(cookie).toMatch(/; HttpOnly; SameSite=Lax; Max-Age=60; Secure$/);
    const token = readCookie([cookie.split(';')[0]!], 'session');
    expect(await sessions.verify(token)).toBe('user-1');
    const other = new Sessions({ key: async () => new TextEncoder().encode('x'.repeat(48)), ttlSeconds: 60, secureCookie: false });
    expect(await other.verify(token)).toBeUndefined();
    const expired = new Sessions({ key, ttlSeconds: -10, secureCookie: false });
    const old = readCookie([(await expired.issue('user-1')).split(';')[0]!], 'session');
    expect(await sessions.verify(old)).toBeUndefined();
    expect(sessions.clear()).toMatch(/^session=; .*Max-Age=0/);
  });

  it('reads a cookie among several', () => {
    expect(readCookie(['a=1', 'session=tok; other=2'], 'session')).toBe('tok');
    expect(readCookie(undefined, 'session')).toBeUndefined();
  });
});
