import { DeleteCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { VersionId } from '@app/shared';
import type { RunRetryScheduler, ScheduledRun, Scheduler } from '../../domain/ports.js';
import { queryAll } from '../dynamo/client.js';

const key = (articleId: string, platform: VersionId) => ({ PK: `SCHEDULE#${articleId}#${platform}`, SK: 'SCHEDULE' });
/** A retry's own item beside the run's (as EventBridge has a schedule of its own for it): one per run and attempt. */
const retryKey = (run: ScheduledRun, attempt: number) => ({
  PK: `SCHEDULE#${run.articleId}#${run.platform}`,
  SK: `RETRY#${run.scheduledFor}#${attempt}`,
});

/** A stored schedule: the run's (fires at scheduledFor) or one retry of it (fires at fireAt, with its attempt). */
type StoredSchedule = ScheduledRun & { attempt?: number; fireAt?: string };

/**
 * EventBridge Scheduler's local stand-in: one timer per article and platform, and one per retry of a
 * failed run, kept in the table (GSI1 'SCHEDULES') so that a restart re-arms every pending run; a fired
 * run deletes its item.
 */
export class TimerScheduler implements Scheduler, RunRetryScheduler {
  private readonly timers = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly fire: (run: ScheduledRun, attempt?: number) => Promise<void>,
    private readonly onError: (run: ScheduledRun, err: unknown) => void,
  ) {}

  async schedule(run: ScheduledRun): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: {
          ...key(run.articleId, run.platform),
          GSI1PK: 'SCHEDULES',
          GSI1SK: `${run.scheduledFor}#${run.articleId}#${run.platform}`,
          type: 'schedule',
          ...run,
        },
      }),
    );
    this.arm(run);
  }

  /** As EventBridgeScheduler.retry: a retry that exists already is left as it is. */
  async retry(run: ScheduledRun, attempt: number, at: Date): Promise<void> {
    const fireAt = at.toISOString();
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: {
            ...retryKey(run, attempt),
            GSI1PK: 'SCHEDULES',
            GSI1SK: `${fireAt}#${run.articleId}#${run.platform}#${attempt}`,
            type: 'schedule-retry',
            ...run,
            attempt,
            fireAt,
          },
          ConditionExpression: 'attribute_not_exists(PK)',
        }),
      );
    } catch (err) {
      if ((err as Error).name === 'ConditionalCheckFailedException') return;
      throw err;
    }
    this.arm({ ...run, attempt, fireAt });
  }

  async cancel(_userId: string, articleId: string, platform: VersionId): Promise<void> {
    this.disarm(`${articleId}#${platform}`);
    await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: key(articleId, platform) }));
  }

  /** Re-arms every stored schedule and retry (start-up). Runs whose time has passed fire at once. */
  async restore(): Promise<number> {
    const items = await queryAll<StoredSchedule>(this.db, {
      TableName: this.tableName,
      IndexName: 'GSI1',
      KeyConditionExpression: 'GSI1PK = :s',
      ExpressionAttributeValues: { ':s': 'SCHEDULES' },
    });
    for (const item of items) {
      this.arm({
        userId: item.userId,
        articleId: item.articleId,
        platform: item.platform,
        scheduledFor: item.scheduledFor,
        ...(item.attempt ? { attempt: item.attempt, fireAt: item.fireAt } : {}),
      });
    }
    return items.length;
  }

  stopAll(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  private timerId(schedule: StoredSchedule): string {
    const id = `${schedule.articleId}#${schedule.platform}`;
    return schedule.attempt ? `${id}#${schedule.scheduledFor}#${schedule.attempt}` : id;
  }

  private arm(schedule: StoredSchedule): void {
    const id = this.timerId(schedule);
    this.disarm(id);
    // setTimeout holds at most ~24.8 days; longer waits re-arm on the way.
    const MAX = 2 ** 31 - 1;
    const wait = Math.max(0, Date.parse(schedule.fireAt ?? schedule.scheduledFor) - Date.now());
    const timer = setTimeout(
      () => {
        this.timers.delete(id);
        if (wait > MAX) return this.arm(schedule);
        void this.run(schedule);
      },
      Math.min(wait, MAX),
    );
    timer.unref?.();
    this.timers.set(id, timer);
  }

  private disarm(id: string): void {
    const timer = this.timers.get(id);
    if (timer) clearTimeout(timer);
    this.timers.delete(id);
  }

  private async run(schedule: StoredSchedule): Promise<void> {
    const { attempt, fireAt: _fireAt, ...run } = schedule;
    try {
      if (attempt) {
        // A retry fires once, whatever its outcome: a failure schedules the next retry itself, and the last
        // one's failure is the caller's to report (the failure queue's stand-in is the error log).
        await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: retryKey(run, attempt) }));
        await this.fire(run, attempt);
        return;
      }
      await this.fire(run);
      await this.db
        .send(
          new DeleteCommand({
            TableName: this.tableName,
            Key: key(run.articleId, run.platform),
            // Keep the item when the run was moved meanwhile (a newer schedule owns it).
            ConditionExpression: 'scheduledFor = :at',
            ExpressionAttributeValues: { ':at': run.scheduledFor },
          }),
        )
        .catch(() => undefined);
    } catch (err) {
      this.onError(run, err);
    }
  }
}
