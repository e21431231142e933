import { createHash } from 'node:crypto';
import type { CreateScheduleCommandInput, SchedulerClient } from '@aws-sdk/client-scheduler';
import type { VersionId } from '@app/shared';
import type { RunRetryScheduler, ScheduledRun, Scheduler } from '../../domain/ports.js';

export type SchedulerSdk = typeof import('./scheduler-sdk.js');

let schedulerSdk: Promise<SchedulerSdk> | undefined;
/**
 * The Scheduler client is loaded by the first schedule change, not at cold start: most calls of the function
 * that schedules (reading an article's schedule, say) never make one, nor most jobs of the worker (which carries
 * this for the retries of failed runs) (docs/testing.md, Performance budgets). Bundled and evaluated on first
 * use, like the Lambda client (lambda-job-queue.ts).
 */
const loadSchedulerSdk = (): Promise<SchedulerSdk> => (schedulerSdk ??= import('./scheduler-sdk.js'));

export interface EventBridgeSchedulerOptions {
  groupName: string;
  /** The generate-and-notify (worker) function. */
  targetArn: string;
  /** Role EventBridge Scheduler assumes to invoke the target. */
  roleArn: string;
  deadLetterArn: string;
  /** The clock (tests). */
  now?: () => Date;
}

/** A schedule for now or the next minute is sent this far ahead (see EventBridgeScheduler.definition). */
const FIRE_AHEAD_MS = 60_000;

/** Schedule names: 1–64 of [0-9a-zA-Z-_.], derived from article id and platform (hashed when too long). */
export function scheduleName(articleId: string, platform: VersionId): string {
  const name = `article-${articleId}-${platform}`;
  if (name.length <= 64 && /^[0-9a-zA-Z-_.]+$/.test(name)) return name;
  const digest = createHash('sha256').update(`${articleId}/${platform}`).digest('hex').slice(0, 40);
  return `article-${digest}-${platform}`;
}

/**
 * The schedule of one retry of a run (RunRetryScheduler): named by the run (article, platform and its time, so a
 * retry of an earlier time of the article never takes a later one's name) and the attempt, hashed to fit.
 */
export function retryScheduleName(run: ScheduledRun, attempt: number): string {
  const digest = createHash('sha256')
    .update(`${run.articleId}/${run.platform}/${run.scheduledFor}`)
    .digest('hex')
    .slice(0, 40);
  return `retry-${digest}-${attempt}`;
}

/** `at(yyyy-mm-ddThh:mm:ss)` in UTC (sent with ScheduleExpressionTimezone 'UTC'). */
const atExpression = (instant: Date): string => `at(${instant.toISOString().slice(0, 19)})`;

export class EventBridgeScheduler implements Scheduler, RunRetryScheduler {
  private client: SchedulerClient | undefined;

  /** `makeClient`: how to make the client once the SDK is loaded (the wiring: not at cold start). */
  constructor(
    private readonly makeClient: (sdk: SchedulerSdk) => SchedulerClient,
    private readonly options: EventBridgeSchedulerOptions,
  ) {}

  /** The SDK's commands and errors, and the client. */
  private async sdk(): Promise<{ sdk: SchedulerSdk; client: SchedulerClient }> {
    const sdk = await loadSchedulerSdk();
    this.client ??= this.makeClient(sdk);
    return { sdk, client: this.client };
  }

  /**
   * The instant goes to EventBridge in UTC: a user's zone repeats an hour when clocks go back, and
   * a local `at()` in it is ambiguous. A time that is (about) now — "schedule now", a time clamped to
   * now — is sent a minute ahead: one-time schedules are for the future and fire with 60 s
   * precision anyway. The run keeps the stored scheduledFor, which the stale check compares.
   */
  private definition(run: ScheduledRun, retry?: { attempt: number; at: Date }): CreateScheduleCommandInput {
    const earliest = (this.options.now?.() ?? new Date()).getTime() + FIRE_AHEAD_MS;
    const fireAt = new Date(Math.max(retry ? retry.at.getTime() : Date.parse(run.scheduledFor), earliest));
    const job = { type: 'generate-and-notify', ...run, ...(retry ? { attempt: retry.attempt } : {}) };
    return {
      Name: retry ? retryScheduleName(run, retry.attempt) : scheduleName(run.articleId, run.platform),
      GroupName: this.options.groupName,
      ScheduleExpression: atExpression(fireAt),
      ScheduleExpressionTimezone: 'UTC',
      FlexibleTimeWindow: { Mode: 'OFF' },
      ActionAfterCompletion: 'DELETE',
      Target: {
        Arn: this.options.targetArn,
        RoleArn: this.options.roleArn,
        Input: JSON.stringify(job),
        RetryPolicy: { MaximumEventAgeInSeconds: 3600, MaximumRetryAttempts: 5 },
        DeadLetterConfig: { Arn: this.options.deadLetterArn },
      },
    };
  }

  /**
   * Moves the schedule when it exists; creates it when it does not (never made, or already fired
   * and deleted).
   */
  async schedule(run: ScheduledRun): Promise<void> {
    const { sdk, client } = await this.sdk();
    const input = this.definition(run);
    try {
      await client.send(new sdk.UpdateScheduleCommand(input));
    } catch (err) {
      if (!(err instanceof sdk.ResourceNotFoundException)) throw err;
      await client.send(new sdk.CreateScheduleCommand(input));
    }
  }

  /**
   * Creates the retry's own schedule; one that exists already (a repeated delivery of the failed attempt made it)
   * is that retry, so it is left as it is. Only CreateSchedule: the worker, which calls this, may not move or
   * delete schedules (infra/lib/capabilities.ts, schedules:retry).
   */
  async retry(run: ScheduledRun, attempt: number, at: Date): Promise<void> {
    const { sdk, client } = await this.sdk();
    try {
      await client.send(new sdk.CreateScheduleCommand(this.definition(run, { attempt, at })));
    } catch (err) {
      if (!(err instanceof sdk.ConflictException)) throw err;
    }
  }

  async cancel(_userId: string, articleId: string, platform: VersionId): Promise<void> {
    const { sdk, client } = await this.sdk();
    try {
      await client.send(
        new sdk.DeleteScheduleCommand({ Name: scheduleName(articleId, platform), GroupName: this.options.groupName }),
      );
    } catch (err) {
      if (!(err instanceof sdk.ResourceNotFoundException)) throw err;
    }
  }
}
