import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { loadConfig, type Config } from './config.js';
import { createDocumentClient } from './adapters/dynamo/client.js';
import { DynamoUserStore } from './adapters/dynamo/user-store.js';
import { Sessions } from './domain/sessions.js';
import { UserService } from './domain/users.js';

/** Everything a handler needs, built once per process (per Lambda container) from the environment. */
export interface Deps {
  config: Config;
  users: UserService;
  sessions: Sessions;
}

function sessionKeyLoader(config: Config): () => Promise<Uint8Array> {
  let key: Promise<Uint8Array> | undefined;
  return () =>
    (key ??= (async () => {
      if (config.sessionSecret) return new TextEncoder().encode(config.sessionSecret);
      if (config.sessionSecretArn) {
        const client = new SecretsManagerClient({ region: config.region });
        const out = await client.send(new GetSecretValueCommand({ SecretId: config.sessionSecretArn }));
        if (!out.SecretString) throw new Error('The session secret is empty');
        return new TextEncoder().encode(out.SecretString);
      }
      throw new Error('Set SESSION_SECRET (local) or SESSION_SECRET_ARN (AWS) to sign sessions');
    })().catch((err) => {
      key = undefined; // let the next request retry a transient Secrets Manager failure
      throw err;
    }));
}

export function buildDeps(config: Config = loadConfig()): Deps {
  const db = createDocumentClient(config);
  const secureCookie = Boolean(process.env.AWS_LAMBDA_FUNCTION_NAME) || config.publicUrl.startsWith('https://');
  return {
    config,
    users: new UserService(new DynamoUserStore(db, config.tableName)),
    sessions: new Sessions({ key: sessionKeyLoader(config), ttlSeconds: config.sessionTtlSeconds, secureCookie }),
  };
}

let current: Deps | undefined;
export const deps = (): Deps => (current ??= buildDeps());
/** Rebuilds from the environment on next use (the local server calls it after setting env). */
export const resetDeps = (): void => {
  current = undefined;
};
