import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AUTOMATION_EVENT_NAMES } from '../../functions/src/domain/automation-events.js';
import { createMetrics, MetricsRecorder } from '../../functions/src/metrics.js';
import type { ContentPublisherStack } from '../lib/content-publisher-stack.js';
import { WORKER_ENTRY_NAME } from '../lib/worker-function.js';
import { logicalId, type Resource } from './helpers.js';
import { testApp } from './helpers.js';

/** A series as CloudWatch makes it from an EMF line: namespace, metric name, dimension names and values. */
interface Series {
  namespace: string;
  metricName: string;
  dimensions: Record<string, string>;
}

/** The series of the EMF lines `emit` prints through functions/src/metrics.ts (Powertools, stdout). */
function emitted(namespace: string, serviceName: string, emit: (events: MetricsRecorder) => void): Series[] {
  const chunks: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (chunks.push(String(chunk)), true));
  try {
    const metrics = createMetrics({ POWERTOOLS_METRICS_NAMESPACE: namespace, POWERTOOLS_SERVICE_NAME: serviceName });
    emit(new MetricsRecorder(metrics));
    metrics.publishStoredMetrics(); // what logMetrics does when the invocation ends
  } finally {
    spy.mockRestore();
  }
  return chunks
    .join('')
    .split('\n')
    .filter((line) => line.includes('"_aws"'))
    .flatMap((text) => {
      const line = JSON.parse(text) as Record<string, any>;
      return (
        line._aws.CloudWatchMetrics as { Namespace: string; Dimensions: string[][]; Metrics: { Name: string }[] }[]
      ).flatMap((directive) =>
        directive.Dimensions.flatMap((names) =>
          directive.Metrics.map((m) => ({
            namespace: directive.Namespace,
            metricName: m.Name,
            dimensions: Object.fromEntries(names.map((n) => [n, String(line[n])])),
          })),
        ),
      );
    });
}

/**
 * What an alarm's Metrics Insights query selects: `SELECT SUM("m") FROM SCHEMA("ns", "d1", …) [WHERE "d" = 'v' AND …]`.
 * SCHEMA matches the series whose dimension names are exactly the listed ones; anything else fails the test.
 */
function parseQuery(expression: string) {
  const unquote = (s: string) => s.trim().replace(/^"(.*)"$/, '$1');
  const match = /^SELECT SUM\(("?[\w-]+"?)\) FROM SCHEMA\(([^)]*)\)(?: WHERE (.+))?$/.exec(expression);
  expect(match, `a Metrics Insights query this test reads: ${expression}`).not.toBeNull();
  const [namespace, ...dimensions] = match![2]!.split(',').map(unquote);
  const where = (match![3] ?? '')
    .split(' AND ')
    .filter(Boolean)
    .map((condition) => {
      const m = /^("?[\w-]+"?) = '(.*)'$/.exec(condition.trim());
      expect(m, `a condition this test reads: ${condition}`).not.toBeNull();
      return [unquote(m![1]!), m![2]!] as const;
    });
  return { metricName: unquote(match![1]!), namespace: namespace!, dimensions: dimensions.sort(), where };
}

const sameNames = (series: Series, names: string[]) =>
  JSON.stringify(Object.keys(series.dimensions).sort()) === JSON.stringify([...names].sort());

/** The series one of an alarm's metrics matches, for a MetricStat (every dimension named, with its value) or a query. */
function matches(stat: Record<string, any> | undefined, expression: string | undefined, all: Series[]): Series[] {
  if (expression !== undefined) {
    const q = parseQuery(expression);
    return all.filter(
      (s) =>
        s.namespace === q.namespace &&
        s.metricName === q.metricName &&
        sameNames(s, q.dimensions) &&
        q.where.every(([k, v]) => s.dimensions[k] === v),
    );
  }
  const dims = Object.fromEntries(
    (stat!.Dimensions ?? []).map((d: { Name: string; Value: unknown }) => [d.Name, d.Value]),
  );
  return all.filter(
    (s) =>
      s.namespace === stat!.Namespace &&
      s.metricName === stat!.MetricName &&
      JSON.stringify(Object.entries(s.dimensions).sort()) === JSON.stringify(Object.entries(dims).sort()),
  );
}

let stack: ContentPublisherStack;
let resources: Record<string, Resource>;
let series: Series[];

