/**
 * The slots by time (docs/data-model.md, Slots by time): one item per version's slot still to publish, keyed by the
 * slot's UTC day and time, so the check before each slot (domain/connection-health.ts) reads only the slots of its
 * windows, whoever owns them, instead of every account's calendar. Derived from the article's `scheduled` times
 * (domain/articles.ts scheduledVersions) and written in the article's own transaction (article-store.ts), as the
 * calendar entries are; `due-slots-v1` (backfills.ts) gives the schedules made before the index theirs.
 */
import { PutCommand, ScanCommand, type DynamoDBDocumentClient, type ScanCommandOutput } from '@aws-sdk/lib-dynamodb';
import { scheduledVersions, type ArticleRecord, type VersionSlot } from '../../domain/articles.js';
import type { DueSlot } from '../../domain/connection-health.js';
import { CORRECTIONS_AT_ONCE, forEachConcurrently, queryAll } from './client.js';
import type { TransactItem } from './summary-store.js';

/** What an article's slots derive from. */
export type DueSlotState = Pick<ArticleRecord, 'blog' | 'linkedin' | 'scheduled' | 'posts'>;

const DAY_MS = 86_400_000;
/** The table's TTL removes a slot's item a day after its time (the index is never read behind the moment). */
const KEPT_AFTER_S = 86_400;

/**
 * The article's slots as the index keeps them (pure): each version scheduled and not published, its time as
 * toISOString writes it (sortable as text); a time that is no date is left out.
 */
export function dueSlotsOf(article: DueSlotState): VersionSlot[] {
  return scheduledVersions(article).flatMap(({ version, at }) => {
    const ms = Date.parse(at);
    return Number.isNaN(ms) ? [] : [{ version, at: new Date(ms).toISOString() }];
  });
}

/** A slot's item: in its UTC day's partition, sorted by time, then owner, article and version. */
export const dueSlotKey = (ownerId: string, articleId: string, slot: VersionSlot) => ({
  PK: `DUE#${slot.at.slice(0, 10)}`,
  SK: `${slot.at}#${ownerId}#${articleId}#${slot.version}`,
});

const dueSlotItem = (ownerId: string, articleId: string, slot: VersionSlot) => ({
  ...dueSlotKey(ownerId, articleId, slot),
  type: 'due-slot',
  ownerId,
  articleId,
  version: slot.version,
  at: slot.at,
  expiresAt: Math.floor(Date.parse(slot.at) / 1000) + KEPT_AFTER_S,
});

/**
 * The writes that turn the article's slot items from those of `before` into those of `after` (undefined: no
 * article), for the article write's transaction. Empty when its slots stay.
 */
export function dueSlotWrites(
  tableName: string,
  ownerId: string,
  articleId: string,
  before: DueSlotState | undefined,
  after: DueSlotState | undefined,
): TransactItem[] {
  const slotsOf = (state: DueSlotState | undefined) =>
    new Map((state ? dueSlotsOf(state) : []).map((slot) => [dueSlotKey(ownerId, articleId, slot).SK, slot]));
  const old = slotsOf(before);
  const wanted = slotsOf(after);
  const writes: TransactItem[] = [];
  for (const [sk, slot] of old)
    if (!wanted.has(sk)) writes.push({ Delete: { TableName: tableName, Key: dueSlotKey(ownerId, articleId, slot) } });
  for (const [sk, slot] of wanted)
    if (!old.has(sk)) writes.push({ Put: { TableName: tableName, Item: dueSlotItem(ownerId, articleId, slot) } });
  return writes;
}

/** The slots in [from, to], by time: one strongly consistent Query per UTC day of the range. */
export async function dueSlotsBetween(
  db: DynamoDBDocumentClient,
  tableName: string,
  from: string,
  to: string,
): Promise<DueSlot[]> {
  const days: string[] = [];
  for (let day = Date.parse(from.slice(0, 10)); day <= Date.parse(to); day += DAY_MS)
    days.push(new Date(day).toISOString().slice(0, 10));
  const pages = await Promise.all(
    days.map((day) =>
      queryAll<DueSlot>(db, {
        TableName: tableName,
        KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':pk': `DUE#${day}`, ':from': from, ':to': `${to}~` },
        ProjectionExpression: 'ownerId, articleId, version, #at',
        ExpressionAttributeNames: { '#at': 'at' },
        ConsistentRead: true,
      }),
    ),
  );
  return pages.flat().filter((slot) => slot.at >= from && slot.at <= to);
}

/** Items a step reads (a Scan page's Limit) unless told. */
const PAGE_SIZE = 1_000;

/**
 * One step of the backfill `due-slots-v1` (backfills.ts): one Scan page of the article items and a Put of each slot
 * still ahead. Idempotent (the same slot is the same item) and safe while the app runs: a slot moved meanwhile leaves
 * at most an item the sweep finds no longer the article's (it reads the article) and the TTL removes.
 */
export async function dueSlotsStep(
  db: DynamoDBDocumentClient,
  tableName: string,
  cursor: Record<string, unknown> | undefined,
  options: { pageSize?: number; now?: Date } = {},
): Promise<{ cursor?: Record<string, unknown>; counts: { articles: number; slots: number } }> {
  const attributes = ['id', 'userId', 'blog', 'linkedin', 'scheduled', 'posts'];
  const page: ScanCommandOutput = await db.send(
    new ScanCommand({
      TableName: tableName,
      FilterExpression: 'begins_with(SK, :article) AND #type = :type',
      ProjectionExpression: attributes.map((_, i) => `#a${i}`).join(', '),
      ExpressionAttributeNames: { '#type': 'type', ...Object.fromEntries(attributes.map((n, i) => [`#a${i}`, n])) },
      ExpressionAttributeValues: { ':article': 'ARTICLE#', ':type': 'article' },
      ExclusiveStartKey: cursor,
      Limit: options.pageSize ?? PAGE_SIZE,
    }),
  );
  const items = (page.Items ?? []) as (DueSlotState & { id: string; userId: string })[];
  const now = (options.now ?? new Date()).toISOString();
  const puts = items.flatMap((article) =>
    article.scheduled
      ? dueSlotsOf(article)
          .filter((slot) => slot.at > now)
          .map((slot) => dueSlotItem(article.userId, article.id, slot))
      : [],
  );
  await forEachConcurrently(puts, CORRECTIONS_AT_ONCE, async (Item) => {
    await db.send(new PutCommand({ TableName: tableName, Item }));
  });
  return { cursor: page.LastEvaluatedKey, counts: { articles: items.length, slots: puts.length } };
}
