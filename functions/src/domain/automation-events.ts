/**
 * Domain events for automation (README, Events for automation): what happened to an article, put on
 * the stack's EventBridge bus in AWS (a team adds rules to it), appended to `$DATA_DIR/events.jsonl`
 * locally, and POSTed to the owner's automation webhook (LinkedIn settings), signed as ever.
 *
 * Kept apart from BusinessEvents (events.ts), which are counts for CloudWatch metrics: these carry
 * the facts an outside consumer needs (ids, platform, URLs, times, error codes) and never a secret:
 * no token, password, API key or approval link (the link is a bearer token of the owner's). Only the
 * owner's opaque id identifies them; the article's title is the one piece of its content.
 */
import { randomUUID } from 'node:crypto';
import * as z from 'zod';
import { lazySchema, type Platform } from '@app/shared';
import type { WebhookDelivery } from './integrations.js';
import { EVENT_BUS_TIMEOUT_MS, EVENT_WEBHOOK_TIMEOUT_MS } from '../time-budgets.js';

/** The `source` of every event (an EventBridge rule's `source` pattern). */
export const EVENT_SOURCE = 'content-publisher';
/** The detail's schema version: a change that is not backwards compatible gets new `.v2` detail-types. */
export const EVENT_SCHEMA_VERSION = 1;

/** The platform as events name it: where the post goes (the API's `blog` is WordPress). */
export type EventPlatform = 'wordpress' | 'linkedin';
export const eventPlatform = (platform: Platform): EventPlatform => (platform === 'blog' ? 'wordpress' : 'linkedin');

/**
 * Each event's detail schema, by name (its detail-type is `<name>.v1`): the documented shape (README, Events
 * for automation) and the source of the detail types. Built on first call (lazySchema): nothing in a
 * Lambda parses with them, and built at load they cost every cold start a few ms (docs/testing.md,
 * Performance budgets).
 */
export const AUTOMATION_EVENT_SCHEMAS = lazySchema(() => {
  const EventPlatformSchema = z.enum(['wordpress', 'linkedin']).describe('Where the post goes');
  const instant = z.iso.datetime({ offset: true });

  /** Every detail starts with these. */
  const CommonDetail = z.object({
    eventId: z.uuid().describe('Unique per event: a consumer that may see an event twice de-duplicates on it'),
    version: z.literal(EVENT_SCHEMA_VERSION).describe('Schema version of the detail (as in the detail-type)'),
    occurredAt: instant.describe('When it happened (ISO 8601, UTC)'),
    userId: z.string().min(1).describe("The owner's opaque id (never an e-mail address)"),
    articleId: z.string().min(1).describe("The article's id (as in /api/articles/<id>)"),
  });

  const ErrorDetail = z
    .object({
      code: z.string().min(1).describe("A stable code, the article's lastError code (e.g. wordpress_unreachable)"),
      message: z.string().max(300).describe('A short explanation for people (no secrets)'),
    })
    .describe('Why it failed');

  const Trigger = z
    .enum(['manual', 'approval'])
    .describe('manual: Publish now in the app; approval: the owner confirmed an approval link');

  return {
    /** AI drafting wrote an article's empty versions (a new article, a retry, or a scheduled run's drafting). */
    ArticleDrafted: CommonDetail.extend({
      title: z.string(),
      platforms: z.array(EventPlatformSchema).min(1).describe('The versions drafted now'),
    }).describe('AI drafting wrote the empty versions of an article'),
    /** A scheduled run e-mailed the owner the approval link of one platform. */
    ApprovalRequested: CommonDetail.extend({
      title: z.string(),
      platform: EventPlatformSchema,
      scheduledFor: instant.describe('The scheduled time the approval is for'),
      approvalExpiresAt: instant.describe('When the e-mailed link stops working'),
    }).describe('A scheduled run e-mailed the owner an approval link (the link itself is never in an event)'),
    /** The owner confirmed an approval link and its platform was published. */
    ArticleApproved: CommonDetail.extend({
      title: z.string(),
      platform: EventPlatformSchema,
      scheduledFor: instant,
      postUrl: z.url().nullable().describe('The published post'),
    }).describe('The owner confirmed an approval link and the platform was published'),
    /** A post went out (or a WordPress post was updated). */
    PublishSucceeded: CommonDetail.extend({
      title: z.string(),
      platform: EventPlatformSchema,
      trigger: Trigger,
      scheduledFor: instant.nullable().describe('The approved schedule (trigger approval), else null'),
      postUrl: z.url().nullable().describe('The post on the platform (null when WordPress gave no usable link)'),
      publishedAt: instant,
    }).describe('A post went out on a platform'),
    /** A publish attempt failed; the article keeps its content and this error as lastError. */
    PublishFailed: CommonDetail.extend({
      title: z.string(),
      platform: EventPlatformSchema,
      trigger: Trigger,
      scheduledFor: instant.nullable(),
      error: ErrorDetail,
    }).describe('Publishing on a platform failed (recorded as the article’s lastError)'),
    /** A scheduled run could not ask the owner for approval. */
    ScheduleMissed: CommonDetail.extend({
      title: z.string().nullable().describe('Null when the article could not be read'),
      platform: EventPlatformSchema,
      scheduledFor: instant,
      error: ErrorDetail,
      retryable: z
        .boolean()
        .describe(
          'true: this attempt failed and the job is retried (in AWS twice, then the job failure queue): an ApprovalRequested ' +
            'for the same articleId, platform and scheduledFor means a retry made it; false: no retry changes it',
        ),
    }).describe('A scheduled run could not ask the owner for approval'),
  } as const;
});

