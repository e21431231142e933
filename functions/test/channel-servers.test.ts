import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { atprotoPdsOrSkip, installOnce } from './channel-servers/atproto/pds.js';

/**
 * The harness that installs and starts the channel servers of the tests (channel-servers/atproto/pds.ts): one install
 * however many runs race for it, nothing half-installed left in use, and a server that cannot start skips its tests
 * with one line, or fails the run with REQUIRE_CHANNEL_SERVERS=1.
 */
const folders: string[] = [];
const folder = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'channel-servers-test-'));
  folders.push(dir);
  return dir;
};
afterEach(async () => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  for (const dir of folders.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe('installOnce', () => {
  // Quiet: each install announces itself on the console.
  beforeEach(() => void vi.spyOn(console, 'log').mockImplementation(() => undefined));
  it('installs once when several callers race, and each finds the whole install', async () => {
    const target = join(await folder(), 'thing-1.0.0');
    let fills = 0;
    const fill = async (dir: string) => {
      fills++;
      await writeFile(join(dir, 'a'), 'first half');
      await new Promise((resolve) => setImmediate(resolve));
      await writeFile(join(dir, 'b'), 'second half');
    };
    const results = await Promise.all([
      installOnce(target, fill),
      installOnce(target, fill),
      installOnce(target, fill),
    ]);
    expect(fills).toBe(1);
    expect(results.filter(Boolean)).toHaveLength(1);
    expect((await readdir(target)).sort()).toEqual(['.installed', 'a', 'b']);
    // nothing beside it: no lock, no partial folder
    expect(readdirSync(join(target, '..'))).toEqual(['thing-1.0.0']);
    expect(await installOnce(target, fill)).toBe(false);
  });

  it('takes over the lock and the partial folder of an install whose process is gone', async () => {
    const root = await folder();
    const target = join(root, 'thing-1.0.0');
    // a process that has ended: its pid is free
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString();
    await mkdir(`${target}.lock`);
    await writeFile(join(`${target}.lock`, 'pid'), gone);
    await mkdir(`${target}.partial-abc123`);
    await writeFile(join(`${target}.partial-abc123`, 'a'), 'cut off');
    expect(await installOnce(target, (dir) => writeFile(join(dir, 'a'), 'whole'))).toBe(true);
    expect(readFileSync(join(target, 'a'), 'utf8')).toBe('whole');
    expect(readdirSync(root)).toEqual(['thing-1.0.0']);
  });

  it('leaves nothing in place when the install fails', async () => {
    const root = await folder();
    const target = join(root, 'thing-1.0.0');
    await expect(
      installOnce(target, async (dir) => {
        await writeFile(join(dir, 'a'), 'half');
        throw new Error('registry unreachable');
      }),
    ).rejects.toThrow('registry unreachable');
    expect(existsSync(target)).toBe(false);
    expect(readdirSync(root)).toEqual([]);
  });
});

describe('a PDS that cannot start', () => {
  /** A cache folder that cannot be made (its parent is a file): the install fails at once. */
  const brokenCache = async () => {
    const file = join(await folder(), 'not-a-folder');
    await writeFile(file, '');
    vi.stubEnv('XDG_CACHE_HOME', file);
  };

  it('skips the Bluesky tests with one line saying why', async () => {
    await brokenCache();
    vi.stubEnv('REQUIRE_CHANNEL_SERVERS', '');
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    expect(await atprotoPdsOrSkip()).toBeUndefined();
    expect(log).toHaveBeenCalledTimes(1);
    expect(log.mock.calls[0]![0]).toMatch(
      /^SKIPPED: Bluesky client tests \(the test PDS could not start: .*ENOTDIR.*; REQUIRE_CHANNEL_SERVERS=1 makes this fail\)$/,
    );
  });

  it('fails the run with REQUIRE_CHANNEL_SERVERS=1', async () => {
    await brokenCache();
    vi.stubEnv('REQUIRE_CHANNEL_SERVERS', '1');
    await expect(atprotoPdsOrSkip()).rejects.toThrow(/ENOTDIR/);
  });
});
