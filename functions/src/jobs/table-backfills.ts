/**
 * The table's backfills after a deployment: the custom resource of infra/lib/table-backfills.ts sends its
 * CloudFormation request to lambda/backfills.ts, which runs this. It runs the backfills the request names
 * (adapters/dynamo/backfills.ts, once per table) and answers CloudFormation when they have finished; a run
 * longer than one invocation goes on in the next (the request, resent to the function asynchronously),
 * from where each backfill's marker says it stopped. Any failure answers FAILED, which fails the
 * deployment (CloudFormation rolls it back), with what to run; what was done is kept on the markers, so the
 * next deployment (or the command) resumes it (docs/operations.md, Table changes).
 */
import type { RunBackfillsOutcome } from '../domain/backfills.js';
import { BACKFILL_DEPLOY_LIMIT_MS, BACKFILL_INDEX_WAIT_MS, BACKFILL_STEP_RESERVE_MS } from '../time-budgets.js';

/** What the custom resource gives (infra/lib/table-backfills.ts). */
export interface BackfillResourceProperties {
  TableName: string;
  /** The backfills to run, in order: the registry's names when the template was made. */
  Backfills: string[];
  /** Changes with the function's code, so that every deployment of new code runs the backfills again. */
  CodeHash?: string;
}

/** A CloudFormation custom resource request, and where a run that goes on in another invocation is. */
export interface BackfillRequest {
  RequestType: 'Create' | 'Update' | 'Delete';
  ResponseURL: string;
  StackId: string;
  RequestId: string;
  LogicalResourceId: string;
  PhysicalResourceId?: string;
  ResourceType: string;
  ResourceProperties: BackfillResourceProperties;
  OldResourceProperties?: BackfillResourceProperties;
  /**
   * Set on a run's later invocations: when its first began (epoch ms), which this is, and the backfills the
   * earlier ones finished.
   */
  Continuation?: { startedAt: number; invocation: number; ran: string[] };
}

/** The answer CloudFormation waits for (sent to the request's ResponseURL). */
export interface BackfillResponse {
  Status: 'SUCCESS' | 'FAILED';
  Reason?: string;
  PhysicalResourceId: string;
  Data?: Record<string, string>;
}

export interface TableBackfillPorts {
  /** Runs the named backfills of the table, stopping before a step past `pauseAt`. */
  run(
    tableName: string,
    names: readonly string[],
    limits: { pauseAt: number; indexWaitUntil: number },
  ): Promise<RunBackfillsOutcome>;
  respond(request: BackfillRequest, response: BackfillResponse): Promise<void>;
  /** Sends the request to this function again, asynchronously (the run goes on there). */
  continueLater(request: BackfillRequest): Promise<void>;
  now(): number;
  /** What is left of this invocation (Lambda's getRemainingTimeInMillis). */
  remainingMs(): number;
  /** The region, for the command the failure names. */
  region: string;
  log: {
    info(message: string, fields?: Record<string, unknown>): void;
    error(message: string, fields?: Record<string, unknown>): void;
  };
}

/** The command that runs the backfills by hand (local/run-backfills.ts). */
export const backfillCommand = (tableName: string, region: string): string =>
  `TABLE_NAME=${tableName} AWS_REGION=${region} npx tsx functions/src/local/run-backfills.ts`;

/** Of an error's message in the reason: CloudFormation takes an answer of at most 4 KB. */
const MAX_ERROR_MESSAGE = 500;

/**
 * Handles one invocation of a request: Delete answers at once (a backfill is not undone); Create and Update
 * run the backfills until they finish (SUCCESS), this invocation's time is nearly up (the request goes on in
 * another), or they fail or outlast BACKFILL_DEPLOY_LIMIT_MS (FAILED, saying what to run). The run is the
 * properties' list, so the Update of a rollback, which carries the previous properties, runs only
 * backfills that had finished: it answers at once and cannot fail the rollback.
 */
export async function handleBackfillRequest(request: BackfillRequest, ports: TableBackfillPorts): Promise<void> {
  const { TableName: tableName, Backfills: names = [] } = request.ResourceProperties;
  // The same for the life of the resource: a change would make CloudFormation delete "the old one".
  const physicalResourceId = request.PhysicalResourceId ?? `${tableName}-backfills`;
  const fields = { requestType: request.RequestType, tableName, backfills: names };
  if (request.RequestType === 'Delete') {
    await ports.respond(request, { Status: 'SUCCESS', PhysicalResourceId: physicalResourceId });
    return;
  }

  const startedAt = request.Continuation?.startedAt ?? ports.now();
  const invocation = request.Continuation?.invocation ?? 1;
  const ranBefore = request.Continuation?.ran ?? [];
  const giveUpAt = startedAt + BACKFILL_DEPLOY_LIMIT_MS;
  let response: BackfillResponse;
  try {
    const outcome = await ports.run(tableName, names, {
      pauseAt: Math.min(ports.now() + ports.remainingMs() - BACKFILL_STEP_RESERVE_MS, giveUpAt),
      indexWaitUntil: startedAt + BACKFILL_INDEX_WAIT_MS,
    });
    if (outcome.status === 'paused' && ports.now() < giveUpAt) {
      ports.log.info('Backfills go on in another invocation', { ...fields, at: outcome.backfill, invocation });
      await ports.continueLater({
        ...request,
        Continuation: { startedAt, invocation: invocation + 1, ran: [...ranBefore, ...outcome.ran] },
      });
      return;
    }
    if (outcome.status === 'paused') {
      throw new Error(
        `${outcome.backfill} had not finished ${BACKFILL_DEPLOY_LIMIT_MS / 60_000} minutes after the deployment started it`,
      );
    }
    const ran = [...ranBefore, ...outcome.ran];
    ports.log.info('Backfills done', { ...fields, ran, invocation });
    response = { Status: 'SUCCESS', PhysicalResourceId: physicalResourceId, Data: { Ran: ran.join(',') } };
  } catch (err) {
    const full = (err as Error).message ?? String(err);
    ports.log.error('Backfills failed', { ...fields, error: full, invocation });
    const message = full.length > MAX_ERROR_MESSAGE ? `${full.slice(0, MAX_ERROR_MESSAGE - 1)}…` : full;
    response = {
      Status: 'FAILED',
      PhysicalResourceId: physicalResourceId,
      Reason:
        `Table backfills on ${tableName} failed: ${message}. What they did is kept (their markers): the next ` +
        `deployment resumes them, or run: ${backfillCommand(tableName, ports.region)} (docs/operations.md, Table changes)`,
    };
  }
  await ports.respond(request, response);
}
