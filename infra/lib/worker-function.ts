import { Duration } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { WORKER_FUNCTION_TIMEOUT_S } from '../../functions/src/time-budgets.js';
import { AppFunction, FUNCTION_RUNTIME } from './app-function.js';

/** The worker's Lambda entry name: `functions/src/lambda/worker.ts`. It serves no route. */
export const WORKER_ENTRY_NAME = 'worker';

/** Lambda settings of the worker (and asserted by the tests). */
export const WORKER_FUNCTION_DEFAULTS = {
  ...FUNCTION_RUNTIME,
  /** Image work (sharp) on 1536×1024 pictures: memory also buys CPU. */
  memorySize: 2048,
  /** AI drafting and image generation take up to a few minutes (their budgets: functions/src/time-budgets.ts). */
  timeout: Duration.seconds(WORKER_FUNCTION_TIMEOUT_S),
} as const;

export interface WorkerFunctionProps {
  /** Absolute path of `functions/src/lambda/worker.ts`. */
  entry: string;
  /** The npm workspaces root: bundling runs there, with its package-lock.json. */
  projectRoot: string;
  /** Environment variables the worker reads (TABLE_NAME, …). */
  environment: Record<string, string>;
  /**
   * Concurrent executions reserved for the worker (the workerReservedConcurrency context value): jobs then
   * never take the API functions' share of the account's concurrency, nor the API theirs; beyond it,
   * async invocations wait in Lambda's queue (retried for up to six hours) and bulk messages in SQS.
   */
  reservedConcurrency?: number;
}

/**
 * The worker: invoked asynchronously (InvocationType Event) by the API functions that start long
 * jobs (AI drafting, image generation), so no request waits for them, by EventBridge Scheduler
 * for the scheduled runs (generate-and-notify: draft, then e-mail the approval link), and by the bulk
 * job queue's event source mapping (a spreadsheet import's drafting, bulk-jobs.ts). sharp, openai and
 * google-auth-library are installed next to the bundle (bundling.ts).
 */
export class WorkerFunction extends AppFunction {
  constructor(scope: Construct, id: string, props: WorkerFunctionProps) {
    super(scope, id, {
      name: WORKER_ENTRY_NAME,
      description:
        'Content publisher worker: AI drafting, image generation and scheduled approval e-mails (async jobs)',
      roleDescription: 'Content publisher worker function (async jobs)',
      entry: props.entry,
      projectRoot: props.projectRoot,
      environment: props.environment,
      memorySize: WORKER_FUNCTION_DEFAULTS.memorySize,
      timeout: WORKER_FUNCTION_DEFAULTS.timeout,
      reservedConcurrentExecutions: props.reservedConcurrency,
    });
  }
}
