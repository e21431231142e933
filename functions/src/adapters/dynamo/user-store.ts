import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ROLE_ADMIN } from '@app/shared';
import type { UserRecord, UserStore } from '../../domain/users.js';
import { ifConditionHeld, queryAll } from './client.js';

export const userKey = (id: string) => ({ PK: `USER#${id}`, SK: 'PROFILE' });

/** Moves the session version: every session issued before ends (see UserService.sessionUser). */
export const NEXT_SESSION_VERSION = 'sessionVersion = if_not_exists(sessionVersion, :zero) + :one';
export const SESSION_VERSION_VALUES = { ':zero': 0, ':one': 1 };

export type UserItem = UserRecord & { PK: string; SK: string; GSI1PK: string; GSI1SK: string; type: 'user' };

export const fromItem = ({ PK: _pk, SK: _sk, GSI1PK: _g1, GSI1SK: _g2, type: _t, ...user }: UserItem): UserRecord =>
  user;

/** The users as every function reads them (UserStore); the sign-in side is DynamoAccountStore (account-store.ts). */
export class DynamoUserStore implements UserStore {
  constructor(
    protected readonly db: DynamoDBDocumentClient,
    protected readonly tableName: string,
  ) {}

  async getById(id: string): Promise<UserRecord | undefined> {
    const out = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: userKey(id), ConsistentRead: true }),
    );
    // A team workspace's record shares the PROFILE key of its partition (workspace-store.ts): it is no user.
    return out.Item && out.Item.type !== 'workspace' ? fromItem(out.Item as UserItem) : undefined;
  }

  async list(): Promise<UserRecord[]> {
    const items = await queryAll<UserItem>(this.db, {
      TableName: this.tableName,
      IndexName: 'GSI1',
      KeyConditionExpression: 'GSI1PK = :users',
      ExpressionAttributeValues: { ':users': 'USERS' },
    });
    return items.map(fromItem);
  }

  async setActive(id: string, isActive: boolean, now: string): Promise<UserRecord | undefined> {
    const out = await ifConditionHeld(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: userKey(id),
          // An admin can never be changed, even by a request racing a role change.
          ConditionExpression: 'attribute_exists(PK) AND #role <> :admin',
          // Deactivating ends every session, so that activating again later revives none of them.
          UpdateExpression: isActive
            ? 'SET isActive = :active, updatedAt = :now, approvedAt = if_not_exists(approvedAt, :now)'
            : `SET isActive = :active, updatedAt = :now, ${NEXT_SESSION_VERSION} REMOVE revokedSessions`,
          ExpressionAttributeNames: { '#role': 'role' },
          ExpressionAttributeValues: {
            ':active': isActive,
            ':now': now,
            ':admin': ROLE_ADMIN,
            ...(isActive ? {} : SESSION_VERSION_VALUES),
          },
          ReturnValues: 'ALL_NEW',
        }),
      ),
    );
    return out && fromItem(out.Attributes as UserItem);
  }
}
