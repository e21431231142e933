import { describe, expect, it } from 'vitest';
import { InProcessJobQueue } from '../../src/adapters/local/in-process-job-queue.js';
import type { Job } from '../../src/domain/ports.js';

const job = (n: number): Job => ({ type: 'generate-content', userId: 'u', articleId: `a${n}` });

/** A runner whose jobs end when the test says so; records how many ran at once. */
function controlledRunner() {
  const finishers = new Map<string, () => void>();
  const state = { active: 0, peak: 0, started: [] as string[] };
  const run = (j: Job) =>
    new Promise<void>((resolve) => {
      state.active++;
      state.peak = Math.max(state.peak, state.active);
      state.started.push(j.articleId);
      finishers.set(j.articleId, () => {
        state.active--;
        resolve();
      });
    });
  const finish = (id: string) => finishers.get(id)!();
  return { run, finish, state };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('InProcessJobQueue', () => {
  it('runs at most `concurrency` jobs at once, the rest in the order they came', async () => {
    const { run, finish, state } = controlledRunner();
    const queue = new InProcessJobQueue(run, () => {}, 2);
    for (let n = 1; n <= 5; n++) await queue.enqueue(job(n));
    await tick();
    await tick();
    expect(state.started).toEqual(['a1', 'a2']);
    finish('a2');
    await tick();
    await tick();
    expect(state.started).toEqual(['a1', 'a2', 'a3']);
    for (const id of ['a1', 'a3']) finish(id);
    await tick();
    await tick();
    for (const id of ['a4', 'a5']) finish(id);
    await queue.idle();
    expect(state.started).toEqual(['a1', 'a2', 'a3', 'a4', 'a5']);
    expect(state.peak).toBe(2);
  });

  it('a failing job is reported and frees its place', async () => {
    const failures: string[] = [];
    const ran: string[] = [];
    const queue = new InProcessJobQueue(
      async (j) => {
        ran.push(j.articleId);
        if (j.articleId === 'a1') throw new Error('no key');
      },
      (j, err) => failures.push(`${j.articleId}: ${(err as Error).message}`),
      1,
    );
    for (let n = 1; n <= 3; n++) await queue.enqueue(job(n));
    await queue.idle();
    expect(failures).toEqual(['a1: no key']);
    expect(ran).toEqual(['a1', 'a2', 'a3']);
  });

  it('without a bound, starts every job at once', async () => {
    const { run, finish, state } = controlledRunner();
    const queue = new InProcessJobQueue(run, () => {});
    for (let n = 1; n <= 20; n++) await queue.enqueue(job(n));
    await tick();
    await tick();
    expect(state.active).toBe(20);
    for (let n = 1; n <= 20; n++) finish(`a${n}`);
    await queue.idle();
  });
});
