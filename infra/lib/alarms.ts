import { Duration } from 'aws-cdk-lib';
import {
  Alarm,
  ComparisonOperator,
  MathExpression,
  Metric,
  Stats,
  TreatMissingData,
  type IMetric,
} from 'aws-cdk-lib/aws-cloudwatch';
import type { IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import type { AppFunction } from './app-function.js';
import { notifyTopic } from './dead-letter-alarm.js';
import { AUTOMATION_EVENT_NAMES } from '../../functions/src/domain/automation-events.js';

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
} as const;

/** The metric of an event that did not arrive (functions/src/metrics.ts MetricNames.automationEventFailed). */
export const AUTOMATION_EVENT_FAILED_METRIC = 'AutomationEventFailed';

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
}

export interface FunctionAlarms {
  errors: Alarm;
  throttles: Alarm;
}

/**
 * The stack's operational alarms: each function's Errors and Throttles, and the API's 5xx, all
 * notifying the alarm topic (the one the dead-letter alarms notify). Without a topic they still
 * show their state in the CloudWatch console.
 */
export class AppAlarms extends Construct {
  /** Keyed by route group, and `worker`. */
  readonly functions = new Map<string, FunctionAlarms>();
  readonly apiServerErrors: Alarm;
  /** Domain events that did not reach the EventBridge bus. */
  readonly automationEventsNotPut: Alarm;

  constructor(scope: Construct, id: string, props: AppAlarmsProps) {
    super(scope, id);
    const alarm = (alarmId: string, metric: IMetric, threshold: number, alarmDescription: string): Alarm => {
      const created = new Alarm(this, alarmId, {
        alarmDescription,
        metric,
        threshold,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });
      if (props.topic) notifyTopic(created, props.topic);
      return created;
    };
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
            'see its log group and traces (X-Ray).',
        ),
        throttles: alarm(
          `${name}-Throttles`,
          fn.function.metricThrottles({ period, statistic: Stats.SUM }),
          ALARM_DEFAULTS.throttles,
          `${what} was throttled: the account's Lambda concurrent executions are used up ` +
            '(check the quota: README, Deploy to AWS).',
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

    // The metric has the event's name as a dimension too (functions/src/metrics.ts): one series per event, summed.
    const notPut = Object.fromEntries(
      AUTOMATION_EVENT_NAMES.map((event, i) => [
        `m${i}`,
        new Metric({
          namespace: props.metricsNamespace,
          metricName: AUTOMATION_EVENT_FAILED_METRIC,
          dimensionsMap: { target: 'bus', event },
          period,
          statistic: Stats.SUM,
        }),
      ]),
    );
    this.automationEventsNotPut = alarm(
      'AutomationEvents-NotPut',
      new MathExpression({ expression: 'SUM(METRICS())', usingMetrics: notPut, period, label: 'Events not put' }),
      ALARM_DEFAULTS.automationEventsNotPut,
      `Domain events for automation did not reach the EventBridge bus in ${minutes} minutes (lost for every rule): ` +
        'see the log warning "automation event not put on the bus" (docs/operations.md, Metrics).',
    );
  }

  /** Every alarm made here. */
  get all(): Alarm[] {
    return [
      ...[...this.functions.values()].flatMap((a) => [a.errors, a.throttles]),
      this.apiServerErrors,
      this.automationEventsNotPut,
    ];
  }
}
