import {
  BatchGetCommand,
  ScanCommand,
  TransactWriteCommand,
  UpdateCommand,
  type BatchGetCommandOutput,
  type DynamoDBDocumentClient,
  type ScanCommandOutput,
} from '@aws-sdk/lib-dynamodb';
import type {
  DeliveryProgress,
  DomainEvent,
  OutboxEntry,
  OutboxMarks,
  WebhookOutcome,
} from '../../domain/automation-events.js';
import { activityOfEvents } from '../../domain/activity.js';
import { activityWrites } from './activity-store.js';
import { backOff } from './summary-store.js';
import type { TransactItem } from './summary-store.js';

/** The `type` of an outbox item: the table stream's filter picks these (infra/lib/event-delivery.ts). */
export const OUTBOX_ITEM_TYPE = 'domain-event';
const EVENT_PREFIX = 'EVENT#';

/**
 * An outbox item lives this long (TTL) before it is delivered: longer than the stream keeps a record
 * (24 hours) and the failure queue a message (14 days), so an event that was never delivered can still be
 * found and redelivered (docs/operations.md, Domain events).
 */
export const OUTBOX_RETENTION_DAYS = 14;
/** Once delivered, a day (the bus's archive keeps it for replay: infra/lib/event-delivery.ts). */
export const DELIVERED_RETENTION_DAYS = 1;

const DAY_S = 86_400;
const epochSeconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);

/**
 * An event's item key: in its owner's partition, sorted by time, with the event id, so a delivery can
 * find it again from the event alone.
 */
export const eventKey = (event: DomainEvent) => ({
  PK: `USER#${event.detail.userId}`,
  SK: `${EVENT_PREFIX}${event.detail.occurredAt}#${event.detail.eventId}`,
});

/** The outbox item of an entry, as the change's transaction writes it (docs/data-model.md). */
export function outboxItemOf(entry: OutboxEntry): Record<string, unknown> {
  const { event } = entry;
  return {
    ...eventKey(event),
    type: OUTBOX_ITEM_TYPE,
    name: event.name,
    detailType: event.detailType,
    detail: event.detail,
    toWebhook: entry.toWebhook,
    ...(entry.alsoToWebhook?.length ? { alsoToWebhook: entry.alsoToWebhook } : {}),
    webhookFailures: 0,
    expiresAt: epochSeconds(event.detail.occurredAt) + OUTBOX_RETENTION_DAYS * DAY_S,
  };
}

/**
 * The Puts of a change's events, for its TransactWriteItems (article-store.ts composes them with the
 * article's write, as it does the calendar entries and the summary). Each only if new: an event id is
 * written once.
 */
export function outboxWrites(tableName: string, entries: readonly OutboxEntry[] | undefined): TransactItem[] {
  return (entries ?? []).map((entry) => ({
    Put: { TableName: tableName, Item: outboxItemOf(entry), ConditionExpression: 'attribute_not_exists(PK)' },
  }));
}

/** The entry an outbox item holds (a stream record's new image, a redelivery's scan). */
export function entryOfItem(item: Record<string, unknown>): OutboxEntry {
  return {
    event: { name: item.name, detailType: item.detailType, detail: item.detail } as DomainEvent,
    toWebhook: item.toWebhook !== false,
    ...(Array.isArray(item.alsoToWebhook) && item.alsoToWebhook.length ? { alsoToWebhook: item.alsoToWebhook } : {}),
  };
}

type Listener = (entries: OutboxEntry[]) => void;
const listeners: Listener[] = [];

/**
 * The local stand-in for the table's stream (in AWS the worker reads it, infra/lib/event-delivery.ts):
 * `listener` gets the entries of every write this process commits. The local stack registers its delivery
 * here; a Lambda registers nothing. Answers a function that removes it.
 */
export function onEventsCommitted(listener: Listener): () => void {
  listeners.push(listener);
  return () => {
    const at = listeners.indexOf(listener);
    if (at >= 0) listeners.splice(at, 1);
  };
}

/** Tells the listeners of entries a transaction committed (never throws: the change is made). */
export function eventsCommitted(entries: readonly OutboxEntry[] | undefined): void {
  if (!entries?.length) return;
  for (const listener of listeners) {
    try {
      listener([...entries]);
    } catch {
      // A listener's failure leaves the entries in the outbox, where the next start finds them.
    }
  }
}

/** BatchGetItem takes at most this many keys per call. */
const BATCH_GET_MAX = 100;

/** The outbox items: events written without a change of their own, and the delivery marks. */
export class DynamoEventOutbox implements OutboxMarks {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /** Writes events whose cause changed nothing in the table (a scheduled run that could not ask for approval). */
  async record(entries: readonly OutboxEntry[]): Promise<void> {
    if (!entries.length) return;
    // With the article's activity entries of them, as every write of events has (activity-store.ts).
    await this.db.send(
      new TransactWriteCommand({
        TransactItems: [
          ...outboxWrites(this.tableName, entries),
          ...activityWrites(this.tableName, activityOfEvents(entries)),
        ],
      }),
    );
    eventsCommitted(entries);
  }

