import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, registration, startTestApp, type TestApp } from './helpers/app.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.stop());

const client = () => new Client(app.url);

async function expectNothingWritten(action: () => Promise<unknown>) {
  const before = await app.items();
  await action();
  expect(await app.items()).toEqual(before);
}

describe('accounts and sessions', () => {
  let admin: Client;
  let adminEmail: string;

  it('makes exactly one admin out of concurrent first registrations', async () => {
    const clients = Array.from({ length: 6 }, client);
    const bodies = clients.map((_, i) => registration({ email: `first-${i}@example.com` }));
    const results = await Promise.all(clients.map((c, i) => c.call('/api/auth/register', { body: bodies[i] })));
    expect(results.map((r) => r.status)).toEqual(Array(6).fill(201));
    const admins = results.filter((r) => r.json.user);
    expect(admins).toHaveLength(1);
    expect(admins[0]!.json.user).toMatchObject({ role: 'admin', isActive: true });
    expect(admins[0]!.json.message).toBe('Admin account created. You are logged in.');
    for (const other of results.filter((r) => !r.json.user)) {
      expect(other.json).toEqual({ message: 'Registration received. Await admin approval.' });
    }
    const adminIndex = results.findIndex((r) => r.json.user);
    admin = clients[adminIndex]!;
    adminEmail = bodies[adminIndex]!.email as string;
    expect(admin.cookie).toBeDefined();

    const me = await admin.call('/api/auth/me');
    expect(me.status).toBe(200);
    expect(me.json.user.email).toBe(adminEmail);

    const list = await admin.call('/api/admin/users');
    expect(list.status).toBe(200);
    expect(list.json.users).toHaveLength(6);
    expect(list.json.users.filter((u: { role: string }) => u.role === 'admin')).toHaveLength(1);
  });

  it('the session check answers 200 with no user without a valid session (a signed-out page load logs no error); other routes still answer 401', async () => {
    const anonymous = await client().call('/api/auth/me');
    expect(anonymous.status).toBe(200);
    expect(anonymous.json).toEqual({ user: null });
    const forged = client();
    forged.cookie = 'session=not-a-token';
    expect(await forged.call('/api/auth/me')).toMatchObject({ status: 200, json: { user: null } });
    expect((await forged.call('/api/articles')).status).toBe(401);
    expect((await client().call('/api/auth/logout-everywhere', { method: 'POST' })).status).toBe(401);
  });

  it('sets an HttpOnly, SameSite=Lax session cookie and never returns password material', async () => {
    const c = client();
    const res = await c.call('/api/auth/login', { body: { email: adminEmail, password: 'correct horse' } });
    expect(res.status).toBe(200);
    expect(res.json.message).toBe('Logged in successfully');
    const setCookie = res.headers.get('set-cookie')!;
    expect(setCookie).toMatch(/^session=[^;]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+/);
    const list = await admin.call('/api/admin/users');
    expect(list.text).not.toMatch(/password|scrypt|hash/i);
    expect(res.text).not.toMatch(/password|scrypt|hash/i);
  });

  it('refuses a wrong password and an unknown e-mail with the same answer', async () => {
    const wrong = await client().call('/api/auth/login', { body: { email: adminEmail, password: 'nope-nope' } });
    const unknown = await client().call('/api/auth/login', {
      body: { email: 'nobody@example.com', password: 'nope-nope' },
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.json).toEqual(unknown.json);
    expect(wrong.json.error).toBe('Invalid email or password');
  });

  it('keeps later accounts inactive until an admin activates them, then lets them in', async () => {
    const body = registration({ email: 'Grace.Hopper@Example.com' });
    const c = client();
    const reg = await c.call('/api/auth/register', { body });
    expect(reg.status).toBe(201);
    expect(reg.json.user).toBeUndefined();
    expect(c.cookie).toBeUndefined();

    const refused = await c.call('/api/auth/login', { body: { email: body.email, password: body.password } });
    expect(refused.status).toBe(403);
    expect(refused.json.error).toMatch(/awaiting admin approval/);
    expect(refused.json.code).toBe('account_pending');

    const users = (await admin.call('/api/admin/users')).json.users as { _id: string; email: string }[];
    const grace = users.find((u) => u.email === 'grace.hopper@example.com')!;
    const activated = await admin.call(`/api/admin/users/${grace._id}/status`, {
      method: 'PATCH',
      body: { isActive: true },
    });
    expect(activated.status).toBe(200);
    expect(activated.json).toMatchObject({ user: { _id: grace._id, isActive: true }, message: 'User activated' });

    const login = await c.call('/api/auth/login', {
      body: { email: 'GRACE.hopper@example.com', password: body.password },
    });
    expect(login.status).toBe(200);
    expect((await c.call('/api/auth/me')).json.user.email).toBe('grace.hopper@example.com');
  });

  it('treats e-mail addresses as unique regardless of case, and answers a duplicate exactly like a new registration', async () => {
    const fresh = await client().call('/api/auth/register', { body: registration() });
    await expectNothingWritten(async () => {
      const c = client();
      const dup = await c.call('/api/auth/register', { body: registration({ email: adminEmail.toUpperCase() }) });
      expect(dup.status).toBe(fresh.status);
      expect(dup.json).toEqual(fresh.json);
      expect(dup.json).toEqual({ message: 'Registration received. Await admin approval.' });
      expect(c.cookie).toBeUndefined();
    });
  });

  it('ends a live session on the next request once the user is deactivated', async () => {
    const body = registration();
    const c = client();
    await c.call('/api/auth/register', { body });
    const id = (await admin.call('/api/admin/users')).json.users.find(
      (u: { email: string }) => u.email === body.email,
    )._id;
    await admin.call(`/api/admin/users/${id}/status`, { method: 'PATCH', body: { isActive: true } });
    await c.call('/api/auth/login', { body: { email: body.email, password: body.password } });
    expect((await c.call('/api/articles')).status).toBe(200);

    const off = await admin.call(`/api/admin/users/${id}/status`, { method: 'PATCH', body: { isActive: false } });
    expect(off.json).toMatchObject({ user: { isActive: false }, message: 'User deactivated' });
    expect((await c.call('/api/auth/me')).json.user).toBeNull();
    const refused = await c.call('/api/articles');
    expect(refused.status).toBe(401);
    expect(refused.json.error).toBe('Not authenticated');

    const again = await client().call('/api/auth/login', { body: { email: body.email, password: body.password } });
    expect(again.status).toBe(403);
    expect(again.json.code).toBe('account_inactive');
  });

  it('logs out by clearing the cookie', async () => {
    const c = client();
    await c.call('/api/auth/login', { body: { email: adminEmail, password: 'correct horse' } });
    const out = await c.call('/api/auth/logout', { method: 'POST' });
    expect(out.status).toBe(200);
    expect(out.json.message).toBe('Logged out.');
    expect(out.headers.get('set-cookie')).toMatch(/^session=; .*Max-Age=0/);
    expect(c.cookie).toBeUndefined();
    expect((await c.call('/api/articles')).status).toBe(401);
  });

  it('rejects forged or tampered session tokens', async () => {
    const c = client();
    // Flip a character inside the signature (the last one may only carry padding bits).
    const [head, payload, signature] = admin.cookie!.slice('session='.length).split('.');
    const flipped = `${signature![0] === 'A' ? 'B' : 'A'}${signature!.slice(1)}`;
    c.cookie = `session=${head}.${payload}.${flipped}`;
    expect((await c.call('/api/articles')).status).toBe(401);
    c.cookie = 'session=not-a-token';
    expect((await c.call('/api/admin/users')).status).toBe(401);
  });

  it('refuses a token signed with the session key but made for something else (approval link, OAuth state)', async () => {
    const me = await admin.call('/api/auth/me');
    expect(me.status).toBe(200);
    const userId = me.json.user._id as string;
    const key = new TextEncoder().encode(process.env.SESSION_SECRET!);
    const signed = (claims: Record<string, unknown>) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(userId)
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(key);
    const c = client();
    for (const claims of [
      { purpose: 'approve', aid: 'x', p: 'blog', at: new Date().toISOString() },
      { purpose: 'linkedin', nonce: 'n' },
      {},
    ]) {
      c.cookie = `session=${await signed(claims)}`;
      expect((await c.call('/api/articles')).status).toBe(401);
      expect((await c.call('/api/admin/users')).status).toBe(401);
    }
    c.cookie = `session=${await signed({ purpose: 'session' })}`; // a session token from before sessions had a version and an id
    expect((await c.call('/api/articles')).status).toBe(401);
    c.cookie = `session=${await signed({ purpose: 'session', sv: 0, jti: 'any-id' })}`; // the same key does make sessions
    expect((await c.call('/api/articles')).status).toBe(200);
  });
});

describe('bad input changes nothing', () => {
  const cases: [string, Parameters<Client['call']>[1], RegExp][] = [
    ['malformed JSON', { method: 'POST', rawBody: '{"name": "Ada",' }, /not valid JSON/],
    [
      'a 2 MB body',
      { method: 'POST', rawBody: JSON.stringify({ ...registration(), name: 'x'.repeat(2 * 1024 * 1024) }) },
      /larger than 1 MB/,
    ],
    ['a short password', { body: registration({ password: '12345' }) }, /at least 6 characters/],
    ['a missing timezone', { body: { ...registration(), timezone: undefined } }, /Timezone is required/],
    ['an unknown time zone', { body: registration({ timezone: 'Mars/Olympus' }) }, /not a known time zone/],
    ['a missing name', { body: registration({ name: '   ' }) }, /Name is required/],
    ['an invalid e-mail', { body: registration({ email: 'not-an-email' }) }, /valid email/],
    ['an unknown field', { body: registration({ role: 'admin' }) }, /Unknown field: role/],
    [
      'a wrong content type',
      { method: 'POST', rawBody: 'name=Ada', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
      /JSON/,
    ],
    ['an empty body', { method: 'POST', headers: { 'content-type': 'application/json' } }, /body is required/],
  ];
  for (const [name, options, message] of cases) {
    it(`registration with ${name} → 400`, async () => {
      await expectNothingWritten(async () => {
        const res = await client().call('/api/auth/register', options);
        expect(res.status).toBe(400);
        expect(res.json.message).toMatch(message);
        expect(res.json.error).toBe(res.json.message);
      });
    });
  }

  it('login with a non-boolean status or bad id → 400', async () => {
    const c = client();
    const res = await c.call('/api/auth/login', { body: { email: 'x@example.com' } });
    expect(res.status).toBe(400);
    expect(res.json.message).toBe('Password is required');
  });
});

describe('access and origin rules', () => {
  let admin: Client;
  let user: Client;
  let userId: string;
  let adminId: string;

  beforeAll(async () => {
    admin = client();
    const adminLogin = await admin.call('/api/auth/login', {
      body: { email: (await app.items()).find((i) => i.role === 'admin')!.email, password: 'correct horse' },
    });
    adminId = adminLogin.json.user._id;
    const body = registration();
    user = client();
    await user.call('/api/auth/register', { body });
    userId = (await admin.call('/api/admin/users')).json.users.find(
      (u: { email: string }) => u.email === body.email,
    )._id;
    await admin.call(`/api/admin/users/${userId}/status`, { method: 'PATCH', body: { isActive: true } });
    await user.call('/api/auth/login', { body: { email: body.email, password: body.password } });
  });

  it('refuses a cross-origin POST and writes nothing', async () => {
    await expectNothingWritten(async () => {
      const res = await client().call('/api/auth/register', {
        body: registration(),
        headers: { origin: 'https://evil.example' },
      });
      expect(res.status).toBe(403);
      expect(res.json.error).toBe('Cross-origin requests are not allowed');
      const fetchMeta = await admin.call(`/api/admin/users/${userId}/status`, {
        method: 'PATCH',
        body: { isActive: false },
        headers: { 'sec-fetch-site': 'cross-site' },
      });
      expect(fetchMeta.status).toBe(403);
    });
  });

  it('accepts a same-origin POST', async () => {
    const res = await client().call('/api/auth/login', {
      body: { email: 'nobody@example.com', password: 'whatever' },
      headers: { origin: app.url },
    });
    expect(res.status).toBe(401);
  });

  it('answers 403 to a regular user on admin routes and 401 to anonymous callers', async () => {
    await expectNothingWritten(async () => {
      expect((await user.call('/api/admin/users')).status).toBe(403);
      const patch = await user.call(`/api/admin/users/${userId}/status`, {
        method: 'PATCH',
        body: { isActive: false },
      });
      expect(patch.status).toBe(403);
      expect(patch.json.error).toBe('Only admins can do this');
      expect((await client().call('/api/admin/users')).status).toBe(401);
      expect(
        (await client().call(`/api/admin/users/${userId}/status`, { method: 'PATCH', body: { isActive: true } }))
          .status,
      ).toBe(401);
    });
  });

  it('never changes an admin account and answers 404 for an unknown user', async () => {
    await expectNothingWritten(async () => {
      const res = await admin.call(`/api/admin/users/${adminId}/status`, {
        method: 'PATCH',
        body: { isActive: false },
      });
      expect(res.status).toBe(403);
      expect(res.json.error).toBe('Admin accounts cannot be changed');
      const missing = await admin.call('/api/admin/users/00000000-0000-0000-0000-000000000000/status', {
        method: 'PATCH',
        body: { isActive: true },
      });
      expect(missing.status).toBe(404);
      const badBody = await admin.call(`/api/admin/users/${userId}/status`, {
        method: 'PATCH',
        body: { isActive: 'yes' },
      });
      expect(badBody.status).toBe(400);
      expect(badBody.json.message).toBe('isActive must be true or false');
    });
  });

  it('answers unknown API paths with a JSON 404 and sends security headers', async () => {
    const res = await client().call('/api/nope');
    expect(res.status).toBe(404);
    expect(res.json.error).toBe('Not found');
    const me = await user.call('/api/auth/me');
    expect(me.headers.get('x-content-type-options')).toBe('nosniff');
    expect(me.headers.get('server')).toBeNull();
  });
});
