/**
 * The slots by time (docs/data-model.md, Slots by time): one item per version's slot still to publish, keyed by the
 * slot's UTC day and time, so the check before each slot (domain/connection-health.ts) reads only the slots of its
 * windows, whoever owns them, instead of every account's calendar. Derived from the article's `scheduled` times
 * (domain/articles.ts slotsToPublish) and written in the article's own transaction (article-store.ts), as the
 * calendar entries are. The connections' expiries are kept the same way (`EXPIRES#<day>`, written with the setting
 * by setting-store.ts), so the 7-day notice reads only the owners whose connection expires within the week.
 * `due-slots-v1` (backfills.ts) gives the schedules and expiries saved before the index theirs.
 */
import { PutCommand, ScanCommand, type DynamoDBDocumentClient, type ScanCommandOutput } from '@aws-sdk/lib-dynamodb';
import { slotsToPublish, type ArticleRecord, type VersionSlot } from '../../domain/articles.js';
import type { DueSlot } from '../../domain/connection-health.js';
import { CORRECTIONS_AT_ONCE, forEachConcurrently, queryAll } from './client.js';
import type { TransactItem } from './summary-store.js';
import { daysOf, expiryItem, KEPT_AFTER_S, WATCHED_EXPIRY_KEYS } from './time-keys.js';

/** What an article's slots derive from. */
export type DueSlotState = Pick<ArticleRecord, 'blog' | 'linkedin' | 'scheduled' | 'posts'>;

/**
 * The article's slots as the index keeps them (pure): each version scheduled and not published, its time as
 * toISOString writes it (sortable as text); a time that is no date is left out.
 */
export function dueSlotsOf(article: DueSlotState): VersionSlot[] {
  return slotsToPublish(article).flatMap(({ version, at }) => {
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
  const pages = await Promise.all(
    daysOf(from, to).map((day) =>
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
 * One step of the backfill `due-slots-v1` (backfills.ts): one Scan page of the article items and the expiry settings,
 * and a Put of each slot and expiry still ahead. Idempotent (the same slot is the same item) and safe while the app
 * runs: a slot moved meanwhile leaves at most an item the sweep finds no longer the article's (it reads the article)
 * and the TTL removes.
 */
export async function dueSlotsStep(
  db: DynamoDBDocumentClient,
  tableName: string,
  cursor: Record<string, unknown> | undefined,
  options: { pageSize?: number; now?: Date } = {},
): Promise<{ cursor?: Record<string, unknown>; counts: { items: number; slots: number; expiries: number } }> {
  const attributes = ['PK', 'SK', 'id', 'userId', 'blog', 'linkedin', 'scheduled', 'posts', 'value'];
  const watched = [...WATCHED_EXPIRY_KEYS];
  const page: ScanCommandOutput = await db.send(
    new ScanCommand({
      TableName: tableName,
      FilterExpression: `(begins_with(SK, :article) AND #type = :article_type) OR (#type = :setting_type AND SK IN (${watched.map((_, i) => `:w${i}`).join(', ')}))`,
      ProjectionExpression: attributes.map((_, i) => `#a${i}`).join(', '),
      ExpressionAttributeNames: { '#type': 'type', ...Object.fromEntries(attributes.map((n, i) => [`#a${i}`, n])) },
      ExpressionAttributeValues: {
        ':article': 'ARTICLE#',
        ':article_type': 'article',
        ':setting_type': 'setting',
        ...Object.fromEntries(watched.map((key, i) => [`:w${i}`, `SETTING#${key}`])),
      },
      ExclusiveStartKey: cursor,
      Limit: options.pageSize ?? PAGE_SIZE,
    }),
  );
  type Scanned = Partial<DueSlotState> & { PK: string; SK: string; id?: string; userId?: string; value?: string };
  const items = (page.Items ?? []) as Scanned[];
  const now = (options.now ?? new Date()).toISOString();
  const slots = items.flatMap((item) =>
    item.SK.startsWith('ARTICLE#') && item.scheduled && item.id && item.userId
      ? dueSlotsOf(item as DueSlotState)
          .filter((slot) => slot.at > now)
          .map((slot) => dueSlotItem(item.userId!, item.id!, slot))
      : [],
  );
  const expiries = items.flatMap((item) => {
    if (!item.SK.startsWith('SETTING#')) return [];
    const expiry = expiryItem(item.PK.slice('USER#'.length), item.SK.slice('SETTING#'.length), item.value);
    return expiry && expiry.at > now ? [expiry] : [];
  });
  await forEachConcurrently([...slots, ...expiries], CORRECTIONS_AT_ONCE, async (Item) => {
    await db.send(new PutCommand({ TableName: tableName, Item }));
  });
  return {
    cursor: page.LastEvaluatedKey,
    counts: { items: items.length, slots: slots.length, expiries: expiries.length },
  };
}
