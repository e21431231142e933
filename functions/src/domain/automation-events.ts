/**
 * Domain events for automation (README, Events for automation): what happened to an article, written
 * with the change in the table's outbox (docs/data-model.md) and delivered from there at least once: put
 * on the stack's EventBridge bus in AWS (a team adds rules to it), appended to `$DATA_DIR/events.jsonl`
 * locally, and POSTed to the owner's automation webhook (LinkedIn settings), signed as ever.
 *
 * Kept apart from BusinessEvents (events.ts), which are counts for CloudWatch metrics: these carry
 * the facts an outside consumer needs (ids, platform, URLs, times, error codes) and never a secret:
 * no token, password, API key or approval link (the link is a bearer token of the owner's). Only the
 * owner's opaque id identifies them; the article's title is the one piece of its content.
 */
import { randomUUID } from 'node:crypto';
import * as z from 'zod/mini';
import { lazySchema, type VersionId } from '@app/shared';
import type { WebhookDelivery } from './integrations.js';
import { EVENT_BUS_TIMEOUT_MS, EVENT_WEBHOOK_TIMEOUT_MS } from '../time-budgets.js';

/** The `source` of every event (an EventBridge rule's `source` pattern). */
export const EVENT_SOURCE = 'content-publisher';
/** The detail's schema version: a change that is not backwards compatible gets new `.v2` detail-types. */
export const EVENT_SCHEMA_VERSION = 1;

/** The platform as events name it: where the post goes (the API's `blog` is WordPress). */
export type EventPlatform = 'wordpress' | 'linkedin' | (string & {});
/** The channel an event names for a version: WordPress for the blog one, else the version's channel (its id). */
export const eventPlatform = (platform: VersionId): EventPlatform => (platform === 'blog' ? 'wordpress' : platform);

/**
 * Each event's detail schema, by name (its detail-type is `<name>.v1`): the documented shape (README, Events
 * for automation) and the source of the detail types. Built on first call (lazySchema): nothing in a
 * Lambda parses with them, and built at load they cost every cold start a few ms (docs/testing.md,
 * Performance budgets). Marked pure, so that esbuild leaves the getter (~11 KB with the zod checks only it
 * uses) out of every bundle, as no function calls it.
 */