type AutomationEventSchemas = ReturnType<typeof AUTOMATION_EVENT_SCHEMAS>;
export type AutomationEventName = keyof AutomationEventSchemas;
/** Every event's name once (a Record, so the compiler checks it against the schemas), listed without building them. */
const EVENT_NAMES: Record<AutomationEventName, null> = {
  ArticleDrafted: null,
  ApprovalRequested: null,
  ArticleApproved: null,
  PublishSucceeded: null,
  PublishFailed: null,
  ScheduleMissed: null,
};
export const AUTOMATION_EVENT_NAMES = Object.keys(EVENT_NAMES) as AutomationEventName[];
export type AutomationEventDetail<N extends AutomationEventName> = z.infer<AutomationEventSchemas[N]>;

/** `PublishSucceeded.v1`: the `detail-type` a rule matches. */
export const detailTypeOf = (name: AutomationEventName): string => `${name}.v${EVENT_SCHEMA_VERSION}`;

/** One event, ready to send. */
export type DomainEvent = {
  [N in AutomationEventName]: { name: N; detailType: string; detail: AutomationEventDetail<N> };
}[AutomationEventName];

/** What an event's fields are without the ones every event gets when it is made. */
export type EventFields<N extends AutomationEventName> = Omit<
  AutomationEventDetail<N>,
  'eventId' | 'version' | 'occurredAt'
>;

/**
 * The event as EventBridge rules see it (and as events.jsonl and the webhook carry it): EventBridge's
 * envelope with our detail. In AWS `id`, `account` and `region` are EventBridge's.
 */
export interface EventEnvelope {
  version: '0';
  id: string;
  'detail-type': string;
  source: typeof EVENT_SOURCE;
  account: string;
  time: string;
  region: string;
  resources: string[];
  detail: DomainEvent['detail'];
}

export const envelopeOf = (event: DomainEvent, where: { account: string; region: string }): EventEnvelope => ({
  version: '0',
  id: event.detail.eventId,
  'detail-type': event.detailType,
  source: EVENT_SOURCE,
  account: where.account,
  time: event.detail.occurredAt,
  region: where.region,
  resources: [],
  detail: event.detail,
});

/** A short error message for an event: one line, at most 300 characters. */
export const eventErrorMessage = (message: string): string => {
  const line = message.replace(/\s+/g, ' ').trim();
  return line.length > 300 ? `${line.slice(0, 299)}…` : line;
};

/**
 * The bus (port): EventBridge PutEvents in AWS, a JSON-lines file locally. Rejects when an event was
 * not accepted; gives up after `timeoutMs`.
 */
export interface DomainEventPublisher {
  publish(events: readonly DomainEvent[], options: { timeoutMs: number }): Promise<void>;
}

/** The owner's automation webhook (LinkedIn settings: URL and signing secret). */
export interface AutomationWebhook {
  url: string;
  secret: string;
}

/** The webhook is not called with less time than this. */
export const MIN_WEBHOOK_MS = 500;

export interface EmitOptions {
  /**
   * How long the webhook may take (a publish hands on what is left of its deadline); default
   * EVENT_WEBHOOK_TIMEOUT_MS. Under MIN_WEBHOOK_MS it is not called.
   */
  webhookTimeoutMs?: number;
  /** The owner's webhook as the caller read it already (undefined: read it; null: there is none). */
  webhook?: AutomationWebhook | null;
  /** Payloads POSTed to the webhook beside the event, at the same time (the `linkedin.published` one). */
  alsoToWebhook?: readonly unknown[];
}

