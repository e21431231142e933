import type { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import { EVENT_SOURCE, type DomainEvent, type DomainEventPublisher } from '../../domain/automation-events.js';

type EventBridgeModule = typeof import('@aws-sdk/client-eventbridge');

let eventBridgeModule: Promise<EventBridgeModule> | undefined;
/**
 * The EventBridge client is loaded by the first event, not at cold start: most calls of the
 * functions that emit (reading an approval page, say) never do (infra/lib/bundling.ts, docs/testing.md
 * Performance budgets).
 */
const loadEventBridge = (): Promise<EventBridgeModule> => (eventBridgeModule ??= import('@aws-sdk/client-eventbridge'));

/** Some events of a PutEvents call were not accepted (EventBridge answers 200 with FailedEntryCount). */
export class EventsNotAcceptedError extends Error {
  constructor(
    readonly failed: number,
    readonly total: number,
    /** The first refused entry's error code (e.g. ThrottlingException, InternalFailure). */
    readonly errorCode: string | undefined,
  ) {
    super(`EventBridge accepted ${total - failed} of ${total} events${errorCode ? ` (${errorCode})` : ''}`);
    this.name = 'EventsNotAcceptedError';
  }
}

/** PutEvents to the stack's bus (EVENT_BUS_NAME): one entry per event, the detail as JSON. */
export class EventBridgeEventPublisher implements DomainEventPublisher {
  private client: EventBridgeClient | undefined;

  constructor(
    private readonly makeClient: (eventBridge: EventBridgeModule) => EventBridgeClient,
    private readonly busName: string,
  ) {}

  async publish(events: readonly DomainEvent[], { timeoutMs }: { timeoutMs: number }): Promise<void> {
    if (!events.length) return;
    const eventBridge = await loadEventBridge();
    this.client ??= this.makeClient(eventBridge);
    const out = await this.client.send(
      new eventBridge.PutEventsCommand({
        Entries: events.map((event) => ({
          EventBusName: this.busName,
          Source: EVENT_SOURCE,
          DetailType: event.detailType,
          Detail: JSON.stringify(event.detail),
          Time: new Date(event.detail.occurredAt),
        })),
      }),
      { abortSignal: AbortSignal.timeout(timeoutMs) },
    );
    // A 200 answer may still refuse entries: each refused one has an ErrorCode of its own.
    const failed = out.FailedEntryCount ?? 0;
    if (failed > 0) {
      const errorCode = out.Entries?.find((entry) => entry.ErrorCode)?.ErrorCode;
      throw new EventsNotAcceptedError(failed, events.length, errorCode);
    }
  }
}

/** The stack's bus in this region. */
export function createEventBridgePublisher(config: { region: string }, busName: string): EventBridgeEventPublisher {
  return new EventBridgeEventPublisher(
    ({ EventBridgeClient }) => new EventBridgeClient({ region: config.region }),
    busName,
  );
}
