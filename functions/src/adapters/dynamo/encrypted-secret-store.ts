import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { SecretStore } from '../../domain/ports.js';
import { queryAll } from './client.js';

const key = (userId: string, name: string) => ({ PK: `USER#${userId}`, SK: `SECRET#${name}` });

/**
 * The local SecretStore: AES-256-GCM with a key generated into the data folder; ciphertext in the
 * table, bound to its owner and name (additional authenticated data) so it cannot be moved.
 */
export class EncryptedSecretStore implements SecretStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly encryptionKey: Buffer,
  ) {
    if (encryptionKey.length !== 32) throw new Error('The local secrets key must be 32 bytes');
  }

  private seal(userId: string, name: string, value: string) {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.encryptionKey, iv);
    cipher.setAAD(Buffer.from(`${userId}/${name}`));
    const data = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
    return { iv: iv.toString('base64'), data: data.toString('base64'), tag: cipher.getAuthTag().toString('base64') };
  }

  private open(userId: string, name: string, item: Record<string, unknown>): string {
    const decipher = createDecipheriv('aes-256-gcm', this.encryptionKey, Buffer.from(item.iv as string, 'base64'));
    decipher.setAAD(Buffer.from(`${userId}/${name}`));
    decipher.setAuthTag(Buffer.from(item.tag as string, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(item.data as string, 'base64')), decipher.final()]).toString('utf8');
  }

  async put(userId: string, name: string, value: string): Promise<void> {
    await this.db.send(
      new PutCommand({ TableName: this.tableName, Item: { ...key(userId, name), type: 'secret', ...this.seal(userId, name, value) } }),
    );
  }

  async get(userId: string, name: string): Promise<string | undefined> {
    const out = await this.db.send(new GetCommand({ TableName: this.tableName, Key: key(userId, name), ConsistentRead: true }));
    return out.Item ? this.open(userId, name, out.Item) : undefined;
  }

  async getMany(userId: string, names: string[]): Promise<Map<string, string>> {
    const wanted = new Set(names);
    const values = new Map<string, string>();
    if (!wanted.size) return values;
    const items = await queryAll(this.db, {
      TableName: this.tableName,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': `USER#${userId}`, ':prefix': 'SECRET#' },
    });
    for (const item of items) {
      const name = (item.SK as string).slice('SECRET#'.length);
      if (wanted.has(name)) values.set(name, this.open(userId, name, item));
    }
    return values;
  }

  async delete(userId: string, name: string): Promise<void> {
    await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: key(userId, name) }));
  }
}
