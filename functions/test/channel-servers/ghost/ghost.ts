/**
 * A real Ghost for the tests (docs/testing.md, Channel servers), offline: everything comes from the npm registry.
 *
 * Installed once per version into the cache (channel-servers/cache.ts) as Ghost's own installer does it: the
 * package from the registry, then `pnpm install --prod --frozen-lockfile` inside it (its dependencies are
 * tarballs it ships), under Node 22 (Ghost 6 needs it) with that Node's headers for the native modules
 * (better-sqlite3, re2), which build from source when their prebuilt binaries cannot be fetched. The same
 * build then sets the site up once (owner, custom integration → Admin API key) and keeps that content folder as
 * the pristine copy. Each run copies it into a folder of its own under the system's temp folder and starts Ghost
 * there on a free port (SQLite, 127.0.0.1, no mail sent, no calls home), so no run sees another's posts and
 * nothing lands in the clone; `stop()` ends the server and removes that folder.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cached, childEnv, pause, runCommand, serverOrSkip, unpackFromRegistry } from '../cache.js';
import { buildEnv, cachedNode22 } from '../node22.js';

/**
 * Ghost 6 (the current major, the one sites run and Ghost(Pro) hosts): installed from its lockfile, so the same
 * versions every time; 5.x would run on the machine's Node 20 but is past its end of support.
 */
export const GHOST_VERSION = '6.65.0';

/** The ports this project's tests give Ghost (the first free one is taken). */
const PORTS = Array.from({ length: 10 }, (_, i) => 23680 + i);

export interface GhostServer {
  /** The site's address, http://127.0.0.1:<port> (no trailing slash). */
  url: string;
  /** The custom integration's Admin API key, `id:secret`. */
  adminApiKey: string;
  /** The staff owner's sign-in (for reading the site as a person would). */
  owner: { email: string; password: string };
  version: string;
  /** Milliseconds from spawning Ghost until it answered. */
  startMs: number;
  /** Memory of the Ghost process once it answered (resident set, MiB). */
  rssMiB: number;
  stop(): Promise<void>;
}

interface Pristine {
  adminApiKey: string;
  owner: { email: string; password: string };
}

/** The cached install of GHOST_VERSION (built when missing): `install/` (Ghost), `pristine/` (a set-up site). */
export async function cachedGhost(signal?: AbortSignal): Promise<{ dir: string; node: string }> {
  const node = join(await cachedNode22(signal), 'bin', 'node');
  const dir = await cached(`ghost-${GHOST_VERSION}`, (d, abort) => buildGhost(d, node, abort), signal);
  return { dir, node };
}

async function buildGhost(dir: string, node: string, signal?: AbortSignal): Promise<void> {
  const nodeDir = join(node, '..', '..');
  const install = await unpackFromRegistry(`ghost@${GHOST_VERSION}`, dir, 'install', signal);
  // The pnpm its lockfile was written with (package.json "packageManager": "pnpm@x.y.z+sha…").
  const manifest = JSON.parse(await readFile(join(install, 'package.json'), 'utf8')) as { packageManager?: string };
  const pnpmVersion = /^pnpm@([^+]+)/.exec(manifest.packageManager ?? '')?.[1] ?? 'latest';
  await runCommand(
    'npm',
    ['install', '--prefix', join(dir, 'tools'), `pnpm@${pnpmVersion}`, '--no-audit', '--no-fund'],
    {
      cwd: dir,
      signal,
    },
  );
  const env = buildEnv(nodeDir, { CI: 'true' });
  const pnpmInstall = () =>
    runCommand(
      join(dir, 'tools', 'node_modules', '.bin', 'pnpm'),
      ['install', '--prod', '--frozen-lockfile', '--store-dir', join(dir, 'pnpm-store')],
      { cwd: install, env, signal },
    );
  // once more on a failure: a dropped download is the usual cause, and what was fetched stays in the store
  await pnpmInstall().catch((error: unknown) => {
    if (signal?.aborted) throw error;
    return pnpmInstall();
  });
  // the packages are linked into node_modules; the store is not needed to run
  await rm(join(dir, 'pnpm-store'), { recursive: true, force: true });
  await rm(join(dir, 'tools'), { recursive: true, force: true });

  await setUpPristine(dir, node, join(dir, 'pristine'), signal);
}

