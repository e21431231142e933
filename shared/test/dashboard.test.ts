import { describe, expect, it } from 'vitest';
import { calendarDateIn, isoWeek, lastIsoWeeks, publishingTrends, type DashboardArticle } from '../src/index.js';

const CH = ['wordpress', 'linkedin'];

const TOKYO = 'Asia/Tokyo'; // UTC+9, no daylight saving
const LOS_ANGELES = 'America/Los_Angeles'; // UTC-8, UTC-7 in summer
const PARIS = 'Europe/Paris'; // UTC+1, UTC+2 from the last Sunday of March

describe('the calendar date of an instant in a time zone', () => {
  it.each([
    ['2026-11-29T23:30:00Z', 'UTC', { year: 2026, month: 11, day: 29 }],
    ['2026-11-29T23:30:00Z', TOKYO, { year: 2026, month: 11, day: 30 }],
    ['2026-11-29T23:30:00Z', LOS_ANGELES, { year: 2026, month: 11, day: 29 }],
    ['2026-12-31T20:00:00Z', TOKYO, { year: 2027, month: 1, day: 1 }],
    ['2027-01-01T05:00:00Z', LOS_ANGELES, { year: 2026, month: 12, day: 31 }],
  ])('%s in %s', (instant, zone, date) => {
    expect(calendarDateIn(new Date(instant), zone)).toEqual(date);
  });
});

describe('ISO weeks in the user’s time zone', () => {
  it.each([
    // Sunday 29 November 2026 23:30 in UTC: Monday morning in Tokyo, Sunday afternoon in Los Angeles.
    ['2026-11-29T23:30:00Z', 'UTC', '2026-W48'],
    ['2026-11-29T23:30:00Z', TOKYO, '2026-W49'],
    ['2026-11-29T23:30:00Z', LOS_ANGELES, '2026-W48'],
    // Monday 30 November 07:30 in UTC: still Sunday evening in Los Angeles.
    ['2026-11-30T07:30:00Z', 'UTC', '2026-W49'],
    ['2026-11-30T07:30:00Z', LOS_ANGELES, '2026-W48'],
    // 2026 has 53 ISO weeks; 1 January 2027 (a Friday) is in its last one, whatever the calendar year.
    ['2026-12-31T20:00:00Z', TOKYO, '2026-W53'], // Friday 1 January 2027 in Tokyo
    ['2027-01-03T20:00:00Z', 'UTC', '2026-W53'], // Sunday 3 January
    ['2027-01-03T20:00:00Z', TOKYO, '2027-W01'], // Monday 4 January in Tokyo
    ['2027-01-04T05:00:00Z', 'UTC', '2027-W01'], // Monday 4 January
    ['2027-01-04T05:00:00Z', LOS_ANGELES, '2026-W53'], // Sunday 3 January in Los Angeles
    // The night Paris moves its clocks forward (Sunday 29 March 2026): Monday 00:30 there, Sunday in UTC.
    ['2026-03-29T22:30:00Z', PARIS, '2026-W14'],
    ['2026-03-29T22:30:00Z', 'UTC', '2026-W13'],
  ])('%s in %s is %s', (instant, zone, week) => {
    expect(isoWeek(new Date(instant), zone)).toBe(week);
  });

  it('ends the last four weeks with the user’s current week', () => {
    const sundayNightUtc = new Date('2026-11-29T23:30:00Z');
    expect(lastIsoWeeks(sundayNightUtc, TOKYO)).toEqual(['2026-W46', '2026-W47', '2026-W48', '2026-W49']);
    expect(lastIsoWeeks(sundayNightUtc, LOS_ANGELES)).toEqual(['2026-W45', '2026-W46', '2026-W47', '2026-W48']);
  });

  it('counts back whole weeks across a daylight saving change (a 167-hour week)', () => {
    // Monday 30 March 2026 00:30 in Paris; 7 × 24 hours earlier is Sunday 22 March 23:30 there.
    expect(lastIsoWeeks(new Date('2026-03-29T22:30:00Z'), PARIS)).toEqual([
      '2026-W11',
      '2026-W12',
      '2026-W13',
      '2026-W14',
    ]);
  });

  it('counts back across New Year in the user’s zone', () => {
    expect(lastIsoWeeks(new Date('2027-01-03T20:00:00Z'), TOKYO)).toEqual([
      '2026-W51',
      '2026-W52',
      '2026-W53',
      '2027-W01',
    ]);
  });
});

describe('publishing trends in the user’s time zone', () => {
  const publishedAt = (at: string): DashboardArticle => ({
    keyword: '',
    tags: [],
    blog: { content: 'x', publishedToWordPress: true, lastPublished: at },
    linkedin: { content: 'x', publishedToLinkedIn: true, lastPublished: at },
    scheduled: { blog: null, linkedin: null },
    lastError: null,
  });
  const articles = [publishedAt('2026-11-29T23:30:00Z')];
  const now = new Date('2026-12-01T12:00:00Z'); // Tuesday of W49 everywhere

  it('puts a post published late on Sunday in UTC into the next week in Tokyo', () => {
    expect(publishingTrends(articles, now, TOKYO, CH)).toEqual([
      { week: '2026-W46', counts: { wordpress: 0, linkedin: 0 } },
      { week: '2026-W47', counts: { wordpress: 0, linkedin: 0 } },
      { week: '2026-W48', counts: { wordpress: 0, linkedin: 0 } },
      { week: '2026-W49', counts: { wordpress: 1, linkedin: 1 } },
    ]);
  });

  it('keeps it in the same week in Los Angeles', () => {
    expect(publishingTrends(articles, now, LOS_ANGELES, CH)).toEqual([
      { week: '2026-W46', counts: { wordpress: 0, linkedin: 0 } },
      { week: '2026-W47', counts: { wordpress: 0, linkedin: 0 } },
      { week: '2026-W48', counts: { wordpress: 1, linkedin: 1 } },
      { week: '2026-W49', counts: { wordpress: 0, linkedin: 0 } },
    ]);
  });
});
