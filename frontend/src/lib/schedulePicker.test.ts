import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { wallClockIn } from '@app/shared';
import {
  defaultScheduleTime,
  formatWallClock,
  fromPickerDate,
  isSelectableSlot,
  parseWallClock,
  pickerNow,
  pickerToday,
  roundUpToStep,
  scheduleFieldText,
  slotFilter,
  toPickerDate,
  validateScheduleInput,
  wallClockExists,
  wallClockToInstant,
  type WallClock,
} from './schedulePicker';

// Instants are written in UTC and wall clocks as fields. The browser's zone is set with vi.stubEnv('TZ', …)
// (Node applies it at once): UTC unless a test says otherwise, so that the picker's Dates (browser-local)
// can stand for any wall clock; the zone arithmetic is checked under several browser zones.
const at = (iso: string) => new Date(iso);
const wall = (text: string): WallClock => {
  const parsed = parseWallClock(text);
  if (!parsed) throw new Error(`not a wall clock: ${text}`);
  return parsed;
};
/** Browser zones the zone arithmetic must not depend on: none, one with its own DST, two far away. */
const BROWSER_ZONES = [
  'UTC',
  'Europe/Paris',
  'America/New_York',
  'America/Los_Angeles',
  'Asia/Kolkata',
  'Pacific/Kiritimati',
];

beforeEach(() => {
  vi.stubEnv('TZ', 'UTC');
});

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('roundUpToStep', () => {
  it('rounds up to the next 5 minutes, drops seconds, and keeps an exact step', () => {
    expect(roundUpToStep(at('2025-03-04T10:01:00Z'), 5)).toEqual(at('2025-03-04T10:05:00Z'));
    expect(roundUpToStep(at('2025-03-04T10:04:59Z'), 5)).toEqual(at('2025-03-04T10:05:00Z'));
    expect(roundUpToStep(at('2025-03-04T10:05:00Z'), 5)).toEqual(at('2025-03-04T10:05:00Z'));
    expect(roundUpToStep(at('2025-03-04T10:05:01Z'), 5)).toEqual(at('2025-03-04T10:10:00Z'));
    expect(roundUpToStep(at('2025-03-04T10:05:00.001Z'), 5)).toEqual(at('2025-03-04T10:10:00Z'));
  });

  it('rolls over the hour, the day, the month and the year', () => {
    expect(roundUpToStep(at('2025-03-04T10:57:00Z'), 5)).toEqual(at('2025-03-04T11:00:00Z'));
    expect(roundUpToStep(at('2025-03-04T23:58:00Z'), 5)).toEqual(at('2025-03-05T00:00:00Z'));
    expect(roundUpToStep(at('2025-02-28T23:56:00Z'), 5)).toEqual(at('2025-03-01T00:00:00Z'));
    expect(roundUpToStep(at('2025-12-31T23:59:30Z'), 5)).toEqual(at('2026-01-01T00:00:00Z'));
  });
});

describe('defaultScheduleTime', () => {
  it('is one hour from now, rounded up to the next 5 minutes', () => {
    expect(defaultScheduleTime(at('2025-03-04T10:00:00Z'))).toEqual(at('2025-03-04T11:00:00Z'));
    expect(defaultScheduleTime(at('2025-03-04T10:02:30Z'))).toEqual(at('2025-03-04T11:05:00Z'));
    expect(defaultScheduleTime(at('2025-03-04T10:56:00Z'))).toEqual(at('2025-03-04T12:00:00Z'));
    expect(defaultScheduleTime(at('2025-12-31T23:58:00Z'))).toEqual(at('2026-01-01T01:00:00Z'));
  });

  it("lands on a 5-minute step of the user's clock, whatever the zone's offset", () => {
    const now = at('2030-03-04T10:07:42Z');
    expect(scheduleFieldText(defaultScheduleTime(now), 'Asia/Kolkata')).toBe('2030-03-04 16:40'); // +05:30
    expect(scheduleFieldText(defaultScheduleTime(now), 'Asia/Kathmandu')).toBe('2030-03-04 16:55'); // +05:45
    expect(scheduleFieldText(defaultScheduleTime(now), 'America/New_York')).toBe('2030-03-04 06:10');
    expect(scheduleFieldText(defaultScheduleTime(now), 'Pacific/Kiritimati')).toBe('2030-03-05 01:10'); // +14
  });

  it('is one real hour ahead across a daylight-saving change', () => {
    // 01:31 EST on the night New York's clocks go forward: an hour later is 03:31 EDT, rounded to 03:35.
    const now = at('2026-03-08T06:31:00Z');
    expect(scheduleFieldText(now, 'America/New_York')).toBe('2026-03-08 01:31');
    expect(scheduleFieldText(defaultScheduleTime(now), 'America/New_York')).toBe('2026-03-08 03:35');
    // 01:02 EDT on the night they go back: an hour later is 01:05 EST (the second 01:05).
    const back = at('2026-11-01T05:02:00Z');
    expect(defaultScheduleTime(back)).toEqual(at('2026-11-01T06:05:00Z'));
    expect(scheduleFieldText(defaultScheduleTime(back), 'America/New_York')).toBe('2026-11-01 01:05');
  });
});

