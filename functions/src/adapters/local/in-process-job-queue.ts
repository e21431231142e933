import type { Job, JobQueue } from '../../domain/ports.js';

/**
 * Runs jobs in this process right after the request answers, like the async worker does in AWS;
 * with `concurrency`, at most that many at once and the rest in order (as the bulk queue's
 * event source mapping does in AWS).
 */
export class InProcessJobQueue implements JobQueue {
  private readonly running = new Set<Promise<void>>();
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
        this.running.delete(task);
      });
    this.running.add(task);
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
  async idle(): Promise<void> {
    while (this.running.size) await Promise.all([...this.running]);
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

const runningLocalJobs = new Set<Promise<unknown>>();

export function runLocalJob(job: Job): Promise<void> {
  if (!localRunner) return Promise.reject(new Error('No local job runner: jobs run in the worker Lambda in AWS'));
  const running = localRunner(job);
  const tracked = running.catch(() => {}).finally(() => runningLocalJobs.delete(tracked));
  runningLocalJobs.add(tracked);
  return running;
}

/** Resolves when no local job is running: a job's last write is done (tests, shutdown). */
export async function localJobsIdle(): Promise<void> {
  while (runningLocalJobs.size) await Promise.all([...runningLocalJobs]);
}
