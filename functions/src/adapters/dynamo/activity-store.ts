import { QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { CommentMessages } from '@app/shared';
import type { ActivityRecord } from '../../domain/activity.js';
import type { ActivityReader } from '../../domain/comments.js';
import { badRequest } from '../../domain/errors.js';
import type { TransactItem } from './summary-store.js';

const ACTIVITY_PREFIX = 'ACTIVITY#';
const articlePrefix = (articleId: string) => `${ACTIVITY_PREFIX}${articleId}#`;

/**
 * An activity entry's item (docs/data-model.md): in the workspace's partition, by article then time, so a page
 * newest first is one Query of that article's prefix, backwards, with a Limit.
 */
export const activityKey = (record: Pick<ActivityRecord, 'userId' | 'articleId' | 'at' | 'id'>) => ({
  PK: `USER#${record.userId}`,
  SK: `${articlePrefix(record.articleId)}${record.at}#${record.id}`,
});

/**
 * The Puts of a change's activity entries, for the article write's TransactWriteItems (article-store.ts composes
 * them with it, as it does the calendar entries, the summary and the events' outbox items). A Put replaces the
 * entry whole: a burst of edits rewrites its one entry with the later `until`.
 */
export function activityWrites(tableName: string, records: readonly ActivityRecord[]): TransactItem[] {
  return records.map((record) => ({
    Put: { TableName: tableName, Item: { ...activityKey(record), type: 'activity', ...record } },
  }));
}

type Item = ActivityRecord & { PK: string; SK: string; type: 'activity' };
const fromItem = ({ PK: _p, SK: _s, type: _t, ...record }: Item): ActivityRecord => record;

const encodeCursor = (sk: string) => Buffer.from(sk, 'utf8').toString('base64url');

export class DynamoActivityStore implements ActivityReader {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async page(
    userId: string,
    articleId: string,
    limit: number,
    cursor?: string,
  ): Promise<{ records: ActivityRecord[]; next: string | null }> {
    const prefix = articlePrefix(articleId);
    let after: string | undefined;
    if (cursor !== undefined) {
      after = Buffer.from(cursor, 'base64url').toString('utf8');
      // A cursor is a key of this article's entries, as an earlier page gave it.
      if (!after.startsWith(prefix) || after.length > 300)
        throw badRequest(CommentMessages.invalidCursor, 'invalid_cursor');
    }
    const out = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
        ExpressionAttributeValues: { ':pk': `USER#${userId}`, ':prefix': prefix },
        ScanIndexForward: false,
        Limit: limit,
        ConsistentRead: true,
        ...(after ? { ExclusiveStartKey: { PK: `USER#${userId}`, SK: after } } : {}),
      }),
    );
    const items = (out.Items ?? []) as Item[];
    const last = out.LastEvaluatedKey?.SK as string | undefined;
    return { records: items.map(fromItem), next: last ? encodeCursor(last) : null };
  }
}
