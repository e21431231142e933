import {
  BatchGetCommand,
  type BatchGetCommandOutput,
  GetCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
  type UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { PLATFORMS, isPlatform, type VersionId } from '@app/shared';
import {
  healthAttribute,
  isFullyPublished,
  publishedAtOf,
  reviewAttribute,
  versionText,
  type ArticleRecord,
  type HealthDue,
  type PublicationState,
} from '../../domain/articles.js';
import { activityOfEvents, editActivity, type ActivityRecord } from '../../domain/activity.js';
import type { OutboxEntry } from '../../domain/automation-events.js';
import { reviewAfterEdit, type VersionEdit } from '../../domain/review-edit.js';
import { calendarSlotsOf, type CalendarSlot, type CalendarState } from '../../domain/calendar.js';
import type {
  ArticlePage,
  ArticlePosition,
  ArticleStore,
  NotifyClaim,
  PublishAttempt,
  PublishClaimKey,
} from '../../domain/ports.js';
import { activityWrites } from './activity-store.js';
import { queryAll, conditionHeld, ifConditionHeld } from './client.js';
import { DynamoEventOutbox, eventsCommitted, outboxWrites } from './event-outbox.js';
import { dueSlotWrites } from './due-slots.js';
import { DynamoSummaryStore, cancellationCodes, type TransactItem } from './summary-store.js';
import { userKey } from './user-store.js';

const ARTICLE_PREFIX = 'ARTICLE#';
const key = (userId: string, id: string) => ({ PK: `USER#${userId}`, SK: `${ARTICLE_PREFIX}${id}` });
const idOf = (sk: string) => sk.slice(ARTICLE_PREFIX.length);

/**
 * The sparse index attributes of an article's item (adapters/table-definition.ts): GSI1 holds the
 * articles not yet published on both platforms (the Schedule page's list), GSI2 those published on
 * at least one, by latest publication (History). An attribute absent here is absent on the item.
 */
export interface IndexAttributes {
  GSI1PK?: string;
  GSI1SK?: string;
  GSI2PK?: string;
  GSI2SK?: string;
}
export const INDEX_ATTRIBUTES = ['GSI1PK', 'GSI1SK', 'GSI2PK', 'GSI2SK'] as const;

export function indexAttributesOf(article: PublicationState & { userId: string; id: string }): IndexAttributes {
  const publishedAt = publishedAtOf(article);
  return {
    ...(isFullyPublished(article)
      ? {}
      : { GSI1PK: `OPEN#${article.userId}`, GSI1SK: `${ARTICLE_PREFIX}${article.id}` }),
    ...(publishedAt === undefined ? {} : { GSI2PK: `PUB#${article.userId}`, GSI2SK: `${publishedAt}#${article.id}` }),
  };
}

/** The SET and REMOVE parts that give an item the index attributes `wanted`, with their names and values. */
function indexUpdate(wanted: IndexAttributes): {
  sets: string[];
  remove: string;
  names: Record<string, string>;
  values: Record<string, unknown>;
} {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets: string[] = [];
  const removes: string[] = [];
  for (const name of INDEX_ATTRIBUTES) {
    names[`#${name}`] = name;
    const value = wanted[name];
    if (value === undefined) removes.push(`#${name}`);
    else {
      values[`:${name}`] = value;
      sets.push(`#${name} = :${name}`);
    }
  }
  return { sets, remove: removes.length ? `REMOVE ${removes.join(', ')}` : '', names, values };
}

/** Whether an item's index attributes are the ones its article should have. */
export const indexAttributesRight = (item: IndexAttributes, wanted: IndexAttributes): boolean =>
  INDEX_ATTRIBUTES.every((name) => item[name] === wanted[name]);

/**
 * Articles created this recently are read from the table itself when listing the open ones, in
 * case the index (eventually consistent, usually behind by well under a second) lacks them yet.
 */
const INDEX_LAG_ALLOWANCE_MS = 5 * 60_000;
/** BatchGetItem takes at most this many keys per call. */
const BATCH_GET_MAX = 100;

/**
 * The attribute paths the dashboard summary's contribution reads (shared/src/dashboard-summary.ts): a write
 * that sets one of them (or a map holding one) moves the summary, in the same transaction.
 */
const CONTRIBUTION_PATHS = [
  ['keyword'],
  ['tags'],
  ['blog', 'publishedToWordPress'],
  ['blog', 'lastPublished'],
  ['linkedin', 'publishedToLinkedIn'],
  ['linkedin', 'lastPublished'],
  // The other channels' posts: History's index (publishedAtOf), the calendar and the summary count them too.
  ['posts'],
] as const;

/**
 * The attribute paths the calendar entries are derived from besides those (domain/calendar.ts
 * calendarSlotsOf): a write that sets one of them moves the entries in the same transaction too.
 */
const CALENDAR_PATHS = [
  ['scheduled', 'blog'],
  ['scheduled', 'linkedin'],
] as const;

/** Everything kept beside the article in its writes' transactions: the summary and the calendar entries. */
export const DERIVED_PATHS = [...CONTRIBUTION_PATHS, ...CALENDAR_PATHS] as const;

/**
 * Every version's schedule the article has (`scheduled.<version id>`, a channel's own version's too): the slots by time
 * derive from them all (due-slots.ts), whichever versions the registry has.
 */
const schedulePaths = (article: Pick<ArticleRecord, 'scheduled'>) =>
  Object.keys(article.scheduled ?? {})
    .filter((version) => !isPlatform(version))
    .map((version) => ['scheduled', version] as const);

const touchesDerived = (changes: Record<string, unknown>) =>
  Object.keys(changes).some((path) => {
    const parts = path.split('.');
    return (
      parts[0] === 'scheduled' ||
      DERIVED_PATHS.some((field) => field.every((part, i) => i >= parts.length || parts[i] === part))
    );
  });

const CALENDAR_PREFIX = 'CAL#';

/**
 * A calendar entry item (docs/data-model.md): in the owner's partition, sorted by time, so a view's
 * range is one Query of `SK BETWEEN CAL#<from> AND CAL#<to>`.
 */
export const calendarKey = (userId: string, articleId: string, slot: CalendarSlot) => ({
  PK: `USER#${userId}`,
  // A channel's post (calendarSlotsOf) ends in the channel's id, the version's own slots in the version's name.
  SK: `${CALENDAR_PREFIX}${slot.at}#${articleId}#${slot.channel ?? slot.platform}`,
});

/**
 * The writes that turn the article's calendar entries from those of `before` into those of `after`
 * (undefined: no article), for the article write's transaction. Empty when its slots stay.
 */
export function calendarWrites(
  tableName: string,
  userId: string,
  articleId: string,
  before: CalendarState | undefined,
  after: CalendarState | undefined,
): TransactItem[] {
  const slotsOf = (state: CalendarState | undefined) =>
    new Map((state ? calendarSlotsOf(state) : []).map((slot) => [calendarKey(userId, articleId, slot).SK, slot]));
  const old = slotsOf(before);
  const wanted = slotsOf(after);
  const writes: TransactItem[] = [];
  for (const [sk, slot] of old) {
    if (!wanted.has(sk)) writes.push({ Delete: { TableName: tableName, Key: calendarKey(userId, articleId, slot) } });
  }
  for (const [sk, slot] of wanted) {
    if (!old.has(sk)) {
      writes.push({
        Put: {
          TableName: tableName,
          Item: { ...calendarKey(userId, articleId, slot), type: 'calendar-entry', articleId, ...slot },
        },
      });
    }
  }
  return writes;
}

/**
 * Maps an article saved before them lacks, written one entry at a time (a channel's post at `posts.<channel>`, so two
 * channels publishing at once never overwrite each other): update() adds the empty map first.
 */
const LATER_MAPS: ReadonlySet<string> = new Set(['posts']);

/** Reads a nested attribute path of an article (undefined when a map on the way is missing). */
const valueAt = (article: object, path: readonly string[]): unknown =>
  path.reduce<unknown>((value, part) => (value as Record<string, unknown> | undefined)?.[part], article);

/** `article` with `changes` (attribute paths, as ArticleStore.update takes them) set, as DynamoDB will. */
function withChanges(article: ArticleRecord, changes: Record<string, unknown>): ArticleRecord {
  const next = structuredClone(article) as unknown as Record<string, unknown>;
  for (const [path, value] of Object.entries(changes)) {
    const parts = path.split('.');
    let map = next;
    // (`versions` may be absent on the item as read: the write adds it first, ensureVersionsMap.)
    for (const part of parts.slice(0, -1)) map = (map[part] ??= {}) as Record<string, unknown>;
    map[parts.at(-1)!] = structuredClone(value);
  }
  return next as unknown as ArticleRecord;
}

/**
 * A condition that the item's attributes at `paths` are still those of `state` as read (absent or null
 * alike), with `names` and `values` to merge into the write's; `tag` keeps its placeholders apart from
 * the write's own.
 */
export function fieldsUnchanged(
  state: object,
  paths: readonly (readonly string[])[],
  tag: string,
): { condition: string; names: Record<string, string>; values: Record<string, unknown> } {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const conditions = paths.map((path, i) => {
    const ref = path
      .map((part, j) => {
        names[`#${tag}${i}_${j}`] = part;
        return `#${tag}${i}_${j}`;
      })
      .join('.');
    const value = valueAt(state, path);
    if (value === null || value === undefined) {
      values[`:${tag}_null`] = 'NULL';
      return `(attribute_not_exists(${ref}) OR attribute_type(${ref}, :${tag}_null))`;
    }
    values[`:${tag}${i}`] = value;
    return `${ref} = :${tag}${i}`;
  });
  return { condition: conditions.join(' AND '), names, values };
}

/**
 * A condition that the item's contribution and calendar fields are still those of `article` as read, so
 * that the summary's delta and the calendar entries computed from it are right.
 */
const derivedUnchanged = (article: ArticleRecord) =>
  fieldsUnchanged(article, [...DERIVED_PATHS, ...schedulePaths(article)], 'u');

/** Attempts of a write whose article another write changed between its read and its transaction. */
const CONTRIBUTION_WRITE_ATTEMPTS = 8;

type Item = ArticleRecord & IndexAttributes & { PK: string; SK: string; type: 'article' };
const fromItem = ({
  PK: _p,
  SK: _s,
  type: _t,
  GSI1PK: _g1,
  GSI1SK: _g2,
  GSI2PK: _g3,
  GSI2SK: _g4,
  ...article
}: Item): ArticleRecord => article;

/**
 * Sets an item's index attributes to `wanted` (absent ones removed), only while the item's
 * publication state is still `state`: a write that changed it since makes its own correction, so a
 * late correction never overwrites a newer one. False when the state had changed (or the item is gone).
 */
export async function setIndexAttributes(
  db: DynamoDBDocumentClient,
  tableName: string,
  itemKey: { PK: string; SK: string },
  state: PublicationState,
  wanted: IndexAttributes,
): Promise<boolean> {
  const { sets, remove, names, values } = indexUpdate(wanted);
  // Everything indexAttributesOf reads must be as it was read.
  const conditions = ['attribute_exists(PK)'];
  const expect = (path: string[], value: unknown, i: number) => {
    const ref = path
      .map((part, j) => {
        names[`#s${i}_${j}`] = part;
        return `#s${i}_${j}`;
      })
      .join('.');
    if (value === null || value === undefined) {
      values[':nullType'] = 'NULL';
      conditions.push(`(attribute_not_exists(${ref}) OR attribute_type(${ref}, :nullType))`);
    } else {
      values[`:s${i}`] = value;
      conditions.push(`${ref} = :s${i}`);
    }
  };
  expect(['blog', 'publishedToWordPress'], state.blog.publishedToWordPress, 0);
  expect(['blog', 'lastPublished'], state.blog.lastPublished, 1);
  expect(['linkedin', 'publishedToLinkedIn'], state.linkedin.publishedToLinkedIn, 2);
  expect(['linkedin', 'lastPublished'], state.linkedin.lastPublished, 3);
  expect(['posts'], state.posts, 5);
  if (PLATFORMS.some((p) => state[p].lastPublished == null)) expect(['updatedAt'], state.updatedAt, 4);
  return conditionHeld(
    db.send(
      new UpdateCommand({
        TableName: tableName,
        Key: itemKey,
        UpdateExpression: [sets.length ? `SET ${sets.join(', ')}` : '', remove].filter(Boolean).join(' '),
        ConditionExpression: conditions.join(' AND '),
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: Object.keys(values).length ? values : undefined,
      }),
    ),
  );
}

type ArticleUpdateOptions = {
  onlyIfEmpty?: VersionId[];
  onlyIfImageJob?: string;
  onlyIfImage?: string | null;
  onlyIfReviewRev?: { platform: VersionId; rev: number };
  onlyIfHealthDue?: HealthDue;
  events?: readonly OutboxEntry[];
  edit?: VersionEdit;
};

/** Whether the version's health note has the window noted for the slot already (another sweep's claim). */
const healthNoted = (article: ArticleRecord, { version, scheduledFor, window }: HealthDue): boolean => {
  const note = article[healthAttribute(version)];
  return note?.scheduledFor === scheduledFor && note.windows.includes(window);
};

/** The rev of a platform's review as stored (0: none yet). */
const reviewRevOf = (article: ArticleRecord, platform: VersionId): number =>
  article[reviewAttribute(platform)]?.rev ?? 0;

export class DynamoArticleStore implements ArticleStore {
  /** The owner's dashboard summary, written with every article write that changes what it counts. */
  private readonly summaries: DynamoSummaryStore;
  /** The domain events' outbox: written in the transaction of the change that causes them. */
  private readonly outbox: DynamoEventOutbox;

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {
    this.summaries = new DynamoSummaryStore(db, tableName);
    this.outbox = new DynamoEventOutbox(db, tableName);
  }

  recordEvents(events: readonly OutboxEntry[]): Promise<void> {
    return this.outbox.record(events);
  }

  /**
   * One conditional update, with `events` written in the same transaction when there are any: true when
   * made, false when its condition (the first item's) did not hold; nothing is written then.
   */
  private async updateWithEvents(
    update: Omit<UpdateCommandInput, 'ReturnValues'>,
    events: readonly OutboxEntry[] | undefined,
  ): Promise<boolean> {
    if (!events?.length) return conditionHeld(this.db.send(new UpdateCommand(update)));
    try {
      await this.db.send(
        new TransactWriteCommand({
          TransactItems: [
            { Update: update as NonNullable<TransactItem['Update']> },
            ...outboxWrites(this.tableName, events),
            ...activityWrites(this.tableName, activityOfEvents(events)),
          ],
        }),
      );
    } catch (err) {
      if (cancellationCodes(err)?.[0] === 'ConditionalCheckFailed') return false;
      throw err;
    }
    eventsCommitted(events);
    return true;
  }

  /**
   * Writes the article whole, with the owner's summary moved by it and `activity` (its creation's entry) in one
   * transaction.
   */
  async put(article: ArticleRecord, options: { activity?: readonly ActivityRecord[] } = {}): Promise<void> {
    const Item = { ...key(article.userId, article.id), type: 'article', ...article, ...indexAttributesOf(article) };
    // Mostly a new article: written on the condition that there is none, without reading first.
    let before: ArticleRecord | undefined;
    for (let attempt = 1; ; attempt++) {
      const unchanged = before && derivedUnchanged(before);
      const write: TransactItem = {
        Put: {
          TableName: this.tableName,
          Item,
          ...(unchanged
            ? {
                ConditionExpression: unchanged.condition,
                ExpressionAttributeNames: unchanged.names,
                ExpressionAttributeValues: unchanged.values,
              }
            : { ConditionExpression: 'attribute_not_exists(PK)' }),
        },
      };
      const entries = [
        ...calendarWrites(this.tableName, article.userId, article.id, before, article),
        ...dueSlotWrites(this.tableName, article.userId, article.id, before, article),
        ...(before ? [] : activityWrites(this.tableName, options.activity ?? [])),
      ];
      const result = await this.summaries.writeWithArticle(article.userId, article.id, before, article, write, entries);
      if (result === 'written') break;
      if (attempt >= CONTRIBUTION_WRITE_ATTEMPTS) throw new Error(`Article ${article.id} kept changing; not written`);
      before = await this.get(article.userId, article.id);
    }
    await this.changed(article.userId);
  }

  /**
   * Moves the owner's `articlesVersion` (UserRecord), after the write and never before: a request
   * whose session read sees the new version lists the new data. List answers are reused while it
   * stays (http/list-cache.ts). Writes that change nothing the API shows (publish claims, notified
   * and approved marks) leave it.
   */
  private async changed(userId: string): Promise<void> {
    // The condition fails only when there is no such user: then nobody lists these articles.
    // articlesChangedAt tells how long the indexes have had to catch up (http/articles.ts).
    await conditionHeld(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: userKey(userId),
          UpdateExpression: 'ADD articlesVersion :one SET articlesChangedAt = :at',
          ConditionExpression: 'attribute_exists(PK)',
          ExpressionAttributeValues: { ':one': 1, ':at': new Date().toISOString() },
        }),
      ),
    );
  }

  /** Reads items by key, strongly consistent, in the keys' order (items gone meanwhile are left out). */
  private async getMany(keys: { PK: string; SK: string }[]): Promise<ArticleRecord[]> {
    const found = new Map<string, Item>();
    for (let i = 0; i < keys.length; i += BATCH_GET_MAX) {
      let pending: Record<string, unknown>[] | undefined = keys.slice(i, i + BATCH_GET_MAX);
      for (let attempt = 0; pending?.length; attempt++) {
        if (attempt) await new Promise((r) => setTimeout(r, Math.min(1000, 25 * 2 ** attempt)));
        const out: BatchGetCommandOutput = await this.db.send(
          new BatchGetCommand({ RequestItems: { [this.tableName]: { Keys: pending, ConsistentRead: true } } }),
        );
        for (const item of (out.Responses?.[this.tableName] ?? []) as Item[]) found.set(item.SK, item);
        pending = out.UnprocessedKeys?.[this.tableName]?.Keys;
      }
    }
    return keys.flatMap((k) => {
      const item = found.get(k.SK);
      return item ? [fromItem(item)] : [];
    });
  }

  /**
   * After an update: when the article's publication changed, its index attributes follow (before
   * the version moves, so a list read after the new version finds them). Most writes find them right.
   */
  private async keepIndexesRight(item: Item): Promise<void> {
    const wanted = indexAttributesOf(item);
    if (indexAttributesRight(item, wanted)) return;
    await setIndexAttributes(this.db, this.tableName, { PK: item.PK, SK: item.SK }, item, wanted);
  }

  /** Creates an empty map attribute on an existing article that has none yet, so a nested key can be set in it. */
  private async ensureMap(userId: string, id: string, attribute: string): Promise<void> {
    await conditionHeld(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: key(userId, id),
          UpdateExpression: 'SET #m = :empty',
          ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(#m)',
          ExpressionAttributeNames: { '#m': attribute },
          ExpressionAttributeValues: { ':empty': {} },
        }),
      ),
    );
  }

  async get(userId: string, id: string): Promise<ArticleRecord | undefined> {
    const out = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: key(userId, id), ConsistentRead: true }),
    );
    return out.Item ? fromItem(out.Item as Item) : undefined;
  }

  async page(userId: string, limit: number, after?: ArticlePosition): Promise<ArticlePage> {
    // One more than asked: whether there is a next page is known without a further empty read.
    const out = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
        ExpressionAttributeValues: { ':pk': `USER#${userId}`, ':prefix': ARTICLE_PREFIX },
        ScanIndexForward: false,
        ConsistentRead: true,
        Limit: limit + 1,
        ExclusiveStartKey: after && key(userId, after.id),
      }),
    );
    const items = (out.Items ?? []) as Item[];
    const articles = items.slice(0, limit).map(fromItem);
    return items.length > limit ? { articles, next: { id: articles[limit - 1]!.id } } : { articles };
  }

  async publishedPage(userId: string, limit: number, after?: ArticlePosition): Promise<ArticlePage> {
    const pub = `PUB#${userId}`;
    // The index holds keys only (KEYS_ONLY): the articles themselves are then read from the table,
    // strongly consistent, so each shows as it is now even when the index is a moment behind.
    const out = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: 'GSI2',
        KeyConditionExpression: 'GSI2PK = :pub',
        ExpressionAttributeValues: { ':pub': pub },
        ScanIndexForward: false,
        Limit: limit + 1,
        ExclusiveStartKey: after && {
          ...key(userId, after.id),
          GSI2PK: pub,
          GSI2SK: `${after.publishedAt}#${after.id}`,
        },
      }),
    );
    const keys = ((out.Items ?? []) as (IndexAttributes & { PK: string; SK: string })[]).slice(0, limit + 1);
    const articles = await this.getMany(keys.slice(0, limit).map(({ PK, SK }) => ({ PK, SK })));
    if (keys.length <= limit) return { articles };
    const last = keys[limit - 1]!;
    const sortKey = last.GSI2SK ?? '';
    return { articles, next: { id: idOf(last.SK), publishedAt: sortKey.slice(0, sortKey.lastIndexOf('#')) } };
  }

  /**
   * The open articles' keys come from GSI1; the articles themselves are read from the table,
   * strongly consistent (one just published on both platforms shows as such and the caller drops
   * it), and those created within INDEX_LAG_ALLOWANCE_MS are read from the table directly, since
   * the index may lack them yet. So the list shows every write its request's version counts, as
   * the whole-partition read it replaces did (http/list-cache.ts), at a cost that grows with the
   * open articles only.
   */
  async listOpen(userId: string): Promise<ArticleRecord[]> {
    const pk = `USER#${userId}`;
    const since = (Date.now() - INDEX_LAG_ALLOWANCE_MS).toString(36).padStart(9, '0');
    const [indexed, recent] = await Promise.all([
      queryAll<{ PK: string; SK: string }>(this.db, {
        TableName: this.tableName,
        IndexName: 'GSI1',
        KeyConditionExpression: 'GSI1PK = :open',
        ExpressionAttributeValues: { ':open': `OPEN#${userId}` },
        ProjectionExpression: 'PK, SK',
        ScanIndexForward: false,
      }),
      queryAll<Item>(this.db, {
        TableName: this.tableName,
        // Ids start with their creation time in base 36 (domain/articles.ts newArticleId); '~' sorts after them.
        KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':pk': pk, ':from': `${ARTICLE_PREFIX}${since}`, ':to': `${ARTICLE_PREFIX}~` },
        ConsistentRead: true,
      }),
    ]);
    const recentKeys = new Set(recent.map((item) => item.SK));
    const others = await this.getMany(
      indexed.filter((k) => k.PK === pk && !recentKeys.has(k.SK)).map(({ PK, SK }) => ({ PK, SK })),
    );
    return [...recent.map(fromItem), ...others].sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  }

  async calendarRange(userId: string, from: string, to: string): Promise<ArticleRecord[]> {
    // '~' sorts after every id and platform, so entries at `to` itself are read too (the caller drops them).
    const entries = await queryAll<{ articleId: string }>(this.db, {
      TableName: this.tableName,
      KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
      ExpressionAttributeValues: {
        ':pk': `USER#${userId}`,
        ':from': `${CALENDAR_PREFIX}${from}`,
        ':to': `${CALENDAR_PREFIX}${to}~`,
      },
      ProjectionExpression: 'articleId',
      ConsistentRead: true,
    });
    const ids = [...new Set(entries.map((entry) => entry.articleId))];
    return this.getMany(ids.map((id) => key(userId, id)));
  }

  /**
   * Gives the article an empty `versions` map where it has none (articles written before channels had versions of
   * their own), so a write can set `versions.<id>`: a nested path needs its parent map. Changes nothing else.
   */
  private async ensureVersionsMap(userId: string, id: string): Promise<void> {
    await ifConditionHeld(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: key(userId, id),
          UpdateExpression: 'SET #versions = :none',
          ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(#versions)',
          ExpressionAttributeNames: { '#versions': 'versions' },
          ExpressionAttributeValues: { ':none': {} },
        }),
      ),
    );
  }

  async update(
    userId: string,
    id: string,
    changes: Record<string, unknown>,
    options: ArticleUpdateOptions = {},
  ): Promise<ArticleRecord | undefined> {
    // A write at a path inside a map the article may not have yet (`posts.<channel>`) needs the map first.
    for (const map of new Set(Object.keys(changes).map((path) => path.split('.')))) {
      if (map.length > 1 && LATER_MAPS.has(map[0]!)) await this.ensureMap(userId, id, map[0]!);
    }
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = {};
    const sets = Object.entries(changes).map(([path, value], i) => {
      const parts = path.split('.').map((part, j) => {
        names[`#p${i}_${j}`] = part;
        return `#p${i}_${j}`;
      });
      values[`:v${i}`] = value;
      return `${parts.join('.')} = :v${i}`;
    });
    const conditions = ['attribute_exists(PK)'];
    for (const [i, version] of (options.onlyIfEmpty ?? []).entries()) {
      names['#c_content'] = 'content';
      values[':empty'] = '';
      if (isPlatform(version)) {
        names[`#c_${version}`] = version;
        conditions.push(`#c_${version}.#c_content = :empty`);
      } else {
        // A channel's own version: absent until drafted or written.
        names['#c_versions'] = 'versions';
        names[`#c_v${i}`] = version;
        conditions.push(`(attribute_not_exists(#c_versions.#c_v${i}) OR #c_versions.#c_v${i}.#c_content = :empty)`);
      }
    }
    if (Object.keys(changes).some((path) => path.startsWith('versions.'))) await this.ensureVersionsMap(userId, id);
    if (options.onlyIfImageJob !== undefined) {
      names['#c_imageJob'] = 'imageJob';
      names['#c_requestedAt'] = 'requestedAt';
      values[':c_requestedAt'] = options.onlyIfImageJob;
      conditions.push('#c_imageJob.#c_requestedAt = :c_requestedAt');
    }
    if (options.onlyIfImage !== undefined) {
      names['#c_image'] = 'image';
      if (options.onlyIfImage === null) {
        values[':c_null'] = 'NULL';
        conditions.push('(attribute_not_exists(#c_image) OR attribute_type(#c_image, :c_null))');
      } else {
        names['#c_blogKey'] = 'blogKey';
        values[':c_blogKey'] = options.onlyIfImage;
        conditions.push('#c_image.#c_blogKey = :c_blogKey');
      }
    }
    if (options.onlyIfReviewRev) {
      const { platform, rev } = options.onlyIfReviewRev;
      names['#c_rv'] = reviewAttribute(platform);
      if (rev === 0) {
        values[':c_rvnull'] = 'NULL';
        conditions.push('(attribute_not_exists(#c_rv) OR attribute_type(#c_rv, :c_rvnull))');
      } else {
        names['#c_rev'] = 'rev';
        values[':c_rev'] = rev;
        conditions.push('#c_rv.#c_rev = :c_rev');
      }
    }
    if (options.onlyIfHealthDue) {
      // The (slot, window) is claimed: the note must not have this window for this slot yet.
      const { version, scheduledFor, window } = options.onlyIfHealthDue;
      names['#c_h'] = healthAttribute(version);
      names['#c_hslot'] = 'scheduledFor';
      names['#c_hwindows'] = 'windows';
      values[':c_hnull'] = 'NULL';
      values[':c_hslot'] = scheduledFor;
      values[':c_hwindow'] = window;
      conditions.push(
        '(attribute_not_exists(#c_h) OR attribute_type(#c_h, :c_hnull) OR #c_h.#c_hslot <> :c_hslot OR NOT contains(#c_h.#c_hwindows, :c_hwindow))',
      );
    }
    // A change with events goes the transaction's way too: its events are written with it.
    // So does an edit: its activity entry is written with it (domain/activity.ts).
    if (touchesDerived(changes) || options.events?.length || options.edit) {
      return this.updateWithSummary(userId, id, changes, options, { sets, conditions, names, values });
    }
    const out = await ifConditionHeld(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: key(userId, id),
          UpdateExpression: `SET ${sets.join(', ')}`,
          ConditionExpression: conditions.join(' AND '),
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
          ReturnValues: 'ALL_NEW',
        }),
      ),
    );
    if (!out) return undefined;
    await this.keepIndexesRight(out.Attributes as Item);
    await this.changed(userId);
    return fromItem(out.Attributes as Item);
  }

  /**
   * An update that changes what the dashboard summary counts (a publication, the keyword or tags) or
   * where the article is on the calendar (a schedule), or that causes domain events: the article is read,
   * the summary's delta and the calendar entries' changes computed from it, and all written in one
   * transaction with the events' outbox items, on the condition that the article's fields they derive
   * from are still as read (else read again and retried).
   */
  private async updateWithSummary(
    userId: string,
    id: string,
    changes: Record<string, unknown>,
    options: ArticleUpdateOptions,
    update: { sets: string[]; conditions: string[]; names: Record<string, string>; values: Record<string, unknown> },
  ): Promise<ArticleRecord | undefined> {
    let committed: readonly OutboxEntry[];
    for (let attempt = 1; ; attempt++) {
      const before = await this.get(userId, id);
      // The caller's own conditions, as the write would find them (it checks them again).
      if (
        !before ||
        (options.onlyIfEmpty ?? []).some((version) => versionText(before, version) !== '') ||
        (options.onlyIfImageJob !== undefined && before.imageJob?.requestedAt !== options.onlyIfImageJob) ||
        (options.onlyIfImage !== undefined && (before.image?.blogKey ?? null) !== options.onlyIfImage) ||
        (options.onlyIfReviewRev !== undefined &&
          reviewRevOf(before, options.onlyIfReviewRev.platform) !== options.onlyIfReviewRev.rev) ||
        (options.onlyIfHealthDue !== undefined && healthNoted(before, options.onlyIfHealthDue))
      ) {
        return undefined;
      }
      const unchanged = derivedUnchanged(before);
      const editedAt = typeof changes.updatedAt === 'string' ? changes.updatedAt : new Date().toISOString();
      // An edit extends the entry of its burst or starts one, on the condition that lastEdit is still as read.
      const edit = options.edit && editActivity(before, options.edit, editedAt, randomUUID);
      const editPin = edit && fieldsUnchanged(before, [['lastEdit', 'at']], 'le');
      // Where review is required, what the edit does to the version's review goes in the same write, on the
      // condition that the review is still as read: an edit never lands without it (domain/review-edit.ts).
      const reviewed = options.edit?.review ? reviewAttribute(options.edit.platform) : undefined;
      const reviewPin = reviewed && fieldsUnchanged(before, [[reviewed]], 'rp');
      const reset = options.edit && reviewAfterEdit(before, options.edit, editedAt);
      const events = [...(options.events ?? []), ...(reset?.events ?? [])];
      const after = withChanges(before, reset && reviewed ? { ...changes, [reviewed]: reset.review } : changes);
      // The list indexes follow in the same write: a publish is never left out of History by a crash
      // between two writes. The condition pins the publication fields they are computed from, and
      // updatedAt too when it stands in for a missing publish time (publishedAtOf).
      const indexes = indexUpdate(indexAttributesOf(after));
      const pinUpdatedAt = !('updatedAt' in changes) && PLATFORMS.some((p) => after[p].lastPublished == null);
      const write: TransactItem = {
        Update: {
          TableName: this.tableName,
          Key: key(userId, id),
          UpdateExpression: [
            `SET ${[
              ...update.sets,
              ...indexes.sets,
              ...(edit ? ['#lastEdit = :lastEdit'] : []),
              ...(reset ? ['#reviewed = :reviewed'] : []),
            ].join(', ')}`,
            indexes.remove,
          ]
            .filter(Boolean)
            .join(' '),
          ConditionExpression: [
            ...update.conditions,
            unchanged.condition,
            ...(pinUpdatedAt ? ['#pin_updatedAt = :pin_updatedAt'] : []),
            ...(editPin ? [editPin.condition] : []),
            ...(reviewPin ? [reviewPin.condition] : []),
          ].join(' AND '),
          ExpressionAttributeNames: {
            ...update.names,
            ...unchanged.names,
            ...indexes.names,
            ...(pinUpdatedAt ? { '#pin_updatedAt': 'updatedAt' } : {}),
            ...(edit ? { '#lastEdit': 'lastEdit', ...editPin?.names } : {}),
            ...(reviewPin ? reviewPin.names : {}),
            ...(reset && reviewed ? { '#reviewed': reviewed } : {}),
          },
          ExpressionAttributeValues: {
            ...update.values,
            ...unchanged.values,
            ...indexes.values,
            ...(pinUpdatedAt ? { ':pin_updatedAt': before.updatedAt } : {}),
            ...(edit ? { ':lastEdit': edit.lastEdit, ...editPin?.values } : {}),
            ...(reviewPin ? reviewPin.values : {}),
            ...(reset ? { ':reviewed': reset.review } : {}),
          },
        },
      };
      const alongside = [
        ...calendarWrites(this.tableName, userId, id, before, after),
        ...dueSlotWrites(this.tableName, userId, id, before, after),
        ...outboxWrites(this.tableName, events),
        ...activityWrites(this.tableName, [...activityOfEvents(events), ...(edit ? [edit.entry] : [])]),
      ];
      const result = await this.summaries.writeWithArticle(userId, id, before, after, write, alongside);
      if (result === 'written') {
        committed = events;
        break;
      }
      if (attempt >= CONTRIBUTION_WRITE_ATTEMPTS) throw new Error(`Article ${id} kept changing; not updated`);
    }
    eventsCommitted(committed);
    const out = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: key(userId, id), ConsistentRead: true }),
    );
    if (!out.Item) return undefined;
    await this.keepIndexesRight(out.Item as Item);
    await this.changed(userId);
    return fromItem(out.Item as Item);
  }

  async claimPublish(
    userId: string,
    id: string,
    claim: PublishClaimKey,
    claimId: string,
    now: string,
    staleBefore: string,
  ): Promise<ArticleRecord | undefined> {
    // Articles saved before claims existed have no map to hold one yet.
    await this.ensureMap(userId, id, 'publishClaims');
    const out = await ifConditionHeld(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: key(userId, id),
          UpdateExpression: 'SET #claims.#p = :claim',
          ConditionExpression: 'attribute_exists(PK) AND (attribute_not_exists(#claims.#p) OR #claims.#p.#at < :stale)',
          ExpressionAttributeNames: { '#claims': 'publishClaims', '#p': claim, '#at': 'at' },
          ExpressionAttributeValues: { ':claim': { id: claimId, at: now }, ':stale': staleBefore },
          ReturnValues: 'ALL_NEW',
        }),
      ),
    );
    return out && fromItem(out.Attributes as Item);
  }

  async releasePublish(userId: string, id: string, claim: PublishClaimKey, claimId: string): Promise<void> {
    await conditionHeld(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: key(userId, id),
          UpdateExpression: 'REMOVE #claims.#p',
          ConditionExpression: '#claims.#p.#id = :id',
          ExpressionAttributeNames: { '#claims': 'publishClaims', '#p': claim, '#id': 'id' },
          ExpressionAttributeValues: { ':id': claimId },
        }),
      ),
    );
  }

  async notePublishAttempt(
    userId: string,
    id: string,
    claim: PublishClaimKey,
    claimId: string,
    attempt: PublishAttempt,
  ): Promise<boolean> {
    await this.ensureMap(userId, id, 'publishAttempts');
    return conditionHeld(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: key(userId, id),
          UpdateExpression: 'SET #attempts.#p = :attempt',
          // Only while this publish holds the claim: one whose claim was taken over must not send.
          ConditionExpression: '#claims.#p.#id = :claim',
          ExpressionAttributeNames: {
            '#attempts': 'publishAttempts',
            '#claims': 'publishClaims',
            '#p': claim,
            '#id': 'id',
          },
          ExpressionAttributeValues: { ':attempt': attempt, ':claim': claimId },
        }),
      ),
    );
  }

  async forgetPublishAttempt(userId: string, id: string, claim: PublishClaimKey): Promise<void> {
    await conditionHeld(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: key(userId, id),
          UpdateExpression: 'REMOVE #attempts.#p',
          ConditionExpression: 'attribute_exists(#attempts)',
          ExpressionAttributeNames: { '#attempts': 'publishAttempts', '#p': claim },
        }),
      ),
    );
  }

  async markOnce(
    userId: string,
    id: string,
    field: 'notified' | 'approved',
    platform: VersionId,
    value: string,
    events?: readonly OutboxEntry[],
  ): Promise<boolean> {
    await this.ensureMap(userId, id, field);
    return this.updateWithEvents(
      {
        TableName: this.tableName,
        Key: key(userId, id),
        UpdateExpression: 'SET #f.#p = :v',
        ConditionExpression: 'attribute_exists(PK) AND (attribute_not_exists(#f.#p) OR #f.#p <> :v)',
        ExpressionAttributeNames: { '#f': field, '#p': platform },
        ExpressionAttributeValues: { ':v': value },
      },
      events,
    );
  }

  async unmark(userId: string, id: string, field: 'notified' | 'approved', platform: VersionId): Promise<void> {
    await conditionHeld(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: key(userId, id),
          UpdateExpression: 'REMOVE #f.#p',
          ConditionExpression: 'attribute_exists(#f)',
          ExpressionAttributeNames: { '#f': field, '#p': platform },
        }),
      ),
    );
  }

  async claimNotify(
    userId: string,
    id: string,
    platform: VersionId,
    scheduledFor: string,
    now: string,
    leaseUntil: string,
  ): Promise<NotifyClaim> {
    await this.ensureMap(userId, id, 'notifyLeases');
    const claimed = await conditionHeld(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: key(userId, id),
          UpdateExpression: 'SET #leases.#p = :lease',
          ConditionExpression:
            'attribute_exists(PK) AND (attribute_not_exists(#notified.#p) OR #notified.#p <> :for) AND ' +
            '(attribute_not_exists(#leases.#p) OR #leases.#p.#until < :now OR #leases.#p.#for <> :for)',
          ExpressionAttributeNames: {
            '#leases': 'notifyLeases',
            '#notified': 'notified',
            '#p': platform,
            '#until': 'until',
            '#for': 'for',
          },
          ExpressionAttributeValues: {
            ':lease': { for: scheduledFor, until: leaseUntil },
            ':for': scheduledFor,
            ':now': now,
          },
        }),
      ),
    );
    if (claimed) return 'claimed';
    const article = (await this.get(userId, id)) as
      (ArticleRecord & { notified?: Partial<Record<VersionId, string>> }) | undefined;
    return article?.notified?.[platform] === scheduledFor ? 'done' : 'held';
  }

  async finishNotify(
    userId: string,
    id: string,
    platform: VersionId,
    scheduledFor: string,
    events?: readonly OutboxEntry[],
  ): Promise<void> {
    await this.ensureMap(userId, id, 'notified');
    await this.updateWithEvents(
      {
        TableName: this.tableName,
        Key: key(userId, id),
        UpdateExpression: 'SET #notified.#p = :for REMOVE #leases.#p',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeNames: { '#notified': 'notified', '#leases': 'notifyLeases', '#p': platform },
        ExpressionAttributeValues: { ':for': scheduledFor },
      },
      events,
    );
  }

  async releaseNotify(userId: string, id: string, platform: VersionId, scheduledFor: string): Promise<void> {
    await conditionHeld(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: key(userId, id),
          UpdateExpression: 'REMOVE #leases.#p',
          // Only our own lease: a newer run's lease stays.
          ConditionExpression: '#leases.#p.#for = :for',
          ExpressionAttributeNames: { '#leases': 'notifyLeases', '#p': platform, '#for': 'for' },
          ExpressionAttributeValues: { ':for': scheduledFor },
        }),
      ),
    );
  }
}
