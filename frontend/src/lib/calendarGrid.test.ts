import { describe, expect, it } from 'vitest';
import { addMonths, movedTime, parseDayKey, placeOf, viewDays, viewRange } from './calendarGrid';

// Berlin changes its clocks on Sunday 31 March 2030 (02:00 CET → 03:00 CEST): days there are not all 24 h.
const BERLIN = 'Europe/Berlin';

describe('calendar grid on the user clock', () => {
  it('reads only real dates from the URL', () => {
    expect(parseDayKey('2030-02-28')).toEqual({ year: 2030, month: 2, day: 28 });
    expect(parseDayKey('2030-02-30')).toBeNull();
    expect(parseDayKey('2030-2-3')).toBeNull();
    expect(parseDayKey(null)).toBeNull();
  });

  it('a month later from the 31st is the next month’s last day', () => {
    expect(addMonths({ year: 2030, month: 1, day: 31 }, 1)).toEqual({ year: 2030, month: 2, day: 28 });
    expect(addMonths({ year: 2030, month: 1, day: 15 }, -1)).toEqual({ year: 2029, month: 12, day: 15 });
  });

  it('a month is six weeks from the Monday before its first day; its range is from that midnight to the midnight after, in the zone', () => {
    const days = viewDays('month', { year: 2030, month: 3, day: 17 });
    expect(days).toHaveLength(42);
    expect(days[0]).toEqual({ year: 2030, month: 2, day: 25 });
    expect(days.at(-1)).toEqual({ year: 2030, month: 4, day: 7 });
    // Midnight CET (UTC+1) on 25 February; midnight CEST (UTC+2) on 8 April.
    expect(viewRange('month', { year: 2030, month: 3, day: 17 }, BERLIN)).toEqual({
      from: '2030-02-24T23:00:00.000Z',
      to: '2030-04-07T22:00:00.000Z',
    });
  });

  it('a move to another day keeps the time of day on the user clock across a clock change', () => {
    // 10:00 CET on Saturday 30 March → 10:00 CEST on Monday 1 April (one hour less in UTC).
    const moved = movedTime('2030-03-30T09:00:00.000Z', { year: 2030, month: 4, day: 1 }, BERLIN);
    expect(moved).toBe('2030-04-01T08:00:00.000Z');
    expect(placeOf(moved, BERLIN)).toEqual({ key: '2030-04-01', hour: 10, minute: 0 });
    // In the week view the slot gives the hour; the item keeps its minutes.
    expect(movedTime('2030-03-30T09:45:00.000Z', { year: 2030, month: 4, day: 2 }, BERLIN, 16)).toBe(
      '2030-04-02T14:45:00.000Z',
    );
  });
});
