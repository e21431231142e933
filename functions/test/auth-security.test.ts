import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { scryptSync, randomBytes } from 'node:crypto';
import { DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { inject } from 'vitest';
import { logger } from '../src/logger.js';
import { Client, registration, startTestApp, type TestApp } from './helpers/app.js';

/** What the audit trail recorded while `fn` ran: [event, fields] of each `audit` log line. */
async function audited(fn: () => Promise<void>): Promise<[string, Record<string, unknown>][]> {
  const spy = vi.spyOn(logger, 'info');
  try {
    await fn();
    return spy.mock.calls
      .map(([, fields]) => fields as unknown as Record<string, unknown> | undefined)
      .filter((fields): fields is Record<string, unknown> => typeof fields?.audit === 'string')
      .map((fields) => [fields.audit as string, fields]);
  } finally {
    spy.mockRestore();
  }
}

const db = () =>
  DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: inject('dynamoEndpoint'),
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
  );

/** Moves a throttle lock into the past, as if its time had run out. */
async function expireLock(tableName: string, subject: string) {
  const client = db();
  await client.send(
    new UpdateCommand({
      TableName: tableName,
      Key: { PK: `THROTTLE#${subject}`, SK: 'THROTTLE' },
      UpdateExpression: 'SET lockedUntil = :past',
      ExpressionAttributeValues: { ':past': 1 },
    }),
  );
  client.destroy();
}

/** An app with its admin and one active user (password `correct horse`). */
async function appWithUser() {
  const app = await startTestApp();
  const admin = new Client(app.url);
  await admin.call('/api/auth/register', { body: registration() });
  const body = registration();
  await new Client(app.url).call('/api/auth/register', { body });
  const users = (await admin.call('/api/admin/users')).json.users as { _id: string; email: string }[];
  const id = users.find((u) => u.email === body.email)!._id;
  await admin.call(`/api/admin/users/${id}/status`, { method: 'PATCH', body: { isActive: true } });
  return { app, admin, email: body.email, id };
}

async function signedIn(app: TestApp, email: string, password = 'correct horse') {
  const c = new Client(app.url);
  const res = await c.call('/api/auth/login', { body: { email, password } });
  expect(res.status).toBe(200);
  return c;
}

describe('sign-in throttling', () => {
  let app: TestApp;
  let email: string;
  beforeAll(async () => ({ app, email } = await appWithUser()));
  afterAll(() => app?.stop());

  it('locks an account after 5 failures (429 with Retry-After, even for the right password) and a success resets the count', async () => {
    const attempt = (password: string) => new Client(app.url).call('/api/auth/login', { body: { email, password } });
    const events = await audited(async () => {
      for (let i = 0; i < 5; i++) expect((await attempt(`wrong-${i}-pass`)).status).toBe(401);
    });
    expect(events.filter(([e]) => e === 'login.failed')).toHaveLength(5);
    expect(events.find(([e]) => e === 'login.locked')?.[1]).toMatchObject({
      email,
      reason: 'account',
      lockedForSeconds: 30,
    });

    const locked = await attempt('correct horse');
    expect(locked.status).toBe(429);
    expect(locked.json).toMatchObject({
      code: 'too_many_attempts',
      message: expect.stringMatching(/^Too many failed sign-in attempts\. Try again in \d+ seconds?\.$/),
    });
    const retryAfter = Number(locked.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(30);

    await expireLock(app.tableName, `account#${email}#127.0.0.1`);
    expect((await attempt('correct horse')).status).toBe(200);
    // The count started again: 4 more failures do not lock.
    for (let i = 0; i < 4; i++) expect((await attempt(`again-${i}-pass`)).status).toBe(401);
    expect((await attempt('correct horse')).status).toBe(200);
  });

  it('doubles the lock with each further failure', async () => {
    const other = registration();
    const attempt = (password: string) =>
      new Client(app.url).call('/api/auth/login', { body: { email: other.email, password } });
    for (let i = 0; i < 5; i++) await attempt(`wrong-${i}-pass`);
    await expireLock(app.tableName, `account#${other.email}#127.0.0.1`);
    expect((await attempt('wrong-6-pass')).status).toBe(401);
    const retryAfter = Number((await attempt('wrong-7-pass')).headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(30);
    expect(retryAfter).toBeLessThanOrEqual(60);
  });
});

describe('parallel guesses', () => {
  let app: TestApp;
  let admin: Client;
  let email: string;
  beforeAll(async () => ({ app, admin, email } = await appWithUser()));
  afterAll(() => app?.stop());

  it('checks at most 5 passwords of 40 sign-ins sent at once (the right one among them); the rest answer 429', async () => {
    const statuses: number[] = [];
    const events = await audited(async () => {
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          new Client(app.url).call('/api/auth/login', {
            body: { email, password: i === 39 ? 'correct horse' : `wrong-${i}-pass` },
          }),
        ),
      );
      statuses.push(...answers.map((a) => a.status));
    });
    const checked = events.filter(([e]) => e === 'login.failed' || e === 'login.succeeded');
    expect(checked.length).toBeGreaterThan(0);
    expect(checked.length).toBeLessThanOrEqual(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(40 - checked.length);
  });

  it('checks at most 5 current passwords of 40 password changes sent at once', async () => {
    const statuses: number[] = [];
    const events = await audited(async () => {
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          admin.call('/api/auth/password', {
            body: { currentPassword: `wrong-${i}-pass`, newPassword: 'another fine passphrase' },
          }),
        ),
      );
      statuses.push(...answers.map((a) => a.status));
    });
    const checked = events.filter(([e]) => e === 'password.change_failed').length;
    expect(checked).toBeGreaterThan(0);
    expect(checked).toBeLessThanOrEqual(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(40 - checked);
  });
});

