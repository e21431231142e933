/**
 * Table backfills (data migrations) run once per table, in steps that can stop and resume: locally at
 * start-up, in AWS after every deployment (infra/lib/table-backfills.ts). The list of backfills is
 * adapters/dynamo/backfills.ts; this is the rule for running it, over ports (docs/data-model.md, Backfills).
 */

/** Where a backfill stopped: a JSON value it gives back to resume (a Scan's LastEvaluatedKey, say). */
export type BackfillCursor = Record<string, unknown>;

/** Counts a step reports (articles looked at, fixed, …), summed over the steps of a run. */
export type BackfillCounts = Record<string, number>;

export interface BackfillStepResult {
  /** Where the next step starts; absent when the backfill has gone through the whole table. */
  cursor?: BackfillCursor;
  counts: BackfillCounts;
}

export interface Backfill {
  /**
   * The marker's name (`META / BACKFILL#<name>`): a table that finished it never runs it again. A changed
   * backfill that must run again over tables that had the old one is a new name (`-v2`).
   */
  name: string;
  /** Global secondary indexes it reads or fills: each must be ACTIVE (built) before it starts. */
  indexes: readonly string[];
  /**
   * One bounded piece of the work (a page of the table and its corrections, seconds at most), from
   * `cursor` (undefined: the start). Each step must be safe to repeat: a run cut off between a step and
   * its recorded cursor does that step again.
   */
  step(cursor: BackfillCursor | undefined): Promise<BackfillStepResult>;
}

/** What the table's marker of a backfill says. */
export interface BackfillMarker {
  /** Finished: never run again on this table. */
  done: boolean;
  /** While unfinished: where it stopped. */
  cursor?: BackfillCursor;
  counts: BackfillCounts;
}

/** The run-once markers of a table (the `META / BACKFILL#<name>` items). */
export interface BackfillMarkers {
  get(name: string): Promise<BackfillMarker | undefined>;
  /** Records where an unfinished backfill stopped, so the next run resumes there. */
  saveProgress(name: string, cursor: BackfillCursor, counts: BackfillCounts): Promise<void>;
  finish(name: string, counts: BackfillCounts): Promise<void>;
}

/** One global secondary index as DynamoDB describes it (DescribeTable). */
export interface IndexState {
  name: string;
  /** CREATING, UPDATING, DELETING or ACTIVE. */
  status: string;
  /** True while DynamoDB is still filling a new index from the table's items. */
  backfilling: boolean;
}

/** The table's indexes as they are now. */
export interface TableIndexes {
  describe(): Promise<IndexState[]>;
}

export interface BackfillClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const systemClock: BackfillClock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

export interface RunBackfillsOptions {
  markers: BackfillMarkers;
  indexes: TableIndexes;
  clock?: BackfillClock;
  /**
   * Epoch ms after which no new step starts (the run pauses, to be resumed by another; its invocation's
   * end minus what one step may take). Default: none.
   */
  pauseAt?: number;
  /** Epoch ms after which an index that is still not ACTIVE fails the run (IndexNotActiveError). */
  indexWaitUntil: number;
  /** Between two looks at an index being built. */
  indexPollMs?: number;
  /** Told each backfill's outcome (a log line). */
  onProgress?: (event: BackfillProgress) => void;
}

export type BackfillProgress =
  | { backfill: string; event: 'already-done' }
  | { backfill: string; event: 'waiting-for-index'; index: string; status: string }
  | { backfill: string; event: 'step'; counts: BackfillCounts }
  | { backfill: string; event: 'done'; counts: BackfillCounts };

export type RunBackfillsOutcome =
  /** Every backfill has finished on this table (now or before). */
  | { status: 'done'; ran: string[] }
  /** Stopped at `pauseAt` in `backfill`; its progress is on its marker, so another run resumes there. */
  | { status: 'paused'; ran: string[]; backfill: string };

/** An index a backfill needs is missing or was not built in time. */
export class IndexNotActiveError extends Error {
  constructor(
    readonly backfill: string,
    readonly index: string,
    readonly state: string,
  ) {
    super(`The backfill ${backfill} needs the index ${index}, which is ${state}`);
    this.name = 'IndexNotActiveError';
  }
}

const DEFAULT_INDEX_POLL_MS = 5_000;

/**
 * Runs `backfills` in order, each once per table: a finished one (its marker) is passed over, an unfinished
 * one resumes from its marker's cursor. Before a backfill starts, the indexes it needs must be ACTIVE and no
 * longer backfilling: it waits for them until `indexWaitUntil` (or pauses at `pauseAt`), then throws
 * IndexNotActiveError. Stops (paused) before a step that would start after `pauseAt`; a step's error
 * propagates, with the progress before it kept.
 */
export async function runBackfills(
  backfills: readonly Backfill[],
  options: RunBackfillsOptions,
): Promise<RunBackfillsOutcome> {
  const clock = options.clock ?? systemClock;
  const pauseAt = options.pauseAt ?? Infinity;
  const report = options.onProgress ?? (() => undefined);
  const ran: string[] = [];
  for (const backfill of backfills) {
    const marker = await options.markers.get(backfill.name);
    if (marker?.done) {
      report({ backfill: backfill.name, event: 'already-done' });
      continue;
    }
    if (!(await indexesReady(backfill, options, clock, pauseAt, report))) {
      return { status: 'paused', ran, backfill: backfill.name };
    }
    let cursor = marker?.cursor;
    const counts: BackfillCounts = { ...marker?.counts };
    for (;;) {
      if (clock.now() >= pauseAt) return { status: 'paused', ran, backfill: backfill.name };
      const step = await backfill.step(cursor);
      for (const [key, n] of Object.entries(step.counts)) counts[key] = (counts[key] ?? 0) + n;
      if (!step.cursor) break;
      cursor = step.cursor;
      await options.markers.saveProgress(backfill.name, cursor, counts);
      report({ backfill: backfill.name, event: 'step', counts });
    }
    await options.markers.finish(backfill.name, counts);
    report({ backfill: backfill.name, event: 'done', counts });
    ran.push(backfill.name);
  }
  return { status: 'done', ran };
}

/**
 * Waits until every index the backfill needs is built: true when they are, false when `pauseAt` came first.
 * An index the table does not have, or one still building at `indexWaitUntil`, throws.
 */
async function indexesReady(
  backfill: Backfill,
  options: RunBackfillsOptions,
  clock: BackfillClock,
  pauseAt: number,
  report: (event: BackfillProgress) => void,
): Promise<boolean> {
  if (!backfill.indexes.length) return true;
  for (;;) {
    const states = new Map((await options.indexes.describe()).map((s) => [s.name, s]));
    const pending = backfill.indexes
      .map((name) => ({ name, state: states.get(name) }))
      .find(({ state }) => !state || state.status !== 'ACTIVE' || state.backfilling);
    if (!pending) return true;
    if (!pending.state) throw new IndexNotActiveError(backfill.name, pending.name, 'not on the table');
    const status = pending.state.backfilling ? `${pending.state.status} (backfilling)` : pending.state.status;
    const now = clock.now();
    if (now >= options.indexWaitUntil) {
      throw new IndexNotActiveError(backfill.name, pending.name, `still ${status}`);
    }
    if (now >= pauseAt) return false;
    report({ backfill: backfill.name, event: 'waiting-for-index', index: pending.name, status });
    await clock.sleep(
      Math.max(0, Math.min(options.indexPollMs ?? DEFAULT_INDEX_POLL_MS, options.indexWaitUntil - now, pauseAt - now)),
    );
  }
}
