import { Duration } from 'aws-cdk-lib';
import {
  Alarm,
  AlarmStatusWidget,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  MathExpression,
  Metric,
  Stats,
  TreatMissingData,
  type IMetric,
} from 'aws-cdk-lib/aws-cloudwatch';
import type { IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import type { Distribution } from 'aws-cdk-lib/aws-cloudfront';
import type { IScheduleGroup } from 'aws-cdk-lib/aws-scheduler';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { AppFunction } from './app-function.js';
import { notifyTopic } from './dead-letter-alarm.js';
import { MetricNames } from '../../functions/src/metric-names.js';
import { channelIds } from '../../functions/src/channels/registry.js';

/**
 * Thresholds of the stack's alarms (asserted by the tests). Every alarm sums its metric over one
 * 5-minute period and treats missing data (no invocations, no requests) as not breaching.
 */
export const ALARM_DEFAULTS = {
  period: Duration.minutes(5),
  /**
   * An API function's Errors: the middy stack answers every thrown error with a response
   * (functions/src/middleware/api.ts), so a Lambda error there is the function dying: a timeout,
   * running out of memory, a failed start. One is usually a slow third-party call that hit the
   * 25 s timeout (the user sees it and tries again); three in five minutes is a function that fails
   * for everyone (a bad deployment fails every request), which is what this alarm is for.
   */
  apiFunctionErrors: 3,
  /**
   * The worker's Errors: a job attempt that threw, which nobody is watching (async invoke and
   * schedules; bulk jobs report failures per record instead). The worker runs a few times per article,
   * so even one is worth a look, and an outage still sends one e-mail: an alarm notifies when it
   * goes into ALARM, not per error.
   */
  workerErrors: 1,
  /**
   * Throttles of any function: the account's concurrent executions are used up (new accounts may
   * have a quota of 10; see README "Deploy to AWS"); a throttled API request fails for the user.
   */
  throttles: 1,
  /**
   * The HTTP API's 5xx answers: 500 `internal` from a handler bug, or a function that died (which
   * its Errors alarm reports too). As for the functions, a few within five minutes, not a single one.
   */
  apiServerErrors: 3,
  /**
   * Domain events for automation that EventBridge did not take (AutomationEventFailed, target bus): such an
   * event is lost for every rule on the bus, not sent again (functions/src/domain/automation-events.ts), and
   * the cause is ours (the role's grant, the bus, throttling), so a single one is worth a look.
   */
  automationEventsNotPut: 1,
  /**
   * PublishFailed of one platform within PUBLISH_FAILED_PERIOD: one is usually the user's own (a token to
   * renew, a post refused); several in a quarter of an hour is the platform or our integration with it
   * (LinkedIn retiring the API version we send, docs/operations.md), which no user can fix.
   */
  publishFailed: 3,
  /**
   * The job queue's oldest message, in seconds: the largest import (1,000 rows, 5 at once, about 40 s
   * each) drains in under three hours, so a message older than that means the queue is not being drained.
   */
  jobQueueOldestMessageSeconds: 3 * 3600,
  /** Scheduled runs EventBridge Scheduler dropped, or could not put into the dead-letter queue: lost runs. */
  schedulerLostRuns: 1,
  /**
   * CloudFront's 5xx error rate in percent, over two periods in a row: origin failures the API's own 5xx
   * alarm does not see (the API unreachable, the site bucket refusing CloudFront, a Lambda answer too large).
   */
  cloudFront5xxRate: 5,
  cloudFront5xxPeriods: 2,
} as const;

/**
 * The rollback alarms: CodeDeploy reads them while it moves a function's live alias to a new version
 * (deployment.ts) and rolls the deployment back when one is in ALARM. A canary lasts minutes, so they
 * look at one-minute periods, and fire on errors in ROLLBACK_ALARM_DEFAULTS.datapointsToAlarm of the last
 * evaluationPeriods minutes: a single slow third-party call that timed out does not undo a deployment,
 * a version that keeps failing does. They notify nobody: a rollback fails the deployment itself, and
 * outside deployments the Errors and 5xx alarms above say the same.
 */
export const ROLLBACK_ALARM_DEFAULTS = {
  period: Duration.minutes(1),
  /** A minute breaches with at least this many errors (or 5xx answers)… */
  threshold: 1,
  /** …and the alarm fires when this many of… */
  datapointsToAlarm: 2,
  /** …the last this many minutes breached. */
  evaluationPeriods: 5,
} as const;

/**
 * CloudFront's 5xx error rate. CloudFront publishes its metrics with the dimensions DistributionId and
 * Region (`Global`); the distribution's own metric helper names only the first, which matches no series.
 */
export function cloudFront5xxRate(distribution: Distribution, period: Duration): Metric {
  return new Metric({
    namespace: 'AWS/CloudFront',
    metricName: '5xxErrorRate',
    dimensionsMap: { DistributionId: distribution.distributionId, Region: 'Global' },
    period,
    statistic: Stats.AVERAGE,
  });
}

/** The period of the PublishFailed alarms. */
export const PUBLISH_FAILED_PERIOD = Duration.minutes(15);

/** The metric of an event that did not arrive (functions/src/metrics.ts MetricNames.automationEventFailed). */
export const AUTOMATION_EVENT_FAILED_METRIC = MetricNames.automationEventFailed;

/**
 * The dimension Powertools Metrics adds to every EMF line on its own: the function's service name
 * (POWERTOOLS_SERVICE_NAME, app-function.ts). A metric alarm must name every dimension of a series, so
 * an alarm on our metrics either names each service or, as here, queries with Metrics Insights.
 */
export const POWERTOOLS_SERVICE_DIMENSION = 'service';

const quoted = (identifier: string) => `"${identifier.replace(/"/g, '\\"')}"`;

/**
 * A CloudWatch Metrics Insights query that sums one of the functions' metrics over every series with
 * exactly these dimensions (and Powertools' service dimension), whichever function emitted it, where
 * the dimensions in `where` have these values. SCHEMA matches a series only when its dimension names
 * are exactly the listed ones, so the list is the EMF line's (infra/test/alarm-metrics.test.ts checks
 * each alarm against lines that functions/src/metrics.ts prints).
 */
export function metricsInsightsQuery(
  namespace: string,
  metricName: string,
  dimensions: readonly string[],
  where: Readonly<Record<string, string>>,
): string {
  const schema = [namespace, ...[...new Set([POWERTOOLS_SERVICE_DIMENSION, ...dimensions])].sort()].map(quoted);
  const filter = Object.entries(where).map(([key, value]) => `${quoted(key)} = '${value.replace(/'/g, "''")}'`);
  return `SELECT SUM(${quoted(metricName)}) FROM SCHEMA(${schema.join(', ')})${filter.length ? ` WHERE ${filter.join(' AND ')}` : ''}`;
}

export interface AppAlarmsProps {
  /** The API function of each route group. */
  apiFunctions: ReadonlyMap<string, AppFunction>;
  worker: AppFunction;
  /** The HTTP API whose 5xx answers are alarmed (metric `5xx` of AWS/ApiGateway, dimension ApiId). */
  api: IHttpApi;
  /** The alarm topic (present with the alarmEmail context value): every alarm notifies it. */
  topic?: ITopic;
  /** The namespace of the functions' EMF metrics (POWERTOOLS_METRICS_NAMESPACE, app-function.ts). */
  metricsNamespace: string;
  /** The job queue (bulk-jobs.ts): the age of its oldest message is alarmed. */
  jobQueue: IQueue;
  /** The failure queues (the job failure queue, also the schedules' dead-letter queue): shown on the dashboard (each has its own alarm). */
  failureQueues: readonly IQueue[];
  /** The schedule group: runs EventBridge Scheduler dropped or could not dead-letter are alarmed. */
  scheduleGroup: IScheduleGroup;
  /**
   * The distribution: its 5xx rate is alarmed. Undefined leaves that alarm out (CloudFront's metrics
   * exist only in us-east-1, and an alarm sees only its own region's).
   */
  distribution?: Distribution;
}

export interface FunctionAlarms {
  errors: Alarm;
  throttles: Alarm;
  /** Errors of the function's live alias (metric dimension Resource `<function>:live`), a rollback alarm. */
  liveErrors: Alarm;
}

/**
 * The stack's operational alarms: each function's Errors and Throttles, the API's 5xx, events not put
 * on the bus, PublishFailed per platform, the job queue's oldest message, the scheduled runs the
 * Scheduler lost and CloudFront's 5xx rate, all notifying the alarm topic (the one the dead-letter
 * alarms notify; a named stage must have one, content-publisher-stack.ts); the rollback alarms of the
 * deployments (ROLLBACK_ALARM_DEFAULTS), which notify nobody; and one dashboard.
 */
export class AppAlarms extends Construct {
  /** Keyed by route group, and `worker`. */
  readonly functions = new Map<string, FunctionAlarms>();
  readonly apiServerErrors: Alarm;
  /**
   * The API's 5xx answers over one-minute periods, a rollback alarm of every API function. API-wide: an HTTP
   * API has 5xx per route only with detailed metrics (a billed metric per route and kind), and a rollback of
   * any one function fails the stack update, which puts every alias back anyway.
   */
  readonly apiServerErrorsRollback: Alarm;
  /** Domain events that did not reach the EventBridge bus. */
  readonly automationEventsNotPut: Alarm;
  /** PublishFailed of each platform (keys: wordpress, linkedin). */
  readonly publishFailed = new Map<string, Alarm>();
  readonly jobQueueOldestMessage: Alarm;
  readonly schedulerDropped: Alarm;
  readonly schedulerFailedToDeadLetter: Alarm;
  readonly cloudFront5xx?: Alarm;
  /** One CloudWatch dashboard of the stage: the alarms' states and the metrics behind them. */
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, props: AppAlarmsProps) {
    super(scope, id);
    const alarm = (
      alarmId: string,
      metric: IMetric,
      threshold: number,
      alarmDescription: string,
      evaluationPeriods = 1,
    ): Alarm => {
      const created = new Alarm(this, alarmId, {
        alarmDescription,
        metric,
        threshold,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });
      if (props.topic) notifyTopic(created, props.topic);
      return created;
    };
    const rollback = ROLLBACK_ALARM_DEFAULTS;
    const rollbackAlarm = (alarmId: string, metric: IMetric, alarmDescription: string): Alarm =>
      new Alarm(this, alarmId, {
        alarmDescription,
        metric,
        threshold: rollback.threshold,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: rollback.evaluationPeriods,
        datapointsToAlarm: rollback.datapointsToAlarm,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });
    const rollbackWhen = `in ${rollback.datapointsToAlarm} of the last ${rollback.evaluationPeriods} minutes`;
    const period = ALARM_DEFAULTS.period;
    const minutes = period.toMinutes();

    const functions: [string, AppFunction, number][] = [
      ...[...props.apiFunctions].map(([group, fn]): [string, AppFunction, number] => [
        group,
        fn,
        ALARM_DEFAULTS.apiFunctionErrors,
      ]),
      ['worker', props.worker, ALARM_DEFAULTS.workerErrors],
    ];
    for (const [name, fn, errorThreshold] of functions) {
      const what = name === 'worker' ? 'The worker function' : `The API function of the ${name} routes`;
      this.functions.set(name, {
        errors: alarm(
          `${name}-Errors`,
          fn.function.metricErrors({ period, statistic: Stats.SUM }),
          errorThreshold,
          `${what} failed ${errorThreshold} or more times in ${minutes} minutes (timeouts, crashes, failed jobs): ` +
            'see its log group (docs/operations.md, Alarms).',
        ),
        throttles: alarm(
          `${name}-Throttles`,
          fn.function.metricThrottles({ period, statistic: Stats.SUM }),
          ALARM_DEFAULTS.throttles,
          `${what} was throttled: the account's Lambda concurrent executions are used up ` +
            '(check the quota: README, Deploy to AWS).',
        ),
        liveErrors: rollbackAlarm(
          `${name}-LiveErrors`,
          fn.alias.metricErrors({ period: rollback.period, statistic: Stats.SUM }),
          `${what} failed through its live alias ${rollbackWhen}: a deployment under way rolls back ` +
            '(docs/operations.md, Deployments).',
        ),
      });
    }

    this.apiServerErrors = alarm(
      'Api-5xx',
      props.api.metricServerError({ period, statistic: Stats.SUM }),
      ALARM_DEFAULTS.apiServerErrors,
      `The HTTP API answered ${ALARM_DEFAULTS.apiServerErrors} or more requests with 5xx in ${minutes} minutes: ` +
        'see the API access log and the logs of the functions.',
    );
    this.apiServerErrorsRollback = rollbackAlarm(
      'Api-5xx-Rollback',
      props.api.metricServerError({ period: rollback.period, statistic: Stats.SUM }),
      `The HTTP API answered 5xx ${rollbackWhen}: a deployment of the API functions under way rolls back ` +
        '(docs/operations.md, Deployments).',
    );

    // Every function that emits adds its own service dimension (Powertools): one query over all of them.
    this.automationEventsNotPut = alarm(
      'AutomationEvents-NotPut',
      new MathExpression({
        expression: metricsInsightsQuery(props.metricsNamespace, AUTOMATION_EVENT_FAILED_METRIC, ['target', 'event'], {
          target: 'bus',
        }),
        usingMetrics: {},
        period,
        label: 'Events not put',
      }),
      ALARM_DEFAULTS.automationEventsNotPut,
      `Domain events for automation did not reach the EventBridge bus in ${minutes} minutes (lost for every rule): ` +
        'see the log warning "automation event not put on the bus" (docs/operations.md, Metrics).',
    );

    // One per channel of the registry (the metrics' `platform` is the channel's id): a second blog channel's failures are not WordPress's.
    for (const platform of channelIds) {
      this.publishFailed.set(
        platform,
        alarm(
          `PublishFailed-${platform}`,
          new MathExpression({
            expression: metricsInsightsQuery(props.metricsNamespace, MetricNames.publishFailed, ['platform', 'code'], {
              platform,
            }),
            usingMetrics: {},
            period: PUBLISH_FAILED_PERIOD,
            label: `Publish failed (${platform})`,
          }),
          ALARM_DEFAULTS.publishFailed,
          `Publishing to ${platform} failed ${ALARM_DEFAULTS.publishFailed} or more times in ` +
            `${PUBLISH_FAILED_PERIOD.toMinutes()} minutes: see the PublishFailed metric by code and the publishing ` +
            'logs (docs/operations.md, Alarms).',
        ),
      );
    }

    this.jobQueueOldestMessage = alarm(
      'JobQueue-OldestMessage',
      props.jobQueue.metricApproximateAgeOfOldestMessage({ period, statistic: Stats.MAXIMUM }),
      ALARM_DEFAULTS.jobQueueOldestMessageSeconds,
      `A job has waited in the job queue for ${ALARM_DEFAULTS.jobQueueOldestMessageSeconds / 3600} hours or more: ` +
        'the worker is not draining it (throttled, failing, or its event source mapping is disabled).',
    );
    this.schedulerDropped = alarm(
      'Scheduler-Dropped',
      props.scheduleGroup.metricDropped({ period, statistic: Stats.SUM }),
      ALARM_DEFAULTS.schedulerLostRuns,
      'EventBridge Scheduler dropped a scheduled run (its retries were used up and it was not dead-lettered): the ' +
        'approval e-mail of that article was never asked for; reschedule it (docs/operations.md, Alarms).',
    );
    this.schedulerFailedToDeadLetter = alarm(
      'Scheduler-FailedToDeadLetter',
      props.scheduleGroup.metricFailedToBeSentToDLQ(undefined, { period, statistic: Stats.SUM }),
      ALARM_DEFAULTS.schedulerLostRuns,
      'EventBridge Scheduler could not put a failed scheduled run into its dead-letter queue (the role or the ' +
        'queue): the run is lost; check the scheduler role and queue (docs/operations.md, Alarms).',
    );
    if (props.distribution) {
      this.cloudFront5xx = alarm(
        'CloudFront-5xx',
        cloudFront5xxRate(props.distribution, period),
        ALARM_DEFAULTS.cloudFront5xxRate,
        `CloudFront answered ${ALARM_DEFAULTS.cloudFront5xxRate}% or more of its requests with 5xx in ` +
          `${ALARM_DEFAULTS.cloudFront5xxPeriods} periods of ${minutes} minutes in a row: see the distribution's ` +
          'logs (logs bucket, cloudfront/) and the API alarms.',
        ALARM_DEFAULTS.cloudFront5xxPeriods,
      );
    }

    this.dashboard = this.buildDashboard(props);
  }

  private buildDashboard(props: AppAlarmsProps): Dashboard {
    const period = ALARM_DEFAULTS.period;
    const fns = [...props.apiFunctions.values(), props.worker];
    const graph = (title: string, metrics: IMetric[], width = 8) => new GraphWidget({ title, left: metrics, width });
    const query = (metricName: string, dimensions: string[], label: string, groupBy: string) =>
      new MathExpression({
        expression: `${metricsInsightsQuery(props.metricsNamespace, metricName, dimensions, {})} GROUP BY ${quoted(groupBy)}`,
        usingMetrics: {},
        period,
        label,
      });
    const dashboard = new Dashboard(this, 'Dashboard', {
      // The name CloudFormation generates from the stack's carries the stage.
      defaultInterval: Duration.hours(24),
    });
    dashboard.addWidgets(new AlarmStatusWidget({ title: 'Alarms', alarms: this.all, width: 24 }));
    dashboard.addWidgets(
      graph('API: requests and 5xx', [
        props.api.metricCount({ period, statistic: Stats.SUM }),
        props.api.metricServerError({ period, statistic: Stats.SUM }),
      ]),
      graph(
        'Functions: errors',
        fns.map((fn) => fn.function.metricErrors({ period, statistic: Stats.SUM, label: fn.node.id })),
      ),
      graph(
        'Functions: throttles',
        fns.map((fn) => fn.function.metricThrottles({ period, statistic: Stats.SUM, label: fn.node.id })),
      ),
    );
    dashboard.addWidgets(
      graph('Publish failed by platform', [
        query(MetricNames.publishFailed, ['platform', 'code'], 'Failed', 'platform'),
      ]),
      graph('Publish succeeded by platform', [
        query(MetricNames.publishSucceeded, ['platform'], 'Succeeded', 'platform'),
      ]),
      graph('Automation events not delivered', [
        query(AUTOMATION_EVENT_FAILED_METRIC, ['target', 'event'], 'Not delivered', 'target'),
      ]),
    );
    dashboard.addWidgets(
      graph('Job queue: oldest message (s)', [
        props.jobQueue.metricApproximateAgeOfOldestMessage({ period, statistic: Stats.MAXIMUM }),
      ]),
      graph(
        'Failure queues: messages',
        props.failureQueues.map((q) =>
          q.metricApproximateNumberOfMessagesVisible({ period, statistic: Stats.MAXIMUM }),
        ),
      ),
      graph('Scheduler: dropped and not dead-lettered', [
        props.scheduleGroup.metricDropped({ period, statistic: Stats.SUM }),
        props.scheduleGroup.metricFailedToBeSentToDLQ(undefined, { period, statistic: Stats.SUM }),
      ]),
    );
    if (props.distribution) {
      dashboard.addWidgets(
        graph('CloudFront: 5xx rate (%)', [cloudFront5xxRate(props.distribution, period)]),
        graph('Worker: job duration', [props.worker.function.metricDuration({ period, statistic: Stats.MAXIMUM })]),
      );
    }
    return dashboard;
  }

  /**
   * The alarms that roll back a deployment of each function (keys as `functions`): its live alias's errors,
   * and for an API function the API's 5xx answers.
   */
  get rollback(): Map<string, Alarm[]> {
    return new Map(
      [...this.functions].map(([name, a]) => [
        name,
        name === 'worker' ? [a.liveErrors] : [a.liveErrors, this.apiServerErrorsRollback],
      ]),
    );
  }

  /** Every alarm made here. */
  get all(): Alarm[] {
    return [
      ...[...this.functions.values()].flatMap((a) => [a.errors, a.throttles, a.liveErrors]),
      this.apiServerErrors,
      this.apiServerErrorsRollback,
      this.automationEventsNotPut,
      ...this.publishFailed.values(),
      this.jobQueueOldestMessage,
      this.schedulerDropped,
      this.schedulerFailedToDeadLetter,
      ...(this.cloudFront5xx ? [this.cloudFront5xx] : []),
    ];
  }
}