describe('password hashes', () => {
  let app: TestApp;
  let email: string;
  let id: string;
  beforeAll(async () => ({ app, email, id } = await appWithUser()));
  afterAll(() => app?.stop());

  const storedHash = async () => {
    const client = db();
    const out = await client.send(
      new GetCommand({ TableName: app.tableName, Key: { PK: `USER#${id}`, SK: 'PROFILE' }, ConsistentRead: true }),
    );
    client.destroy();
    return out.Item!.passwordHash as string;
  };

  it("are made with at least OWASP's minimum scrypt parameters (N 2^17, r 8, p 1)", async () => {
    const [scheme, n, r, p] = (await storedHash()).split('$');
    expect(scheme).toBe('scrypt');
    expect(Number(n)).toBeGreaterThanOrEqual(2 ** 17);
    expect(Number(r)).toBeGreaterThanOrEqual(8);
    expect(Number(p)).toBeGreaterThanOrEqual(1);
  });

  it('made with weaker parameters are replaced at the next sign-in, other sessions kept', async () => {
    const other = await signedIn(app, email);
    const salt = randomBytes(16);
    const weak = ['scrypt', 16384, 8, 1, salt.toString('base64')]
      .concat(scryptSync('correct horse', salt, 64, { N: 16384, r: 8, p: 1 }).toString('base64'))
      .join('$');
    const client = db();
    await client.send(
      new UpdateCommand({
        TableName: app.tableName,
        Key: { PK: `USER#${id}`, SK: 'PROFILE' },
        UpdateExpression: 'SET passwordHash = :weak',
        ExpressionAttributeValues: { ':weak': weak },
      }),
    );
    client.destroy();
    await signedIn(app, email);
    const upgraded = await storedHash();
    expect(upgraded.split('$').slice(0, 4)).toEqual(['scrypt', String(2 ** 17), '8', '1']);
    expect((await other.call('/api/auth/me')).status).toBe(200);
    await signedIn(app, email); // the new hash checks the same password
  });
});

describe('sign-in throttling of unknown e-mails', () => {
  let app: TestApp;
  beforeAll(async () => (app = await startTestApp()));
  afterAll(() => app?.stop());

  it('locks an e-mail without an account the same way, so a lock tells nothing about who has one', async () => {
    const attempt = () =>
      new Client(app.url).call('/api/auth/login', {
        body: { email: 'nobody-here@example.com', password: 'wrong-pass' },
      });
    for (let i = 0; i < 5; i++) expect((await attempt()).status).toBe(401);
    expect((await attempt()).status).toBe(429);
  });
});

