import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { setupCodeLoader } from '../src/wiring/accounts.js';

const ARN = 'arn:aws:secretsmanager:us-east-1:111111111111:secret:content-publisher-setup-code-AbCdEf';

describe('the setup code of the first admin (AWS: a Secrets Manager secret the stack generates)', () => {
  const sm = mockClient(SecretsManagerClient);
  beforeEach(() => sm.reset());
  const client = () => new SecretsManagerClient({ region: 'us-east-1' });

  it('is read from SETUP_CODE_SECRET_ARN once per container, trimmed', async () => {
    sm.on(GetSecretValueCommand, { SecretId: ARN }).resolves({ SecretString: 'Gen3ratedSetupCode42\n' });
    const load = setupCodeLoader(loadConfig({ SETUP_CODE_SECRET_ARN: ARN }), client)!;
    expect(await load()).toBe('Gen3ratedSetupCode42');
    expect(await load()).toBe('Gen3ratedSetupCode42');
    expect(sm.commandCalls(GetSecretValueCommand)).toHaveLength(1);
  });

  it('is read again after a failed read instead of keeping the failure', async () => {
    sm.on(GetSecretValueCommand).rejectsOnce(new Error('throttled')).resolves({ SecretString: 'Gen3ratedSetupCode42' });
    const load = setupCodeLoader(loadConfig({ SETUP_CODE_SECRET_ARN: ARN }), client)!;
    await expect(load()).rejects.toThrow('throttled');
    expect(await load()).toBe('Gen3ratedSetupCode42');
  });

  it('comes from SETUP_CODE as it is, and is absent when neither is set (a laptop: the first account is the admin)', async () => {
    expect(await setupCodeLoader(loadConfig({ SETUP_CODE: ' local-code ' }), client)!()).toBe('local-code');
    expect(setupCodeLoader(loadConfig({}), client)).toBeUndefined();
    expect(sm.commandCalls(GetSecretValueCommand)).toHaveLength(0);
  });
});
