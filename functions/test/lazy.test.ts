import { describe, expect, it, vi } from 'vitest';
import { lazy, resetDeps } from '../src/wiring/lazy.js';

describe('lazy wiring', () => {
  it('builds on first use, then answers the same value until resetDeps()', () => {
    const build = vi.fn(() => ({ built: build.mock.calls.length }));
    const value = lazy(build);
    expect(build).not.toHaveBeenCalled();
    const first = value();
    expect(value()).toBe(first);
    expect(build).toHaveBeenCalledTimes(1);
    resetDeps();
    expect(build).toHaveBeenCalledTimes(1);
    expect(value()).not.toBe(first);
    expect(build).toHaveBeenCalledTimes(2);
  });

  it('disposes of a built value at reset, and only of a built one', () => {
    const dispose = vi.fn();
    const value = lazy(() => ({ timers: 1 }), dispose);
    resetDeps();
    expect(dispose).not.toHaveBeenCalled();
    const built = value();
    resetDeps();
    expect(dispose).toHaveBeenCalledExactlyOnceWith(built);
  });

  it('keeps no value after a failed build: the next use tries again', () => {
    let fail = true;
    const value = lazy(() => {
      if (fail) throw new Error('not configured');
      return 'ok';
    });
    expect(() => value()).toThrow('not configured');
    fail = false;
    expect(value()).toBe('ok');
  });
});
