import type { Job, JobQueue } from '../../domain/ports.js';

/** Promises still in flight, and a wait for none to be left. */
class PendingWork {
  private readonly pending = new Set<Promise<unknown>>();

  track<T>(work: Promise<T>): Promise<T> {
    const settled = work.then(
      () => undefined,
      () => undefined,
    );
    this.pending.add(settled);
    void settled.then(() => this.pending.delete(settled));
    return work;
  }

  async idle(): Promise<void> {
    while (this.pending.size) await Promise.all([...this.pending]);
  }
}

/** Every local job, queued, waiting for a turn or running (localJobsIdle). */
const localWork = new PendingWork();

/** Counts `work` as local background work, which localJobsIdle waits for (the local event delivery's attempts). */
export function trackLocalWork<T>(work: Promise<T>): Promise<T> {
  return localWork.track(work);
}

/**
 * Runs jobs in this process right after the request answers, like the async worker does in AWS;
 * with `concurrency`, at most that many at once and the rest in order (as the bulk queue's
 * event source mapping does in AWS).
 */
export class InProcessJobQueue implements JobQueue {
  private readonly pending = new PendingWork();
  private readonly waiting: (() => void)[] = [];
  private active = 0;

  constructor(
    private readonly run: (job: Job) => Promise<void>,
    private readonly onError: (job: Job, err: unknown) => void,
    private readonly concurrency = Infinity,
  ) {}

  async enqueue(job: Job): Promise<void> {
    const task = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.turn())
      .then(() => this.run(job))
      .catch((err) => this.onError(job, err))
      .finally(() => {
        this.active--;
        this.waiting.shift()?.();
      });
    void localWork.track(this.pending.track(task));
  }

  /** Resolves when this job may start. */
  private turn(): Promise<void> | void {
    if (this.active < this.concurrency) {
      this.active++;
      return;
    }
    return new Promise<void>((resolve) =>
      this.waiting.push(() => {
        this.active++;
        resolve();
      }),
    );
  }

  /** Resolves when no job is running or waiting (tests, shutdown). */
  idle(): Promise<void> {
    return this.pending.idle();
  }
}

let localRunner: ((job: Job) => Promise<void>) | undefined;

/**
 * The local server registers the job runner here (AWS uses the worker Lambda instead), so the API
 * bundles do not carry every job's code.
 */
export function setLocalJobRunner(run: (job: Job) => Promise<void>): void {
  localRunner = run;
}

export function runLocalJob(job: Job): Promise<void> {
  if (!localRunner) return Promise.reject(new Error('No local job runner: jobs run in the worker Lambda in AWS'));
  return localWork.track(localRunner(job)); // also the local scheduler's runs, which bypass the queues
}

/** Resolves when no local job is queued, waiting or running: every job's last write is done (tests, shutdown). */
export function localJobsIdle(): Promise<void> {
  return localWork.idle();
}
