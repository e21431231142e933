import type { BusinessEvents } from './domain/events.js';
import { logger } from './logger.js';

/**
 * The business events as the services and middleware get them, and their flush at the end of an invocation.
 * Powertools Metrics (metrics.ts, ~13 KB) is loaded by the first event an invocation records: most calls
 * record none (only publishing, drafting, approval e-mails, scheduled jobs and failed event deliveries do), so
 * a cold start does not parse it (docs/testing.md, Performance budgets). The flush waits for the events whose
 * module is still loading, so each is flushed with the invocation that recorded it.
 */

type Recorder = (events: BusinessEvents) => void;

let loading: Promise<BusinessEvents> | undefined;
let pending: Promise<void>[] = [];
let publish: (() => void) | undefined;

/** metrics.ts hands in its flush when it loads: by the first event here, or with code that imports it (a job). */
export function onMetricsLoaded(flush: () => void): void {
  publish = flush;
}

function record(event: Recorder): void {
  loading ??= import('./metrics.js').then((module) => module.businessEvents);
  pending.push(
    loading.then(event).catch((error: unknown) => {
      // A metric is not worth failing the call it counts; the next event tries to load again.
      loading = undefined;
      logger.warn('Business metric not recorded', { error: error as Error });
    }),
  );
}

export const businessEvents: BusinessEvents = {
  publishSucceeded: (channel) => record((events) => events.publishSucceeded(channel)),
  publishFailed: (channel, code) => record((events) => events.publishFailed(channel, code)),
  draftFailed: (code) => record((events) => events.draftFailed(code)),
  approvalEmailSent: () => record((events) => events.approvalEmailSent()),
  approvalEmailFailed: (code) => record((events) => events.approvalEmailFailed(code)),
  automationEventFailed: (target, eventName) => record((events) => events.automationEventFailed(target, eventName)),
};

/** Publishes the metrics the invocation recorded, once those still loading are in (none loaded: nothing to do). */
export async function flushBusinessMetrics(): Promise<void> {
  while (pending.length) {
    const waiting = pending;
    pending = [];
    await Promise.all(waiting);
  }
  publish?.();
}

/** The middy step that flushes at the end of each invocation, also when it fails (in place of Powertools' logMetrics). */
export const flushMetrics = () => ({ after: flushBusinessMetrics, onError: flushBusinessMetrics });
