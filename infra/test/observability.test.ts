import { App, type Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { routeGroups } from '@app/shared/api';
import { MetricNames } from '../../functions/src/metrics.js';
import { ALARM_DEFAULTS, AUTOMATION_EVENT_FAILED_METRIC } from '../lib/alarms.js';
import { channelIds } from '../../functions/src/channels/registry.js';
import { ContentPublisherStack } from '../lib/content-publisher-stack.js';
import { WORKER_ENTRY_NAME } from '../lib/worker-function.js';
import { cdkJsonContext, projectRootForTests, testApp, unbuiltSpaDir } from './helpers.js';

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
/** The rollback alarms (CodeDeploy reads them during a deployment; they notify nobody): deployments.test.ts. */
const rollbackIds = (s: ContentPublisherStack) =>
  new Set([...s.alarms.rollback.values()].flat().map((a) => logicalId(s, a)));

beforeAll(() => {
  ({ stack } = testApp({ context: { alarmEmail: 'ops@example.com' } }));
  resources = Template.fromStack(stack).toJSON().Resources as Record<string, Resource>;
  topicId = logicalId(stack, stack.schedules.alarmTopic!);
});

describe('alarms: every function and the API, to the alarm topic', () => {
  it('the stack has no Lambda function but its route groups, the worker and the table backfills (so "every function" is these)', () => {
    // The backfill function is not alarmed: it runs in deployments only, whose outcome is its answer
    // (a failure fails the deployment, with the reason; infra/lib/table-backfills.ts).
    expect(
      ofType('AWS::Lambda::Function')
        .map(([id]) => id)
        .sort(),
    ).toEqual(
      [
        ...names().map((n) => logicalId(stack, appFunction(n).function)),
        logicalId(stack, stack.backfills.function.function),
      ].sort(),
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
    const found = alarms().filter(([id, p]) => p.Namespace === 'AWS/ApiGateway' && !rollbackIds(stack).has(id));
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

  it("an alarm on domain events not put on the bus: a Metrics Insights query of AutomationEventFailed with target bus, in the functions' namespace", () => {
    const id = logicalId(stack, stack.alarms.automationEventsNotPut);
    const p = resources[id]!.Properties;
    expect(p).toMatchObject({
      Threshold: ALARM_DEFAULTS.automationEventsNotPut,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      EvaluationPeriods: 1,
      TreatMissingData: 'notBreaching',
      AlarmActions: [{ Ref: topicId }],
    });
    expect(MetricNames.automationEventFailed).toBe(AUTOMATION_EVENT_FAILED_METRIC);
    // Which series it selects, against real EMF lines: alarm-metrics.test.ts.
    expect(p.Metrics).toEqual([
      {
        Id: expect.any(String),
        Expression: `SELECT SUM("AutomationEventFailed") FROM SCHEMA("${stack.stackName}", "event", "service", "target") WHERE "target" = 'bus'`,
        Label: 'Events not put',
        Period: 300,
        ReturnData: true,
      },
    ]);
    // The namespace the functions write their metrics in.
    const worker = resources[logicalId(stack, stack.worker.function)]!.Properties;
    expect(worker.Environment.Variables.POWERTOOLS_METRICS_NAMESPACE).toBe(stack.stackName);
  });

  it('PublishFailed of each channel: 3 or more in 15 minutes', () => {
    for (const alarm of stack.alarms.publishFailed.values()) {
      const p = resources[logicalId(stack, alarm)]!.Properties;
      expect(p).toMatchObject({ Threshold: 3, EvaluationPeriods: 1, AlarmActions: [{ Ref: topicId }] });
      expect(p.Metrics[0].Period).toBe(900);
      expect(p.Metrics[0].Expression).toMatch(/^SELECT SUM\("PublishFailed"\) FROM SCHEMA\(/);
    }
  });

  it("the job queue's oldest message: 3 hours or more (the largest import drains in less)", () => {
    const p = resources[logicalId(stack, stack.alarms.jobQueueOldestMessage)]!.Properties;
    expect(p).toMatchObject({
      Namespace: 'AWS/SQS',
      MetricName: 'ApproximateAgeOfOldestMessage',
      Dimensions: [
        { Name: 'QueueName', Value: { 'Fn::GetAtt': [logicalId(stack, stack.bulkJobs.queue), 'QueueName'] } },
      ],
      Statistic: 'Maximum',
      Period: 300,
      Threshold: 3 * 3600,
      AlarmActions: [{ Ref: topicId }],
    });
  });

  it("the scheduled runs EventBridge Scheduler dropped or could not dead-letter, in the stack's schedule group", () => {
    for (const [alarm, metricName] of [
      [stack.alarms.schedulerDropped, 'InvocationDroppedCount'],
      [stack.alarms.schedulerFailedToDeadLetter, 'InvocationsFailedToBeSentToDeadLetterCount'],
    ] as const) {
      expect(resources[logicalId(stack, alarm)]!.Properties).toMatchObject({
        Namespace: 'AWS/Scheduler',
        MetricName: metricName,
        Dimensions: [{ Name: 'ScheduleGroup', Value: 'ContentPublisher-schedules' }],
        Statistic: 'Sum',
        Threshold: 1,
        AlarmActions: [{ Ref: topicId }],
      });
    }
  });

  it("CloudFront's 5xx rate: 5% or more in two 5-minute periods in a row, with the dimensions CloudFront publishes (DistributionId, Region Global)", () => {
    const p = resources[logicalId(stack, stack.alarms.cloudFront5xx!)]!.Properties;
    expect(p).toMatchObject({
      Namespace: 'AWS/CloudFront',
      MetricName: '5xxErrorRate',
      Dimensions: [
        { Name: 'DistributionId', Value: { Ref: logicalId(stack, stack.site.distribution) } },
        { Name: 'Region', Value: 'Global' },
      ],
      Statistic: 'Average',
      Period: 300,
      Threshold: 5,
      EvaluationPeriods: 2,
      AlarmActions: [{ Ref: topicId }],
    });
    // A stack bound to another region has no CloudFront metrics to alarm on.
    const elsewhere = new ContentPublisherStack(
      new App({ context: { ...cdkJsonContext(), 'aws:cdk:bundling-stacks': [] } }),
      'ContentPublisher',
      { env: { region: 'eu-west-1' }, waf: false, projectRoot: projectRootForTests(), spaDistDir: unbuiltSpaDir() },
    );
    expect(elsewhere.alarms.cloudFront5xx).toBeUndefined();
  });

  it('one dashboard for the stage, with every alarm and its URL as an output', () => {
    const dashboards = ofType('AWS::CloudWatch::Dashboard');
    expect(dashboards).toHaveLength(1);
    const body = JSON.stringify(dashboards[0]![1].Properties.DashboardBody);
    for (const alarm of stack.alarms.all) expect(body).toContain(logicalId(stack, alarm));
    expect(dashboards[0]![1].Properties.DashboardName).toBeUndefined();
    const outputs = Template.fromStack(stack).toJSON().Outputs as Record<string, { Value: unknown }>;
    expect(JSON.stringify(outputs.DashboardUrl!.Value)).toContain('#dashboards/dashboard/');
  });

  it('the thresholds are the ones the README and alarms.ts explain', () => {
    expect(ALARM_DEFAULTS.period.toMinutes()).toBe(5);
    expect(ALARM_DEFAULTS).toMatchObject({
      apiFunctionErrors: 3,
      workerErrors: 1,
      throttles: 1,
      apiServerErrors: 3,
      automationEventsNotPut: 1,
      publishFailed: 3,
      jobQueueOldestMessageSeconds: 10800,
      schedulerLostRuns: 1,
      cloudFront5xxRate: 5,
      cloudFront5xxPeriods: 2,
    });
  });

  it('every alarm of the stack but the rollback alarms notifies the topic, and the topic lets CloudWatch publish for exactly these alarms', () => {
    const notifying = alarms().filter(([id]) => !rollbackIds(stack).has(id));
    for (const [id, p] of alarms())
      expect(p.AlarmActions, id).toEqual(rollbackIds(stack).has(id) ? undefined : [{ Ref: topicId }]);
    const [[, policy]] = ofType('AWS::SNS::TopicPolicy') as [[string, Resource]];
    const allowed = (
      policy.Properties.PolicyDocument.Statement as {
        Effect: string;
        Condition?: { ArnLike?: { 'aws:SourceArn': unknown } };
      }[]
    )
      .filter((s) => s.Effect === 'Allow')
      .map((s) => s.Condition!.ArnLike!['aws:SourceArn']);
    expect(allowed).toEqual(notifying.map(([id]) => ({ 'Fn::GetAtt': [id, 'Arn'] })));
    // 3 per function (Errors, Throttles, the live alias's errors), the API's two, the events', a PublishFailed per
    // channel, the job queue's, 2 of the Scheduler, CloudFront's.
    expect(stack.alarms.all).toHaveLength(3 * names().length + 7 + channelIds.length);
    expect(rollbackIds(stack).size).toBe(names().length + 1);
  });

  it('an alarm topic of your own (alarmTopicArn): every alarm notifies it, and the stack makes no topic', () => {
    const arn = 'arn:aws:sns:us-east-1:123456789012:ops-alarms';
    const { stack: own } = testApp({ context: { stage: 'prod', alarmTopicArn: arn } });
    const t = Template.fromStack(own).toJSON().Resources as Record<string, Resource>;
    expect(Object.values(t).filter((r) => r.Type === 'AWS::SNS::Topic')).toEqual([]);
    const found = Object.values(t).filter((r) => r.Type === 'AWS::CloudWatch::Alarm');
    // The job failure queue's (the schedules' dead letters land there too) and the events' delivery's two
    // (event-delivery.test.ts); the rollback alarms notify nobody (CodeDeploy reads them).
    expect(found.length).toBe(own.alarms.all.length + 3);
    const rollback = rollbackIds(own);
    for (const [id, r] of Object.entries(t).filter(([, x]) => x.Type === 'AWS::CloudWatch::Alarm'))
      expect(r.Properties.AlarmActions).toEqual(rollback.has(id) ? undefined : [arn]);
  });

  it('a named stage without alarmEmail or alarmTopicArn fails synthesis, saying what to give', () => {
    expect(() => testApp({ context: { stage: 'prod' } })).toThrow(
      /The stage "prod" has no one to tell when an alarm fires: give the context value alarmEmail .* or alarmTopicArn/,
    );
    expect(() =>
      testApp({
        context: {
          stage: 'prod',
          alarmEmail: 'ops@example.com',
          alarmTopicArn: 'arn:aws:sns:us-east-1:123456789012:x',
        },
      }),
    ).toThrow(/Give alarmEmail or alarmTopicArn, not both/);
    expect(() => testApp({ context: { stage: 'prod', alarmTopicArn: 'ops-alarms' } })).toThrow(
      /alarmTopicArn must be the ARN of an SNS topic/,
    );
  });

  it('without alarmEmail the alarms exist (their state shows in the console) and notify nobody', () => {
    const { stack: plain } = testApp();
    const t = Template.fromStack(plain).toJSON().Resources as Record<string, Resource>;
    const found = Object.values(t).filter((r) => r.Type === 'AWS::CloudWatch::Alarm');
    expect(found.length).toBe(plain.alarms.all.length + 3);
    for (const r of found) expect(r.Properties.AlarmActions).toBeUndefined();
  });
});

describe('tracing and metrics settings of every function', () => {
  it.each(names())('%s: no X-Ray tracing (the code is not instrumented) and no X-Ray permission', (name) => {
    const fn = appFunction(name);
    const props = resources[logicalId(stack, fn.function)]!.Properties;
    expect(props.TracingConfig).toBeUndefined();
    expect(JSON.stringify(ofType('AWS::IAM::Policy'))).not.toContain('xray:');
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
