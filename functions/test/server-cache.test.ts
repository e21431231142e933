/**
 * The channel servers' cache (helpers/server-cache.ts; docs/testing.md, Channel servers): an entry is built once
 * however many callers race for it, a failed or abandoned build leaves nothing behind, and a lock whose process is
 * gone does not block the next build.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cached, channelServersCache } from './helpers/server-cache.js';

let home: string;
const saved = process.env.XDG_CACHE_HOME;

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'cp-cache-test-'));
  process.env.XDG_CACHE_HOME = home;
});

afterEach(async () => {
  if (saved === undefined) delete process.env.XDG_CACHE_HOME;
  else process.env.XDG_CACHE_HOME = saved;
  await rm(home, { recursive: true, force: true });
});

/** A pid that is certainly not running: a child that has ended. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid!;
}

describe('channel servers cache', () => {
  it('lives under XDG_CACHE_HOME, outside the clone', () => {
    expect(channelServersCache()).toBe(join(home, 'content-publisher', 'channel-servers'));
  });

  it('builds an entry once when callers race for it, and hands each the finished folder', async () => {
    let builds = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const build = async (dir: string) => {
      builds += 1;
      await writeFile(join(dir, 'half'), 'x');
      await gate;
      await writeFile(join(dir, 'done'), 'yes');
    };
    const first = cached('thing-1.0', build);
    const second = cached('thing-1.0', build);
    // the second waits on the first's lock: the entry is not there until the build ends
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(existsSync(join(channelServersCache(), 'thing-1.0'))).toBe(false);
    release();
    const [a, b] = await Promise.all([first, second]);
    expect(a).toBe(b);
    expect(builds).toBe(1);
    expect(await readFile(join(a, 'done'), 'utf8')).toBe('yes');
    expect((await readdir(channelServersCache())).sort()).toEqual(['thing-1.0']);
    // later callers take it as it is
    expect(await cached('thing-1.0', build)).toBe(a);
    expect(builds).toBe(1);
  });

  it('keeps nothing of a build that failed or was stopped, and the next caller builds it', async () => {
    await expect(
      cached('thing-2.0', async (dir) => {
        await writeFile(join(dir, 'half'), 'x');
        throw new Error('registry not reachable');
      }),
    ).rejects.toThrow('registry not reachable');
    const stop = new AbortController();
    let started!: () => void;
    const building = new Promise<void>((resolve) => (started = resolve));
    const stopped = cached(
      'thing-2.0',
      async (dir, signal) => {
        await writeFile(join(dir, 'half'), 'x');
        started();
        await new Promise((_resolve, reject) => signal!.addEventListener('abort', () => reject(signal!.reason)));
      },
      stop.signal,
    );
    await building;
    stop.abort();
    await expect(stopped).rejects.toThrow();
    expect(await readdir(channelServersCache())).toEqual([]);
    const dir = await cached('thing-2.0', (d) => writeFile(join(d, 'done'), 'yes'));
    expect(await readFile(join(dir, 'done'), 'utf8')).toBe('yes');
  });

  it('takes over the lock and removes the partial build of a process that is gone', async () => {
    const root = channelServersCache();
    const gone = await deadPid();
    await mkdir(join(root, `thing-3.0.partial-${gone}`), { recursive: true });
    await writeFile(join(root, 'thing-3.0.lock'), String(gone));
    const dir = await cached('thing-3.0', (d) => writeFile(join(d, 'done'), 'yes'));
    expect(await readFile(join(dir, 'done'), 'utf8')).toBe('yes');
    expect(await readdir(root)).toEqual(['thing-3.0']);
  });
});
