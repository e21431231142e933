import {
  CreateSecretCommand,
  DeleteSecretCommand,
  GetSecretValueCommand,
  PutSecretValueCommand,
  ResourceNotFoundException,
  type SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import type { SecretStore } from '../../domain/ports.js';

/**
 * Secrets Manager, one secret per owner and key: `<prefix><userId>/<key>`. The functions' IAM policy
 * allows only names under the prefix.
 */
export class SecretsManagerStore implements SecretStore {
  constructor(
    private readonly client: SecretsManagerClient,
    private readonly prefix: string,
  ) {}

  name(userId: string, key: string): string {
    return `${this.prefix}${userId}/${key}`;
  }

  async put(userId: string, key: string, value: string): Promise<void> {
    const SecretId = this.name(userId, key);
    try {
      await this.client.send(new PutSecretValueCommand({ SecretId, SecretString: value }));
    } catch (err) {
      if (!(err instanceof ResourceNotFoundException)) throw err;
      await this.client.send(
        new CreateSecretCommand({ Name: SecretId, SecretString: value, Tags: [{ Key: 'owner', Value: userId }] }),
      );
    }
  }

  async get(userId: string, key: string): Promise<string | undefined> {
    try {
      const out = await this.client.send(new GetSecretValueCommand({ SecretId: this.name(userId, key) }));
      return out.SecretString;
    } catch (err) {
      if (err instanceof ResourceNotFoundException) return undefined;
      throw err;
    }
  }

  async getMany(userId: string, keys: string[]): Promise<Map<string, string>> {
    const entries = await Promise.all(keys.map(async (k) => [k, await this.get(userId, k)] as const));
    return new Map(entries.filter((e): e is readonly [string, string] => e[1] !== undefined));
  }

  async delete(userId: string, key: string): Promise<void> {
    try {
      await this.client.send(new DeleteSecretCommand({ SecretId: this.name(userId, key), ForceDeleteWithoutRecovery: true }));
    } catch (err) {
      if (!(err instanceof ResourceNotFoundException)) throw err;
    }
  }
}
