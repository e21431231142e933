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
 * A secret deleted without recovery is removed in the background: for a few seconds its name
 * answers InvalidRequestException ("marked for deletion" / "scheduled for deletion") instead of
 * ResourceNotFoundException, and cannot be created again yet (AWS: retry after a short wait).
 */
const isPendingDeletion = (err: unknown): boolean =>
  (err as { name?: string }).name === 'InvalidRequestException' && /deletion/i.test((err as Error).message ?? '');

/** Waits before each new attempt to create a name whose deletion is still finishing (~7.5 s in all). */
const RECREATE_WAITS_MS = [250, 500, 1000, 2000, 3750];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Secrets Manager, one secret per owner and key: `<prefix><userId>/<key>`. The functions' IAM policy
 * allows only names under the prefix.
 */
export class SecretsManagerStore implements SecretStore {
  constructor(
    private readonly client: SecretsManagerClient,
    private readonly prefix: string,
    private readonly recreateWaitsMs: readonly number[] = RECREATE_WAITS_MS,
  ) {}

  name(userId: string, key: string): string {
    return `${this.prefix}${userId}/${key}`;
  }

  async put(userId: string, key: string, value: string): Promise<void> {
    const SecretId = this.name(userId, key);
    try {
      await this.client.send(new PutSecretValueCommand({ SecretId, SecretString: value }));
      return;
    } catch (err) {
      if (!(err instanceof ResourceNotFoundException) && !isPendingDeletion(err)) throw err;
    }
    // Not there (or just deleted, e.g. a reconnect right after a disconnect): create it.
    for (let attempt = 0; ; attempt++) {
      try {
        await this.client.send(new CreateSecretCommand({ Name: SecretId, SecretString: value, Tags: [{ Key: 'owner', Value: userId }] }));
        return;
      } catch (err) {
        if (!isPendingDeletion(err) || attempt >= this.recreateWaitsMs.length) throw err;
        await sleep(this.recreateWaitsMs[attempt]!);
      }
    }
  }

  async get(userId: string, key: string): Promise<string | undefined> {
    try {
      const out = await this.client.send(new GetSecretValueCommand({ SecretId: this.name(userId, key) }));
      return out.SecretString;
    } catch (err) {
      if (err instanceof ResourceNotFoundException || isPendingDeletion(err)) return undefined;
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
      if (!(err instanceof ResourceNotFoundException) && !isPendingDeletion(err)) throw err;
    }
  }
}