describe('parseWallClock / formatWallClock', () => {
  it('reads the field\'s "YYYY-MM-DD HH:mm" (and the SPEC\'s YYYY-MM-DDTHH:mm) and writes it back', () => {
    expect(parseWallClock('2025-03-04 09:05')).toEqual({ year: 2025, month: 3, day: 4, hour: 9, minute: 5 });
    expect(parseWallClock('2025-03-04T09:05')).toEqual({ year: 2025, month: 3, day: 4, hour: 9, minute: 5 });
    expect(parseWallClock(' 2025-12-31 23:55 ')).toEqual({ year: 2025, month: 12, day: 31, hour: 23, minute: 55 });
    expect(parseWallClock('2024-02-29 12:00')).toEqual({ year: 2024, month: 2, day: 29, hour: 12, minute: 0 });
    expect(formatWallClock({ year: 2026, month: 1, day: 1, hour: 0, minute: 0 })).toBe('2026-01-01 00:00');
    expect(formatWallClock(wall('2025-07-14 18:45'))).toBe('2025-07-14 18:45');
  });

  it('refuses other shapes, half-typed values and dates or times that do not exist', () => {
    for (const bad of [
      null,
      undefined,
      '',
      'tomorrow',
      '2026-13-45 99:99',
      '2025-03-04',
      '2025-03-04 1',
      '2025-03-04 10:0',
      '2025-3-4 10:05',
      '2025-03-04 10:05:00',
      '04/03/2025 10:05',
      '2025-03-04 24:00',
      '2025-03-04 10:60',
      '2025-02-29 10:00',
      '2025-02-30 10:00',
      '2025-04-31 10:00',
      '2025-13-01 10:00',
      '2025-00-10 10:00',
      '2025-01-00 10:00',
    ]) {
      expect(parseWallClock(bad), String(bad)).toBeNull();
    }
  });
});

