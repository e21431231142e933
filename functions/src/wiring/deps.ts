import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { loadConfig, type Config } from '../config.js';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../adapters/dynamo/client.js';
import { DynamoUserStore } from '../adapters/dynamo/user-store.js';
import { Sessions } from '../domain/sessions.js';
import { UserService } from '../domain/users.js';
import type { AuditLog } from '../domain/audit.js';
import { logger } from '../logger.js';
import { lazy } from './lazy.js';

/**
 * What every function needs, built once per process (per Lambda container) from the environment: the
 * configuration, the table, and each request's session check. The rest is wired in its own module of wiring/
 * (the settings: settings.ts; OAuth state: oauth-state.ts; sign-in: accounts.ts; articles: AI, S3, jobs), imported
 * by the handlers that use it, so that a function's bundle carries only what its calls need.
 */
export interface Deps {
  config: Config;
  db: DynamoDBDocumentClient;
  users: UserService;
  sessions: Sessions;
  /** The HMAC key of sessions, OAuth state and approval links. */
  signingKey: () => Promise<Uint8Array>;
  /** The Secrets Manager client, made on first use (in AWS: the session key, the settings' secrets, the setup code). */
  secretsManager: () => SecretsManagerClient;
}

/**
 * A value read once per container (per process locally) and read again after a failure, so that a
 * transient Secrets Manager error is retried by the next request instead of being kept.
 */
export function readOnce<T>(read: () => Promise<T>): () => Promise<T> {
  let value: Promise<T> | undefined;
  return () =>
    (value ??= read().catch((err: unknown) => {
      value = undefined;
      throw err;
    }));
}

/** A Secrets Manager secret's text. */
export async function secretString(
  secretsManager: () => SecretsManagerClient,
  arn: string,
): Promise<string | undefined> {
  return (await secretsManager().send(new GetSecretValueCommand({ SecretId: arn }))).SecretString;
}

/** Audit events go to the structured log, one line each, marked `audit` for a log query. */
export const auditLog: AuditLog = (event, fields) => logger.info(`audit: ${event}`, { audit: event, ...fields });

function sessionKeyLoader(config: Config, secretsManager: () => SecretsManagerClient): () => Promise<Uint8Array> {
  return readOnce(async () => {
    if (config.sessionSecret) return new TextEncoder().encode(config.sessionSecret);
    if (config.sessionSecretArn) {
      const secret = await secretString(secretsManager, config.sessionSecretArn);
      if (!secret) throw new Error('The session secret is empty');
      return new TextEncoder().encode(secret);
    }
    throw new Error('Set SESSION_SECRET (local) or SESSION_SECRET_ARN (AWS) to sign sessions');
  });
}

export function buildDeps(config: Config = loadConfig()): Deps {
  const db = createDocumentClient(config);
  let sm: SecretsManagerClient | undefined;
  const secretsManager = () => (sm ??= new SecretsManagerClient({ region: config.region }));
  const secureCookie = Boolean(process.env.AWS_LAMBDA_FUNCTION_NAME) || config.publicUrl.startsWith('https://');

  const signingKey = sessionKeyLoader(config, secretsManager);
  return {
    config,
    db,
    signingKey,
    secretsManager,
    users: new UserService(new DynamoUserStore(db, config.tableName), { audit: auditLog }),
    sessions: new Sessions({ key: signingKey, ttlSeconds: config.sessionTtlSeconds, secureCookie }),
  };
}

/** What every function needs, built on first use (resetDeps() in lazy.ts rebuilds it). */
export const deps = lazy(() => buildDeps());
