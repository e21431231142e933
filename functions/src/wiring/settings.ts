import { SecretsManagerStore } from '../adapters/aws/secrets-manager-store.js';
import { EncryptedSecretStore } from '../adapters/dynamo/encrypted-secret-store.js';
import { DynamoSettingStore } from '../adapters/dynamo/setting-store.js';
import type { SecretStore } from '../domain/ports.js';
import { SettingService } from '../domain/settings.js';
import { logger } from '../logger.js';
import { deps } from './deps.js';
import { lazy } from './lazy.js';

/**
 * A workspace's settings and secrets (Secrets Manager in AWS, the table encrypted locally), built on first use.
 * Only the calls that read or change a setting import it: no session check does.
 */
export const settingService = lazy((): SettingService => {
  const { config, db, secretsManager } = deps();
  const secrets: SecretStore = config.localSecretsKey
    ? new EncryptedSecretStore(db, config.tableName, Buffer.from(config.localSecretsKey, 'base64'))
    : new SecretsManagerStore(secretsManager(), config.secretsPrefix);
  return new SettingService(new DynamoSettingStore(db, config.tableName), secrets, (message, fields) =>
    logger.warn(message, fields),
  );
});
