import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { EmailTakenError, FirstAdminTakenError, type AccountStore } from '../../domain/accounts.js';
import type { UserRecord } from '../../domain/users.js';
import { conditionHeld, ifConditionHeld } from './client.js';
import {
  DynamoUserStore,
  fromItem,
  NEXT_SESSION_VERSION,
  SESSION_VERSION_VALUES,
  userKey,
  type UserItem,
} from './user-store.js';

const emailKey = (email: string) => ({ PK: `EMAIL#${email}`, SK: 'EMAIL' });
const FIRST_ADMIN_KEY = { PK: 'META', SK: 'FIRST_ADMIN' };

/** The users' sign-in and registration side (AccountStore), which only the auth function uses. */
export class DynamoAccountStore extends DynamoUserStore implements AccountStore {
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

  async getByEmail(email: string): Promise<UserRecord | undefined> {
    const claim = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: emailKey(email), ConsistentRead: true }),
    );
    const userId = claim.Item?.userId as string | undefined;
    return userId ? this.getById(userId) : undefined;
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
