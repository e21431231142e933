import {
  BatchGetCommand,
  DeleteCommand,
  TransactWriteCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import type { FailureCount, Reservation, ThrottleStore } from '../../domain/login-throttle.js';
import { conditionHeld } from './client.js';

const throttleKey = (subject: string) => ({ PK: `THROTTLE#${subject}`, SK: 'THROTTLE' });
/** DynamoDB's TTL takes epoch seconds, and deletes some time after: reads check `expiresAt` themselves. */
const epochSeconds = (ms: number) => Math.ceil(ms / 1000);

interface ThrottleItem {
  PK: string;
  failures: number;
  lockedUntil?: number;
  lockedAt?: number;
  expiresAt: number;
}

const toCount = (item: ThrottleItem): FailureCount => ({
  failures: item.failures,
  ...(item.lockedUntil !== undefined ? { lockedUntil: item.lockedUntil } : {}),
  ...(item.lockedAt !== undefined ? { lockedAt: item.lockedAt } : {}),
});

/** Why a transaction was cancelled: 'condition' (a count refused), 'conflict' (only parallel writes), or not cancelled. */
function cancellation(err: unknown): 'condition' | 'conflict' | undefined {
  const e = err as { name?: string; CancellationReasons?: { Code?: string }[] } | undefined;
  if (e?.name !== 'TransactionCanceledException') return undefined;
  return e.CancellationReasons?.some((r) => r.Code === 'ConditionalCheckFailed') ? 'condition' : 'conflict';
}
/** Attempts from one busy client (many people behind one NAT) meet on its count: a conflict is tried again. */
const CONFLICT_RETRIES = 4;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class DynamoThrottleStore implements ThrottleStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async reserve(reservations: readonly Reservation[], now: number): Promise<boolean> {
    const transaction = () =>
      this.db.send(
        new TransactWriteCommand({
          TransactItems: reservations.map((r) => ({
            Update: {
              TableName: this.tableName,
              Key: throttleKey(r.subject),
              // Counted only while live (an expired count is deleted below first), not locked, and under
              // the allowance: fewer than the free attempts, or the lock has run out and no attempt has
              // been counted since (failures = lockedAt), or (with staleAfterMs) the last attempt counted
              // never reported.
              ConditionExpression:
                'attribute_not_exists(PK) OR (expiresAt > :nowSeconds' +
                ' AND (attribute_not_exists(lockedUntil) OR lockedUntil <= :now)' +
                ` AND (failures < :free OR failures = lockedAt${r.staleAfterMs === undefined ? '' : ' OR attemptAt < :stale'}))`,
              UpdateExpression: 'ADD failures :one SET expiresAt = :expiresAt, attemptAt = :now',
              ExpressionAttributeValues: {
                ':one': 1,
                ':now': now,
                ':nowSeconds': epochSeconds(now),
                ':free': r.freeFailures,
                ...(r.staleAfterMs === undefined ? {} : { ':stale': now - r.staleAfterMs }),
                ':expiresAt': epochSeconds(now + r.memoryMs),
              },
            },
          })),
        }),
      );
    let conflicts = 0;
    for (let round = 0; round < 2;) {
      try {
        await transaction();
        return true;
      } catch (err) {
        const why = cancellation(err);
        if (!why) throw err;
        if (why === 'conflict' && conflicts++ < CONFLICT_RETRIES) {
          await pause(10 + Math.random() * 40 * conflicts);
          continue;
        }
      }
      round++;
      // Refused. A count past its memory (TTL deletion lags) must start afresh, not block: delete those and
      // try once more; anything else (a lock, the allowance in use, a parallel transaction) is a refusal.
      const expired = await this.expired(
        reservations.map((r) => r.subject),
        now,
      );
      if (expired.length === 0) return false;
      await Promise.all(expired.map((subject) => this.deleteIfExpired(subject, now)));
    }
    return false;
  }

  private async expired(subjects: readonly string[], now: number): Promise<string[]> {
    const items = await this.items(subjects);
    return items.filter((item) => item.expiresAt <= epochSeconds(now)).map((item) => item.PK.slice('THROTTLE#'.length));
  }

  private async deleteIfExpired(subject: string, now: number): Promise<void> {
    await conditionHeld(
      this.db.send(
        new DeleteCommand({
          TableName: this.tableName,
          Key: throttleKey(subject),
          ConditionExpression: 'expiresAt <= :nowSeconds',
          ExpressionAttributeValues: { ':nowSeconds': epochSeconds(now) },
        }),
      ),
    );
  }

  private async items(subjects: readonly string[]): Promise<ThrottleItem[]> {
    const out = await this.db.send(
      new BatchGetCommand({
        RequestItems: { [this.tableName]: { Keys: subjects.map(throttleKey), ConsistentRead: true } },
      }),
    );
    // Three small keys never exceed BatchGet's limits; an unprocessed key (throttled table) reads as absent.
    return (out.Responses?.[this.tableName] ?? []) as ThrottleItem[];
  }

  async read(subjects: readonly string[], now: number): Promise<Map<string, FailureCount>> {
    const counts = new Map<string, FailureCount>();
    for (const item of await this.items(subjects)) {
      if (item.expiresAt > epochSeconds(now)) counts.set(item.PK.slice('THROTTLE#'.length), toCount(item));
    }
    return counts;
  }

  async lock(subject: string, until: number, atCount: number): Promise<void> {
    await conditionHeld(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: throttleKey(subject),
          ConditionExpression: 'attribute_exists(PK) AND (attribute_not_exists(lockedUntil) OR lockedUntil < :until)',
          UpdateExpression: 'SET lockedUntil = :until, lockedAt = :atCount',
          ExpressionAttributeValues: { ':until': until, ':atCount': atCount },
        }),
      ),
    );
  }

  async refund(subject: string): Promise<void> {
    await conditionHeld(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: throttleKey(subject),
          ConditionExpression: 'failures > :zero',
          UpdateExpression: 'ADD failures :minusOne',
          ExpressionAttributeValues: { ':zero': 0, ':minusOne': -1 },
        }),
      ),
    );
  }

  async clear(subject: string): Promise<void> {
    await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: throttleKey(subject) }));
  }
}
