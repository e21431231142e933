import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  DeleteCommand,
  GetCommand,
  PutCommand,
  TransactWriteCommand,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import type { WorkspaceRole } from '@app/shared';
import type {
  AcceptOutcome,
  InvitationRecord,
  MemberChange,
  MemberRecord,
  MembershipRecord,
  WorkspaceRecord,
  WorkspaceStore,
} from '../../domain/workspaces.js';
import { conditionHeld } from './client.js';
import { DynamoWorkspaceReads, memberKey, pk, strip, workspaceKey } from './workspace-reads.js';

/** The keys beside a workspace's record (docs/data-model.md, Workspaces; the record and members: workspace-reads.ts). */
const membershipKey = (userId: string, workspaceId: string) => ({ PK: pk(userId), SK: `MEMBERSHIP#${workspaceId}` });
const invitationKey = (workspaceId: string, id: string) => ({ PK: pk(workspaceId), SK: `INVITE#${id}` });
const INSTANCE_KEY = { PK: 'META', SK: 'INSTANCE_SETTINGS' };

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** Workspaces, their members and invitations, as the workspaces routes (and the admin's, the invited sign-up) change them. */
export class DynamoWorkspaceStore extends DynamoWorkspaceReads implements WorkspaceStore {
  private memberPuts(member: MemberRecord, workspaceName: string): TransactItem[] {
    const TableName = this.tableName;
    return [
      {
        Put: {
          TableName,
          Item: { ...memberKey(member.workspaceId, member.userId), type: 'member', ...member },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
      {
        Put: {
          TableName,
          Item: {
            ...membershipKey(member.userId, member.workspaceId),
            type: 'membership',
            workspaceId: member.workspaceId,
            workspaceName,
            role: member.role,
          },
        },
      },
    ];
  }

  /** Moves the workspace's owner count by `by`, refusing to leave none. */
  private owners(workspaceId: string, by: number): TransactItem {
    return {
      Update: {
        TableName: this.tableName,
        Key: workspaceKey(workspaceId),
        UpdateExpression: 'ADD owners :by',
        ConditionExpression: by < 0 ? 'owners > :one' : 'attribute_exists(PK)',
        ExpressionAttributeValues: by < 0 ? { ':by': by, ':one': 1 } : { ':by': by },
      },
    };
  }

  async create(workspace: WorkspaceRecord, owner: MemberRecord): Promise<void> {
    await this.db.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: this.tableName,
              Item: { ...workspaceKey(workspace.id), type: 'workspace', ...workspace },
              ConditionExpression: 'attribute_not_exists(PK)',
            },
          },
          ...this.memberPuts(owner, workspace.name),
        ],
      }),
    );
  }

  memberships(userId: string): Promise<MembershipRecord[]> {
    return this.prefix<MembershipRecord>(userId, 'MEMBERSHIP#');
  }

  async invitations(workspaceId: string): Promise<InvitationRecord[]> {
    return (await this.prefix<InvitationRecord>(workspaceId, 'INVITE#')).filter((i) => !i.usedAt);
  }

  /** One transaction; 'gone' when the member changed meanwhile, 'last-owner' when no owner would be left. */
  private async memberWrite(items: TransactItem[], ownerItemIndex: number | undefined): Promise<MemberChange> {
    try {
      await this.db.send(new TransactWriteCommand({ TransactItems: items }));
      return 'changed';
    } catch (err) {
      if (!(err instanceof TransactionCanceledException)) throw err;
      const reasons = err.CancellationReasons ?? [];
      if (reasons[0]?.Code === 'ConditionalCheckFailed') return 'gone';
      if (ownerItemIndex !== undefined && reasons[ownerItemIndex]?.Code === 'ConditionalCheckFailed')
        return 'last-owner';
      throw err;
    }
  }

  private ownerDelta(from: WorkspaceRole, to: WorkspaceRole | undefined): number {
    return (to === 'owner' ? 1 : 0) - (from === 'owner' ? 1 : 0);
  }

  async setRole(workspaceId: string, userId: string, from: WorkspaceRole, to: WorkspaceRole): Promise<MemberChange> {
    const TableName = this.tableName;
    const delta = this.ownerDelta(from, to);
    const items: TransactItem[] = [
      {
        Update: {
          TableName,
          Key: memberKey(workspaceId, userId),
          UpdateExpression: 'SET #role = :to',
          ConditionExpression: '#role = :from',
          ExpressionAttributeNames: { '#role': 'role' },
          ExpressionAttributeValues: { ':to': to, ':from': from },
        },
      },
      {
        Update: {
          TableName,
          Key: membershipKey(userId, workspaceId),
          UpdateExpression: 'SET #role = :to',
          ExpressionAttributeNames: { '#role': 'role' },
          ExpressionAttributeValues: { ':to': to },
        },
      },
      ...(delta ? [this.owners(workspaceId, delta)] : []),
    ];
    return this.memberWrite(items, delta ? 2 : undefined);
  }

  async removeMember(workspaceId: string, userId: string, from: WorkspaceRole): Promise<MemberChange> {
    const TableName = this.tableName;
    const delta = this.ownerDelta(from, undefined);
    const items: TransactItem[] = [
      {
        Delete: {
          TableName,
          Key: memberKey(workspaceId, userId),
          ConditionExpression: '#role = :from',
          ExpressionAttributeNames: { '#role': 'role' },
          ExpressionAttributeValues: { ':from': from },
        },
      },
      { Delete: { TableName, Key: membershipKey(userId, workspaceId) } },
      ...(delta ? [this.owners(workspaceId, delta)] : []),
    ];
    return this.memberWrite(items, delta ? 2 : undefined);
  }

  async putInvitation(invitation: InvitationRecord): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: { ...invitationKey(invitation.workspaceId, invitation.id), type: 'invitation', ...invitation },
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );
  }

  async invitation(workspaceId: string, id: string): Promise<InvitationRecord | undefined> {
    const out = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: invitationKey(workspaceId, id), ConsistentRead: true }),
    );
    return strip<InvitationRecord>(out.Item);
  }

  deleteInvitation(workspaceId: string, id: string): Promise<boolean> {
    return conditionHeld(
      this.db.send(
        new DeleteCommand({
          TableName: this.tableName,
          Key: invitationKey(workspaceId, id),
          ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(usedAt)',
        }),
      ),
    );
  }

  async accept(invitation: InvitationRecord, member: MemberRecord): Promise<AcceptOutcome> {
    const delta = member.role === 'owner' ? 1 : 0;
    const items: TransactItem[] = [
      {
        // Kept (used) rather than deleted, so a second use says so; the time to live removes it later.
        Update: {
          TableName: this.tableName,
          Key: invitationKey(invitation.workspaceId, invitation.id),
          UpdateExpression: 'SET usedAt = :now, usedBy = :user',
          ConditionExpression: 'tokenHash = :hash AND attribute_not_exists(usedAt)',
          ExpressionAttributeValues: { ':hash': invitation.tokenHash, ':now': member.joinedAt, ':user': member.userId },
        },
      },
      ...this.memberPuts(member, invitation.workspaceName),
      ...(delta ? [this.owners(invitation.workspaceId, delta)] : []),
    ];
    try {
      await this.db.send(new TransactWriteCommand({ TransactItems: items }));
      return 'accepted';
    } catch (err) {
      if (!(err instanceof TransactionCanceledException)) throw err;
      const reasons = err.CancellationReasons ?? [];
      if (reasons[0]?.Code === 'ConditionalCheckFailed') return 'used';
      if (reasons[1]?.Code === 'ConditionalCheckFailed') return 'member';
      throw err;
    }
  }

  async instanceSettings(): Promise<{ invitationsActivateAccounts: boolean }> {
    const out = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: INSTANCE_KEY, ConsistentRead: true }),
    );
    return { invitationsActivateAccounts: out.Item?.invitationsActivateAccounts === true };
  }

  async setInstanceSettings(settings: { invitationsActivateAccounts: boolean }): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: { ...INSTANCE_KEY, ...settings, updatedAt: new Date().toISOString() },
      }),
    );
  }
}
