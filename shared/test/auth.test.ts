import { describe, expect, it, vi } from 'vitest';
import { LoginSchema, RegisterSchema, defaultTimeZone, firstIssueMessage, isValidTimeZone } from '../src/index.js';

const valid = { name: 'Ada', surname: 'Lovelace', email: 'ada@example.com', password: 'secret1', timezone: 'UTC' };

describe('registration schema', () => {
  it('accepts a valid form and trims names', () => {
    expect(RegisterSchema().parse({ ...valid, name: '  Ada ' }).name).toBe('Ada');
  });
  it.each([
    [{ password: '12345' }, 'Password must be at least 6 characters'],
    [{ name: '' }, 'Name is required'],
    [{ surname: '  ' }, 'Surname is required'],
    [{ email: 'nope' }, 'Enter a valid email address'],
    [{ timezone: '' }, 'Timezone is required'],
    [{ timezone: 'Nowhere/City' }, 'Timezone is not a known time zone'],
    [{ extra: 1 }, 'Unknown field: extra'],
    [{ '': 1, 'a b': 2 }, 'Unknown field: "", "a b"'],
  ])('refuses %o with "%s"', (patch, message) => {
    const result = RegisterSchema().safeParse({ ...valid, ...patch });
    expect(result.success).toBe(false);
    expect(firstIssueMessage(result.error!)).toBe(message);
  });
  it('names a missing field', () => {
    const { timezone: _t, ...rest } = valid;
    expect(firstIssueMessage(RegisterSchema().safeParse(rest).error!)).toBe('Timezone is required');
  });
});

describe('login schema', () => {
  it('needs e-mail and a password of at least 6 characters', () => {
    expect(LoginSchema().safeParse({ email: 'a@b.co', password: 'secret' }).success).toBe(true);
    expect(firstIssueMessage(LoginSchema().safeParse({ email: 'a@b.co' }).error!)).toBe('Password is required');
    expect(firstIssueMessage(LoginSchema().safeParse({ email: 'a@b.co', password: '' }).error!)).toBe(
      'Password is required',
    );
    expect(firstIssueMessage(LoginSchema().safeParse({ email: 'a@b.co', password: 'five5' }).error!)).toBe(
      'Password must be at least 6 characters',
    );
  });
});

describe('time zones', () => {
  it('knows IANA zones and falls back to a valid default', () => {
    expect(isValidTimeZone('Asia/Kolkata')).toBe(true);
    expect(isValidTimeZone('Mars/Base')).toBe(false);
    expect(isValidTimeZone(defaultTimeZone())).toBe(true);
  });

  // The SPA asks on every render that shows a date: building a DateTimeFormat each time held the dashboard's first paint.
  it('checks a zone once, valid or not', () => {
    const built = vi.spyOn(Intl, 'DateTimeFormat');
    try {
      for (let i = 0; i < 3; i++) {
        expect(isValidTimeZone('America/Los_Angeles')).toBe(true);
        expect(isValidTimeZone('Moon/Crater')).toBe(false);
      }
      expect(built.mock.calls.length).toBeLessThanOrEqual(2);
    } finally {
      built.mockRestore();
    }
  });
});