/**
 * Sets a new site up once (Ghost from `dir/install`, its empty content) and keeps its content folder and key in
 * `into`; every run starts from a copy of it.
 */
export async function setUpPristine(dir: string, node: string, into: string, signal?: AbortSignal): Promise<void> {
  const owner = { email: 'owner@example.com', password: `${randomBytes(18).toString('base64url')}-Aa1` };
  const server = await launch(dir, node, join(dir, 'install', 'content'), signal);
  try {
    const adminApiKey = await setUpSite(server.url, owner);
    await server.stop({ keepContent: true });
    await cp(server.content, join(into, 'content'), { recursive: true });
    const pristine: Pristine = { adminApiKey, owner };
    await writeFile(join(into, 'site.json'), JSON.stringify(pristine), { mode: 0o600 });
  } finally {
    await server.stop();
  }
}

/** The setup a new site asks for, a staff session (Ghost wants an Origin), and a custom integration's Admin key. */
async function setUpSite(url: string, owner: { email: string; password: string }): Promise<string> {
  const api = `${url}/ghost/api/admin`;
  const headers = { 'content-type': 'application/json', origin: url };
  const setup = await fetch(`${api}/authentication/setup/`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ setup: [{ name: 'Test Owner', ...owner, blogTitle: 'Channel tests' }] }),
  });
  if (!setup.ok) throw new Error(`Ghost setup answered ${setup.status}: ${await setup.text()}`);
  // A site set up a moment ago on a busy machine has refused the staff session's first call (403) while a
  // later one passed: sign in again and retry for a while before giving up.
  let last = '';
  for (let attempt = 1; attempt <= 10; attempt++) {
    if (attempt > 1) await pause(3_000);
    const session = await fetch(`${api}/session/`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ username: owner.email, password: owner.password }),
    });
    if (!session.ok) {
      last = `sign-in answered ${session.status}: ${(await session.text()).slice(0, 300)}`;
      continue;
    }
    const cookie = session.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const created = await fetch(`${api}/integrations/?include=api_keys`, {
      method: 'POST',
      headers: { ...headers, cookie },
      body: JSON.stringify({ integrations: [{ name: 'content-publisher tests' }] }),
    });
    const text = await created.text();
    const body = (created.ok ? JSON.parse(text) : {}) as {
      integrations?: { api_keys?: { type: string; secret: string }[] }[];
    };
    const key = body.integrations?.[0]?.api_keys?.find((k) => k.type === 'admin')?.secret;
    // Ghost answers an Admin key's secret as the whole key, id:secret
    if (key) return key;
    last = `the new integration answered ${created.status}: ${text.slice(0, 300)}`;
  }
  throw new Error(`Ghost's set-up failed: ${last}`);
}

