import type { SendMessageBatchRequestEntry, SQSClient } from '@aws-sdk/client-sqs';
import { JobsNotQueuedError, type BulkJobQueue, type Job, type JobQueue } from '../../domain/ports.js';

export type SqsSdk = typeof import('./sqs-sdk.js');

let sqsSdk: Promise<SqsSdk> | undefined;
/**
 * The SQS client is loaded by the first bulk jobs, not at cold start: of the sheets function's calls only an
 * import queues any (docs/testing.md, Performance budgets). Bundled and evaluated on first use, like the
 * Lambda client (lambda-job-queue.ts).
 */
const loadSqsSdk = (): Promise<SqsSdk> => (sqsSdk ??= import('./sqs-sdk.js'));

/** SendMessageBatch takes at most 10 entries. */
export const SQS_BATCH_SIZE = 10;
/** Batches sent at the same time. */
const PARALLEL_BATCHES = 5;

/**
 * Bulk jobs (a spreadsheet import's drafting) go to an SQS queue that the worker drains with a
 * bounded concurrency (its event source mapping's maximum concurrency), so hundreds of jobs do not
 * call OpenAI at the same moment. Entries SQS reports as failed are sent once more; those that
 * fail again (or whose whole request failed) are reported by a JobsNotQueuedError.
 */
export class SqsJobQueue implements BulkJobQueue, JobQueue {
  private client: SQSClient | undefined;

  constructor(
    private readonly makeClient: (sdk: SqsSdk) => SQSClient,
    private readonly queueUrl: string,
  ) {}

  enqueue(job: Job): Promise<void> {
    return this.enqueueAll([job]);
  }

  async enqueueAll(jobs: readonly Job[]): Promise<void> {
    const batches: Job[][] = [];
    for (let i = 0; i < jobs.length; i += SQS_BATCH_SIZE) batches.push(jobs.slice(i, i + SQS_BATCH_SIZE));
    const notQueued: Job[] = [];
    let cause: unknown;
    for (let i = 0; i < batches.length; i += PARALLEL_BATCHES) {
      const results = await Promise.allSettled(
        batches.slice(i, i + PARALLEL_BATCHES).map((batch) => this.sendBatch(batch)),
      );
      results.forEach((result, j) => {
        if (result.status === 'rejected') {
          notQueued.push(...batches[i + j]!);
          cause ??= result.reason;
        } else if (result.value.failed.length) {
          notQueued.push(...result.value.failed);
          cause ??= new Error(result.value.reason);
        }
      });
    }
    if (notQueued.length) throw new JobsNotQueuedError(notQueued, jobs.length, { cause });
  }

  /** One SendMessageBatch (ids are the entries' positions), then one retry of the failed entries. */
  private async sendBatch(batch: readonly Job[]): Promise<{ failed: Job[]; reason?: string }> {
    let pending: SendMessageBatchRequestEntry[] = batch.map((job, i) => ({
      Id: String(i),
      MessageBody: JSON.stringify(job),
    }));
    let reason: string | undefined;
    const sdk = await loadSqsSdk();
    const client = (this.client ??= this.makeClient(sdk));
    for (let attempt = 0; attempt < 2 && pending.length; attempt++) {
      const answer = await client.send(new sdk.SendMessageBatchCommand({ QueueUrl: this.queueUrl, Entries: pending }));
      const failedIds = new Set((answer.Failed ?? []).map((f) => f.Id));
      const first = answer.Failed?.[0];
      if (first)
        reason = `SQS refused ${failedIds.size} message(s): ${first.Code ?? 'error'}${first.Message ? ` (${first.Message})` : ''}`;
      pending = pending.filter((entry) => failedIds.has(entry.Id));
    }
    return { failed: pending.map((entry) => batch[Number(entry.Id)]!), reason };
  }
}
