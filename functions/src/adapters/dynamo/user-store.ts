import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, TransactWriteCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ROLE_ADMIN } from '@app/shared';
import { EmailTakenError, FirstAdminTakenError, type UserRecord, type UserStore } from '../../domain/users.js';
import { conditionHeld, ifConditionHeld, queryAll } from './client.js';

export const userKey = (id: string) => ({ PK: `USER#${id}`, SK: 'PROFILE' });
const emailKey = (email: string) => ({ PK: `EMAIL#${email}`, SK: 'EMAIL' });
const FIRST_ADMIN_KEY = { PK: 'META', SK: 'FIRST_ADMIN' };

/** Moves the session version: every session issued before ends (see UserService.sessionUser). */
const NEXT_SESSION_VERSION = 'sessionVersion = if_not_exists(sessionVersion, :zero) + :one';
const SESSION_VERSION_VALUES = { ':zero': 0, ':one': 1 };

type UserItem = UserRecord & { PK: string; SK: string; GSI1PK: string; GSI1SK: string; type: 'user' };

const fromItem = ({ PK: _pk, SK: _sk, GSI1PK: _g1, GSI1SK: _g2, type: _t, ...user }: UserItem): UserRecord => user;

export class DynamoUserStore implements UserStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async create(user: UserRecord, { claimFirstAdmin }: { claimFirstAdmin: boolean }): Promise<void> {
    const item: UserItem = {
      ...userKey(user.id),
      GSI1PK: 'USERS',
      GSI1SK: `${user.createdAt}#${user.id}`,
      type: 'user',
      ...user,
    };
    const TableName = this.tableName;
    const notExists = 'attribute_not_exists(PK)';
    const items = [
      { Put: { TableName, Item: item, ConditionExpression: notExists } },
      { Put: { TableName, Item: { ...emailKey(user.email), userId: user.id }, ConditionExpression: notExists } },
      ...(claimFirstAdmin
        ? [
            {
              Put: {
                TableName,
                Item: { ...FIRST_ADMIN_KEY, userId: user.id, claimedAt: user.createdAt },
                ConditionExpression: notExists,
              },
            },
          ]
        : []),
    ];
    try {
      await this.db.send(new TransactWriteCommand({ TransactItems: items }));
    } catch (err) {
      if (err instanceof TransactionCanceledException) {
        const reasons = err.CancellationReasons ?? [];
        if (reasons[1]?.Code === 'ConditionalCheckFailed') throw new EmailTakenError();
        if (reasons[2]?.Code === 'ConditionalCheckFailed') throw new FirstAdminTakenError();
      }
      throw err;
    }
  }

  async isFirstAdminClaimed(): Promise<boolean> {
    const out = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: FIRST_ADMIN_KEY, ConsistentRead: true }),
    );
    return Boolean(out.Item);
  }

  async getById(id: string): Promise<UserRecord | undefined> {
    const out = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: userKey(id), ConsistentRead: true }),
    );
    // A team workspace's record shares the PROFILE key of its partition (workspace-store.ts): it is no user.
    return out.Item && out.Item.type !== 'workspace' ? fromItem(out.Item as UserItem) : undefined;
  }

  async getByEmail(email: string): Promise<UserRecord | undefined> {
    const claim = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: emailKey(email), ConsistentRead: true }),
    );
    const userId = claim.Item?.userId as string | undefined;
    return userId ? this.getById(userId) : undefined;
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

  /** One update of an existing user (nothing when there is none): the user after it. */
  private async updateExisting(
    id: string,
    UpdateExpression: string,
    values: Record<string, unknown>,
  ): Promise<UserRecord | undefined> {
    const out = await ifConditionHeld(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: userKey(id),
          ConditionExpression: 'attribute_exists(PK)',
          UpdateExpression,
          ExpressionAttributeValues: values,
          ReturnValues: 'ALL_NEW',
        }),
      ),
    );
    return out && fromItem(out.Attributes as UserItem);
  }

  async revokeSession(id: string, entry: string, expiredEntries: readonly string[]): Promise<void> {
    await this.updateExisting(id, 'ADD revokedSessions :entry', { ':entry': new Set([entry]) });
    // A separate write: one update expression cannot both ADD to and DELETE from the same set.
    if (expiredEntries.length)
      await this.updateExisting(id, 'DELETE revokedSessions :expired', { ':expired': new Set(expiredEntries) });
  }

  async endAllSessions(id: string): Promise<UserRecord | undefined> {
    return this.updateExisting(id, `SET ${NEXT_SESSION_VERSION} REMOVE revokedSessions`, SESSION_VERSION_VALUES);
  }

  async setPassword(id: string, passwordHash: string, now: string): Promise<UserRecord | undefined> {
    return this.updateExisting(
      id,
      `SET passwordHash = :hash, updatedAt = :now, ${NEXT_SESSION_VERSION} REMOVE revokedSessions`,
      {
        ':hash': passwordHash,
        ':now': now,
        ...SESSION_VERSION_VALUES,
      },
    );
  }

  async upgradePasswordHash(id: string, previousHash: string, passwordHash: string): Promise<void> {
    await conditionHeld(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: userKey(id),
          ConditionExpression: 'passwordHash = :previous',
          UpdateExpression: 'SET passwordHash = :hash',
          ExpressionAttributeValues: { ':previous': previousHash, ':hash': passwordHash },
        }),
      ),
    );
  }
}
