import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { loadConfig, type Config } from '../config.js';
import { SecretsManagerStore } from '../adapters/aws/secrets-manager-store.js';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../adapters/dynamo/client.js';
import { EncryptedSecretStore } from '../adapters/dynamo/encrypted-secret-store.js';
import { DynamoSettingStore } from '../adapters/dynamo/setting-store.js';
import { DynamoUserStore } from '../adapters/dynamo/user-store.js';
import type { SecretStore } from '../domain/ports.js';
import { OAuthState } from '../domain/oauth-state.js';
import { DynamoWorkspaceStore } from '../adapters/dynamo/workspace-store.js';
import { Sessions } from '../domain/sessions.js';
import { SettingService } from '../domain/settings.js';
import { UserService, type FirstAdminGuard } from '../domain/users.js';
import type { AuditLog } from '../domain/audit.js';
import { LoginThrottle } from '../domain/login-throttle.js';
import { DynamoThrottleStore } from '../adapters/dynamo/throttle-store.js';
import { logger } from '../logger.js';
import { lazy } from './lazy.js';

/**
 * What every function needs, built once per process (per Lambda container) from the environment.
 * Heavier parts (articles: AI, S3, jobs) are wired in their own modules of wiring/ so that the auth
 * and admin bundles stay small.
 */
export interface Deps {
  config: Config;
  db: DynamoDBDocumentClient;
  users: UserService;
  sessions: Sessions;
  settings: SettingService;
  /** Signs OAuth `state` with the session key. */
  oauthState: OAuthState;
  /** The HMAC key of sessions, OAuth state and approval links. */
  signingKey: () => Promise<Uint8Array>;
}

/**
 * A value read once per container (per process locally) and read again after a failure, so that a
 * transient Secrets Manager error is retried by the next request instead of being kept.
 */
function readOnce<T>(read: () => Promise<T>): () => Promise<T> {
  let value: Promise<T> | undefined;
  return () =>
    (value ??= read().catch((err: unknown) => {
      value = undefined;
      throw err;
    }));
}

/** A Secrets Manager secret's text. */
async function secretString(secretsManager: () => SecretsManagerClient, arn: string): Promise<string | undefined> {
  return (await secretsManager().send(new GetSecretValueCommand({ SecretId: arn }))).SecretString;
}

/** The setup code of a guarded first registration (undefined when none is configured). */
export function setupCodeLoader(
  config: Config,
  secretsManager: () => SecretsManagerClient,
): FirstAdminGuard['setupCode'] {
  if (config.setupCode) return async () => config.setupCode;
  const arn = config.setupCodeSecretArn;
  if (!arn) return undefined;
  return readOnce(async () => (await secretString(secretsManager, arn))?.trim() || undefined);
}

/** Audit events go to the structured log, one line each, marked `audit` for a log query. */
const auditLog: AuditLog = (event, fields) => logger.info(`audit: ${event}`, { audit: event, ...fields });

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

  const secrets: SecretStore = config.localSecretsKey
    ? new EncryptedSecretStore(db, config.tableName, Buffer.from(config.localSecretsKey, 'base64'))
    : new SecretsManagerStore(secretsManager(), config.secretsPrefix);
  const settings = new SettingService(new DynamoSettingStore(db, config.tableName), secrets, (message, fields) =>
    logger.warn(message, fields),
  );
  const signingKey = sessionKeyLoader(config, secretsManager);
  let workspaces: DynamoWorkspaceStore | undefined;
  return {
    config,
    db,
    settings,
    // A team workspace's sign-in finishes only while its starter is one of its owners (domain/oauth-state.ts).
    oauthState: new OAuthState(signingKey, undefined, async (workspaceId, userId) => {
      workspaces ??= new DynamoWorkspaceStore(db, config.tableName);
      return (await workspaces.access(workspaceId, userId)).member?.role === 'owner';
    }),
    signingKey,
    users: new UserService(new DynamoUserStore(db, config.tableName), {
      throttle: new LoginThrottle(new DynamoThrottleStore(db, config.tableName)),
      audit: auditLog,
      firstAdmin: { setupCode: setupCodeLoader(config, secretsManager) },
    }),
    sessions: new Sessions({ key: signingKey, ttlSeconds: config.sessionTtlSeconds, secureCookie }),
  };
}

/** What every function needs, built on first use (resetDeps() in lazy.ts rebuilds it). */
export const deps = lazy(() => buildDeps());
