/**
 * The harness of the channel servers (channel-servers/cache.ts; docs/testing.md, Channel servers), which Ghost and the
 * Bluesky PDS share: an entry is built once however many callers race for it, a failed, stopped or abandoned build
 * leaves nothing behind, a lock whose process is gone does not block the next build, and a server that cannot
 * start skips its tests with one line of one format, or fails with REQUIRE_CHANNEL_SERVERS=1.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { atprotoPdsOrSkip } from './channel-servers/atproto/pds.js';
import { cached, channelServersCache, serverOrSkip } from './channel-servers/cache.js';
import { ghostForTests } from './channel-servers/ghost/ghost.js';

let home: string;

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'cp-cache-test-'));
  vi.stubEnv('XDG_CACHE_HOME', home);
});

afterEach(async () => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
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
    let started!: () => void;
    const building = new Promise<void>((resolve) => (started = resolve));
    const build = async (dir: string) => {
      builds += 1;
      await writeFile(join(dir, 'half'), 'x');
      started();
      await gate;
      await writeFile(join(dir, 'done'), 'yes');
    };
    const callers = [cached('thing-1.0', build), cached('thing-1.0', build), cached('thing-1.0', build)];
    await building;
    // the others wait on the builder's lock: the entry is not there until the build ends
    expect(existsSync(join(channelServersCache(), 'thing-1.0'))).toBe(false);
    release();
    const dirs = await Promise.all(callers);
    expect(new Set(dirs).size).toBe(1);
    expect(builds).toBe(1);
    expect(await readFile(join(dirs[0]!, 'done'), 'utf8')).toBe('yes');
    // nothing beside it: no lock, no partial folder
    expect((await readdir(channelServersCache())).sort()).toEqual(['thing-1.0']);
    // later callers take it as it is
    expect(await cached('thing-1.0', build)).toBe(dirs[0]);
    expect(builds).toBe(1);
  });

  it('keeps nothing of a build that failed or was stopped, and the next caller builds it', async () => {
    await expect(
      cached('thing-2.0', async (dir) => {
        await writeFile(join(dir, 'half'), 'x');
        throw new Error('registry not reachable');
      }),
    ).rejects.toThrow('registry not reachable');
    expect(await readdir(channelServersCache())).toEqual([]);
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

  it('keeps the entry another builder finished first (both took over the same dead lock), and only that', async () => {
    const root = channelServersCache();
    const dir = await cached('thing-4.0', async (d) => {
      await writeFile(join(d, 'mine'), 'late');
      // the other builder renames its whole entry into place while this one is still building
      await mkdir(join(root, 'thing-4.0'));
      await writeFile(join(root, 'thing-4.0', 'theirs'), 'first');
    });
    expect(await readdir(dir)).toEqual(['theirs']);
    expect(await readdir(root)).toEqual(['thing-4.0']);
  });
});

describe('a channel server that cannot start', () => {
  /** A cache folder that cannot be made (its parent is a file): every install fails at once. */
  const brokenCache = async () => {
    const file = join(home, 'not-a-folder');
    await writeFile(file, '');
    vi.stubEnv('XDG_CACHE_HOME', file);
  };
  const servers = [
    { tests: 'Ghost client', server: 'Ghost server', start: ghostForTests },
    { tests: 'Bluesky client', server: 'Bluesky PDS', start: atprotoPdsOrSkip },
  ];

  it.each(servers)('skips the $tests tests with the one skip line saying why', async ({ tests, server, start }) => {
    await brokenCache();
    vi.stubEnv('REQUIRE_CHANNEL_SERVERS', '');
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    expect(await start()).toBeUndefined();
    expect(log.mock.calls).toEqual([
      [
        expect.stringMatching(
          new RegExp(
            `^SKIPPED: ${tests} tests \\(no ${server}: .*ENOTDIR.*; REQUIRE_CHANNEL_SERVERS=1 makes this fail\\)$`,
          ),
        ),
      ],
    ]);
  });

  it.each(servers)('fails the $tests tests with REQUIRE_CHANNEL_SERVERS=1', async ({ start }) => {
    await brokenCache();
    vi.stubEnv('REQUIRE_CHANNEL_SERVERS', '1');
    await expect(start()).rejects.toThrow(/ENOTDIR/);
  });

  it('puts only the first line of the reason on the skip line', async () => {
    vi.stubEnv('REQUIRE_CHANNEL_SERVERS', '0');
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const started = await serverOrSkip({ tests: 'Some', server: 'some server' }, () =>
      Promise.reject(new Error('npm ci failed (exit 1): gyp ERR! build error\nthe rest of the output')),
    );
    expect(started).toBeUndefined();
    expect(log.mock.calls).toEqual([
      [
        'SKIPPED: Some tests (no some server: npm ci failed (exit 1): gyp ERR! build error; REQUIRE_CHANNEL_SERVERS=1 makes this fail)',
      ],
    ]);
  });
});
