import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { DynamoAccountStore } from '../adapters/dynamo/account-store.js';
import { DynamoThrottleStore } from '../adapters/dynamo/throttle-store.js';
import type { Config } from '../config.js';
import { AccountService, type FirstAdminGuard } from '../domain/accounts.js';
import { LoginThrottle } from '../domain/login-throttle.js';
import { auditLog, deps, readOnce, secretString } from './deps.js';
import { lazy } from './lazy.js';

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

/** Registration, sign-in and password changes (the auth routes only), built on first use. */
export const accounts = lazy(() => {
  const { config, db, secretsManager } = deps();
  return new AccountService(new DynamoAccountStore(db, config.tableName), {
    throttle: new LoginThrottle(new DynamoThrottleStore(db, config.tableName)),
    audit: auditLog,
    firstAdmin: { setupCode: setupCodeLoader(config, secretsManager) },
  });
});
