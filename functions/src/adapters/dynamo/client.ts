import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Config } from '../../config.js';

export function createDynamoClient(config: Pick<Config, 'region' | 'dynamoEndpoint'>): DynamoDBClient {
  return new DynamoDBClient({
    region: config.region,
    ...(config.dynamoEndpoint
      ? {
          endpoint: config.dynamoEndpoint,
          // DynamoDB Local accepts any credentials; fixed ones keep a laptop free of AWS setup.
          credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
        }
      : {}),
  });
}

export function createDocumentClient(config: Pick<Config, 'region' | 'dynamoEndpoint'>): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(createDynamoClient(config), {
    marshallOptions: { removeUndefinedValues: true },
  });
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
 * How many corrections a backfill step sends at once: a page's corrections touch different items, and one
 * after the other a table of 100k articles would take most of an hour (docs/operations.md, Table changes).
 */
export const CORRECTIONS_AT_ONCE = 8;

/** Calls `work` for every item, at most `limit` at a time; the first error is thrown once all have settled. */
export async function forEachConcurrently<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const errors: unknown[] = [];
  const lane = async () => {
    while (next < items.length && !errors.length) {
      const item = items[next++]!;
      try {
        await work(item);
      } catch (err) {
        errors.push(err);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  if (errors.length) throw errors[0];
}
