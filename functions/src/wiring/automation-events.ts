import { createEventBridgePublisher } from '../adapters/aws/eventbridge-event-publisher.js';
import { DynamoEventOutbox } from '../adapters/dynamo/event-outbox.js';
import { JsonLinesEventPublisher } from '../adapters/local/jsonl-event-publisher.js';
import type { Config } from '../config.js';
import { EventRelay, type DeliveryFailure, type DomainEventPublisher } from '../domain/automation-events.js';
import type { WebhookDelivery } from '../domain/integrations.js';
import { LI_KEYS } from '../channels/linkedin/keys.js';
import { logger } from '../logger.js';
import { businessEvents } from '../business-events.js';
import { deps } from './deps.js';
import { lazy } from './lazy.js';
import { settingService } from './settings.js';

/** Where the local envelope says the events come from (EventBridge puts the real account in AWS). */
const LOCAL_ACCOUNT = '000000000000';

/**
 * The bus: EventBridge (EVENT_BUS_NAME, set by the stack on the functions that emit), else the local
 * JSON-lines file (EVENTS_FILE, `$DATA_DIR/events.jsonl` under the local stack), else none (then only
 * the owner's webhook gets the events). In Lambda "none" is a wiring mistake, a function that emits
 * without the stack's bus: each event then fails as a bus failure (logged, counted, alarmed) rather
 * than vanishing.
 */
export function createEventBus(
  config: Pick<Config, 'region' | 'eventBusName' | 'eventsFile'>,
  env: NodeJS.ProcessEnv = process.env,
): DomainEventPublisher {
  if (config.eventBusName) return createEventBridgePublisher(config, config.eventBusName);
  if (config.eventsFile)
    return new JsonLinesEventPublisher(config.eventsFile, { account: LOCAL_ACCOUNT, region: config.region });
  if (env.AWS_LAMBDA_FUNCTION_NAME)
    return {
      publish: async () => {
        throw new Error(
          `${env.AWS_LAMBDA_FUNCTION_NAME} has no EVENT_BUS_NAME: give it the bus in infra/lib/content-publisher-stack.ts`,
        );
      },
    };
  return { publish: async () => undefined };
}

/** Logged without the payload or the webhook's secret; counted as AutomationEventFailed. */
function reportFailure(failure: DeliveryFailure): void {
  const { event } = failure;
  const fields = {
    target: failure.target,
    detailType: event.detailType,
    eventId: event.detail.eventId,
    articleId: event.detail.articleId,
  };
  if (failure.target === 'bus') {
    const error = failure.error as { name?: string; message?: string };
    logger.warn('automation event not put on the bus', {
      ...fields,
      error: { name: error?.name, message: error?.message },
    });
  } else {
    logger.warn(
      failure.gaveUp
        ? 'automation event not delivered to the webhook: given up'
        : 'automation event not delivered to the webhook',
      { ...fields, status: failure.status, error: failure.error },
    );
  }
  // Counted when it is given up: each bus failure (the delivery is retried, and alarmed), a webhook's last.
  if (failure.target === 'bus' || failure.gaveUp) businessEvents.automationEventFailed(failure.target, event.name);
}

function build(): EventRelay {
  const { config, db } = deps();
  const settings = settingService();
  // Only an owner with a webhook gets a delivery: its HTTP code (and the URL checks) loads then, not at every cold start.
  let delivery: Promise<WebhookDelivery> | undefined;
  const webhooks: WebhookDelivery = {
    deliver: async (...args) => {
      delivery ??= import('../adapters/integrations/webhook.js').then(
        ({ HttpWebhookDelivery }) => new HttpWebhookDelivery({ allowPrivateUrls: config.allowPrivateUrls }),
      );
      return (await delivery).deliver(...args);
    },
  };
  return new EventRelay({
    bus: createEventBus(config),
    marks: new DynamoEventOutbox(db, config.tableName),
    // The automation webhook of the LinkedIn settings: URL (in the table) and signing secret (the owner's secret, read only when a URL is set).
    webhookOf: async (userId) => {
      const url = await settings.value(userId, LI_KEYS.webhookUrl);
      const secret = url ? await settings.value(userId, LI_KEYS.webhookSecret) : undefined;
      return url && secret ? { url, secret } : undefined;
    },
    webhooks,
    where: { account: LOCAL_ACCOUNT, region: config.region },
    onFailure: reportFailure,
    onDelivered: (event, status) =>
      logger.info('automation event delivered to the webhook', { detailType: event.detailType, status }),
  });
}

/**
 * The delivery of the domain events from the outbox (bus and the owner's webhook), built on first use: in
 * the worker (the table's stream, lambda/worker.ts) and in the local process (adapters/local/event-delivery.ts).
 */
export const eventRelay = lazy(build);