describe('per-address throttling', () => {
  let app: TestApp;
  let email: string;
  beforeAll(async () => ({ app, email } = await appWithUser()));
  afterAll(() => app?.stop());

  it('locks a client address that fails 20 times across many accounts, for every account', async () => {
    const events = await audited(async () => {
      for (let i = 0; i < 20; i++) {
        const res = await new Client(app.url).call('/api/auth/login', {
          body: { email: `guess-${i}@example.com`, password: 'wrong-pass' },
        });
        expect(res.status).toBe(401);
      }
    });
    expect(events.find(([e]) => e === 'login.locked')?.[1]).toMatchObject({ reason: 'address', address: '127.0.0.1' });
    const refused = await new Client(app.url).call('/api/auth/login', { body: { email, password: 'correct horse' } });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});

describe('sessions end on the server', () => {
  let app: TestApp;
  let admin: Client;
  let email: string;
  let id: string;
  beforeAll(async () => ({ app, admin, email, id } = await appWithUser()));
  afterAll(() => app?.stop());

  it('logout ends that session only: a copy of its cookie stops working, another device stays signed in', async () => {
    const laptop = await signedIn(app, email);
    const phone = await signedIn(app, email);
    const copied = new Client(app.url);
    copied.cookie = laptop.cookie;
    expect((await laptop.call('/api/auth/logout', { method: 'POST' })).status).toBe(200);
    expect((await copied.call('/api/articles')).status).toBe(401);
    expect((await phone.call('/api/articles')).status).toBe(200);
  });

  it('"Log out everywhere" ends every session of the user', async () => {
    const laptop = await signedIn(app, email);
    const phone = await signedIn(app, email);
    const copied = new Client(app.url);
    copied.cookie = laptop.cookie;
    const out = await laptop.call('/api/auth/logout-everywhere', { method: 'POST' });
    expect(out.status).toBe(200);
    expect(out.json.message).toBe('Logged out on every device.');
    for (const c of [copied, phone]) expect((await c.call('/api/articles')).status).toBe(401);
    expect((await signedIn(app, email)).cookie).toBeDefined(); // signing in again works
    expect((await new Client(app.url).call('/api/auth/logout-everywhere', { method: 'POST' })).status).toBe(401);
  });

  it('deactivation ends every session, and activating the account again revives none of them', async () => {
    const laptop = await signedIn(app, email);
    await admin.call(`/api/admin/users/${id}/status`, { method: 'PATCH', body: { isActive: false } });
    await admin.call(`/api/admin/users/${id}/status`, { method: 'PATCH', body: { isActive: true } });
    expect((await laptop.call('/api/articles')).status).toBe(401);
    expect((await signedIn(app, email)).cookie).toBeDefined();
  });

  it('a password change ends every other session and keeps this browser signed in', async () => {
    const laptop = await signedIn(app, email);
    const phone = await signedIn(app, email);
    const events = await audited(async () => {
      const res = await laptop.call('/api/auth/password', {
        body: { currentPassword: 'correct horse', newPassword: 'a new long passphrase' },
      });
      expect(res.status).toBe(200);
      expect(res.json.message).toBe('Password changed. You were signed out everywhere else.');
    });
    expect(events.map(([e]) => e)).toContain('password.changed');
    expect((await laptop.call('/api/articles')).status).toBe(200);
    expect((await phone.call('/api/articles')).status).toBe(401);
    expect(
      (await new Client(app.url).call('/api/auth/login', { body: { email, password: 'correct horse' } })).status,
    ).toBe(401);
    await signedIn(app, email, 'a new long passphrase');
  });

  it('a password change refuses a wrong current password and a common new one, and changes nothing', async () => {
    const c = await signedIn(app, email, 'a new long passphrase');
    const before = await app.items();
    const wrong = await c.call('/api/auth/password', {
      body: { currentPassword: 'not-the-password', newPassword: 'another long passphrase' },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.json).toMatchObject({
      code: 'current_password_wrong',
      message: 'The current password is not correct',
    });
    const common = await c.call('/api/auth/password', {
      body: { currentPassword: 'a new long passphrase', newPassword: 'Password1' },
    });
    expect(common.status).toBe(400);
    expect(common.json.code).toBe('password_too_common');
    // Only the failure count of the wrong current password was written.
    const changed = (await app.items()).filter(
      (item) => !before.some((b) => JSON.stringify(b) === JSON.stringify(item)),
    );
    expect(changed.map((item) => item.PK)).toEqual([`THROTTLE#account#${email}`, 'THROTTLE#address#127.0.0.1']);
    expect((await c.call('/api/articles')).status).toBe(200);
  });
});

describe('registration', () => {
  let app: TestApp;
  beforeAll(async () => ({ app } = await appWithUser()));
  afterAll(() => app?.stop());

  it.each(['Password1', 'qwerty123', 'iloveyou', 'LetMeIn1'])(
    'refuses the common password %s and writes nothing',
    async (password) => {
      const before = await app.items();
      const res = await new Client(app.url).call('/api/auth/register', { body: registration({ password }) });
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({
        code: 'password_too_common',
        message: 'This password is one of the most common ones and easy to guess: choose another',
      });
      expect(await app.items()).toEqual(before);
    },
  );

  it('records a duplicate registration in the audit trail, answering as for a new one', async () => {
    const body = registration();
    await new Client(app.url).call('/api/auth/register', { body });
    let answer: unknown;
    const events = await audited(async () => {
      answer = (await new Client(app.url).call('/api/auth/register', { body })).json;
    });
    expect(answer).toEqual({ message: 'Registration received. Await admin approval.' });
    expect(events).toEqual([
      ['register.duplicate', expect.objectContaining({ email: body.email, address: '127.0.0.1' })],
    ]);
  });
});

describe('audit trail of admin actions', () => {
  let app: TestApp;
  let admin: Client;
  let id: string;
  beforeAll(async () => ({ app, admin, id } = await appWithUser()));
  afterAll(() => app?.stop());

  it('names the admin and the account of activations and deactivations, and no secret', async () => {
    const adminId = (await admin.call('/api/auth/me')).json.user._id;
    const events = await audited(async () => {
      await admin.call(`/api/admin/users/${id}/status`, { method: 'PATCH', body: { isActive: false } });
      await admin.call(`/api/admin/users/${id}/status`, { method: 'PATCH', body: { isActive: true } });
    });
    expect(events).toEqual([
      ['admin.user_deactivated', expect.objectContaining({ actorId: adminId, userId: id })],
      ['admin.user_activated', expect.objectContaining({ actorId: adminId, userId: id })],
    ]);
  });
});

describe('the first admin of a guarded deployment', () => {
  let app: TestApp;
  const setupCode = 'Setup-Code-4c1d2e9f7a';
  beforeAll(async () => {
    process.env.SETUP_CODE = setupCode;
    app = await startTestApp();
  });
  afterAll(async () => {
    delete process.env.SETUP_CODE;
    await app?.stop();
  });
  afterEach(() => vi.restoreAllMocks());

  it('asks for the setup code; without it, or with a wrong one, nothing is written', async () => {
    expect((await new Client(app.url).call('/api/auth/setup')).json).toEqual({ setupCodeRequired: true });
    const before = await app.items();
    const none = await new Client(app.url).call('/api/auth/register', { body: registration() });
    expect(none.status).toBe(400);
    expect(none.json.code).toBe('setup_code_required');
    const wrong = await new Client(app.url).call('/api/auth/register', { body: registration({ setupCode: 'guess' }) });
    expect(wrong.status).toBe(400);
    expect(wrong.json.code).toBe('setup_code_wrong');
    expect(await app.items()).toEqual(before);
  });

  it('makes the registration with the setup code the admin; later ones wait for approval', async () => {
    const c = new Client(app.url);
    const res = await c.call('/api/auth/register', { body: registration({ setupCode: ` ${setupCode} ` }) });
    expect(res.status).toBe(201);
    expect(res.json.user).toMatchObject({ role: 'admin', isActive: true });
    expect((await new Client(app.url).call('/api/auth/setup')).json).toEqual({ setupCodeRequired: false });
    const later = await new Client(app.url).call('/api/auth/register', {
      body: registration({ email: 'owner@example.com', setupCode }),
    });
    expect(later.json).toEqual({ message: 'Registration received. Await admin approval.' });
  });
});

describe('an admin e-mail address (ADMIN_EMAIL of older deployments)', () => {
  let app: TestApp;
  beforeAll(async () => {
    process.env.SETUP_CODE = 'Setup-Code-9e8d7c6b5a';
    process.env.ADMIN_EMAIL = 'Owner@Example.com';
    app = await startTestApp();
  });
  afterAll(async () => {
    delete process.env.SETUP_CODE;
    delete process.env.ADMIN_EMAIL;
    await app?.stop();
  });

  it('claims nothing: registering with that address without the setup code is refused and writes nothing', async () => {
    const before = await app.items();
    const owner = await new Client(app.url).call('/api/auth/register', {
      body: registration({ email: 'owner@example.COM' }),
    });
    expect(owner.status).toBe(400);
    expect(owner.json.code).toBe('setup_code_required');
    expect(await app.items()).toEqual(before);
  });
});

describe('a laptop (no setup code, no admin e-mail)', () => {
  let app: TestApp;
  beforeAll(async () => (app = await startTestApp()));
  afterAll(() => app?.stop());

  it('makes the first account the admin, as before', async () => {
    expect((await new Client(app.url).call('/api/auth/setup')).json).toEqual({ setupCodeRequired: false });
    const res = await new Client(app.url).call('/api/auth/register', { body: registration() });
    expect(res.json.user).toMatchObject({ role: 'admin' });
  });
});