export const AUTOMATION_EVENT_SCHEMAS = /* @__PURE__ */ lazySchema(() => {
  /** A schema with its description (the documented shape). */
  const described = <S extends z.ZodMiniType>(schema: S, description: string): S =>
    schema.check(z.describe(description));
  const text = () => z.string().check(z.minLength(1));
  const stage = () => z.int().check(z.minimum(1), z.maximum(2));
  const EventPlatformSchema = described(
    z.string().check(z.minLength(1)),
    'Where the post goes: wordpress, linkedin, or the id of a channel with a version of its own',
  );
  /** A publish's: WordPress, LinkedIn, or the id of another channel (functions/src/channels/registry.ts). */
  const PublishPlatformSchema = described(
    z.string().check(z.minLength(1)),
    'Where the post goes: wordpress, linkedin, or the id of another channel',
  );
  const instant = z.iso.datetime({ offset: true });

  /** Every detail starts with these. */
  const CommonDetail = z.object({
    eventId: described(z.uuid(), 'Unique per event: a consumer that may see an event twice de-duplicates on it'),
    version: described(z.literal(EVENT_SCHEMA_VERSION), 'Schema version of the detail (as in the detail-type)'),
    occurredAt: described(instant, 'When it happened (ISO 8601, UTC)'),
    userId: described(text(), "The owner's opaque id (never an e-mail address)"),
    articleId: described(text(), "The article's id (as in /api/articles/<id>)"),
    actorId: described(
      z.optional(z.nullable(text())),
      "Who did it: the member's opaque id; null: a scheduled run; absent: nobody in particular (an import's drafting)",
    ),
  });

  const ErrorDetail = described(
    z.object({
      code: described(text(), "A stable code, the article's lastError code (e.g. wordpress_unreachable)"),
      message: described(z.string().check(z.maxLength(300)), 'A short explanation for people (no secrets)'),
    }),
    'Why it failed',
  );

  const Trigger = described(
    z.enum(['manual', 'approval']),
    'manual: Publish now in the app; approval: the owner confirmed an approval link',
  );

  return {
    /**
     * AI drafting wrote an article's empty versions (a new article, a retry, an import row, or a scheduled run's
     * drafting); `actorId`: the member who asked (null: a scheduled run; absent: an import row).
     */
    ArticleDrafted: described(
      z.extend(CommonDetail, {
        title: z.string(),
        platforms: described(z.array(EventPlatformSchema).check(z.minLength(1)), 'The versions drafted now'),
      }),
      'AI drafting wrote the empty versions of an article',
    ),
    /** A scheduled run e-mailed the owner the approval link of one platform. */
    ApprovalRequested: described(
      z.extend(CommonDetail, {
        title: z.string(),
        platform: EventPlatformSchema,
        scheduledFor: described(instant, 'The scheduled time the approval is for'),
        approvalExpiresAt: described(instant, 'When the e-mailed link stops working'),
      }),
      'A scheduled run e-mailed the owner an approval link (the link itself is never in an event)',
    ),
    /**
     * The owner confirmed an approval link and its platform was published; or, in a team workspace with review,
     * a member approved a stage of a version's review (docs/product.md, Workspaces, Review).
     */
    ArticleApproved: described(
      z.extend(CommonDetail, {
        title: z.string(),
        platform: EventPlatformSchema,
        scheduledFor: described(
          z.nullable(instant),
          'The scheduled time approved (null: a review of an unscheduled version)',
        ),
        postUrl: described(z.nullable(z.url()), 'The published post (null when the approval published nothing yet)'),
        actorId: described(z.optional(text()), 'Review only: the member who acted (opaque id)'),
        approverId: described(z.optional(text()), 'Review only: the member who approved (opaque id)'),
        stage: described(z.optional(stage()), 'Review only: the stage approved (1, or 2 of two)'),
        final: described(z.optional(z.boolean()), 'Review only: true when this approval completes the review'),
      }),
      'An approval: an approval link confirmed (and published), or a stage of a review approved',
    ),
    /** A version was submitted for review (by a member, an edit after approval, or a scheduled run). */
    ReviewRequested: described(
      z.extend(CommonDetail, {
        title: z.string(),
        platform: EventPlatformSchema,
        actorId: described(z.nullable(text()), 'Who submitted or edited it (null: the scheduled run)'),
        stage: described(stage(), 'The stage whose reviewers are asked'),
        reason: described(
          z.enum(['submitted', 'edited', 'scheduled', 'stage']),
          'submitted: a member submitted it; edited: an edit after approval or a change request; scheduled: its scheduled run; stage: the first stage was approved',
        ),
        scheduledFor: described(z.nullable(instant), 'The version’s scheduled time, if any'),
      }),
      'A version of an article was submitted for review',
    ),
    /** A reviewer asked for changes to a version, with a comment. */
    ChangesRequested: described(
      z.extend(CommonDetail, {
        title: z.string(),
        platform: EventPlatformSchema,
        actorId: described(text(), 'The reviewer who asked (opaque id)'),
        stage: stage(),
        comment: described(z.string().check(z.maxLength(2000)), 'What should change'),
      }),
      'A reviewer requested changes to a version',
    ),
    /** A post went out (or a WordPress post was updated). */
    PublishSucceeded: described(
      z.extend(CommonDetail, {
        title: z.string(),
        platform: PublishPlatformSchema,
        trigger: Trigger,
        scheduledFor: described(z.nullable(instant), 'The approved schedule (trigger approval), else null'),
        postUrl: described(z.nullable(z.url()), 'The post on the platform (null when WordPress gave no usable link)'),
        publishedAt: instant,
      }),
      'A post went out on a platform',
    ),
    /** A publish attempt failed; the article keeps its content and this error as lastError. */
    PublishFailed: described(
      z.extend(CommonDetail, {
        title: z.string(),
        platform: PublishPlatformSchema,
        trigger: Trigger,
        scheduledFor: z.nullable(instant),
        error: ErrorDetail,
      }),
      'Publishing on a platform failed (recorded as the article’s lastError)',
    ),
    /** A scheduled run could not ask the owner for approval. */
    ScheduleMissed: described(
      z.extend(CommonDetail, {
        title: described(z.nullable(z.string()), 'Null when the article could not be read'),
        platform: EventPlatformSchema,
        scheduledFor: instant,
        error: ErrorDetail,
        retryable: described(
          z.boolean(),
          'true: this attempt failed and the job is retried (in AWS twice, then the job failure queue): an ApprovalRequested ' +
            'for the same articleId, platform and scheduledFor means a retry made it; false: no retry changes it',
        ),
      }),
      'A scheduled run could not ask the owner for approval',
    ),
  } as const;
});

