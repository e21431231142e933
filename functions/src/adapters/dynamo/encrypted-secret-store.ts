import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { SecretStore, SecretValues } from '../../domain/ports.js';
import { ifConditionHeld } from './client.js';

/** The owner's one item; `SECRET#<name>` items are the one-per-key layout of before. */
const itemKey = (userId: string) => ({ PK: `USER#${userId}`, SK: 'SECRETS' });
const legacyKey = (userId: string, name: string) => ({ PK: `USER#${userId}`, SK: `SECRET#${name}` });

/**
 * The local SecretStore, shaped like the AWS one (one secret per owner, compare-and-set writes):
 * AES-256-GCM with a key generated into the data folder; the owner's values as one ciphertext in
 * one table item, bound to its owner (additional authenticated data) so it cannot be moved. The
 * item's `version` is the compare-and-set: a conditional put of the next number.
 */
export class EncryptedSecretStore implements SecretStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly encryptionKey: Buffer,
  ) {
    if (encryptionKey.length !== 32) throw new Error('The local secrets key must be 32 bytes');
  }

  private seal(aad: string, value: string) {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.encryptionKey, iv);
    cipher.setAAD(Buffer.from(aad));
    const data = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
    return { iv: iv.toString('base64'), data: data.toString('base64'), tag: cipher.getAuthTag().toString('base64') };
  }

  private open(aad: string, item: Record<string, unknown>): string {
    const decipher = createDecipheriv('aes-256-gcm', this.encryptionKey, Buffer.from(item.iv as string, 'base64'));
    decipher.setAAD(Buffer.from(aad));
    decipher.setAuthTag(Buffer.from(item.tag as string, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(item.data as string, 'base64')), decipher.final()]).toString(
      'utf8',
    );
  }

  /** Not `<userId>/<name>` (a per-key item's): neither kind of ciphertext opens as the other. */
  private static aad = (userId: string) => `secrets:${userId}`;

  async read(userId: string): Promise<SecretValues> {
    const out = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: itemKey(userId), ConsistentRead: true }),
    );
    if (!out.Item) return { values: {}, version: undefined };
    const values = (
      JSON.parse(this.open(EncryptedSecretStore.aad(userId), out.Item)) as { values: Record<string, string> }
    ).values;
    return { values, version: String(out.Item.version) };
  }

  async write(
    userId: string,
    values: Readonly<Record<string, string>>,
    version: string | undefined,
  ): Promise<string | undefined> {
    const next = version === undefined ? 1 : Number(version) + 1;
    const sealed = this.seal(EncryptedSecretStore.aad(userId), JSON.stringify({ values }));
    const made = await ifConditionHeld(
      this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { ...itemKey(userId), type: 'secrets', version: next, ...sealed },
          ...(version === undefined
            ? { ConditionExpression: 'attribute_not_exists(PK)' }
            : {
                ConditionExpression: '#version = :read',
                ExpressionAttributeNames: { '#version': 'version' },
                ExpressionAttributeValues: { ':read': Number(version) },
              }),
        }),
      ),
    );
    return made ? String(next) : undefined;
  }

  async readLegacy(userId: string, name: string): Promise<string | undefined> {
    const out = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: legacyKey(userId, name), ConsistentRead: true }),
    );
    return out.Item ? this.open(`${userId}/${name}`, out.Item) : undefined;
  }

  async deleteLegacy(userId: string, name: string): Promise<void> {
    await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: legacyKey(userId, name) }));
  }
}