export type EmitFailure =
  | { target: 'bus'; event: DomainEvent; error: unknown }
  | { target: 'webhook'; event: DomainEvent; status?: number; error: string };

export interface AutomationEventsDeps {
  bus: DomainEventPublisher;
  /** The owner's webhook, if they configured one (read only when the caller has not). */
  webhookOf: (userId: string) => Promise<AutomationWebhook | undefined>;
  webhooks: WebhookDelivery;
  /** Where the envelope says the event comes from locally (EventBridge sets its own in AWS). */
  where: { account: string; region: string };
  /** A delivery that failed (logged and counted by the wiring); never thrown. */
  onFailure: (failure: EmitFailure) => void;
  /** The webhook answered 2xx. */
  onDelivered?: (event: DomainEvent, status?: number) => void;
  now?: () => Date;
}

/**
 * Emits domain events: to the bus and, when the owner has one, to their webhook, both at once and
 * each bounded in time. Never throws and never fails the operation that emits: a failure is handed
 * to onFailure (logged and counted as a metric).
 */
export class AutomationEvents {
  private readonly now: () => Date;
  constructor(private readonly deps: AutomationEventsDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  /** The event with its id, version and time. */
  make<N extends AutomationEventName>(name: N, fields: EventFields<N>): DomainEvent {
    const detail = {
      eventId: randomUUID(),
      version: EVENT_SCHEMA_VERSION,
      occurredAt: this.now().toISOString(),
      ...fields,
    } as AutomationEventDetail<N>;
    return { name, detailType: detailTypeOf(name), detail } as DomainEvent;
  }

  async emit<N extends AutomationEventName>(name: N, fields: EventFields<N>, options: EmitOptions = {}): Promise<void> {
    const event = this.make(name, fields);
    await Promise.all([this.toBus(event), this.toWebhook(event, options)]);
  }

  private async toBus(event: DomainEvent): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    try {
      // The adapter gives up after timeoutMs itself; this bounds one that does not (a stuck file system, say).
      await Promise.race([
        this.deps.bus.publish([event], { timeoutMs: EVENT_BUS_TIMEOUT_MS }),
        new Promise((_resolve, reject) => {
          timer = setTimeout(
            () => reject(new Error(`The bus did not answer within ${EVENT_BUS_TIMEOUT_MS} ms`)),
            EVENT_BUS_TIMEOUT_MS,
          );
        }),
      ]);
    } catch (error) {
      this.report({ target: 'bus', event, error });
    } finally {
      clearTimeout(timer);
    }
  }

  private async toWebhook(event: DomainEvent, options: EmitOptions): Promise<void> {
    const timeoutMs = Math.min(options.webhookTimeoutMs ?? EVENT_WEBHOOK_TIMEOUT_MS, EVENT_WEBHOOK_TIMEOUT_MS);
    let webhook: AutomationWebhook | null | undefined = options.webhook;
    try {
      if (webhook === undefined) webhook = await this.deps.webhookOf(event.detail.userId);
    } catch (error) {
      this.report({ target: 'webhook', event, error: `The webhook settings could not be read: ${messageOf(error)}` });
      return;
    }
    if (!webhook) return;
    if (timeoutMs < MIN_WEBHOOK_MS) {
      this.report({ target: 'webhook', event, error: 'Publishing used all its time: the webhook was not called.' });
      return;
    }
    const envelope = { event: event.detailType, ...envelopeOf(event, this.deps.where) };
    const payloads = [...(options.alsoToWebhook ?? []), envelope];
    const outcomes = await Promise.all(
      payloads.map((payload) => this.deps.webhooks.deliver(webhook.url, webhook.secret, payload, { timeoutMs })),
    );
    for (const outcome of outcomes) {
      if (outcome.ok) this.deps.onDelivered?.(event, outcome.status);
      else this.report({ target: 'webhook', event, status: outcome.status, error: outcome.error ?? 'failed' });
    }
  }

  private report(failure: EmitFailure): void {
    try {
      this.deps.onFailure(failure);
    } catch {
      // Reporting must not fail the operation either.
    }
  }
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * What the domain services take: only emit, so their tests can pass a recorder. Optional in every
 * service's deps (no events wired: nothing is emitted).
 */
export type AutomationEventSink = Pick<AutomationEvents, 'emit'>;
