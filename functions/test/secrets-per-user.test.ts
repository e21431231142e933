/**
 * One Secrets Manager secret per user (a secret costs $0.40 a month whatever it holds): the secret
 * values of a user in one JSON secret, the values that are not secret in the table, a bound on the
 * API keys, writes that cannot lose a concurrent save's key, and the move from one secret per key.
 *
 * Secrets Manager is aws-sdk-client-mock answering as the service documents (fakes/secrets-manager.ts);
 * the table is DynamoDB Local. The first part runs the real app with the functions' AWS wiring
 * (SecretsManagerStore, no local secrets key); the last part is the local store, which must behave alike.
 */
import { createCipheriv, randomBytes, randomUUID } from 'node:crypto';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { MAX_API_KEYS, SettingMessages } from '@app/shared';
import { SecretsManagerStore } from '../src/adapters/aws/secrets-manager-store.js';
import { createDocumentClient, queryAll } from '../src/adapters/dynamo/client.js';
import { EncryptedSecretStore } from '../src/adapters/dynamo/encrypted-secret-store.js';
import { DynamoSettingStore } from '../src/adapters/dynamo/setting-store.js';
import { resetDeps } from '../src/wiring/lazy.js';
import type { SecretValues } from '../src/domain/ports.js';
import { PUBLIC_SETTING_KEYS, SECRET_VALUES_MAX_BYTES, SettingService } from '../src/domain/settings.js';
import { ensureTable } from '../src/local/dynamo.js';
import { startFakeGoogle, type FakeGoogle } from './fakes/google.js';
import { startFakeLinkedIn, type FakeLinkedIn } from './fakes/linkedin.js';
import { FakeSecretsManager } from './fakes/secrets-manager.js';
import { FAKE_WP_EDITOR, startFakeWordPress, type FakeWordPress } from './fakes/wordpress.js';
import { Client, completeOAuth, registration, startTestApp, type TestApp } from './helpers/app.js';
import { MemorySecretStore, MemorySettingStore } from './helpers/memory-settings.js';

const PREFIX = 'content-publisher/';
const sm = mockClient(SecretsManagerClient);
const fake = new FakeSecretsManager();

/** What a fully configured user keeps secret: everything else is in the table. */
const SECRET_KEYS = [
  'gmail_client_secret',
  'gmail_refresh_token',
  'google_sheets_refresh_token',
  'linkedin_access_token',
  'linkedin_client_secret',
  'linkedin_webhook_secret',
  'linkedin_webhook_url',
  'openai_api_key',
  'wordpress_app_password',
];
const TABLE_KEYS = [
  'gmail_client_id',
  'google_sheets_client_id',
  'google_sheets_scopes',
  'linkedin_client_id',
  'linkedin_member_id',
  'linkedin_member_name',
  'linkedin_scopes',
  'linkedin_token_expiry',
  'notification_email',
  'wordpress_api_style',
  'wordpress_site_url',
  'wordpress_username',
];

const secretOf = (name: string) => JSON.parse(fake.text(name)!) as { values: Record<string, string> };

