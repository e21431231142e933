import type { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { routeGroups } from '@app/shared/api';
import { AUTOMATION_EVENT_NAMES } from '../../functions/src/domain/automation-events.js';
import { MetricNames } from '../../functions/src/metrics.js';
import { ALARM_DEFAULTS, AUTOMATION_EVENT_FAILED_METRIC } from '../lib/alarms.js';
import type { ContentPublisherStack } from '../lib/content-publisher-stack.js';
import { WORKER_ENTRY_NAME } from '../lib/worker-function.js';
import { testApp } from './helpers.js';

type Resource = { Type: string; Properties: Record<string, any> };

const logicalId = (stack: Stack, construct: { node: { defaultChild?: unknown } }): string =>
  stack.resolve(stack.getLogicalId(construct.node.defaultChild as never)) as string;
const names = () => [...routeGroups(), WORKER_ENTRY_NAME];

let stack: ContentPublisherStack;
let resources: Record<string, Resource>;
let topicId: string;
const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
const alarms = () => ofType('AWS::CloudWatch::Alarm').map(([id, r]) => [id, r.Properties] as const);
const appFunction = (name: string) => (name === WORKER_ENTRY_NAME ? stack.worker : stack.functions.get(name)!);

beforeAll(() => {
  ({ stack } = testApp({ context: { alarmEmail: 'ops@example.com' } }));
  resources = Template.fromStack(stack).toJSON().Resources as Record<string, Resource>;
  topicId = logicalId(stack, stack.schedules.alarmTopic!);
});

describe('alarms: every function and the API, to the alarm topic', () => {
  it('the stack has no Lambda function but its route groups and the worker (so "every function" is these)', () => {
    expect(
      ofType('AWS::Lambda::Function')
        .map(([id]) => id)
        .sort(),
    ).toEqual(
      names()
        .map((n) => logicalId(stack, appFunction(n).function))
        .sort(),
    );
  });

  it.each(names())('%s: an Errors and a Throttles alarm on the function, each notifying the alarm topic', (name) => {
    const fnId = logicalId(stack, appFunction(name).function);
    const on = (metricName: string) =>
      alarms().filter(
        ([, p]) =>
          p.Namespace === 'AWS/Lambda' &&
          p.MetricName === metricName &&
          JSON.stringify(p.Dimensions) === JSON.stringify([{ Name: 'FunctionName', Value: { Ref: fnId } }]),
      );
    const common = {
      Statistic: 'Sum',
      Period: 300,
      EvaluationPeriods: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      TreatMissingData: 'notBreaching',
      AlarmActions: [{ Ref: topicId }],
    };
    const errors = on('Errors');
    const throttles = on('Throttles');
    expect(errors).toHaveLength(1);
    expect(throttles).toHaveLength(1);
    const errorThreshold = name === WORKER_ENTRY_NAME ? 1 : 3;
    expect(errors[0]![1]).toMatchObject({ ...common, Threshold: errorThreshold });
    expect(throttles[0]![1]).toMatchObject({ ...common, Threshold: 1 });
    expect(errors[0]![1].AlarmDescription).toMatch(/failed/);
    expect(throttles[0]![1].AlarmDescription).toMatch(/throttled/);
  });

  it("an alarm on the HTTP API's 5xx answers (AWS/ApiGateway 5xx by ApiId), notifying the alarm topic", () => {
    const apiId = logicalId(stack, stack.http.api);
    const found = alarms().filter(([, p]) => p.Namespace === 'AWS/ApiGateway');
    expect(found).toHaveLength(1);
    expect(found[0]![1]).toMatchObject({
      MetricName: '5xx',
      Dimensions: [{ Name: 'ApiId', Value: { Ref: apiId } }],
      Statistic: 'Sum',
      Period: 300,
      EvaluationPeriods: 1,
      Threshold: 3,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      TreatMissingData: 'notBreaching',
      AlarmActions: [{ Ref: topicId }],
    });
    expect(found[0]![0]).toBe(logicalId(stack, stack.alarms.apiServerErrors));
  });

  it("an alarm on domain events not put on the bus: AutomationEventFailed with target bus, every event summed, in the functions' namespace", () => {
    const id = logicalId(stack, stack.alarms.automationEventsNotPut);
    const p = resources[id]!.Properties;
    expect(p).toMatchObject({
      Threshold: ALARM_DEFAULTS.automationEventsNotPut,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      EvaluationPeriods: 1,
      TreatMissingData: 'notBreaching',
      AlarmActions: [{ Ref: topicId }],
    });
    const queries = p.Metrics as { Expression?: string; ReturnData?: boolean; MetricStat?: any }[];
    expect(queries.find((q) => q.ReturnData !== false)?.Expression).toBe('SUM(METRICS())');
    const stats = queries.filter((q) => q.MetricStat).map((q) => q.MetricStat);
    expect(MetricNames.automationEventFailed).toBe(AUTOMATION_EVENT_FAILED_METRIC);
    for (const stat of stats) {
      expect(stat).toMatchObject({ Period: 300, Stat: 'Sum' });
      expect(stat.Metric).toMatchObject({ MetricName: AUTOMATION_EVENT_FAILED_METRIC, Namespace: stack.stackName });
    }
    expect(stats.map((stat) => Object.fromEntries(stat.Metric.Dimensions.map((d: any) => [d.Name, d.Value])))).toEqual(
      AUTOMATION_EVENT_NAMES.map((event) => ({ target: 'bus', event })),
    );
    // The namespace the functions write their metrics in.
    const worker = resources[logicalId(stack, stack.worker.function)]!.Properties;
    expect(worker.Environment.Variables.POWERTOOLS_METRICS_NAMESPACE).toBe(stack.stackName);
  });

  it('the thresholds are the ones the README and alarms.ts explain', () => {
    expect(ALARM_DEFAULTS.period.toMinutes()).toBe(5);
    expect(ALARM_DEFAULTS).toMatchObject({
      apiFunctionErrors: 3,
      workerErrors: 1,
      throttles: 1,
      apiServerErrors: 3,
      automationEventsNotPut: 1,
    });
  });

  it('every alarm of the stack notifies the topic, and the topic lets CloudWatch publish for exactly these alarms', () => {
    for (const [id, p] of alarms()) expect(p.AlarmActions, id).toEqual([{ Ref: topicId }]);
    const [[, policy]] = ofType('AWS::SNS::TopicPolicy') as [[string, Resource]];
    const allowed = (
      policy.Properties.PolicyDocument.Statement as {
        Effect: string;
        Condition?: { ArnLike?: { 'aws:SourceArn': unknown } };
      }[]
    )
      .filter((s) => s.Effect === 'Allow')
      .map((s) => s.Condition!.ArnLike!['aws:SourceArn']);
    expect(allowed).toEqual(alarms().map(([id]) => ({ 'Fn::GetAtt': [id, 'Arn'] })));
    // 2 per function, the API's, the events' and the dead-letter alarms: the count the README's cost table uses.
    expect(stack.alarms.all).toHaveLength(2 * names().length + 2);
  });

  it('without alarmEmail the alarms exist (their state shows in the console) and notify nobody', () => {
    const { stack: plain } = testApp();
    const t = Template.fromStack(plain).toJSON().Resources as Record<string, Resource>;
    const found = Object.values(t).filter((r) => r.Type === 'AWS::CloudWatch::Alarm');
    expect(found.length).toBe(plain.alarms.all.length + 2);
    for (const r of found) expect(r.Properties.AlarmActions).toBeUndefined();
  });
});

describe('tracing and metrics settings of every function', () => {
  it.each(names())('%s: active tracing, with the X-Ray permissions on its role', (name) => {
    const fn = appFunction(name);
    const props = resources[logicalId(stack, fn.function)]!.Properties;
    expect(props.TracingConfig).toEqual({ Mode: 'Active' });
    const roleId = logicalId(stack, fn.role);
    const statements = ofType('AWS::IAM::Policy')
      .filter(([, p]) => (p.Properties.Roles as { Ref: string }[]).some((r) => r.Ref === roleId))
      .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as { Action: string[]; Resource: unknown }[]);
    expect(statements).toContainEqual({
      Effect: 'Allow',
      Action: ['xray:PutTelemetryRecords', 'xray:PutTraceSegments'],
      Resource: '*',
    });
  });

  it.each(names())('%s: Powertools service name and metrics namespace (the stack name) for EMF metrics', (name) => {
    const variables = resources[logicalId(stack, appFunction(name).function)]!.Properties.Environment
      .Variables as Record<string, unknown>;
    expect(variables).toMatchObject({
      POWERTOOLS_SERVICE_NAME: `content-publisher-${name}`,
      POWERTOOLS_METRICS_NAMESPACE: 'ContentPublisher',
    });
  });
});