type AutomationEventSchemas = ReturnType<typeof AUTOMATION_EVENT_SCHEMAS>;
export type AutomationEventName = keyof AutomationEventSchemas;
/** Every event's name once (a Record, so the compiler checks it against the schemas), listed without building them. */
const EVENT_NAMES: Record<AutomationEventName, null> = {
  ArticleDrafted: null,
  ApprovalRequested: null,
  ArticleApproved: null,
  ReviewRequested: null,
  ChangesRequested: null,
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

/** The event with its id, version and time: what a change writes into its outbox (ports.ts ArticleStore). */
export function makeEvent<N extends AutomationEventName>(
  name: N,
  fields: EventFields<N>,
  now: Date = new Date(),
  eventId: string = randomUUID(),
): DomainEvent {
  const detail = {
    eventId,
    version: EVENT_SCHEMA_VERSION,
    occurredAt: now.toISOString(),
    ...fields,
  } as AutomationEventDetail<N>;
  return { name, detailType: detailTypeOf(name), detail } as DomainEvent;
}

/**
 * One event as the outbox keeps it until it is delivered (docs/data-model.md, the EVENT# item): written
 * in the same transaction as the change it tells of, then delivered at least once to the bus and the
 * owner's webhook (EventRelay).
 */
export interface OutboxEntry {
  event: DomainEvent;
  /** false: not for the owner's webhook (a deactivated owner's ScheduleMissed). */
  toWebhook: boolean;
  /** Payloads POSTed to the webhook before the event's envelope (the `linkedin.published` one). */
  alsoToWebhook?: readonly unknown[];
}

/** An entry for the bus and the owner's webhook. */
export const outboxEntry = (event: DomainEvent, options: Partial<Omit<OutboxEntry, 'event'>> = {}): OutboxEntry => ({
  event,
  toWebhook: options.toWebhook ?? true,
  ...(options.alsoToWebhook?.length ? { alsoToWebhook: options.alsoToWebhook } : {}),
});

/** How a webhook's part of a delivery ended: delivered, no webhook to call, or given up after WEBHOOK_ATTEMPTS. */
export type WebhookOutcome = 'delivered' | 'none' | 'gave-up';

/** How far an event's delivery has come, as its outbox item records it. */
export interface DeliveryProgress {
  /** When the bus accepted it. */
  busAt?: string;
  webhook?: WebhookOutcome;
  /** Failed webhook calls so far. */
  webhookFailures: number;
  /** When both targets were done. */
  deliveredAt?: string;
}

/** The outbox's delivery marks (port; adapters/dynamo/event-outbox.ts). */
export interface OutboxMarks {
  /** Each event's progress by eventId; an event without an item (expired, say) is missing. */
  progress(events: readonly DomainEvent[]): Promise<Map<string, DeliveryProgress>>;
  /** Records what this attempt achieved (only what is set); `deliveredAt` once both targets are done. */
  mark(
    event: DomainEvent,
    marks: { busAt?: string; webhook?: WebhookOutcome; webhookFailed?: boolean; deliveredAt?: string },
  ): Promise<void>;
}

/**
 * Calls to the owner's webhook an event gets before it is given up: a receiver down for longer is the
 * owner's to fix (it is logged and counted), and must neither hold up the other events nor page the
 * operator (docs/operations.md, Domain events).
 */
export const WEBHOOK_ATTEMPTS = 5;
/** PutEvents tries within one delivery attempt, a short back-off apart. */
export const BUS_TRIES = 3;

export type DeliveryFailure =
  | { target: 'bus'; event: DomainEvent; error: unknown }
  | { target: 'webhook'; event: DomainEvent; status?: number; error: string; gaveUp: boolean };

export interface EventRelayDeps {
  bus: DomainEventPublisher;
  marks: OutboxMarks;
  /** The owner's webhook, if they configured one. */
  webhookOf: (userId: string) => Promise<AutomationWebhook | undefined>;
  webhooks: WebhookDelivery;
  /** Where the envelope says the event comes from locally (EventBridge sets its own in AWS). */
  where: { account: string; region: string };
  /** A delivery that failed (logged and counted by the wiring); never thrown. */
  onFailure: (failure: DeliveryFailure) => void;
  /** The webhook answered 2xx. */
  onDelivered?: (event: DomainEvent, status?: number) => void;
  now?: () => Date;
  /** Waits between bus tries (tests pass one that does not wait). */
  sleep?: (ms: number) => Promise<void>;
}

/**
 * Delivers outbox entries at least once: each to the bus and, when the owner has one, to their webhook.
 * What a target accepted is marked on the entry's item, so a repeated delivery (a retried stream batch, the
 * local retry) does not send it there again, except when the mark itself was lost: consumers de-duplicate
 * on `eventId`. Runs where the entries are read (the worker's stream batches in AWS, the local delivery).
 */
export class EventRelay {
  private readonly now: () => Date;
  private readonly sleep: (ms: number) => Promise<void>;
  constructor(private readonly deps: EventRelayDeps) {
    this.now = deps.now ?? (() => new Date());
    this.sleep = deps.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  /** Delivers what is still due of each entry; answers those not delivered yet (to be tried again). */
  async deliver(entries: readonly OutboxEntry[]): Promise<{ undelivered: OutboxEntry[] }> {
    if (!entries.length) return { undelivered: [] };
    const progress = await this.deps.marks.progress(entries.map((entry) => entry.event));
    const webhooks = new Map<string, Promise<AutomationWebhook | undefined>>();
    const webhookOf = (userId: string) => {
      let found = webhooks.get(userId);
      if (!found) webhooks.set(userId, (found = this.deps.webhookOf(userId)));
      return found;
    };
    const done = await Promise.all(
      entries.map((entry) =>
        this.deliverOne(entry, progress.get(entry.event.detail.eventId) ?? { webhookFailures: 0 }, webhookOf),
      ),
    );
    return { undelivered: entries.filter((_, i) => !done[i]) };
  }

  private async deliverOne(
    entry: OutboxEntry,
    progress: DeliveryProgress,
    webhookOf: (userId: string) => Promise<AutomationWebhook | undefined>,
  ): Promise<boolean> {
    if (progress.deliveredAt) return true;
    const { event } = entry;
    const [busAt, webhook] = await Promise.all([
      progress.busAt ? undefined : this.toBus(event),
      progress.webhook ? undefined : this.toWebhook(entry, progress.webhookFailures, webhookOf),
    ]);
    const busDone = Boolean(progress.busAt ?? busAt);
    const webhookDone = Boolean(progress.webhook ?? (webhook && webhook !== 'failed'));
    const deliveredAt = busDone && webhookDone ? this.now().toISOString() : undefined;
    await this.deps.marks.mark(event, {
      ...(busAt ? { busAt } : {}),
      ...(webhook === 'failed' ? { webhookFailed: true } : webhook ? { webhook } : {}),
      ...(deliveredAt ? { deliveredAt } : {}),
    });
    return Boolean(deliveredAt);
  }

  /** The time the bus accepted the event, or undefined after BUS_TRIES failed tries (reported). */
  private async toBus(event: DomainEvent): Promise<string | undefined> {
    for (let attempt = 1; ; attempt++) {
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
        return this.now().toISOString();
      } catch (error) {
        if (attempt >= BUS_TRIES) {
          this.report({ target: 'bus', event, error });
          return undefined;
        }
      } finally {
        clearTimeout(timer);
      }
      await this.sleep(100 * 2 ** attempt);
    }
  }

  private async toWebhook(
    entry: OutboxEntry,
    failures: number,
    webhookOf: (userId: string) => Promise<AutomationWebhook | undefined>,
  ): Promise<WebhookOutcome | 'failed'> {
    const { event } = entry;
    if (!entry.toWebhook) return 'none';
    const failed = (error: string, status?: number): WebhookOutcome | 'failed' => {
      const gaveUp = failures + 1 >= WEBHOOK_ATTEMPTS;
      this.report({ target: 'webhook', event, status, error, gaveUp });
      return gaveUp ? 'gave-up' : 'failed';
    };
    let webhook: AutomationWebhook | undefined;
    try {
      webhook = await webhookOf(event.detail.userId);
    } catch (error) {
      return failed(`The webhook settings could not be read: ${messageOf(error)}`);
    }
    if (!webhook) return 'none';
    const envelope = { event: event.detailType, ...envelopeOf(event, this.deps.where) };
    const payloads = [...(entry.alsoToWebhook ?? []), envelope];
    // One after the other, in order: a receiver sees the `linkedin.published` payload first, as before.
    for (const payload of payloads) {
      const outcome = await this.deps.webhooks.deliver(webhook.url, webhook.secret, payload, {
        timeoutMs: EVENT_WEBHOOK_TIMEOUT_MS,
      });
      if (!outcome.ok) return failed(outcome.error ?? 'failed', outcome.status);
      this.deps.onDelivered?.(event, outcome.status);
    }
    return 'delivered';
  }

  private report(failure: DeliveryFailure): void {
    try {
      this.deps.onFailure(failure);
    } catch {
      // Reporting must not stop the delivery.
    }
  }
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
