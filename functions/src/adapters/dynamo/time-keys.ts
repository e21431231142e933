/**
 * Time-keyed items of the table (docs/data-model.md, Slots by time): a partition per UTC day, sorted by time, so the
 * check before each slot (domain/connection-health.ts) reads only what falls in its windows. This part is the
 * connections' expiries, which the settings store writes with the setting (setting-store.ts): light, since every
 * function has the settings store. The slots are due-slots.ts.
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { channelIds, channelOfExpiryKey, connectionExpiryKey } from '../../channels/ids.js';
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
 * The settings whose value is a connection's expiry (each channel's, channels/ids.ts connectionExpiryKey), kept by time
 * beside the setting (setting-store.ts): the check tells the owner a week ahead (domain/connection-health.ts).
 */
export const WATCHED_EXPIRY_KEYS: ReadonlySet<string> = new Set(channelIds.map(connectionExpiryKey));

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

/** An owner's channel whose connection expires in a range. */
export interface ExpiringConnection {
  ownerId: string;
  channel: string;
}

/**
 * The owners' connections with an expiry in [from, to], each once (the setting may have changed since: the check asks
 * the channel again).
 */
export async function connectionsExpiringBetween(
  db: DynamoDBDocumentClient,
  tableName: string,
  from: string,
  to: string,
): Promise<ExpiringConnection[]> {
  const pages = await Promise.all(
    daysOf(from, to).map((day) =>
      queryAll<{ ownerId: string; setting: string }>(db, {
        TableName: tableName,
        KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':pk': `EXPIRES#${day}`, ':from': from, ':to': `${to}~` },
        ProjectionExpression: 'ownerId, setting',
        ConsistentRead: true,
      }),
    ),
  );
  const found = new Map<string, ExpiringConnection>();
  for (const { ownerId, setting } of pages.flat()) {
    const channel = channelOfExpiryKey(setting);
    if (channel) found.set(`${ownerId}#${channel}`, { ownerId, channel });
  }
  return [...found.values()];
}