describe('wallClockIn / wallClockToInstant', () => {
  it("converts between an instant and the user's clock", () => {
    const instant = at('2030-03-04T10:07:42Z');
    expect(scheduleFieldText(instant, 'Asia/Kolkata')).toBe('2030-03-04 15:37');
    expect(scheduleFieldText(instant, 'America/Los_Angeles')).toBe('2030-03-04 02:07');
    expect(scheduleFieldText(instant, 'Asia/Tokyo')).toBe('2030-03-04 19:07');
    expect(wallClockToInstant(wall('2030-03-04 16:40'), 'Asia/Kolkata')).toEqual(at('2030-03-04T11:10:00Z'));
    expect(wallClockToInstant(wall('2030-07-01 09:00'), 'Europe/Paris')).toEqual(at('2030-07-01T07:00:00Z'));
    expect(wallClockToInstant(wall('2030-01-01 09:00'), 'Europe/Paris')).toEqual(at('2030-01-01T08:00:00Z'));
  });

  it("does not depend on the browser's own zone", () => {
    for (const browser of BROWSER_ZONES) {
      vi.stubEnv('TZ', browser);
      expect(wallClockToInstant(wall('2026-03-29 02:30'), 'Asia/Kolkata'), browser).toEqual(at('2026-03-28T21:00:00Z'));
      expect(wallClockToInstant(wall('2026-03-08 02:30'), 'Europe/Paris'), browser).toEqual(at('2026-03-08T01:30:00Z'));
      expect(wallClockIn(at('2026-03-29T01:30:00Z'), 'America/New_York'), browser).toEqual(wall('2026-03-28 21:30'));
    }
  });

  it('moves a time skipped by a daylight-saving change forward (New York, 2026-03-08 02:00-02:59 do not exist)', () => {
    const ny = 'America/New_York';
    for (const browser of BROWSER_ZONES) {
      vi.stubEnv('TZ', browser);
      expect(wallClockToInstant(wall('2026-03-08 01:59'), ny), browser).toEqual(at('2026-03-08T06:59:00Z')); // EST
      expect(wallClockToInstant(wall('2026-03-08 02:00'), ny), browser).toEqual(at('2026-03-08T07:00:00Z')); // 03:00 EDT
      expect(wallClockToInstant(wall('2026-03-08 02:30'), ny), browser).toEqual(at('2026-03-08T07:30:00Z')); // 03:30 EDT
      expect(wallClockToInstant(wall('2026-03-08 03:00'), ny), browser).toEqual(at('2026-03-08T07:00:00Z'));
      expect(scheduleFieldText(wallClockToInstant(wall('2026-03-08 02:30'), ny), ny)).toBe('2026-03-08 03:30');
    }
    // Paris goes forward at 02:00 too (UTC+1 → UTC+2).
    expect(wallClockToInstant(wall('2026-03-29 02:30'), 'Europe/Paris')).toEqual(at('2026-03-29T01:30:00Z'));
    expect(wallClockExists(wall('2026-03-08 02:30'), ny)).toBe(false);
    expect(wallClockExists(wall('2026-03-08 03:30'), ny)).toBe(true);
    expect(wallClockExists(wall('2026-03-08 02:30'), 'Asia/Kolkata')).toBe(true);
  });

  it('takes the first of a time shown twice (New York, 2026-11-01 01:30 EDT, then 01:30 EST)', () => {
    const ny = 'America/New_York';
    for (const browser of BROWSER_ZONES) {
      vi.stubEnv('TZ', browser);
      expect(wallClockToInstant(wall('2026-11-01 00:59'), ny), browser).toEqual(at('2026-11-01T04:59:00Z'));
      expect(wallClockToInstant(wall('2026-11-01 01:30'), ny), browser).toEqual(at('2026-11-01T05:30:00Z'));
      expect(wallClockToInstant(wall('2026-11-01 02:00'), ny), browser).toEqual(at('2026-11-01T07:00:00Z'));
      expect(wallClockExists(wall('2026-11-01 01:30'), ny), browser).toBe(true);
    }
    // Paris goes back at 03:00 (UTC+2 → UTC+1): 02:30 CEST first.
    expect(wallClockToInstant(wall('2026-10-25 02:30'), 'Europe/Paris')).toEqual(at('2026-10-25T00:30:00Z'));
  });
});

describe("the picker's Dates", () => {
  it("carry the user's wall clock in their browser-local fields", () => {
    vi.stubEnv('TZ', 'America/Los_Angeles');
    const now = at('2030-03-04T20:00:00Z'); // 12:00 in Los Angeles, 05:00 the next day in Tokyo
    const date = pickerNow(now, 'Asia/Tokyo');
    expect(fromPickerDate(date)).toEqual(wall('2030-03-05 05:00'));
    expect(pickerToday(now, 'Asia/Tokyo')).toEqual(new Date(2030, 2, 5));
    expect(pickerToday(now, 'America/Los_Angeles')).toEqual(new Date(2030, 2, 4));
    expect(fromPickerDate(toPickerDate(wall('2030-12-31 23:55')))).toEqual(wall('2030-12-31 23:55'));
  });
});

describe('isSelectableSlot', () => {
  const zone = 'Asia/Kolkata';
  const slot = (text: string) => toPickerDate(wall(text));

  it("disables the slots of today that have passed on the user's clock; the minute under way still counts", () => {
    const now = at('2030-03-04T10:07:42Z'); // 15:37:42 in Kolkata
    expect(isSelectableSlot(slot('2030-03-04 00:00'), now, zone)).toBe(false);
    expect(isSelectableSlot(slot('2030-03-04 15:35'), now, zone)).toBe(false);
    expect(isSelectableSlot(slot('2030-03-04 15:40'), now, zone)).toBe(true);
    expect(isSelectableSlot(slot('2030-03-05 00:00'), now, zone)).toBe(true);
    expect(isSelectableSlot(slot('2030-03-04 15:35'), at('2030-03-04T10:05:30Z'), zone)).toBe(true);
  });

  it('disables the slots a daylight-saving change skips', () => {
    const now = at('2026-03-01T00:00:00Z');
    expect(isSelectableSlot(slot('2026-03-08 01:55'), now, 'America/New_York')).toBe(true);
    expect(isSelectableSlot(slot('2026-03-08 02:30'), now, 'America/New_York')).toBe(false);
    expect(isSelectableSlot(slot('2026-03-08 03:00'), now, 'America/New_York')).toBe(true);
  });
});

