/**
 * A real Bluesky PDS for the tests (docs/testing.md, Channel servers): `@atproto/dev-env`'s TestNetworkNoAppView
 * (the real `@atproto/pds` with an in-memory PLC directory) in a child process on Node 22 (channel-servers/node22.ts),
 * which its packages need while the tests run on the project's Node.
 *
 * Installed from the npm registry once per machine into the cache (channel-servers/cache.ts), keyed by version and
 * by the hash of this folder's lock file, so a later run only starts the child (seconds).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cached, childEnv, runCommand, serverOrSkip } from '../cache.js';
import { buildEnv, cachedNode22 } from '../node22.js';

export const ATPROTO_DEV_ENV_VERSION = '0.6.7';

const HERE = dirname(fileURLToPath(import.meta.url));
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

const lockHash = () =>
  createHash('sha256')
    .update(readFileSync(join(HERE, 'package-lock.json')))
    .digest('hex')
    .slice(0, 12);

/** The cached install of the dev-env (built when missing) and the Node 22 it runs on. */
export async function cachedAtproto(signal?: AbortSignal): Promise<{ dir: string; node: string }> {
  const nodeDir = await cachedNode22(signal);
  const dir = await cached(
    `atproto-dev-env-${ATPROTO_DEV_ENV_VERSION}-${lockHash()}`,
    async (d, abort) => {
      for (const file of ['package.json', 'package-lock.json']) await copyFile(join(HERE, file), join(d, file));
      // better-sqlite3 builds for Node 22 (no prebuilt binary can be downloaded here)
      await runCommand('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], {
        cwd: d,
        env: buildEnv(nodeDir),
        signal: abort,
      });
    },
    signal,
  );
  return { dir, node: join(nodeDir, 'bin', 'node') };
}

/** Installs what is missing, then starts the PDS; resolves once it answers. */
export async function startAtprotoPds(): Promise<ChannelServer> {
  const installing = Date.now();
  const { dir, node } = await cachedAtproto();
  const installMs = Date.now() - installing;
  const started = Date.now();
  // The PDS keeps its SQLite files and blobs under the temporary folder: one of its own, removed at the end.
  const dataDir = await mkdtemp(join(tmpdir(), 'atproto-pds-'));
  const child = spawn(node, [join(HERE, 'server.mjs')], {
    env: childEnv({ ATPROTO_DEV_ENV_DIR: dir, TMPDIR: dataDir, ATPROTO_PDS_DATA_DIR: dataDir }),
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

/** The PDS of a test file, or undefined: its server tests skip (channel-servers/cache.ts, serverOrSkip). */
export async function atprotoPdsOrSkip(): Promise<ChannelServer | undefined> {
  const server = await serverOrSkip({ tests: 'Bluesky client', server: 'Bluesky PDS' }, startAtprotoPds);
  if (server) {
    const { installMs, startMs } = server.timings;
    console.log(
      `Bluesky test PDS at ${server.url}: ${installMs >= 1000 ? `install ${(installMs / 1000).toFixed(1)} s, ` : ''}started in ${(startMs / 1000).toFixed(1)} s`,
    );
  }
  return server;
}
