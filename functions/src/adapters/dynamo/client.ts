import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  type QueryCommandInput,
} from '@aws-sdk/lib-dynamodb';
import type { Config } from '../../config.js';

export function createDocumentClient(config: Pick<Config, 'region' | 'dynamoEndpoint'>): DynamoDBDocumentClient {
  const client = new DynamoDBClient({
    region: config.region,
    ...(config.dynamoEndpoint
      ? {
          endpoint: config.dynamoEndpoint,
          // DynamoDB Local accepts any credentials; fixed ones keep a laptop free of AWS setup.
          credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
        }
      : {}),
  });
  return DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
}

/** Every item a Query matches, following LastEvaluatedKey across pages. */
export async function queryAll<T = Record<string, unknown>>(
  db: DynamoDBDocumentClient,
  input: Omit<QueryCommandInput, 'ExclusiveStartKey'>,
): Promise<T[]> {
  const items: T[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await db.send(new QueryCommand({ ...input, ExclusiveStartKey }));
    items.push(...((page.Items ?? []) as T[]));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return items;
}

/** Whether an error is DynamoDB's answer to a condition that did not hold. */
const isConditionFailed = (err: unknown): boolean =>
  (err as Error | undefined)?.name === 'ConditionalCheckFailedException';

/** Awaits a conditional write: its output when it was made, undefined when its condition did not hold. */
export async function ifConditionHeld<T>(write: Promise<T>): Promise<T | undefined> {
  try {
    return await write;
  } catch (err) {
    if (isConditionFailed(err)) return undefined;
    throw err;
  }
}

/** Awaits a conditional write: true when it was made, false when its condition did not hold. */
export async function conditionHeld(write: Promise<unknown>): Promise<boolean> {
  return (await ifConditionHeld(write.then(() => true))) ?? false;
}

/**
 * Runs a backfill once per table (local start-up): afterwards a META item `BACKFILL#<name>` marks the
 * table, whose writes since keep what it filled right, so a later start does not scan a long history
 * again. `undefined` when the table was marked already.
 */
export async function backfillOncePerTable<R>(
  db: DynamoDBDocumentClient,
  tableName: string,
  name: string,
  backfill: () => Promise<R>,
): Promise<R | undefined> {
  const marker = { PK: 'META', SK: `BACKFILL#${name}` };
  const marked = await db.send(new GetCommand({ TableName: tableName, Key: marker, ConsistentRead: true }));
  if (marked.Item) return undefined;
  const result = await backfill();
  await db.send(new PutCommand({ TableName: tableName, Item: { ...marker, at: new Date().toISOString() } }));
  return result;
}
