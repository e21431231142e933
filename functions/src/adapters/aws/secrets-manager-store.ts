import { createHash, randomUUID } from 'node:crypto';
import {
  CreateSecretCommand,
  DeleteSecretCommand,
  GetSecretValueCommand,
  PutSecretValueCommand,
  ResourceExistsException,
  ResourceNotFoundException,
  type SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import type { SecretStore, SecretValues } from '../../domain/ports.js';

/**
 * A secret deleted without recovery is removed in the background: for a few seconds its name
 * answers InvalidRequestException ("marked for deletion" / "scheduled for deletion") instead of
 * ResourceNotFoundException, and cannot be created again yet (AWS: retry after a short wait).
 */
const isPendingDeletion = (err: unknown): boolean =>
  (err as { name?: string }).name === 'InvalidRequestException' && /deletion/i.test((err as Error).message ?? '');
const isGone = (err: unknown): boolean => err instanceof ResourceNotFoundException || isPendingDeletion(err);

/** Waits before each new attempt to create a name whose deletion is still finishing (~7.5 s in all). */
const RECREATE_WAITS_MS = [250, 500, 1000, 2000, 3750];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The old per-key secrets are scheduled for deletion with the shortest recovery window, so a move can be undone for a week. */
export const LEGACY_RECOVERY_DAYS = 7;

/**
 * The id of the version that follows `versionId`: every write of ours names its new version after
 * the version it read, so only the first write after a version can make its follower (UUID form,
 * as Secrets Manager recommends for ClientRequestToken).
 */
export function followingVersionId(versionId: string): string {
  const hex = createHash('sha256').update(`after:${versionId}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The secret's text: the values, and an id of the write that makes every write's text differ (see write). */
interface Stored {
  values: Record<string, string>;
  write: string;
}

/** The values of the secret's text; anything else is refused rather than overwritten. */
function parse(name: string, text: string | undefined): Record<string, string> {
  let stored: Partial<Stored> | undefined;
  try {
    stored = JSON.parse(text ?? '') as Partial<Stored>;
  } catch {
    stored = undefined;
  }
  const values = stored?.values;
  if (!values || typeof values !== 'object' || Object.values(values).some((v) => typeof v !== 'string')) {
    throw new Error(`The secret ${name} does not hold settings values`);
  }
  return values;
}

/**
 * Secrets Manager, one secret per owner holding all of their secret values as JSON:
 * `<prefix><userId>` = `{"values": {"<key>": "<value>", …}, "write": "<id>"}`. The functions' IAM
 * policy allows only names under the prefix.
 *
 * Compare-and-set without a conditional write: PutSecretValue's ClientRequestToken becomes the new
 * version's id, and a token that names an existing version with other contents is refused
 * (ResourceExistsException). A write based on version V uses followingVersionId(V), so of two
 * writes based on the same version only the first is made; the other reads again. A write based on
 * a stale read finds the follower made already. Each write's text carries its own id, so two
 * different writes never have the same text (which would be taken as a repeat of one request).
 * The first write creates the secret, and CreateSecret refuses a second creation just the same.
 *
 * Before one secret per user each key had its own secret, `<prefix><userId>/<key>`: readLegacy
 * and deleteLegacy serve moving them (domain/settings.ts).
 */
export class SecretsManagerStore implements SecretStore {
  constructor(
    private readonly client: SecretsManagerClient,
    private readonly prefix: string,
    private readonly recreateWaitsMs: readonly number[] = RECREATE_WAITS_MS,
  ) {}

  name(userId: string): string {
    return `${this.prefix}${userId}`;
  }

  legacyName(userId: string, key: string): string {
    return `${this.prefix}${userId}/${key}`;
  }

  async read(userId: string): Promise<SecretValues> {
    const SecretId = this.name(userId);
    try {
      const out = await this.client.send(new GetSecretValueCommand({ SecretId }));
      return { values: parse(SecretId, out.SecretString), version: out.VersionId };
    } catch (err) {
      if (isGone(err)) return { values: {}, version: undefined };
      throw err;
    }
  }

  async write(
    userId: string,
    values: Readonly<Record<string, string>>,
    version: string | undefined,
  ): Promise<string | undefined> {
    const SecretId = this.name(userId);
    const SecretString = JSON.stringify({ values, write: randomUUID() } satisfies Stored);
    if (version === undefined) return this.create(userId, SecretString);
    const ClientRequestToken = followingVersionId(version);
    try {
      await this.client.send(new PutSecretValueCommand({ SecretId, SecretString, ClientRequestToken }));
      return ClientRequestToken;
    } catch (err) {
      // Another write made the follower of the version read first; or the secret is gone: read again.
      if (err instanceof ResourceExistsException || isGone(err)) return undefined;
      throw err;
    }
  }

  private async create(userId: string, SecretString: string): Promise<string | undefined> {
    const ClientRequestToken = randomUUID();
    for (let attempt = 0; ; attempt++) {
      try {
        await this.client.send(
          new CreateSecretCommand({
            Name: this.name(userId),
            SecretString,
            ClientRequestToken,
            Tags: [{ Key: 'owner', Value: userId }],
          }),
        );
        return ClientRequestToken;
      } catch (err) {
        // Created by another write in between: read it and change that.
        if (err instanceof ResourceExistsException) return undefined;
        if (!isPendingDeletion(err) || attempt >= this.recreateWaitsMs.length) throw err;
        await sleep(this.recreateWaitsMs[attempt]!);
      }
    }
  }

  async readLegacy(userId: string, key: string): Promise<string | undefined> {
    try {
      const out = await this.client.send(new GetSecretValueCommand({ SecretId: this.legacyName(userId, key) }));
      return out.SecretString;
    } catch (err) {
      if (isGone(err)) return undefined;
      throw err;
    }
  }

  async deleteLegacy(userId: string, key: string): Promise<void> {
    try {
      await this.client.send(
        new DeleteSecretCommand({ SecretId: this.legacyName(userId, key), RecoveryWindowInDays: LEGACY_RECOVERY_DAYS }),
      );
    } catch (err) {
      if (!isGone(err)) throw err;
    }
  }
}
