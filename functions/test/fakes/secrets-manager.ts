import { randomUUID } from 'node:crypto';
import {
  CreateSecretCommand,
  DeleteSecretCommand,
  GetSecretValueCommand,
  InvalidRequestException,
  PutSecretValueCommand,
  ResourceExistsException,
  ResourceNotFoundException,
  type SecretsManagerClientResolvedConfig,
  type ServiceInputTypes,
  type ServiceOutputTypes,
} from '@aws-sdk/client-secrets-manager';
import type { AwsStub } from 'aws-sdk-client-mock';

interface FakeSecret {
  name: string;
  /** Version id → text; `current` carries AWSCURRENT. */
  versions: Map<string, string>;
  current: string;
  tags: { Key?: string; Value?: string }[];
  /** Scheduled for deletion, with this recovery window (days), or deleted without recovery. */
  deletion?: { recoveryDays?: number; force: boolean };
}

const meta = { $metadata: {} };
const pending = (verb: string) =>
  new InvalidRequestException({ message: `You can't ${verb} because it was marked for deletion.`, ...meta });
const missing = () =>
  new ResourceNotFoundException({ message: "Secrets Manager can't find the specified secret.", ...meta });
const accessDenied = (action: string) =>
  Object.assign(new Error(`User is not authorized to perform: secretsmanager:${action}`), {
    name: 'AccessDeniedException',
  });

/**
 * Secrets Manager as aws-sdk-client-mock answers it, with the documented behaviour the stores rely
 * on: CreateSecret refuses a name that exists (ResourceExistsException) or is scheduled for
 * deletion (InvalidRequestException); PutSecretValue makes the version ClientRequestToken names and
 * moves AWSCURRENT to it, ignores a repeat with the same text and refuses one with another text
 * (ResourceExistsException); GetSecretValue answers AWSCURRENT's text and VersionId; a secret
 * scheduled for deletion answers InvalidRequestException to everything.
 */
export class FakeSecretsManager {
  readonly secrets = new Map<string, FakeSecret>();
  /** Every call, in order: [command name, secret name]. */
  readonly calls: [string, string][] = [];
  /** Write calls answer AccessDeniedException (a function whose IAM policy only reads). */
  readOnly = false;
  private held: { count: number; waiting: (() => void)[] } | undefined;
  private failures = new Map<string, Error>();

  install(sm: AwsStub<ServiceInputTypes, ServiceOutputTypes, SecretsManagerClientResolvedConfig>): void {
    sm.on(GetSecretValueCommand).callsFake((input) => this.get(input.SecretId!));
    sm.on(CreateSecretCommand).callsFake((input) =>
      this.create(input.Name!, input.SecretString!, input.ClientRequestToken, input.Tags ?? []),
    );
    sm.on(PutSecretValueCommand).callsFake((input) =>
      this.put(input.SecretId!, input.SecretString!, input.ClientRequestToken),
    );
    sm.on(DeleteSecretCommand).callsFake((input) =>
      this.delete(input.SecretId!, input.RecoveryWindowInDays, input.ForceDeleteWithoutRecovery),
    );
  }

  /** The next `count` GetSecretValue calls all answer only once all of them have been made: reads that interleave. */
  holdReads(count: number): void {
    this.held = { count, waiting: [] };
  }

  /** The next call of `command` fails with `error` before doing anything (a function cut off there). */
  failOnce(command: string, error: Error): void {
    this.failures.set(command, error);
  }

  private failure(command: string, name: string): void {
    this.calls.push([command, name]);
    const error = this.failures.get(command);
    if (error) {
      this.failures.delete(command);
      throw error;
    }
  }

  /** Names of the secrets that exist and are not scheduled for deletion. */
  live(): string[] {
    return [...this.secrets.values()].filter((s) => !s.deletion).map((s) => s.name);
  }

  text(name: string): string | undefined {
    const secret = this.secrets.get(name);
    return secret && secret.versions.get(secret.current);
  }

  /** Writes a secret as the code of before did: one per key, plain text. */
  seed(name: string, text: string): void {
    const id = randomUUID();
    this.secrets.set(name, { name, versions: new Map([[id, text]]), current: id, tags: [] });
  }

  namesOf(...commands: string[]): Set<string> {
    return new Set(this.calls.filter(([command]) => commands.includes(command)).map(([, name]) => name));
  }

  count(command: string): number {
    return this.calls.filter(([c]) => c === command).length;
  }

  private async get(name: string) {
    this.failure('GetSecretValue', name);
    if (this.held) {
      const held = this.held;
      await new Promise<void>((resolve) => {
        held.waiting.push(resolve);
        if (held.waiting.length === held.count) {
          this.held = undefined;
          for (const release of held.waiting) release();
        }
      });
    }
    const secret = this.secrets.get(name);
    if (!secret) throw missing();
    if (secret.deletion) throw pending('perform this operation on the secret');
    return {
      Name: name,
      VersionId: secret.current,
      SecretString: secret.versions.get(secret.current),
      VersionStages: ['AWSCURRENT'],
    };
  }

  private async create(name: string, text: string, token: string | undefined, tags: FakeSecret['tags']) {
    this.failure('CreateSecret', name);
    if (this.readOnly) throw accessDenied('CreateSecret');
    const existing = this.secrets.get(name);
    if (existing?.deletion)
      throw pending('create this secret because a secret with this name is already scheduled for deletion');
    if (existing)
      throw new ResourceExistsException({
        message: `The operation failed because the secret ${name} already exists.`,
        ...meta,
      });
    const id = token ?? randomUUID();
    this.secrets.set(name, { name, versions: new Map([[id, text]]), current: id, tags });
    return { Name: name, VersionId: id };
  }

  private async put(name: string, text: string, token: string | undefined) {
    this.failure('PutSecretValue', name);
    if (this.readOnly) throw accessDenied('PutSecretValue');
    const secret = this.secrets.get(name);
    if (!secret) throw missing();
    if (secret.deletion) throw pending('perform this operation on the secret');
    const id = token ?? randomUUID();
    const same = secret.versions.get(id);
    if (same !== undefined) {
      if (same === text) return { Name: name, VersionId: id };
      throw new ResourceExistsException({
        message: "You can't modify an existing version, you can only create new versions.",
        ...meta,
      });
    }
    secret.versions.set(id, text);
    secret.current = id;
    return { Name: name, VersionId: id };
  }

  private async delete(name: string, recoveryDays: number | undefined, force: boolean | undefined) {
    this.failure('DeleteSecret', name);
    if (this.readOnly) throw accessDenied('DeleteSecret');
    const secret = this.secrets.get(name);
    if (!secret) throw missing();
    if (secret.deletion) throw pending('perform this operation on the secret');
    secret.deletion = { recoveryDays, force: !!force };
    return { Name: name };
  }
}
