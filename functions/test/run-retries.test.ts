import { describe, expect, it } from 'vitest';
import { RUN_RETRY_DELAYS_S, nextRunRetry, parseRunRetryDelays, runAttempts } from '../src/domain/run-retries.js';

const failedAt = new Date('2030-01-01T09:00:00.000Z');
const minutes = (n: number) => new Date(failedAt.getTime() + n * 60_000);

describe('the back-off of a failed scheduled run', () => {
  it('retries after 1, 5, 15 and 30 minutes, then 1, 2 and 2 hours: eight attempts over about six hours', () => {
    expect(RUN_RETRY_DELAYS_S.map((s) => s / 60)).toEqual([1, 5, 15, 30, 60, 120, 120]);
    expect(runAttempts()).toBe(8);
    const total = RUN_RETRY_DELAYS_S.reduce((sum, s) => sum + s, 0) / 3600;
    expect(total).toBeGreaterThan(5.5);
    expect(total).toBeLessThanOrEqual(6);
  });

  it('attempt n failing plans attempt n + 1 after the n-th delay', () => {
    expect(nextRunRetry(1, failedAt)).toEqual({ attempt: 2, at: minutes(1) });
    expect(nextRunRetry(2, failedAt)).toEqual({ attempt: 3, at: minutes(5) });
    expect(nextRunRetry(4, failedAt)).toEqual({ attempt: 5, at: minutes(30) });
    expect(nextRunRetry(7, failedAt)).toEqual({ attempt: 8, at: minutes(120) });
  });

  it('the last attempt failing plans nothing (the run goes to the failure queue), nor does a nonsense attempt', () => {
    expect(nextRunRetry(8, failedAt)).toBeUndefined();
    expect(nextRunRetry(9, failedAt)).toBeUndefined();
    expect(nextRunRetry(0, failedAt)).toBeUndefined();
    expect(nextRunRetry(1.5, failedAt)).toBeUndefined();
  });

  it('follows delays of its own (configuration)', () => {
    expect(nextRunRetry(1, failedAt, [0.05, 0.05])).toEqual({ attempt: 2, at: new Date(failedAt.getTime() + 50) });
    expect(nextRunRetry(3, failedAt, [0.05, 0.05])).toBeUndefined();
    expect(runAttempts([0.05, 0.05])).toBe(3);
  });

  it('reads RUN_RETRY_DELAYS as seconds; anything else keeps the defaults, so a typo neither stops nor floods the retries', () => {
    expect(parseRunRetryDelays('0.05, 0.1,2')).toEqual([0.05, 0.1, 2]);
    expect(parseRunRetryDelays('60')).toEqual([60]);
    for (const bad of [
      undefined,
      '',
      ' ',
      'a,b',
      '60,,60',
      '0',
      '-5',
      '60,Infinity',
      '90000',
      Array(21).fill('1').join(),
    ])
      expect(parseRunRetryDelays(bad), String(bad)).toBe(RUN_RETRY_DELAYS_S);
  });
});
