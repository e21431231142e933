import { DeleteCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Platform } from '@app/shared';
import type { ScheduledRun, Scheduler } from '../../domain/ports.js';
import { queryAll } from '../dynamo/client.js';

const key = (articleId: string, platform: Platform) => ({ PK: `SCHEDULE#${articleId}#${platform}`, SK: 'SCHEDULE' });

/**
 * EventBridge Scheduler's local stand-in: one timer per article and platform, kept in the table
 * (GSI1 'SCHEDULES') so that a restart re-arms every pending run; a fired run deletes its item.
 */
export class TimerScheduler implements Scheduler {
  private readonly timers = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly fire: (run: ScheduledRun) => Promise<void>,
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

  async cancel(_userId: string, articleId: string, platform: Platform): Promise<void> {
    this.disarm(articleId, platform);
    await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: key(articleId, platform) }));
  }

  /** Re-arms every stored schedule (start-up). Runs whose time has passed fire at once. */
  async restore(): Promise<number> {
    const items = await queryAll<ScheduledRun>(this.db, {
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
      });
    }
    return items.length;
  }

  stopAll(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  private arm(run: ScheduledRun): void {
    this.disarm(run.articleId, run.platform);
    const id = `${run.articleId}#${run.platform}`;
    // setTimeout holds at most ~24.8 days; longer waits re-arm on the way.
    const MAX = 2 ** 31 - 1;
    const wait = Math.max(0, Date.parse(run.scheduledFor) - Date.now());
    const timer = setTimeout(
      () => {
        this.timers.delete(id);
        if (wait > MAX) return this.arm(run);
        void this.run(run);
      },
      Math.min(wait, MAX),
    );
    timer.unref?.();
    this.timers.set(id, timer);
  }

  private disarm(articleId: string, platform: Platform): void {
    const id = `${articleId}#${platform}`;
    const timer = this.timers.get(id);
    if (timer) clearTimeout(timer);
    this.timers.delete(id);
  }

  private async run(run: ScheduledRun): Promise<void> {
    try {
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