  async progress(events: readonly DomainEvent[]): Promise<Map<string, DeliveryProgress>> {
    const found = new Map<string, DeliveryProgress>();
    const keys = events.map(eventKey);
    for (let i = 0; i < keys.length; i += BATCH_GET_MAX) {
      let pending: Record<string, unknown>[] | undefined = keys.slice(i, i + BATCH_GET_MAX);
      for (let attempt = 0; pending?.length; attempt++) {
        if (attempt) await backOff(attempt);
        const out: BatchGetCommandOutput = await this.db.send(
          new BatchGetCommand({
            RequestItems: {
              [this.tableName]: {
                Keys: pending,
                ConsistentRead: true,
                ProjectionExpression: 'SK, busAt, webhook, webhookFailures, deliveredAt',
              },
            },
          }),
        );
        for (const item of out.Responses?.[this.tableName] ?? []) {
          const eventId = String(item.SK).slice(String(item.SK).lastIndexOf('#') + 1);
          found.set(eventId, {
            ...(item.busAt ? { busAt: item.busAt as string } : {}),
            ...(item.webhook ? { webhook: item.webhook as WebhookOutcome } : {}),
            webhookFailures: Number(item.webhookFailures ?? 0),
            ...(item.deliveredAt ? { deliveredAt: item.deliveredAt as string } : {}),
          });
        }
        pending = out.UnprocessedKeys?.[this.tableName]?.Keys;
      }
    }
    return found;
  }

  async mark(
    event: DomainEvent,
    marks: { busAt?: string; webhook?: WebhookOutcome; webhookFailed?: boolean; deliveredAt?: string },
  ): Promise<void> {
    const sets: string[] = [];
    const values: Record<string, unknown> = {};
    const names: Record<string, string> = {};
    const set = (name: string, value: unknown) => {
      names[`#${name}`] = name;
      values[`:${name}`] = value;
      sets.push(`#${name} = :${name}`);
    };
    if (marks.busAt) set('busAt', marks.busAt);
    if (marks.webhook) set('webhook', marks.webhook);
    if (marks.deliveredAt) {
      set('deliveredAt', marks.deliveredAt);
      // Delivered: it need not wait for a redelivery any more (the bus's archive keeps it).
      set('expiresAt', epochSeconds(marks.deliveredAt) + DELIVERED_RETENTION_DAYS * DAY_S);
    }
    const adds = marks.webhookFailed ? ['#webhookFailures :one'] : [];
    if (marks.webhookFailed) {
      names['#webhookFailures'] = 'webhookFailures';
      values[':one'] = 1;
    }
    if (!sets.length && !adds.length) return;
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: eventKey(event),
          UpdateExpression: [sets.length ? `SET ${sets.join(', ')}` : '', adds.length ? `ADD ${adds.join(', ')}` : '']
            .filter(Boolean)
            .join(' '),
          // An item gone (expired) is not made again by its marks.
          ConditionExpression: 'attribute_exists(PK)',
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
        }),
      );
    } catch (err) {
      if ((err as Error).name !== 'ConditionalCheckFailedException') throw err;
    }
  }
}

/**
 * Every outbox item not delivered yet (oldest first): the local start-up's catch-up, and the redelivery
 * after the failure queue's alarm (functions/src/local/redeliver-events.ts). One strongly consistent Scan.
 */
export async function undeliveredEvents(db: DynamoDBDocumentClient, tableName: string): Promise<OutboxEntry[]> {
  const items: Record<string, unknown>[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page: ScanCommandOutput = await db.send(
      new ScanCommand({
        TableName: tableName,
        ConsistentRead: true,
        FilterExpression: '#type = :type AND attribute_not_exists(deliveredAt)',
        ExpressionAttributeNames: { '#type': 'type' },
        ExpressionAttributeValues: { ':type': OUTBOX_ITEM_TYPE },
        ExclusiveStartKey,
      }),
    );
    items.push(...(page.Items ?? []));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return items.sort((a, b) => String(a.SK).localeCompare(String(b.SK))).map((item) => entryOfItem(item));
}

/**
 * Delivers every outbox item not delivered yet, in batches of 10 (as the stream does): the redelivery after the
 * failure queue's alarm (docs/operations.md, Domain events). Answers how many it found and delivered.
 */
export async function redeliverEvents(
  db: DynamoDBDocumentClient,
  tableName: string,
  relay: { deliver(entries: readonly OutboxEntry[]): Promise<{ undelivered: OutboxEntry[] }> },
): Promise<{ found: number; delivered: number }> {
  const entries = await undeliveredEvents(db, tableName);
  let delivered = 0;
  for (let i = 0; i < entries.length; i += 10) {
    const batch = entries.slice(i, i + 10);
    delivered += batch.length - (await relay.deliver(batch)).undelivered.length;
  }
  return { found: entries.length, delivered };
}