describe('in AWS (the app with SecretsManagerStore)', () => {
  let app: TestApp;
  let wp: FakeWordPress;
  let li: FakeLinkedIn;
  let google: FakeGoogle;
  let owner: Client;
  let ownerId: string;
  const saved = process.env.LOCAL_SECRETS_KEY;

  beforeAll(async () => {
    fake.install(sm);
    [wp, li, google] = await Promise.all([startFakeWordPress(), startFakeLinkedIn(), startFakeGoogle()]);
    process.env.LINKEDIN_OAUTH_URL = li.oauthUrl;
    process.env.LINKEDIN_API_URL = li.apiUrl;
    process.env.GOOGLE_OAUTH_URL = google.oauthUrl;
    process.env.GOOGLE_API_URL = google.apiUrl;
    app = await startTestApp();
    // The functions as the stack configures them: Secrets Manager under SECRETS_PREFIX, no local key.
    delete process.env.LOCAL_SECRETS_KEY;
    process.env.SECRETS_PREFIX = PREFIX;
    resetDeps();
    owner = new Client(app.url);
    await owner.call('/api/auth/register', { body: registration() });
    ownerId = (await owner.call('/api/auth/me')).json.user._id;
  });
  afterAll(async () => {
    await app?.stop();
    await Promise.all([wp?.stop(), li?.stop(), google?.stop()]);
    if (saved !== undefined) process.env.LOCAL_SECRETS_KEY = saved;
    delete process.env.SECRETS_PREFIX;
    sm.reset();
  });

  const ok = async (path: string, body?: unknown) => {
    const res = await owner.call(path, body === undefined ? {} : { body });
    expect(res.status, `${path}: ${res.text}`).toBeLessThan(300);
    return res.json;
  };
  const connect = async (path: string, expected: string) => {
    const { authUrl } = await ok(path);
    expect((await completeOAuth(owner, authUrl)).location).toBe(expected);
  };

  it('a fully configured user (WordPress, LinkedIn and its webhook, Gmail, Google Sheets, an OpenAI key) has exactly one secret', async () => {
    await ok('/api/wordpress/credentials', {
      siteUrl: wp.url,
      username: FAKE_WP_EDITOR.username,
      appPassword: FAKE_WP_EDITOR.appPassword,
    });
    await ok('/api/linkedin/credentials', { clientId: li.app.clientId, clientSecret: li.app.clientSecret });
    await connect('/api/linkedin/auth-url', '/settings?linkedin_connected=true');
    const { signingSecret } = await ok('/api/linkedin/zapier-webhook', { webhookUrl: 'https://hooks.example.com/abc' });
    expect(signingSecret).toMatch(/^whsec_/);
    for (const [key, value] of [
      ['notification_email', 'owner@example.com'],
      ['gmail_client_id', google.client.clientId],
      ['gmail_client_secret', google.client.clientSecret],
      ['openai_api_key', `sk-${randomBytes(16).toString('hex')}`],
    ]) {
      await ok('/api/settings', { key, value });
    }
    await connect('/api/email/oauth/auth', '/settings?gmail_connected=true');
    await connect('/api/sheets/auth', '/sheets-import?sheets_connected=true');

    // Everything is connected and reads back…
    expect(await ok('/api/wordpress/credentials')).toMatchObject({
      configured: true,
      hasAppPassword: true,
      siteUrl: wp.url,
    });
    expect(await ok('/api/linkedin/status')).toMatchObject({
      connected: true,
      hasClientSecret: true,
      canPostAsPage: false,
    });
    expect(await ok('/api/linkedin/zapier-webhook')).toMatchObject({
      webhookUrl: 'https://hooks.example.com/••••••••',
      hasSigningSecret: true,
    });
    expect(await ok('/api/email/settings')).toMatchObject({
      authenticated: true,
      notificationEmail: 'owner@example.com',
    });
    expect(await ok('/api/sheets/status')).toMatchObject({ authenticated: true });
    expect(await ok('/api/email/test', { to: 'owner@example.com', method: 'gmail' })).toMatchObject({ success: true });

    // …from one secret: every CreateSecret and PutSecretValue named it, and it is the only one.
    const name = `${PREFIX}${ownerId}`;
    expect([...fake.namesOf('CreateSecret', 'PutSecretValue')]).toEqual([name]);
    expect(fake.live()).toEqual([name]);
    expect(fake.live().length * 0.4).toBeLessThanOrEqual(0.45);
    const secret = secretOf(name).values;
    expect(Object.keys(secret).sort()).toEqual(SECRET_KEYS);
    expect(secret.linkedin_webhook_secret).toBe(signingSecret);

    // The values that are not secret are in the table, beside their records; no secret value is.
    const records = (await app.items()).filter(
      (i) => i.PK === `USER#${ownerId}` && String(i.SK).startsWith('SETTING#'),
    );
    expect(records.filter((r) => r.storedIn === 'table').map((r) => r.key)).toEqual(TABLE_KEYS);
    expect(records.filter((r) => r.storedIn === 'secret').map((r) => r.key)).toEqual(SECRET_KEYS);
    for (const r of records) expect(r.value !== undefined, String(r.key)).toBe(r.storedIn === 'table');
    const table = JSON.stringify(await app.items());
    for (const [key, value] of Object.entries(secret)) expect(table, key).not.toContain(value);
  });

  it("a request reads the user's secret at most once, and only when it needs a secret value", async () => {
    for (const path of [
      '/api/settings',
      '/api/linkedin/status',
      '/api/wordpress/credentials',
      '/api/email/settings',
      '/api/sheets/status',
    ]) {
      const before = fake.count('GetSecretValue');
      await ok(path);
      expect(fake.count('GetSecretValue') - before, path).toBeLessThanOrEqual(1);
    }
    // Saving a value that is not secret does not touch Secrets Manager.
    const before = fake.calls.length;
    await ok('/api/settings', { key: 'notification_email', value: 'editor@example.com' });
    expect(fake.calls.slice(before)).toEqual([]);
  });

  it('two saves at the same moment keep both keys: the later write finds the version it read superseded, reads again and merges', async () => {
    const name = `${PREFIX}${ownerId}`;
    const puts = fake.count('PutSecretValue');
    fake.holdReads(2); // both saves read the same version before either writes
    const [a, b] = await Promise.all([
      owner.call('/api/settings', { body: { key: 'first_key', value: 'first-value-1234' } }),
      owner.call('/api/settings', { body: { key: 'second_key', value: 'second-value-5678' } }),
    ]);
    expect([a.status, b.status]).toEqual([201, 201]);
    // Three writes: both saves', one refused (its version had a follower already), and the retry.
    expect(fake.count('PutSecretValue') - puts).toBe(3);
    expect(secretOf(name).values).toMatchObject({
      first_key: 'first-value-1234',
      second_key: 'second-value-5678',
      openai_api_key: expect.any(String),
    });
    expect(Object.keys(secretOf(name).values)).toHaveLength(SECRET_KEYS.length + 2);
  });

  it('refuses key names that are JavaScript machinery (__proto__ would lose its value), changing nothing', async () => {
    const writes = fake.count('PutSecretValue');
    for (const key of ['__proto__', 'constructor', 'prototype']) {
      const refused = await owner.call('/api/settings', { body: { key, value: 'value-proto-123456' } });
      expect(refused.status).toBe(400);
      expect(refused.json.message).toBe('This key name is reserved: choose another one.');
    }
    expect(fake.count('PutSecretValue')).toBe(writes);
    expect(((await ok('/api/settings')) as { key: string }[]).map((s) => s.key)).not.toContain('__proto__');
  });

  it(`keeps at most ${MAX_API_KEYS} API keys: a new one beyond is refused with what to do; edits, deletions and the panels' keys still work`, async () => {
    const listed = async () => (await ok('/api/settings')) as { key: string }[];
    const apiKeys = async () => (await listed()).filter((s) => !/^(gmail_|notification_email)/.test(s.key)).length;
    for (let i = await apiKeys(); i < MAX_API_KEYS; i++)
      await ok('/api/settings', { key: `key_${i}`, value: `value-${i}-${randomUUID()}` });
    expect(await apiKeys()).toBe(MAX_API_KEYS);

    const writes = fake.count('PutSecretValue');
    const refused = await owner.call('/api/settings', { body: { key: 'one_too_many', value: 'value-xyz-123456' } });
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({ message: SettingMessages.tooManyApiKeys, code: 'too_many_api_keys' });
    expect(refused.json.message).toBe('You can keep at most 50 API keys. Delete one you no longer use first.');
    expect(fake.count('PutSecretValue')).toBe(writes);
    expect((await listed()).some((s) => s.key === 'one_too_many')).toBe(false);

    // Editing a key, and the e-mail panel's keys, are not new API keys.
    const last = `key_${MAX_API_KEYS - 1}`;
    expect((await owner.call('/api/settings', { body: { key: last, value: 'changed-value-1234' } })).status).toBe(200);
    expect(
      (await owner.call('/api/settings', { body: { key: 'gmail_client_secret', value: google.client.clientSecret } }))
        .status,
    ).toBe(200);
    // Deleting one makes room.
    expect((await owner.call(`/api/settings/${last}`, { method: 'DELETE' })).status).toBe(200);
    expect((await owner.call('/api/settings', { body: { key: 'one_more', value: 'value-abc-123456' } })).status).toBe(
      201,
    );
    expect(fake.live()).toEqual([`${PREFIX}${ownerId}`]);
  });
});

