import { describe, expect, it } from 'vitest';
import {
  clampToNow,
  defaultScheduleTime,
  parseLocalInput,
  roundUpToStep,
  startOfToday,
  toLocalInput,
  validateScheduleInput,
} from './schedulePicker';

// The test process runs in the zone of the machine; local dates are built with the local constructor
// so every expectation holds in any zone.
const local = (y: number, m: number, d: number, h = 0, min = 0, s = 0) => new Date(y, m - 1, d, h, min, s);

describe('roundUpToStep', () => {
  it('rounds up to the next 5 minutes, drops seconds, and keeps an exact step', () => {
    expect(roundUpToStep(local(2025, 3, 4, 10, 1), 5)).toEqual(local(2025, 3, 4, 10, 5));
    expect(roundUpToStep(local(2025, 3, 4, 10, 4, 59), 5)).toEqual(local(2025, 3, 4, 10, 5));
    expect(roundUpToStep(local(2025, 3, 4, 10, 5), 5)).toEqual(local(2025, 3, 4, 10, 5));
    expect(roundUpToStep(local(2025, 3, 4, 10, 5, 1), 5)).toEqual(local(2025, 3, 4, 10, 10));
    expect(roundUpToStep(new Date(local(2025, 3, 4, 10, 5).getTime() + 1), 5)).toEqual(local(2025, 3, 4, 10, 10));
  });

  it('rolls over the hour, the day, the month and the year', () => {
    expect(roundUpToStep(local(2025, 3, 4, 10, 57), 5)).toEqual(local(2025, 3, 4, 11, 0));
    expect(roundUpToStep(local(2025, 3, 4, 23, 58), 5)).toEqual(local(2025, 3, 5, 0, 0));
    expect(roundUpToStep(local(2025, 2, 28, 23, 56), 5)).toEqual(local(2025, 3, 1, 0, 0));
    expect(roundUpToStep(local(2025, 12, 31, 23, 59, 30), 5)).toEqual(local(2026, 1, 1, 0, 0));
  });

  it('always lands on a local minute that is a multiple of 5', () => {
    for (let minute = 0; minute < 24 * 60; minute += 7) {
      const rounded = roundUpToStep(new Date(local(2025, 6, 15).getTime() + minute * 60_000 + 1234), 5);
      expect(rounded.getMinutes() % 5).toBe(0);
      expect(rounded.getSeconds()).toBe(0);
      expect(rounded.getMilliseconds()).toBe(0);
    }
  });
});

describe('defaultScheduleTime', () => {
  it('is one hour from now, rounded up to the next 5 minutes', () => {
    expect(defaultScheduleTime(local(2025, 3, 4, 10, 0))).toEqual(local(2025, 3, 4, 11, 0));
    expect(defaultScheduleTime(local(2025, 3, 4, 10, 2, 30))).toEqual(local(2025, 3, 4, 11, 5));
    expect(defaultScheduleTime(local(2025, 3, 4, 10, 56))).toEqual(local(2025, 3, 4, 12, 0));
  });

  it('rolls over into the next day, month and year', () => {
    expect(defaultScheduleTime(local(2025, 3, 4, 23, 3))).toEqual(local(2025, 3, 5, 0, 5));
    expect(defaultScheduleTime(local(2025, 4, 30, 23, 30))).toEqual(local(2025, 5, 1, 0, 30));
    expect(defaultScheduleTime(local(2025, 12, 31, 23, 58))).toEqual(local(2026, 1, 1, 1, 0));
  });

  it('is one real hour ahead across a daylight-saving change (DST-safe)', () => {
    // Whatever the zone, the answer is 60 to 65 minutes of real time later and on a 5-minute step.
    for (const now of [
      local(2025, 3, 30, 1, 58),
      local(2025, 3, 9, 1, 31),
      local(2025, 10, 26, 1, 59),
      local(2025, 11, 2, 1, 2),
    ]) {
      const at = defaultScheduleTime(now);
      const ahead = at.getTime() - now.getTime();
      expect(ahead).toBeGreaterThanOrEqual(60 * 60_000);
      expect(ahead).toBeLessThan(65 * 60_000);
      expect(at.getMinutes() % 5).toBe(0);
    }
  });
});

