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