describe('in AWS: concurrency and the move from one secret per key (SettingService on DynamoDB Local)', () => {
  let db: DynamoDBDocumentClient;
  const tableName = `secrets-${randomBytes(6).toString('hex')}`;
  const warnings: { message: string; fields: Record<string, unknown> }[] = [];
  /** A function's SettingService: each Lambda function builds its own. */
  const service = () =>
    new SettingService(
      new DynamoSettingStore(db, tableName),
      new SecretsManagerStore(new SecretsManagerClient({ region: 'us-east-1' }), PREFIX),
      (message, fields) => warnings.push({ message, fields }),
    );

  beforeAll(async () => {
    await ensureTable(inject('dynamoEndpoint'), tableName);
    db = createDocumentClient({ region: 'us-east-1', dynamoEndpoint: inject('dynamoEndpoint') });
    fake.install(sm);
  });
  afterAll(() => {
    db.destroy();
    sm.reset();
  });
  beforeEach(() => {
    fake.readOnly = false;
    warnings.length = 0;
  });

  it('two first saves at the same moment both create the secret: one is refused, reads again and merges', async () => {
    const user = randomUUID();
    fake.holdReads(2);
    await Promise.all([
      service().put(user, 'wordpress_app_password', 'pw-1'),
      service().put(user, 'linkedin_access_token', 'token-1'),
    ]);
    expect(fake.calls.filter(([, n]) => n === `${PREFIX}${user}`).map(([c]) => c)).toEqual([
      'GetSecretValue',
      'GetSecretValue',
      'CreateSecret',
      'CreateSecret',
      'GetSecretValue',
      'PutSecretValue',
    ]);
    expect(secretOf(`${PREFIX}${user}`).values).toEqual({
      wordpress_app_password: 'pw-1',
      linkedin_access_token: 'token-1',
    });
    expect([...(await service().values(user, ['wordpress_app_password', 'linkedin_access_token']))]).toEqual([
      ['wordpress_app_password', 'pw-1'],
      ['linkedin_access_token', 'token-1'],
    ]);
  });

  it('a save and a deletion at the same moment: the deletion stays deleted and the save stays saved', async () => {
    const user = randomUUID();
    await service().put(user, 'a_key', 'A');
    fake.holdReads(2);
    await Promise.all([service().remove(user, 'a_key'), service().put(user, 'b_key', 'B')]);
    expect(secretOf(`${PREFIX}${user}`).values).toEqual({ b_key: 'B' });
  });

  describe('a user of before: one secret per key, records without storedIn', () => {
    const OLD = {
      wordpress_site_url: 'https://blog.example.com',
      wordpress_username: 'editor',
      wordpress_app_password: 'abcd efgh ijkl mnop',
      linkedin_access_token: 'AQX-old-token',
      linkedin_member_id: 'member-1',
      openai_api_key: 'sk-old-key-1234',
    };
    const at = '2025-01-01T00:00:00.000Z';
    async function seed(user: string) {
      for (const [key, value] of Object.entries(OLD)) {
        await db.send(
          new PutCommand({
            TableName: tableName,
            Item: {
              PK: `USER#${user}`,
              SK: `SETTING#${key}`,
              type: 'setting',
              key,
              description: '',
              hasValue: true,
              createdAt: at,
              updatedAt: at,
            },
          }),
        );
        fake.seed(`${PREFIX}${user}/${key}`, value);
      }
      // A record whose secret was never written (a save cut off by the code of before).
      await db.send(
        new PutCommand({
          TableName: tableName,
          Item: {
            PK: `USER#${user}`,
            SK: 'SETTING#orphan_key',
            type: 'setting',
            key: 'orphan_key',
            description: '',
            hasValue: true,
            createdAt: at,
            updatedAt: at,
          },
        }),
      );
    }
    const records = (user: string) =>
      queryAll(db, {
        TableName: tableName,
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': `USER#${user}` },
      });
    const keys = [...Object.keys(OLD), 'orphan_key'];

    it('a function that may only read (IAM) reads the old secrets where they are, warns once, and stops trying', async () => {
      const user = randomUUID();
      await seed(user);
      fake.readOnly = true;
      const reader = service();
      expect(Object.fromEntries(await reader.values(user, keys))).toEqual(OLD);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]!.fields).toMatchObject({ userId: user, error: 'AccessDeniedException' });
      // The key names only, never a value.
      expect(JSON.stringify(warnings)).not.toContain(OLD.openai_api_key);
      const calls = fake.calls.length;
      expect(await reader.value(user, 'openai_api_key')).toBe(OLD.openai_api_key);
      expect(fake.calls.slice(calls).every(([c]) => c === 'GetSecretValue')).toBe(true);
      expect(warnings).toHaveLength(1);
      expect(fake.live()).toEqual(expect.arrayContaining(Object.keys(OLD).map((k) => `${PREFIX}${user}/${k}`)));
    });

    it('the first use by a function that may write moves them: one secret, values in the table, old secrets scheduled for deletion', async () => {
      const user = randomUUID();
      await seed(user);
      expect(Object.fromEntries(await service().values(user, keys))).toEqual(OLD);
      expect(warnings).toEqual([]);
      expect(fake.live().filter((n) => n.startsWith(`${PREFIX}${user}`))).toEqual([`${PREFIX}${user}`]);
      expect(secretOf(`${PREFIX}${user}`).values).toEqual({
        wordpress_app_password: OLD.wordpress_app_password,
        linkedin_access_token: OLD.linkedin_access_token,
        openai_api_key: OLD.openai_api_key,
      });
      for (const key of Object.keys(OLD)) {
        expect(fake.secrets.get(`${PREFIX}${user}/${key}`)!.deletion).toEqual({ recoveryDays: 7, force: false });
      }
      const moved = Object.fromEntries(
        (await records(user)).map((r) => [r.key, { storedIn: r.storedIn, value: r.value }]),
      );
      expect(moved).toEqual({
        wordpress_site_url: { storedIn: 'table', value: OLD.wordpress_site_url },
        wordpress_username: { storedIn: 'table', value: OLD.wordpress_username },
        linkedin_member_id: { storedIn: 'table', value: OLD.linkedin_member_id },
        wordpress_app_password: { storedIn: 'secret', value: undefined },
        linkedin_access_token: { storedIn: 'secret', value: undefined },
        openai_api_key: { storedIn: 'secret', value: undefined },
        orphan_key: { storedIn: 'secret', value: undefined },
      });
      // Done: the next use reads the one secret only, and writes nothing.
      const calls = fake.calls.length;
      expect(Object.fromEntries(await service().values(user, keys))).toEqual(OLD);
      expect(fake.calls.slice(calls)).toEqual([['GetSecretValue', `${PREFIX}${user}`]]);
    });

    it('a webhook URL kept in the table (it was not secret before) moves into the secret on first use, leaving the table', async () => {
      const user = randomUUID();
      const at = '2026-01-01T00:00:00.000Z';
      const url = 'https://hooks.example.com/hooks/catch/123/secret-path';
      await db.send(
        new PutCommand({
          TableName: tableName,
          Item: {
            PK: `USER#${user}`,
            SK: 'SETTING#linkedin_webhook_url',
            type: 'setting',
            key: 'linkedin_webhook_url',
            description: 'LinkedIn publication webhook',
            hasValue: true,
            storedIn: 'table',
            value: url,
            createdAt: at,
            updatedAt: at,
          },
        }),
      );
      expect(await service().value(user, 'linkedin_webhook_url')).toBe(url);
      expect(secretOf(`${PREFIX}${user}`).values).toEqual({ linkedin_webhook_url: url });
      const [record] = await records(user);
      expect(record).toMatchObject({ storedIn: 'secret' });
      expect(JSON.stringify(await records(user))).not.toContain('secret-path');
      expect(await service().value(user, 'linkedin_webhook_url')).toBe(url);
    });

    it('a move cut off half way (the old secrets not yet deleted) reads the same, and the next use finishes it', async () => {
      const user = randomUUID();
      await seed(user);
      fake.failOnce('DeleteSecret', Object.assign(new Error('Task timed out'), { name: 'TimeoutError' }));
      expect(Object.fromEntries(await service().values(user, keys))).toEqual(OLD);
      expect(warnings.map((w) => w.fields.error)).toEqual(['TimeoutError']);
      expect((await records(user)).every((r) => r.storedIn === undefined)).toBe(true);
      // The values are in their new places already; reading again gives the same, and finishes the move.
      expect(Object.fromEntries(await service().values(user, keys))).toEqual(OLD);
      expect((await records(user)).every((r) => r.storedIn !== undefined)).toBe(true);
      expect(fake.live().filter((n) => n.startsWith(`${PREFIX}${user}`))).toEqual([`${PREFIX}${user}`]);
    });

    it('a save of a key whose record was not moved yet writes it the new way and deletes its old secret', async () => {
      const user = randomUUID();
      await seed(user);
      fake.readOnly = true;
      await service().values(user, ['openai_api_key']); // a reader: nothing moved
      fake.readOnly = false;
      await service().put(user, 'openai_api_key', 'sk-new-key-5678');
      expect(await service().value(user, 'openai_api_key')).toBe('sk-new-key-5678');
      expect(fake.secrets.get(`${PREFIX}${user}/openai_api_key`)!.deletion).toBeDefined();
    });
  });
});

