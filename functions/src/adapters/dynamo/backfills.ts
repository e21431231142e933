import { DescribeTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import {
  runBackfills,
  type Backfill,
  type BackfillCounts,
  type BackfillCursor,
  type BackfillMarker,
  type BackfillMarkers,
  type BackfillStepResult,
  type IndexState,
  type RunBackfillsOptions,
  type RunBackfillsOutcome,
  type TableIndexes,
} from '../../domain/backfills.js';
import { articleIndexesStep } from './article-index-backfill.js';
import { calendarEntriesStep, type CalendarBackfillCursor } from './calendar-backfill.js';
import { dashboardSummariesStep } from './summary-store.js';
import { dueSlotsStep } from './due-slots.js';

export interface TableBackfillOptions {
  /** Items (users, for the summaries) a step reads: small in tests, to see the paging. */
  pageSize?: number;
}

/** A registered backfill: its step given the table. */
interface RegisteredBackfill extends Omit<Backfill, 'step'> {
  step(
    db: DynamoDBDocumentClient,
    tableName: string,
    cursor: BackfillCursor | undefined,
    options: TableBackfillOptions,
  ): Promise<BackfillStepResult>;
}

/**
 * Every backfill of the table, in the order they run: the one list that the local start-up
 * (local/stack.ts), the AWS deployment (lambda/backfills.ts, infra/lib/table-backfills.ts) and the command
 * (local/run-backfills.ts) run. A new backfill is one entry: a new name, the indexes it needs and its step.
 * Each runs once per table (its `META / BACKFILL#<name>` marker, docs/data-model.md).
 */
const REGISTRY: readonly RegisteredBackfill[] = [
  {
    // The list indexes' attributes of articles written before GSI2 (issue #16): it fills both indexes.
    name: 'article-indexes-v1',
    indexes: ['GSI1', 'GSI2'],
    step: articleIndexesStep,
  },
  {
    // The calendar entries of articles written before them (issue #17).
    name: 'calendar-entries-v1',
    indexes: [],
    step: (db, tableName, cursor, options) =>
      calendarEntriesStep(db, tableName, cursor as CalendarBackfillCursor | undefined, options),
  },
  {
    // The dashboard summaries of users whose articles predate them (issue #16); it reads the accounts from GSI1.
    name: 'dashboard-summaries-v1',
    indexes: ['GSI1'],
    step: dashboardSummariesStep,
  },
  {
    // History's index of articles published only on a channel recorded in `posts`, which it missed.
    name: 'article-indexes-v2',
    indexes: ['GSI1', 'GSI2'],
    step: articleIndexesStep,
  },
  {
    // The summaries again: each channel of `posts` is counted for itself now (shared/src/dashboard-summary.ts).
    name: 'dashboard-summaries-v2',
    indexes: ['GSI1'],
    step: dashboardSummariesStep,
  },
  {
    // The calendar entries of the posts of the channels of `posts`, which had none.
    name: 'calendar-entries-v2',
    indexes: [],
    step: (db, tableName, cursor, options) =>
      calendarEntriesStep(db, tableName, cursor as CalendarBackfillCursor | undefined, options),
  },
  {
    // The slots and connection expiries by time (due-slots.ts), for the schedules and connections saved before them.
    name: 'due-slots-v1',
    indexes: [],
    step: dueSlotsStep,
  },
];

/** The names of the backfills, in order (the deployment passes them to its run: infra/lib/table-backfills.ts). */
export const TABLE_BACKFILL_NAMES: readonly string[] = REGISTRY.map((b) => b.name);

/** The backfills of one table, ready to run (domain/backfills.ts runBackfills). */
export const tableBackfills = (
  db: DynamoDBDocumentClient,
  tableName: string,
  options: TableBackfillOptions = {},
): Backfill[] =>
  REGISTRY.map(({ step, ...backfill }) => ({
    ...backfill,
    step: (cursor) => step(db, tableName, cursor, options),
  }));

/** The marker item of a backfill: `at` once finished; before that, `cursor` where it stopped. */
const markerKey = (name: string) => ({ PK: 'META', SK: `BACKFILL#${name}` });

/** The run-once markers as `META / BACKFILL#<name>` items of the table. */
export class DynamoBackfillMarkers implements BackfillMarkers {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async get(name: string): Promise<BackfillMarker | undefined> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: markerKey(name), ConsistentRead: true }),
    );
    if (!Item) return undefined;
    // A marker without `at` is a run that stopped part way; markers written before the steps have `at` only.
    return {
      done: typeof Item.at === 'string',
      cursor: Item.cursor as BackfillCursor | undefined,
      counts: (Item.counts as BackfillCounts | undefined) ?? {},
    };
  }

  async saveProgress(name: string, cursor: BackfillCursor, counts: BackfillCounts): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: { ...markerKey(name), cursor, counts, updatedAt: new Date().toISOString() },
      }),
    );
  }

  async finish(name: string, counts: BackfillCounts): Promise<void> {
    await this.db.send(
      new PutCommand({ TableName: this.tableName, Item: { ...markerKey(name), at: new Date().toISOString(), counts } }),
    );
  }
}

/** The table's global secondary indexes as DescribeTable gives them. */
export class DynamoTableIndexes implements TableIndexes {
  constructor(
    private readonly client: DynamoDBClient,
    private readonly tableName: string,
  ) {}

  async describe(): Promise<IndexState[]> {
    const { Table } = await this.client.send(new DescribeTableCommand({ TableName: this.tableName }));
    return (Table?.GlobalSecondaryIndexes ?? []).map((index) => ({
      name: index.IndexName ?? '',
      status: index.IndexStatus ?? 'UNKNOWN',
      backfilling: index.Backfilling === true,
    }));
  }
}

/** How long a run waits for an index to be built before it fails, unless told (a local table's are built already). */
const DEFAULT_INDEX_WAIT_MS = 10 * 60_000;

/**
 * Runs the table's backfills (all, or those of `names` in the registry's order; a name the registry no
 * longer has is passed over) with the table's markers and DescribeTable (domain/backfills.ts runBackfills).
 */
export function runTableBackfills(
  db: DynamoDBDocumentClient,
  client: DynamoDBClient,
  tableName: string,
  options: TableBackfillOptions & Partial<Omit<RunBackfillsOptions, 'markers'>> & { names?: readonly string[] } = {},
): Promise<RunBackfillsOutcome> {
  const { pageSize, names, ...run } = options;
  const backfills = tableBackfills(db, tableName, { pageSize }).filter((b) => !names || names.includes(b.name));
  return runBackfills(backfills, {
    markers: new DynamoBackfillMarkers(db, tableName),
    indexes: new DynamoTableIndexes(client, tableName),
    indexWaitUntil: Date.now() + DEFAULT_INDEX_WAIT_MS,
    ...run,
  });
}
