import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { OUTBOX_ITEM_TYPE, entryOfItem } from '../adapters/dynamo/event-outbox.js';
import { logger } from '../logger.js';
import { eventRelay } from '../wiring/automation-events.js';

/** A batch of a DynamoDB stream (the table's, read by the worker). */
export const isStreamEvent = (event: unknown): boolean =>
  Array.isArray((event as { Records?: unknown } | null)?.Records) &&
  (event as { Records: { eventSource?: string }[] }).Records[0]?.eventSource === 'aws:dynamodb';

/**
 * Delivers the outbox items of a stream batch (the event source mapping's filter passes only new event
 * items, infra/lib/event-delivery.ts) and reports the first one not delivered: Lambda then retries the
 * batch from it (with bisection), and after its last retry sends the batch's description to the event
 * delivery's failure queue. Items delivered before it are marked on the table and skipped on the retry.
 */
export async function deliverStreamRecords(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  const records = event.Records.flatMap((record) => {
    const image = record.dynamodb?.NewImage;
    const sequence = record.dynamodb?.SequenceNumber;
    if (!image || !sequence) return [];
    const item = unmarshall(image as Record<string, AttributeValue>);
    if (item.type !== OUTBOX_ITEM_TYPE) return [];
    return [{ sequence, entry: entryOfItem(item) }];
  });
  if (!records.length) return { batchItemFailures: [] };
  const { undelivered } = await eventRelay().deliver(records.map((record) => record.entry));
  const failed = new Set(undelivered.map((entry) => entry.event.detail.eventId));
  const first = records.find((record) => failed.has(record.entry.event.detail.eventId));
  logger.info('domain events delivered', { events: records.length, undelivered: failed.size });
  return { batchItemFailures: first ? [{ itemIdentifier: first.sequence }] : [] };
}