describe('locally (EncryptedSecretStore): the same shape, one item per user, compare-and-set on its version', () => {
  let db: DynamoDBDocumentClient;
  const tableName = `local-secrets-${randomBytes(6).toString('hex')}`;
  const key = randomBytes(32);

  /** Reads that wait until `count` of them were made: the saves interleave. */
  class InterleavedStore extends EncryptedSecretStore {
    held: { count: number; waiting: (() => void)[] } | undefined;
    override async read(userId: string): Promise<SecretValues> {
      const values = await super.read(userId);
      const held = this.held;
      if (held) {
        await new Promise<void>((resolve) => {
          held.waiting.push(resolve);
          if (held.waiting.length === held.count) {
            this.held = undefined;
            for (const release of held.waiting) release();
          }
        });
      }
      return values;
    }
  }

  beforeAll(async () => {
    await ensureTable(inject('dynamoEndpoint'), tableName);
    db = createDocumentClient({ region: 'us-east-1', dynamoEndpoint: inject('dynamoEndpoint') });
  });
  afterAll(() => db.destroy());
  const items = (user: string) =>
    queryAll(db, {
      TableName: tableName,
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': `USER#${user}` },
    });

  it('two saves at the same moment keep both keys, in one encrypted item', async () => {
    const user = randomUUID();
    const store = new InterleavedStore(db, tableName, key);
    const settings = new SettingService(new DynamoSettingStore(db, tableName), store);
    await settings.put(user, 'openai_api_key', 'sk-local-1234');
    store.held = { count: 2, waiting: [] };
    await Promise.all([settings.put(user, 'first_key', 'one-1234'), settings.put(user, 'second_key', 'two-5678')]);
    expect(Object.fromEntries(await settings.values(user, ['openai_api_key', 'first_key', 'second_key']))).toEqual({
      openai_api_key: 'sk-local-1234',
      first_key: 'one-1234',
      second_key: 'two-5678',
    });
    const secretItems = (await items(user)).filter((i) => String(i.SK).startsWith('SECRET'));
    // Versions 1 (the first put), 2 (the save that wrote first) and 3 (the other, read again): no write was lost.
    expect(secretItems.map((i) => [i.SK, i.version])).toEqual([['SECRETS', 3]]);
    expect(JSON.stringify(secretItems)).not.toMatch(/sk-local|one-1234|two-5678/);
  });

  it('moves the per-key items of before (SECRET#<key>) into the one item', async () => {
    const user = randomUUID();
    const at = '2025-01-01T00:00:00.000Z';
    // As the store of before sealed them: AES-256-GCM bound to `<userId>/<key>`.
    const sealOld = (name: string, value: string) => {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(`${user}/${name}`));
      const data = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
      return { iv: iv.toString('base64'), data: data.toString('base64'), tag: cipher.getAuthTag().toString('base64') };
    };
    const old = { gmail_client_id: 'client.apps.googleusercontent.com', gmail_client_secret: 'GOCSPX-old' };
    for (const [name, value] of Object.entries(old)) {
      await db.send(
        new PutCommand({
          TableName: tableName,
          Item: {
            PK: `USER#${user}`,
            SK: `SETTING#${name}`,
            type: 'setting',
            key: name,
            description: '',
            hasValue: true,
            createdAt: at,
            updatedAt: at,
          },
        }),
      );
      await db.send(
        new PutCommand({
          TableName: tableName,
          Item: { PK: `USER#${user}`, SK: `SECRET#${name}`, type: 'secret', ...sealOld(name, value) },
        }),
      );
    }
    const settings = new SettingService(
      new DynamoSettingStore(db, tableName),
      new EncryptedSecretStore(db, tableName, key),
    );
    expect(Object.fromEntries(await settings.values(user, Object.keys(old)))).toEqual(old);
    const after = await items(user);
    expect(after.map((i) => i.SK)).toEqual(['SECRETS', 'SETTING#gmail_client_id', 'SETTING#gmail_client_secret']);
    expect(after.find((i) => i.SK === 'SETTING#gmail_client_id')).toMatchObject({
      storedIn: 'table',
      value: old.gmail_client_id,
    });
    expect(after.find((i) => i.SK === 'SETTING#gmail_client_secret')).toMatchObject({ storedIn: 'secret' });
    expect(PUBLIC_SETTING_KEYS.has('gmail_client_id')).toBe(true);
    expect(Object.fromEntries(await settings.values(user, Object.keys(old)))).toEqual(old);
  });
});

