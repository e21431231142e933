import {
  BatchGetCommand,
  GetCommand,
  UpdateCommand,
  type BatchGetCommandOutput,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import type { ReviewSettings } from '@app/shared';
import type { MemberRecord, WorkspaceReads, WorkspaceRecord } from '../../domain/workspaces.js';
import { queryAll } from './client.js';

/**
 * Workspaces in the owner-partition scheme (docs/data-model.md, Workspaces): a team workspace's record is
 * the PROFILE item of `USER#<workspaceId>` (type `workspace`, so no user lookup returns it), where its
 * articles' version moves as a user's does; its members are `MEMBER#<userId>` items beside it, each with a
 * reverse `MEMBERSHIP#<workspaceId>` item in the member's own partition; its invitations `INVITE#<id>`.
 */
export const pk = (id: string) => `USER#${id}`;
export const workspaceKey = (id: string) => ({ PK: pk(id), SK: 'PROFILE' });
export const memberKey = (workspaceId: string, userId: string) => ({ PK: pk(workspaceId), SK: `MEMBER#${userId}` });

export type Item = Record<string, unknown>;

export const strip = <T>(item: Item | undefined): T | undefined => {
  if (!item) return undefined;
  const { PK: _pk, SK: _sk, type: _type, ...rest } = item;
  return rest as T;
};

/**
 * What every function reads of a workspace (each request's access check, who a scheduled run acts for, the review
 * setting); the members' and invitations' changes are DynamoWorkspaceStore's (workspace-store.ts), which only the
 * functions that make them parse.
 */
export class DynamoWorkspaceReads implements WorkspaceReads {
  constructor(
    protected readonly db: DynamoDBDocumentClient,
    protected readonly tableName: string,
  ) {}

  async setReview(workspaceId: string, settings: ReviewSettings): Promise<void> {
    await this.db.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: workspaceKey(workspaceId),
        UpdateExpression: 'SET review = :r',
        ConditionExpression: 'attribute_exists(PK) AND #t = :workspace',
        ExpressionAttributeNames: { '#t': 'type' },
        ExpressionAttributeValues: { ':r': settings, ':workspace': 'workspace' },
      }),
    );
  }

  async access(workspaceId: string, userId: string) {
    const keys = [workspaceKey(workspaceId), memberKey(workspaceId, userId)];
    const found: Item[] = [];
    let pending: Record<string, unknown>[] | undefined = keys;
    for (let attempt = 0; pending?.length; attempt++) {
      if (attempt) await new Promise((r) => setTimeout(r, Math.min(1000, 25 * 2 ** attempt)));
      const out: BatchGetCommandOutput = await this.db.send(
        new BatchGetCommand({ RequestItems: { [this.tableName]: { Keys: pending, ConsistentRead: true } } }),
      );
      found.push(...((out.Responses?.[this.tableName] ?? []) as Item[]));
      pending = out.UnprocessedKeys?.[this.tableName]?.Keys;
    }
    const record = found.find((i) => i.SK === 'PROFILE' && i.type === 'workspace');
    const member = found.find((i) => i.SK === `MEMBER#${userId}`);
    return { workspace: strip<WorkspaceRecord>(record), member: strip<MemberRecord>(member) };
  }

  async get(workspaceId: string): Promise<WorkspaceRecord | undefined> {
    const out = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: workspaceKey(workspaceId), ConsistentRead: true }),
    );
    return out.Item?.type === 'workspace' ? strip<WorkspaceRecord>(out.Item) : undefined;
  }

  protected async prefix<T>(id: string, prefix: string): Promise<T[]> {
    const items = await queryAll<Item>(this.db, {
      TableName: this.tableName,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': pk(id), ':prefix': prefix },
      ConsistentRead: true,
    });
    return items.map((i) => strip<T>(i)!);
  }

  members(workspaceId: string): Promise<MemberRecord[]> {
    return this.prefix<MemberRecord>(workspaceId, 'MEMBER#');
  }
}