async function freePort(): Promise<number> {
  for (const port of PORTS) {
    const free = await new Promise<boolean>((resolve) => {
      const probe = createServer();
      probe.once('error', () => resolve(false));
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error(`no free port for Ghost among ${PORTS[0]}-${PORTS.at(-1)}`);
}

interface Launched {
  url: string;
  content: string;
  child: ChildProcess;
  startMs: number;
  rssMiB: number;
  stop(options?: { keepContent?: boolean }): Promise<void>;
}

/** Ghost from the cache entry `dir`, with its content in a new temp folder copied from `from`. */
async function launch(dir: string, node: string, from: string, signal?: AbortSignal): Promise<Launched> {
  const runDir = await mkdtemp(join(tmpdir(), 'cp-ghost-'));
  const content = join(runDir, 'content');
  await cp(from, content, { recursive: true });
  await mkdir(join(content, 'data'), { recursive: true });
  // Ghost finds its own files through `current` in its working folder, as its installer lays a site out.
  await symlink(join(dir, 'install'), join(runDir, 'current'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const config = {
    url,
    server: { host: '127.0.0.1', port },
    database: { client: 'better-sqlite3', connection: { filename: join(content, 'data', 'ghost.db') } },
    paths: { contentPath: content },
    mail: { transport: 'stub', from: 'ghost@example.com' },
    logging: { level: 'error', transports: ['stdout'] },
    // no update checks, no pings home, no e-mailed sign-in codes
    privacy: { useTinfoil: true },
    explore: { update_url: '' },
    security: { staffDeviceVerification: false },
  };
  await writeFile(join(runDir, 'config.production.json'), JSON.stringify(config, null, 2));
  const log = join(runDir, 'ghost.log');
  const out = createWriteStream(log);
  const started = Date.now();
  const child = spawn(node, [join(runDir, 'current', 'index.js')], {
    cwd: runDir,
    env: childEnv({ NODE_ENV: 'production' }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.pipe(out);
  child.stderr!.pipe(out);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);

  let stopped = false;
  const stop = async (options: { keepContent?: boolean } = {}) => {
    if (!stopped) {
      stopped = true;
      process.removeListener('exit', killOnExit);
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const gone = await Promise.race([exited.then(() => true), pause(15_000).then(() => false)]);
        if (!gone) {
          child.kill('SIGKILL');
          await exited;
        }
      }
      out.end();
    }
    if (!options.keepContent) await rm(runDir, { recursive: true, force: true });
  };

  try {
    await waitUntilUp(url, child, log, signal);
  } catch (error) {
    await stop();
    throw error;
  }
  const startMs = Date.now() - started;
  return { url, content, child, startMs, rssMiB: await rssMiB(child.pid!), stop };
}

async function waitUntilUp(url: string, child: ChildProcess, log: string, signal?: AbortSignal): Promise<void> {
  const until = Date.now() + 180_000;
  while (Date.now() < until) {
    signal?.throwIfAborted();
    if (child.exitCode !== null || child.signalCode !== null) {
      const tail = existsSync(log) ? (await readFile(log, 'utf8')).split('\n').slice(-20).join('\n') : '';
      throw new Error(`Ghost exited (${child.exitCode ?? child.signalCode}) before answering:\n${tail}`);
    }
    try {
      const res = await fetch(`${url}/ghost/api/admin/site/`, { signal: AbortSignal.timeout(2_000) });
      await res.arrayBuffer();
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await pause(200);
  }
  throw new Error(`Ghost did not answer at ${url} within 180 s`);
}

async function rssMiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

/** Installs what is missing, then starts a Ghost of its own for this run from the pristine site. */
export async function startGhost(signal?: AbortSignal): Promise<GhostServer> {
  const { dir, node } = await cachedGhost(signal);
  const pristine = JSON.parse(await readFile(join(dir, 'pristine', 'site.json'), 'utf8')) as Pristine;
  let server: Launched | undefined;
  for (let attempt = 1; !server; attempt++) {
    try {
      server = await launch(dir, node, join(dir, 'pristine', 'content'), signal);
    } catch (error) {
      // another run took the free port between the probe and Ghost's listen: take the next one
      if (attempt >= 3 || !/EADDRINUSE/.test((error as Error).message)) throw error;
    }
  }
  return {
    url: server.url,
    adminApiKey: pristine.adminApiKey,
    owner: pristine.owner,
    version: GHOST_VERSION,
    startMs: server.startMs,
    rssMiB: server.rssMiB,
    stop: () => server.stop(),
  };
}

/** The Ghost of a test file, or undefined: its server tests skip (channel-servers/cache.ts, serverOrSkip). */
export function ghostForTests(): Promise<GhostServer | undefined> {
  return serverOrSkip({ tests: 'Ghost client', server: 'Ghost server' }, () => startGhost());
}
