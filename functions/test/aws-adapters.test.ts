import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import {
  CreateSecretCommand,
  DeleteSecretCommand,
  GetSecretValueCommand,
  PutSecretValueCommand,
  ResourceNotFoundException,
  SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { LambdaJobQueue } from '../src/adapters/aws/lambda-job-queue.js';
import { SecretsManagerStore } from '../src/adapters/aws/secrets-manager-store.js';

const notFound = () => new ResourceNotFoundException({ message: 'not found', $metadata: {} });

describe('SecretsManagerStore', () => {
  const sm = mockClient(SecretsManagerClient);
  const store = new SecretsManagerStore(new SecretsManagerClient({ region: 'us-east-1' }), 'content-publisher/');
  beforeEach(() => sm.reset());

  it('updates an existing secret under the owner-scoped name', async () => {
    sm.on(PutSecretValueCommand).resolves({});
    await store.put('user-1', 'openai_api_key', 'sk-value');
    expect(sm.commandCalls(PutSecretValueCommand)[0]!.args[0].input).toEqual({
      SecretId: 'content-publisher/user-1/openai_api_key',
      SecretString: 'sk-value',
    });
    expect(sm.commandCalls(CreateSecretCommand)).toHaveLength(0);
  });

  it('creates the secret, tagged with its owner, when it does not exist yet', async () => {
    sm.on(PutSecretValueCommand).rejects(notFound());
    sm.on(CreateSecretCommand).resolves({});
    await store.put('user-1', 'gmail_client_secret', 'shh');
    expect(sm.commandCalls(CreateSecretCommand)[0]!.args[0].input).toEqual({
      Name: 'content-publisher/user-1/gmail_client_secret',
      SecretString: 'shh',
      Tags: [{ Key: 'owner', Value: 'user-1' }],
    });
  });

  it('reads values, treating a missing secret as absent', async () => {
    sm.on(GetSecretValueCommand, { SecretId: 'content-publisher/u/a' }).resolves({ SecretString: 'A' });
    sm.on(GetSecretValueCommand, { SecretId: 'content-publisher/u/b' }).rejects(notFound());
    expect(await store.get('u', 'a')).toBe('A');
    expect(await store.get('u', 'b')).toBeUndefined();
    expect([...(await store.getMany('u', ['a', 'b']))]).toEqual([['a', 'A']]);
  });

  it('deletes without a recovery window and ignores a secret that is already gone', async () => {
    sm.on(DeleteSecretCommand).rejectsOnce(notFound()).resolves({});
    await store.delete('u', 'a');
    await store.delete('u', 'b');
    expect(sm.commandCalls(DeleteSecretCommand).map((c) => c.args[0].input)).toEqual([
      { SecretId: 'content-publisher/u/a', ForceDeleteWithoutRecovery: true },
      { SecretId: 'content-publisher/u/b', ForceDeleteWithoutRecovery: true },
    ]);
  });

  it('lets other failures through', async () => {
    sm.on(GetSecretValueCommand).rejects(new Error('AccessDenied'));
    await expect(store.get('u', 'a')).rejects.toThrow('AccessDenied');
  });
});

describe('LambdaJobQueue', () => {
  it('invokes the worker asynchronously with the job as payload', async () => {
    const lambda = mockClient(LambdaClient);
    lambda.on(InvokeCommand).resolves({ StatusCode: 202 });
    const queue = new LambdaJobQueue(new LambdaClient({ region: 'us-east-1' }), 'worker-fn');
    await queue.enqueue({ type: 'generate-content', userId: 'u', articleId: 'a' });
    const input = lambda.commandCalls(InvokeCommand)[0]!.args[0].input;
    expect(input.FunctionName).toBe('worker-fn');
    expect(input.InvocationType).toBe('Event');
    expect(JSON.parse(Buffer.from(input.Payload as Uint8Array).toString())).toEqual({
      type: 'generate-content',
      userId: 'u',
      articleId: 'a',
    });
  });
});
