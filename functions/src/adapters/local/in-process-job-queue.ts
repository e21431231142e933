import type { Job, JobQueue } from '../../domain/ports.js';

/** Runs jobs in this process right after the request answers, like the async worker does in AWS. */
export class InProcessJobQueue implements JobQueue {
  private readonly running = new Set<Promise<void>>();
  constructor(
    private readonly run: (job: Job) => Promise<void>,
    private readonly onError: (job: Job, err: unknown) => void,
  ) {}

  async enqueue(job: Job): Promise<void> {
    const task = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.run(job))
      .catch((err) => this.onError(job, err))
      .finally(() => this.running.delete(task));
    this.running.add(task);
  }

  /** Resolves when no job is running (tests, shutdown). */
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

export function runLocalJob(job: Job): Promise<void> {
  if (!localRunner) return Promise.reject(new Error('No local job runner: jobs run in the worker Lambda in AWS'));
  return localRunner(job);
}
