/**
 * Time-keyed items of the table (docs/data-model.md, Slots by time): a partition per UTC day, sorted by time, so the
 * check before each slot (domain/connection-health.ts) reads only what falls in its windows. This part is the
 * connections' expiries, which the settings store writes with the setting (setting-store.ts): light, since every
 * function has the settings store. The slots are due-slots.ts.
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { LI_KEYS } from '../../channels/linkedin/keys.js';
import { queryAll } from './client.js';

const DAY_MS = 86_400_000;
/** The table's TTL removes an item a day after its time (the index is never read behind the moment). */
export const KEPT_AFTER_S = 86_400;

/** The UTC days from `from`'s to `to`'s (ISO dates). */
export function daysOf(from: string, to: string): string[] {
  const days: string[] = [];
  for (let day = Date.parse(from.slice(0, 10)); day <= Date.parse(to); day += DAY_MS)
    days.push(new Date(day).toISOString().slice(0, 10));
  return days;
}

/**
 * The settings whose value is a connection's expiry, kept by time beside the setting (setting-store.ts): the check
 * tells the owner a week ahead (domain/connection-health.ts).
 */
export const WATCHED_EXPIRY_KEYS: ReadonlySet<string> = new Set([LI_KEYS.tokenExpiry]);

/** The expiry's item (none for a value that is no time): in its UTC day's partition, removed by the TTL once past. */
export function expiryItem(ownerId: string, settingKey: string, value: string | undefined) {
  const ms = value ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(ms)) return undefined;
  const at = new Date(ms).toISOString();
  return {
    PK: `EXPIRES#${at.slice(0, 10)}`,
    SK: `${at}#${ownerId}#${settingKey}`,
    type: 'expiry',
    ownerId,
    setting: settingKey,
    at,
    expiresAt: Math.floor(ms / 1000) + KEPT_AFTER_S,
  };
}

/**
 * The owners with a connection's expiry in [from, to] (the setting may have changed since: the check reads it again).
 */
export async function ownersExpiringBetween(
  db: DynamoDBDocumentClient,
  tableName: string,
  from: string,
  to: string,
): Promise<string[]> {
  const pages = await Promise.all(
    daysOf(from, to).map((day) =>
      queryAll<{ ownerId: string }>(db, {
        TableName: tableName,
        KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':pk': `EXPIRES#${day}`, ':from': from, ':to': `${to}~` },
        ProjectionExpression: 'ownerId',
        ConsistentRead: true,
      }),
    ),
  );
  return [...new Set(pages.flat().map((item) => item.ownerId))];
}
