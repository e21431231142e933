import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { AUTOMATION_EVENT_NAMES } from './domain/automation-events.js';
import type { BusinessEvents } from './domain/events.js';
import type { Job } from './domain/ports.js';
import { logger } from './logger.js';
import { onMetricsLoaded } from './business-events.js';
import { MetricNames } from './metric-names.js';

export { MetricNames } from './metric-names.js';

type Unit = (typeof MetricUnit)[keyof typeof MetricUnit];

/**
 * A `code` dimension value. Codes come from our own code (lastError codes), but each distinct value
 * is a custom metric that CloudWatch bills: anything not shaped like one of ours counts as `other`.
 */
const codeDimension = (code: string): string => (/^[a-z][a-z0-9_]{0,47}$/.test(code) ? code : 'other');

/**
 * Powertools' own messages go to our structured log. "No application metrics to publish" is what
 * every request without a business event ends with (logMetrics flushes each invocation): debug only.
 */
const metricsLogger = {
  debug: (message: unknown) => logger.debug(String(message)),
  info: (message: unknown) => logger.info(String(message)),
  warn: (message: unknown) =>
    String(message).startsWith('No application metrics') ? logger.debug(String(message)) : logger.warn(String(message)),
  error: (message: unknown) => logger.error(String(message)),
};

export function createMetrics(env: NodeJS.ProcessEnv = process.env): Metrics {
  return new Metrics({
    namespace: env.POWERTOOLS_METRICS_NAMESPACE || 'content-publisher',
    serviceName: env.POWERTOOLS_SERVICE_NAME || 'content-publisher',
    logger: metricsLogger,
  });
}

/**
 * Whether metrics are recorded: in Lambda (where stdout goes to CloudWatch Logs, which turns EMF
 * lines into metrics), unless POWERTOOLS_METRICS_DISABLED says otherwise. Elsewhere (tests, `npm
 * start`) EMF lines would only clutter the output, so only POWERTOOLS_METRICS_DISABLED=false turns them on.
 */
export function metricsEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  const disabled = env.POWERTOOLS_METRICS_DISABLED?.trim().toLowerCase();
  if (disabled && ['1', 'true', 'yes', 'on'].includes(disabled)) return false;
  if (disabled && ['0', 'false', 'no', 'off'].includes(disabled)) return true;
  return Boolean(env.AWS_LAMBDA_FUNCTION_NAME);
}

/**
 * Records the business events as EMF metrics on one Powertools Metrics instance, flushed at the end
 * of each invocation (logMetrics in middleware/api.ts and lambda/worker.ts). Dimensions belong to a
 * whole EMF line, so an event whose dimensions differ from those of the metrics waiting to be
 * flushed flushes them first: each line carries metrics of one dimension set.
 */
export class MetricsRecorder implements BusinessEvents {
  private stored: string | undefined;

  constructor(
    readonly metrics: Metrics,
    private readonly enabled = true,
  ) {}

  private record(name: string, unit: Unit, value: number, dimensions: Record<string, string>): void {
    if (!this.enabled) return;
    const key = JSON.stringify(dimensions);
    if (this.metrics.hasStoredMetrics() && key !== this.stored) this.metrics.publishStoredMetrics();
    if (!this.metrics.hasStoredMetrics()) {
      // Dimensions are cleared by every flush (ours, logMetrics', or Powertools' own at 100 metrics).
      this.metrics.clearDimensions();
      for (const [dimension, dimensionValue] of Object.entries(dimensions))
        this.metrics.addDimension(dimension, dimensionValue);
      this.stored = key;
    }
    this.metrics.addMetric(name, unit, value);
  }

  /** `platform`: the channel's id (`wordpress`, `linkedin`, …), the dimension's values from before channels. */
  publishSucceeded(channel: string): void {
    this.record(MetricNames.publishSucceeded, MetricUnit.Count, 1, { platform: channel });
  }

  publishFailed(channel: string, code: string): void {
    this.record(MetricNames.publishFailed, MetricUnit.Count, 1, {
      platform: channel,
      code: codeDimension(code),
    });
  }

  draftFailed(code: string): void {
    this.record(MetricNames.draftFailed, MetricUnit.Count, 1, { code: codeDimension(code) });
  }

  approvalEmailSent(): void {
    this.record(MetricNames.approvalEmailSent, MetricUnit.Count, 1, {});
  }

  approvalEmailFailed(code: string): void {
    this.record(MetricNames.approvalEmailFailed, MetricUnit.Count, 1, { code: codeDimension(code) });
  }

  /** A domain event that did not reach the bus or the owner's webhook, by target and event name (6 names). */
  automationEventFailed(target: 'bus' | 'webhook', eventName: string): void {
    this.record(MetricNames.automationEventFailed, MetricUnit.Count, 1, {
      target,
      event: (AUTOMATION_EVENT_NAMES as readonly string[]).includes(eventName) ? eventName : 'other',
    });
  }

  /** How long a worker job ran, by job type. */
  jobDuration(type: Job['type'], ms: number): void {
    this.record(MetricNames.jobDuration, MetricUnit.Milliseconds, Math.max(0, Math.round(ms)), { type });
  }
}

/** The process's Metrics instance: flushed at the end of each invocation (flushMetrics, business-events.ts). */
export const metrics = createMetrics();
onMetricsLoaded(() => metrics.publishStoredMetrics());

/** The business events of this process (the services' `events` port). */
export const businessEvents = new MetricsRecorder(metrics, metricsEnabled());

export const publishSucceeded = (channel: string): void => businessEvents.publishSucceeded(channel);
export const publishFailed = (channel: string, code: string): void => businessEvents.publishFailed(channel, code);
export const draftFailed = (code: string): void => businessEvents.draftFailed(code);
export const approvalEmailSent = (): void => businessEvents.approvalEmailSent();
export const approvalEmailFailed = (code: string): void => businessEvents.approvalEmailFailed(code);
export const jobDuration = (type: Job['type'], ms: number): void => businessEvents.jobDuration(type, ms);
