import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { localJobsIdle } from '../../src/adapters/local/in-process-job-queue.js';
import { handler as worker } from '../../src/lambda/worker.js';
import { hostAllowed } from '../../src/local/host.js';
import { startLocalStack, type LocalStack } from '../../src/local/stack.js';
import { Client, drafted, imageSettled, registration } from '../helpers/app.js';
import { registerApiOrigin } from '../helpers/secrets.js';

/**
 * The local defaults (functions/src/local): the data folder and what is written into it are this user's
 * alone, and the server answers only requests that name it (no DNS rebinding).
 */
const LOCAL_ENV = ['PUBLIC_URL', 'SESSION_SECRET', 'LOCAL_SECRETS_KEY', 'OUTBOX_DIR', 'EVENTS_FILE'] as const;
const saved = Object.fromEntries(LOCAL_ENV.map((name) => [name, process.env[name]]));
let parent: string;
let dataDir: string;
let stack: LocalStack;

beforeAll(async () => {
  parent = mkdtempSync(join(tmpdir(), 'cp-private-'));
  dataDir = join(parent, 'data');
  // A data folder from before, readable by everyone, with a file in it.
  mkdirSync(dataDir);
  chmodSync(dataDir, 0o755);
  writeFileSync(join(dataDir, 'from-before.txt'), 'old');
  // The keys are generated into the data folder, the outbox and events go there: as `npm start` does.
  for (const name of LOCAL_ENV) delete process.env[name];
  stack = await startLocalStack({
    port: 0,
    host: '127.0.0.1',
    dataDir,
    dynamoEndpoint: inject('dynamoEndpoint'),
    tableName: `test-${randomBytes(6).toString('hex')}`,
  });
  registerApiOrigin(stack.url);
});
afterAll(async () => {
  await stack?.stop();
  for (const name of LOCAL_ENV) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
  rmSync(parent, { recursive: true, force: true });
});

/** Every folder and file under `dir` with its permission bits, e.g. ['outbox/x.eml', 0o600]. */
function modes(dir: string): [string, number][] {
  const out: [string, number][] = [];
  const walk = (path: string) => {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      const full = join(path, entry.name);
      out.push([relative(dir, full) + (entry.isDirectory() ? '/' : ''), statSync(full).mode & 0o777]);
      if (entry.isDirectory()) walk(full);
    }
  };
  walk(dir);
  return out;
}

describe('the data folder', () => {
  it('is made private (0700), an existing one too', () => {
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
  });

  it('keeps the keys, the outbox mails (bearer approval links), the events and the stored images 0600', async () => {
    const user = new Client(stack.url);
    await user.call('/api/auth/register', { body: registration() });
    const id = (await user.call('/api/articles', { body: { title: 'Private', topic: 'Data folder' } })).json.article
      ._id;
    await drafted(user, id); // ArticleDrafted: events.jsonl
    expect((await user.call(`/api/image/generate/${id}`, { body: { description: 'A locked door' } })).status).toBe(202);
    await imageSettled(user, id); // the image's files in the store
    // The scheduled run's approval e-mail goes to the outbox (no Gmail here), as the worker sends it.
    const at = new Date(Date.now() + 3_600_000).toISOString();
    const scheduled = await user.call(`/api/articles/${id}/schedule`, {
      method: 'PUT',
      body: { platform: 'blog', datetime: at },
    });
    expect(scheduled.status).toBe(200);
    const userId = (await user.call('/api/auth/me')).json.user._id as string;
    await worker({ type: 'generate-and-notify', userId, articleId: id, platform: 'blog', scheduledFor: at });
    await localJobsIdle();

    const written = modes(dataDir).filter(([path]) => path !== 'from-before.txt');
    const names = written.map(([path]) => path);
    for (const expected of ['session-secret', 'secrets-key', 'events.jsonl', 'outbox/', 's3/'])
      expect(names, expected).toContain(expected);
    expect(names.some((p) => /^outbox\/.+\.eml$/.test(p))).toBe(true);
    expect(names.some((p) => p.startsWith('s3/') && p.includes('users'))).toBe(true);
    const open = written.filter(([path, mode]) => mode !== (path.endsWith('/') ? 0o700 : 0o600));
    expect(open.map(([path, mode]) => `${path} ${mode.toString(8)}`)).toEqual([]);
  });
});

/** A request with the Host header given (fetch does not let one set it). */
function call(path: string, host: string, method = 'GET', body?: string) {
  const { port } = new URL(stack.url);
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method,
        headers: {
          host,
          ...(body ? { 'content-type': 'application/json', origin: `http://${host}` } : {}),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('the Host header (DNS rebinding)', () => {
  it('another name pointed at this machine is answered 421, on the API and the pages alike', async () => {
    const { port } = new URL(stack.url);
    const evil = `rebind.attacker.example:${port}`;
    const me = await call('/api/auth/me', evil);
    expect(me.status).toBe(421);
    expect(me.text).toContain(stack.url);
    // The sign-in a rebound page would send, with its own origin (which the Origin check alone accepts).
    const login = await call('/api/auth/login', evil, 'POST', JSON.stringify({ email: 'a@b.example', password: 'x' }));
    expect(login.status).toBe(421);
    expect((await call('/', evil)).status).toBe(421);
  });

  it('the configured origin, localhost and IP addresses are answered', async () => {
    const { port } = new URL(stack.url);
    for (const host of [new URL(stack.url).host, `localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`]) {
      expect((await call('/api/auth/me', host)).status, host).toBe(200);
    }
  });

  it('hostAllowed: the public URL’s host (with its port), localhost and IP literals; any other name is refused', () => {
    const publicUrl = 'http://publisher.lan:3000';
    expect(hostAllowed('publisher.lan:3000', publicUrl)).toBe(true);
    expect(hostAllowed('PUBLISHER.lan:3000', publicUrl)).toBe(true);
    expect(hostAllowed('publisher.lan:3001', publicUrl)).toBe(false);
    expect(hostAllowed('evil.example:3000', publicUrl)).toBe(false);
    expect(hostAllowed('publisher.lan.evil.example:3000', publicUrl)).toBe(false);
    expect(hostAllowed('localhost:3000', publicUrl)).toBe(true);
    expect(hostAllowed('192.168.1.20:3000', publicUrl)).toBe(true);
    expect(hostAllowed('[fd00::5]:3000', publicUrl)).toBe(true);
    expect(hostAllowed('publisher.example', 'https://publisher.example')).toBe(true);
    expect(hostAllowed(undefined, publicUrl)).toBe(false);
    expect(hostAllowed('user@publisher.lan:3000', publicUrl)).toBe(false);
  });
});
