import { DeleteCommand, GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { SettingRecord, SettingStore } from '../../domain/ports.js';
import { queryAll } from './client.js';

const key = (userId: string, settingKey: string) => ({ PK: `USER#${userId}`, SK: `SETTING#${settingKey}` });
type Item = SettingRecord & { PK: string; SK: string; type: 'setting' };
const fromItem = ({ PK: _p, SK: _s, type: _t, ...record }: Item): SettingRecord => record;

/** Setting metadata (key, description, dates); the values themselves live in the SecretStore. */
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
    const out = await this.db.send(new GetCommand({ TableName: this.tableName, Key: key(userId, settingKey), ConsistentRead: true }));
    return out.Item ? fromItem(out.Item as Item) : undefined;
  }

  async put(userId: string, record: SettingRecord): Promise<void> {
    await this.db.send(new PutCommand({ TableName: this.tableName, Item: { ...key(userId, record.key), type: 'setting', ...record } }));
  }

  async delete(userId: string, settingKey: string): Promise<boolean> {
    const out = await this.db.send(
      new DeleteCommand({ TableName: this.tableName, Key: key(userId, settingKey), ReturnValues: 'ALL_OLD' }),
    );
    return Boolean(out.Attributes);
  }
}
