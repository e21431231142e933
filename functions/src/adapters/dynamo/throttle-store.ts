import {
  BatchGetCommand,
  DeleteCommand,
  PutCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import type { FailureCount, ThrottleStore } from '../../domain/login-throttle.js';
import { conditionHeld, ifConditionHeld } from './client.js';

const throttleKey = (subject: string) => ({ PK: `THROTTLE#${subject}`, SK: 'THROTTLE' });
/** DynamoDB's TTL takes epoch seconds, and deletes some time after: reads check `expiresAt` themselves. */
const epochSeconds = (ms: number) => Math.ceil(ms / 1000);

interface ThrottleItem {
  PK: string;
  failures: number;
  lockedUntil?: number;
  expiresAt: number;
}

const toCount = (item: ThrottleItem): FailureCount => ({
  failures: item.failures,
  ...(item.lockedUntil !== undefined ? { lockedUntil: item.lockedUntil } : {}),
});

export class DynamoThrottleStore implements ThrottleStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async read(subjects: readonly string[], now: number): Promise<Map<string, FailureCount>> {
    const out = await this.db.send(
      new BatchGetCommand({
        RequestItems: { [this.tableName]: { Keys: subjects.map(throttleKey), ConsistentRead: true } },
      }),
    );
    const counts = new Map<string, FailureCount>();
    for (const item of (out.Responses?.[this.tableName] ?? []) as ThrottleItem[]) {
      if (item.expiresAt > epochSeconds(now)) counts.set(item.PK.slice('THROTTLE#'.length), toCount(item));
    }
    // Two small keys never exceed BatchGet's limits; an unprocessed key (throttled table) reads as not locked.
    return counts;
  }

  async addFailure(subject: string, now: number, ttlMs: number): Promise<FailureCount> {
    const expiresAt = epochSeconds(now + ttlMs);
    const added = await ifConditionHeld(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: throttleKey(subject),
          // An expired count (TTL deletion lags) starts again below instead of growing.
          ConditionExpression: 'attribute_not_exists(PK) OR expiresAt > :now',
          UpdateExpression: 'ADD failures :one SET expiresAt = :expiresAt',
          ExpressionAttributeValues: { ':one': 1, ':now': epochSeconds(now), ':expiresAt': expiresAt },
          ReturnValues: 'ALL_NEW',
        }),
      ),
    );
    if (added) return toCount(added.Attributes as ThrottleItem);
    await this.db.send(
      new PutCommand({ TableName: this.tableName, Item: { ...throttleKey(subject), failures: 1, expiresAt } }),
    );
    return { failures: 1 };
  }

  async lock(subject: string, until: number): Promise<void> {
    await conditionHeld(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: throttleKey(subject),
          ConditionExpression: 'attribute_exists(PK) AND (attribute_not_exists(lockedUntil) OR lockedUntil < :until)',
          UpdateExpression: 'SET lockedUntil = :until',
          ExpressionAttributeValues: { ':until': until },
        }),
      ),
    );
  }

  async clear(subject: string): Promise<void> {
    await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: throttleKey(subject) }));
  }
}
