/**
 * The bus adapters of the domain events: EventBridge PutEvents (AWS) and the JSON-lines file (local),
 * and the wiring's choice between them (functions/src/wiring/automation-events.ts).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { EventBridgeEventPublisher, EventsNotAcceptedError } from '../src/adapters/aws/eventbridge-event-publisher.js';
import { JsonLinesEventPublisher, parseEventLines } from '../src/adapters/local/jsonl-event-publisher.js';
import { AUTOMATION_EVENT_SCHEMAS, makeEvent, type DomainEvent } from '../src/domain/automation-events.js';
import { createEventBus } from '../src/wiring/automation-events.js';

const at = new Date('2030-01-01T09:00:00.000Z');
const maker = { make: ((name, fields) => makeEvent(name, fields, at)) as typeof makeEvent };
const failed: DomainEvent = maker.make('PublishFailed', {
  userId: 'u1',
  articleId: 'a1',
  title: 'Launch day',
  platform: 'wordpress',
  trigger: 'manual',
  scheduledFor: null,
  error: { code: 'wordpress_unreachable', message: 'WordPress did not answer.' },
});
const drafted: DomainEvent = maker.make('ArticleDrafted', {
  userId: 'u1',
  articleId: 'a2',
  title: 'Second',
  platforms: ['wordpress', 'linkedin'],
});

describe('EventBridgeEventPublisher (PutEvents)', () => {
  const eventBridge = mockClient(EventBridgeClient);
  const publisher = new EventBridgeEventPublisher(
    ({ EventBridgeClient: Client }) => new Client({ region: 'us-east-1' }),
    'content-publisher-dev-events',
  );
  beforeEach(() => eventBridge.reset());

  it('one entry per event on the stack’s bus: source, versioned detail-type, the detail as JSON, its time', async () => {
    eventBridge.on(PutEventsCommand).resolves({ FailedEntryCount: 0, Entries: [{ EventId: 'e1' }, { EventId: 'e2' }] });
    await publisher.publish([failed, drafted], { timeoutMs: 1_500 });
    const calls = eventBridge.commandCalls(PutEventsCommand);
    expect(calls).toHaveLength(1);
    const entries = calls[0]!.args[0].input.Entries!;
    expect(entries).toEqual([
      {
        EventBusName: 'content-publisher-dev-events',
        Source: 'content-publisher',
        DetailType: 'PublishFailed.v1',
        Detail: JSON.stringify(failed.detail),
        Time: new Date('2030-01-01T09:00:00.000Z'),
      },
      {
        EventBusName: 'content-publisher-dev-events',
        Source: 'content-publisher',
        DetailType: 'ArticleDrafted.v1',
        Detail: JSON.stringify(drafted.detail),
        Time: new Date('2030-01-01T09:00:00.000Z'),
      },
    ]);
    // What a rule's consumer parses is the documented schema.
    expect(AUTOMATION_EVENT_SCHEMAS().PublishFailed.parse(JSON.parse(entries[0]!.Detail!))).toEqual(failed.detail);
  });

  it('a 200 answer with FailedEntryCount > 0 rejects with the refused count and the first error code', async () => {
    eventBridge.on(PutEventsCommand).resolves({
      FailedEntryCount: 1,
      Entries: [{ EventId: 'e1' }, { ErrorCode: 'ThrottlingException', ErrorMessage: 'Rate exceeded' }],
    });
    const error = await publisher.publish([failed, drafted], { timeoutMs: 1_500 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EventsNotAcceptedError);
    expect(error).toMatchObject({ failed: 1, total: 2, errorCode: 'ThrottlingException' });
  });

  it('a refused call rejects (the emitter reports it); nothing is sent for no events', async () => {
    eventBridge.on(PutEventsCommand).rejects(new Error('AccessDeniedException'));
    await expect(publisher.publish([failed], { timeoutMs: 1_500 })).rejects.toThrow('AccessDeniedException');
    eventBridge.reset();
    await publisher.publish([], { timeoutMs: 1_500 });
    expect(eventBridge.commandCalls(PutEventsCommand)).toHaveLength(0);
  });

  it('the call carries an abort signal that fires after timeoutMs', async () => {
    eventBridge.on(PutEventsCommand).resolves({ FailedEntryCount: 0, Entries: [{ EventId: 'e1' }] });
    await publisher.publish([failed], { timeoutMs: 20 });
    // The sinon call of client.send(command, options): its second argument.
    const call = eventBridge.commandCalls(PutEventsCommand)[0]!;
    const options = (call.args as unknown[])[1] as { abortSignal?: AbortSignal };
    expect(options.abortSignal?.aborted).toBe(false);
    await new Promise((r) => setTimeout(r, 60));
    expect(options.abortSignal?.aborted).toBe(true);
  });
});

describe('JsonLinesEventPublisher ($DATA_DIR/events.jsonl)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cp-events-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('appends one line per event in the envelope EventBridge rules see', async () => {
    const file = join(dir, 'sub', 'events.jsonl');
    const publisher = new JsonLinesEventPublisher(file, { account: '000000000000', region: 'us-east-1' });
    await publisher.publish([failed]);
    await publisher.publish([drafted]);
    const text = readFileSync(file, 'utf8');
    expect(text.split('\n').filter(Boolean)).toHaveLength(2);
    expect(parseEventLines(text)).toEqual([
      {
        version: '0',
        id: failed.detail.eventId,
        'detail-type': 'PublishFailed.v1',
        source: 'content-publisher',
        account: '000000000000',
        time: '2030-01-01T09:00:00.000Z',
        region: 'us-east-1',
        resources: [],
        detail: failed.detail,
      },
      expect.objectContaining({ 'detail-type': 'ArticleDrafted.v1', detail: drafted.detail }),
    ]);
  });
});

describe('createEventBus: EventBridge in AWS, the file locally', () => {
  it('EVENT_BUS_NAME wins; else EVENTS_FILE; else a bus that takes nothing', async () => {
    expect(createEventBus({ region: 'us-east-1', eventBusName: 'bus', eventsFile: '/tmp/x.jsonl' })).toBeInstanceOf(
      EventBridgeEventPublisher,
    );
    expect(createEventBus({ region: 'us-east-1', eventsFile: '/tmp/x.jsonl' })).toBeInstanceOf(JsonLinesEventPublisher);
    const none = createEventBus({ region: 'us-east-1' }, {});
    await expect(none.publish([failed], { timeoutMs: 1 })).resolves.toBeUndefined();
  });

  it('in Lambda, a function without the bus fails each event (so it is logged, counted and alarmed), never drops it', async () => {
    const unwired = createEventBus({ region: 'us-east-1' }, { AWS_LAMBDA_FUNCTION_NAME: 'cp-articles' });
    await expect(unwired.publish([failed], { timeoutMs: 1 })).rejects.toThrow(/cp-articles has no EVENT_BUS_NAME/);
  });
});
