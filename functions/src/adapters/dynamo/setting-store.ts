import {
  DeleteCommand,
  GetCommand,
  PutCommand,
  TransactWriteCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import type { SettingRecord, SettingStore } from '../../domain/ports.js';
import { conditionHeld, queryAll } from './client.js';
import { expiryItem, WATCHED_EXPIRY_KEYS } from './time-keys.js';

const key = (userId: string, settingKey: string) => ({ PK: `USER#${userId}`, SK: `SETTING#${settingKey}` });
type Item = SettingRecord & { PK: string; SK: string; type: 'setting' };
const fromItem = ({ PK: _p, SK: _s, type: _t, ...record }: Item): SettingRecord => record;

/** Setting records (key, description, dates) and the values that are not secret; secret values live in the SecretStore. */
export class DynamoSettingStore implements SettingStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async list(userId: string): Promise<SettingRecord[]> {
    const items = await queryAll<Item>(this.db, {
      TableName: this.tableName,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': `USER#${userId}`, ':prefix': 'SETTING#' },
    });
    return items.map(fromItem);
  }

  async get(userId: string, settingKey: string): Promise<SettingRecord | undefined> {
    const out = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: key(userId, settingKey), ConsistentRead: true }),
    );
    return out.Item ? fromItem(out.Item as Item) : undefined;
  }

  async put(userId: string, record: SettingRecord): Promise<void> {
    const Item = { ...key(userId, record.key), type: 'setting', ...record };
    // A connection's expiry is kept by time too, in the same write (time-keys.ts): the week's notice finds it there.
    const expiry = WATCHED_EXPIRY_KEYS.has(record.key) ? expiryItem(userId, record.key, record.value) : undefined;
    if (!expiry) {
      await this.db.send(new PutCommand({ TableName: this.tableName, Item }));
      return;
    }
    await this.db.send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: this.tableName, Item } },
          { Put: { TableName: this.tableName, Item: expiry } },
        ],
      }),
    );
  }

  async migrate(
    userId: string,
    settingKey: string,
    updatedAt: string,
    changes: Pick<SettingRecord, 'storedIn' | 'value'>,
    from?: SettingRecord['storedIn'],
  ): Promise<boolean> {
    const set = Object.entries(changes).filter(([, v]) => v !== undefined);
    if (set.length === 0) return true;
    const removeValue = changes.storedIn === 'secret';
    return conditionHeld(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: key(userId, settingKey),
          UpdateExpression:
            `SET ${set.map(([name]) => `#${name} = :${name}`).join(', ')}` + (removeValue ? ' REMOVE #value' : ''),
          ConditionExpression: `attribute_exists(SK) AND ${from === undefined ? 'attribute_not_exists(#storedIn)' : '#storedIn = :from'} AND #updatedAt = :updatedAt`,
          ExpressionAttributeNames: {
            ...Object.fromEntries(set.map(([name]) => [`#${name}`, name])),
            '#storedIn': 'storedIn',
            '#updatedAt': 'updatedAt',
            ...(removeValue ? { '#value': 'value' } : {}),
          },
          ExpressionAttributeValues: {
            ...Object.fromEntries(set.map(([name, v]) => [`:${name}`, v])),
            ':updatedAt': updatedAt,
            ...(from === undefined ? {} : { ':from': from }),
          },
        }),
      ),
    );
  }

  async delete(userId: string, settingKey: string): Promise<boolean> {
    const out = await this.db.send(
      new DeleteCommand({ TableName: this.tableName, Key: key(userId, settingKey), ReturnValues: 'ALL_OLD' }),
    );
    return Boolean(out.Attributes);
  }
}