describe('the limits of one secret', () => {
  it(`refuses a value that would take the user's secret past ${SECRET_VALUES_MAX_BYTES} bytes (Secrets Manager holds 64 KB), keeping what is there`, async () => {
    const secrets = new MemorySecretStore();
    const settings = new SettingService(new MemorySettingStore(), secrets);
    const big = (n: number) => `${n}`.padEnd(10_000, 'x');
    for (let i = 0; i < 5; i++) await settings.save('u', { key: `big_${i}`, value: big(i), description: '' });
    await expect(settings.save('u', { key: 'big_5', value: big(5), description: '' })).rejects.toMatchObject({
      kind: 'invalid',
      code: 'secrets_too_large',
      message: SettingMessages.secretsTooLarge,
    });
    expect(Object.keys(secrets.owners.get('u')!.values)).toHaveLength(5);
    expect((await settings.list('u', true)).map((s) => s.key)).not.toContain('big_5');
  });

  it('a write that keeps finding another write first gives up with 409 after a few tries, writing nothing', async () => {
    const secrets = new MemorySecretStore();
    let writes = 0;
    secrets.write = async () => {
      writes++;
      return undefined;
    };
    const settings = new SettingService(new MemorySettingStore(), secrets);
    await expect(settings.put('u', 'openai_api_key', 'sk-1234')).rejects.toMatchObject({
      kind: 'conflict',
      code: 'settings_busy',
    });
    expect(writes).toBe(6);
    expect(await settings.value('u', 'openai_api_key')).toBeUndefined();
  });
});