beforeAll(() => {
  vi.stubEnv('POWERTOOLS_METRICS_DISABLED', 'false');
  ({ stack } = testApp({ context: { alarmEmail: 'ops@example.com' } }));
  resources = Template.fromStack(stack).toJSON().Resources as Record<string, Resource>;
  // Each function emits with its own service name (POWERTOOLS_SERVICE_NAME, set by the stack).
  const serviceOf = (fn: { function: unknown }) =>
    resources[logicalId(stack, fn.function as never)]!.Properties.Environment.Variables
      .POWERTOOLS_SERVICE_NAME as string;
  const namespace = resources[logicalId(stack, stack.worker.function)]!.Properties.Environment.Variables
    .POWERTOOLS_METRICS_NAMESPACE as string;
  series = [
    ...emitted(namespace, serviceOf(stack.worker), (events) => {
      for (const event of AUTOMATION_EVENT_NAMES) events.automationEventFailed('bus', event);
      events.automationEventFailed('webhook', 'PublishFailed');
      events.draftFailed('draft_failed');
      events.approvalEmailSent();
      events.approvalEmailFailed('email_failed');
      events.jobDuration('generate-content', 1200);
    }),
    ...emitted(namespace, serviceOf(stack.functions.get('linkedin')!), (events) => {
      events.publishSucceeded('linkedin');
      events.publishFailed('linkedin', 'linkedin_token_invalid');
      events.automationEventFailed('bus', 'PublishFailed');
    }),
    ...emitted(namespace, serviceOf(stack.functions.get('wordpress')!), (events) => {
      events.publishSucceeded('wordpress');
      events.publishFailed('wordpress', 'wordpress_unreachable');
    }),
    ...emitted(namespace, serviceOf(stack.functions.get('channels')!), (events) => {
      events.publishFailed('ghost', 'ghost_unreachable');
      events.publishFailed('bluesky', 'bluesky_unreachable');
    }),
  ];
});
afterAll(() => {
  vi.unstubAllEnvs();
});

/** The stack's alarms on the functions' own (EMF) metrics: not in an AWS/ namespace. */
function customMetricAlarms(): [string, { stats: Record<string, any>[]; expressions: string[] }][] {
  return Object.entries(resources)
    .filter(([, r]) => r.Type === 'AWS::CloudWatch::Alarm')
    .map(([id, r]): [string, { stats: Record<string, any>[]; expressions: string[] }] => {
      const p = r.Properties;
      const queries = (p.Metrics ?? []) as { MetricStat?: { Metric: Record<string, any> }; Expression?: string }[];
      const stats = p.Metrics
        ? queries.flatMap((q) => (q.MetricStat ? [q.MetricStat.Metric] : []))
        : [{ Namespace: p.Namespace, MetricName: p.MetricName, Dimensions: p.Dimensions }];
      const expressions = queries.flatMap((q) => (q.Expression?.startsWith('SELECT') ? [q.Expression] : []));
      return [id, { stats, expressions }];
    })
    .filter(
      ([, a]) =>
        a.expressions.length > 0 ||
        a.stats.some((m) => typeof m.Namespace === 'string' && !m.Namespace.startsWith('AWS/')),
    );
}

describe('alarms on custom metrics ask for the series functions/src/metrics.ts really emits', () => {
  it('the EMF lines carry Powertools’ service dimension besides their own', () => {
    const line = series.find((s) => s.metricName === 'AutomationEventFailed')!;
    expect(Object.keys(line.dimensions).sort()).toEqual(['event', 'service', 'target']);
    expect(line.dimensions.service).toBe(`content-publisher-${WORKER_ENTRY_NAME}`);
  });

  it('every alarm on a custom metric matches real EMF series (exact dimension names, as CloudWatch matches them)', () => {
    const alarms = customMetricAlarms();
    // The events not put on the bus, and PublishFailed of each platform.
    expect(alarms.length).toBeGreaterThanOrEqual(3);
    for (const [id, { stats, expressions }] of alarms) {
      for (const stat of stats.filter((m) => !String(m.Namespace).startsWith('AWS/')))
        expect(matches(stat, undefined, series), `${id}: ${JSON.stringify(stat)}`).not.toEqual([]);
      for (const expression of expressions)
        expect(matches(undefined, expression, series), `${id}: ${expression}`).not.toEqual([]);
    }
  });

  it('events not put on the bus: every event, from every function that emits, and no webhook failure', () => {
    const id = logicalId(stack, stack.alarms.automationEventsNotPut);
    const [expression] = customMetricAlarms().find(([alarmId]) => alarmId === id)![1].expressions;
    const selected = matches(undefined, expression, series);
    expect(new Set(selected.map((s) => s.dimensions.event))).toEqual(new Set(AUTOMATION_EVENT_NAMES));
    expect(new Set(selected.map((s) => s.dimensions.service)).size).toBe(2);
    expect(selected.every((s) => s.dimensions.target === 'bus')).toBe(true);
  });

  it('PublishFailed: one alarm per platform, each selecting only that platform’s failures', () => {
    for (const [platform, alarm] of stack.alarms.publishFailed) {
      const id = logicalId(stack, alarm);
      const [expression] = customMetricAlarms().find(([alarmId]) => alarmId === id)![1].expressions;
      const selected = matches(undefined, expression, series);
      expect(selected.map((s) => [s.metricName, s.dimensions.platform])).toEqual([['PublishFailed', platform]]);
    }
    expect([...stack.alarms.publishFailed.keys()].sort()).toEqual(['bluesky', 'ghost', 'linkedin', 'wordpress']);
  });
});