describe('slotFilter', () => {
  it('agrees with isSelectableSlot on every slot, on plain days and on days the offset changes', () => {
    const cases: [zone: string, day: string, now: string][] = [
      ['Asia/Kolkata', '2030-03-04', '2030-03-04T10:07:42Z'],
      ['Asia/Kolkata', '2030-03-05', '2030-03-04T10:07:42Z'],
      ['America/New_York', '2026-03-08', '2026-03-08T05:00:00Z'], // 00:00 EST; 02:00-02:55 skipped
      ['America/New_York', '2026-11-01', '2026-11-01T05:32:00Z'], // 01:32 EDT; 01:00-01:55 twice
      ['Europe/Paris', '2026-03-29', '2026-03-28T12:00:00Z'],
      ['Pacific/Kiritimati', '2030-03-05', '2030-03-04T10:07:42Z'],
    ];
    for (const [zone, day, nowIso] of cases) {
      const now = at(nowIso);
      const filter = slotFilter(now, zone);
      for (let minute = 0; minute < 24 * 60; minute += 5) {
        const slot = toPickerDate({ ...wall(`${day} 00:00`), hour: Math.floor(minute / 60), minute: minute % 60 });
        expect(filter(slot), `${zone} ${day} ${minute}`).toBe(isSelectableSlot(slot, now, zone));
      }
    }
    const ny = slotFilter(at('2026-03-08T05:00:00Z'), 'America/New_York');
    expect(ny(toPickerDate(wall('2026-03-08 02:30')))).toBe(false);
    expect(ny(toPickerDate(wall('2026-03-08 03:30')))).toBe(true);
  });
});

describe('validateScheduleInput', () => {
  const now = at('2030-03-04T10:07:42Z'); // 15:37:42 in Kolkata
  const zone = 'Asia/Kolkata';

  it('"Please select a valid date and time." unless it reads as YYYY-MM-DD HH:mm', () => {
    for (const bad of [null, undefined, '', 'tomorrow', '2026-13-45 99:99', '2030-03-0', '04/03/2030 10:05']) {
      expect(validateScheduleInput(bad, now, zone)).toEqual({
        ok: false,
        message: 'Please select a valid date and time.',
      });
    }
  });

  it('"Please choose a future date and time." for a past minute on the user\'s clock', () => {
    for (const past of ['2030-03-04 15:36', '2030-03-04 10:07', '2030-03-03 23:55']) {
      expect(validateScheduleInput(past, now, zone), past).toEqual({
        ok: false,
        message: 'Please choose a future date and time.',
      });
    }
  });

  it('"Please choose a time in 5-minute steps, such as …" for a future time between the steps, naming the next one', () => {
    for (const [offStep, next] of [
      ['2030-03-04 16:03', '16:05'],
      ['2030-03-04 16:41', '16:45'],
      ['2030-03-05 07:59', '08:00'],
      ['2030-03-05 23:58', '00:00'],
    ] as const) {
      expect(validateScheduleInput(offStep, now, zone), offStep).toEqual({
        ok: false,
        message: `Please choose a time in 5-minute steps, such as ${next}.`,
      });
    }
  });

  it("accepts the current minute on a step and any later step, and gives the instant in the user's zone", () => {
    // 15:35:42 in Kolkata: the minute under way, 15:35, is a step and still counts as now.
    expect(validateScheduleInput('2030-03-04 15:35', at('2030-03-04T10:05:42Z'), zone)).toEqual({
      ok: true,
      date: at('2030-03-04T10:05:00Z'),
      text: '2030-03-04 15:35',
    });
    expect(validateScheduleInput('2030-03-04T16:40', now, zone)).toEqual({
      ok: true,
      date: at('2030-03-04T11:10:00Z'),
      text: '2030-03-04 16:40',
    });
    // The same text means another instant in another zone.
    expect(validateScheduleInput('2030-03-04 16:40', now, 'America/New_York')).toMatchObject({
      ok: true,
      date: at('2030-03-04T21:40:00Z'),
    });
  });

  it('moves a skipped time forward, in the instant and in the text', () => {
    expect(validateScheduleInput('2026-03-08 02:30', at('2026-03-01T00:00:00Z'), 'America/New_York')).toEqual({
      ok: true,
      date: at('2026-03-08T07:30:00Z'),
      text: '2026-03-08 03:30',
    });
  });
});