describe('clampToNow', () => {
  const now = local(2025, 3, 4, 10, 7, 42);

  it('turns a time earlier than now into now', () => {
    expect(clampToNow(local(2025, 3, 4, 10, 5), now)).toEqual(now);
    expect(clampToNow(local(2025, 3, 4, 9, 0), now)).toEqual(now);
    expect(clampToNow(local(2024, 12, 31, 23, 55), now)).toEqual(now);
  });

  it('keeps now and later times as they are', () => {
    expect(clampToNow(now, now)).toEqual(now);
    expect(clampToNow(local(2025, 3, 4, 10, 10), now)).toEqual(local(2025, 3, 4, 10, 10));
    expect(clampToNow(local(2026, 1, 1, 0, 0), now)).toEqual(local(2026, 1, 1, 0, 0));
  });

  it("returns a copy, not the caller's now", () => {
    const clamped = clampToNow(local(2025, 1, 1), now);
    expect(clamped).not.toBe(now);
  });
});

describe('startOfToday', () => {
  it('is local midnight of the same day', () => {
    expect(startOfToday(local(2025, 3, 4, 23, 59, 59))).toEqual(local(2025, 3, 4));
    expect(startOfToday(local(2025, 1, 1, 0, 0))).toEqual(local(2025, 1, 1));
  });
});

describe('toLocalInput / parseLocalInput', () => {
  it('formats YYYY-MM-DDTHH:mm on the local clock, 24-hour, zero-padded', () => {
    expect(toLocalInput(local(2025, 3, 4, 9, 5))).toBe('2025-03-04T09:05');
    expect(toLocalInput(local(2025, 12, 31, 23, 55, 59))).toBe('2025-12-31T23:55');
    expect(toLocalInput(local(2026, 1, 1, 0, 0))).toBe('2026-01-01T00:00');
  });

  it('reads back what it writes', () => {
    const date = local(2025, 7, 14, 18, 45);
    expect(parseLocalInput(toLocalInput(date))).toEqual(date);
  });

  it('refuses other shapes and dates that do not exist', () => {
    for (const bad of [
      '',
      '2025-03-04',
      '2025-03-04 10:05',
      '2025-3-4T10:05',
      '2025-03-04T10:05:00',
      '2025-03-04T24:00',
      '2025-03-04T10:60',
      '2025-02-30T10:00',
      '2025-13-01T10:00',
      '2025-00-10T10:00',
      'tomorrow',
    ]) {
      expect(parseLocalInput(bad), bad).toBeNull();
    }
    expect(parseLocalInput('2024-02-29T12:00')).toEqual(local(2024, 2, 29, 12, 0));
  });
});

describe('validateScheduleInput', () => {
  const now = local(2025, 3, 4, 10, 7, 42);

  it('"Please select a valid date and time." unless it matches YYYY-MM-DDTHH:mm', () => {
    for (const bad of [null, undefined, '', '04/03/2025 10:05', '2025-03-04 10:05', '2025-02-30T10:00']) {
      expect(validateScheduleInput(bad, now)).toEqual({ ok: false, message: 'Please select a valid date and time.' });
    }
  });

  it('"Please choose a future date and time." for a past minute', () => {
    expect(validateScheduleInput('2025-03-04T10:06', now)).toEqual({
      ok: false,
      message: 'Please choose a future date and time.',
    });
    expect(validateScheduleInput('2025-03-03T23:55', now)).toEqual({
      ok: false,
      message: 'Please choose a future date and time.',
    });
  });

  it('accepts the current minute (a past pick clamped to now) and any later time', () => {
    expect(validateScheduleInput('2025-03-04T10:07', now)).toEqual({ ok: true, date: local(2025, 3, 4, 10, 7) });
    expect(validateScheduleInput('2025-03-04T10:10', now)).toEqual({ ok: true, date: local(2025, 3, 4, 10, 10) });
    expect(validateScheduleInput('2026-01-01T00:00', now)).toEqual({ ok: true, date: local(2026, 1, 1, 0, 0) });
  });
});
