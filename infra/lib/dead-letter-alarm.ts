import { Duration, Stack } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, Stats, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';

/**
 * The alarm of a dead-letter queue (construct id `DeadLetterAlarm` in `scope`): it fires while at
 * least `threshold` messages wait there, looking every `period`.
 */
export function deadLetterAlarm(
  scope: Construct,
  queue: IQueue,
  alarmDescription: string,
  settings: { period: Duration; threshold: number },
): Alarm {
  return new Alarm(scope, 'DeadLetterAlarm', {
    alarmDescription,
    metric: queue.metricApproximateNumberOfMessagesVisible({ period: settings.period, statistic: Stats.MAXIMUM }),
    threshold: settings.threshold,
    comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    evaluationPeriods: 1,
    treatMissingData: TreatMissingData.NOT_BREACHING,
  });
}

/**
 * Sends the alarm to the topic. The topic's policy (enforceSSL) replaces the default one: it lets
 * CloudWatch publish this alarm, and only named alarms, from this account.
 */
export function notifyTopic(alarm: Alarm, topic: ITopic): void {
  topic.addToResourcePolicy(
    new PolicyStatement({
      principals: [new ServicePrincipal('cloudwatch.amazonaws.com')],
      actions: ['sns:Publish'],
      resources: [topic.topicArn],
      conditions: {
        ArnLike: { 'aws:SourceArn': alarm.alarmArn },
        StringEquals: { 'aws:SourceAccount': Stack.of(alarm).account },
      },
    }),
  );
  alarm.addAlarmAction(new SnsAction(topic));
}
