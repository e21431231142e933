import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, expect, it } from 'vitest';
import { startLocalStack } from '../src/local/stack.js';
import { Client, registration } from './helpers/app.js';

const dataDir = mkdtempSync(join(tmpdir(), 'cp-persist-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

it('keeps accounts and sessions across a restart of the local stack (DynamoDB Local on disk)', async () => {
  delete process.env.SESSION_SECRET; // the stack generates one into the data folder
  delete process.env.PUBLIC_URL;
  const tableName = `persist-${randomBytes(4).toString('hex')}`;
  const body = registration();

  const first = await startLocalStack({ port: 0, host: '127.0.0.1', dataDir, tableName });
  const browser = new Client(first.url);
  expect((await browser.call('/api/auth/register', { body })).status).toBe(201);
  await first.stop();

  delete process.env.SESSION_SECRET;
  delete process.env.PUBLIC_URL;
  const second = await startLocalStack({ port: 0, host: '127.0.0.1', dataDir, tableName });
  try {
    const sameTab = new Client(second.url);
    sameTab.cookie = browser.cookie; // the session cookie survives: the signing key is kept in .data
    expect((await sameTab.call('/api/auth/me')).json.user.email).toBe(body.email);
    const login = await new Client(second.url).call('/api/auth/login', {
      body: { email: body.email, password: body.password },
    });
    expect(login.status).toBe(200);
    expect(login.json.user.role).toBe('admin');
  } finally {
    await second.stop();
  }
}, 120_000);
