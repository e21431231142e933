import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LAMBDA_NPM_INSTALL_ENV } from '../lib/app-function.js';
import { installLambdaModules, lambdaModulesKey, type LambdaModules } from '../lib/lambda-modules.js';

// The install itself (npm ci from the registry) runs in shipped-bundles.test.ts; here, what decides an entry and
// its reuse, on a cache entry made by hand.
const work = mkdtempSync(join(tmpdir(), 'lambda-modules-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const lockFile = join(work, 'package-lock.json');
writeFileSync(lockFile, JSON.stringify({ lockfileVersion: 3, packages: { '': {} } }));
const modules: LambdaModules = {
  dependencies: { tiny: '^1.0.0' },
  lockFile,
  environment: LAMBDA_NPM_INSTALL_ENV,
};

describe('the on-demand packages of a Lambda asset (lambda-modules.ts)', () => {
  it('keys an install by its packages, the lock file and the npm settings', () => {
    const key = lambdaModulesKey(modules);
    expect(lambdaModulesKey({ ...modules, environment: { ...LAMBDA_NPM_INSTALL_ENV } })).toBe(key);
    expect(lambdaModulesKey({ ...modules, dependencies: { tiny: '^1.0.1' } })).not.toBe(key);
    expect(
      lambdaModulesKey({ ...modules, environment: { ...LAMBDA_NPM_INSTALL_ENV, npm_config_cpu: 'x64' } }),
    ).not.toBe(key);
    const otherLock = join(work, 'other-lock.json');
    writeFileSync(otherLock, JSON.stringify({ lockfileVersion: 3, packages: { '': { name: 'x' } } }));
    expect(lambdaModulesKey({ ...modules, lockFile: otherLock })).not.toBe(key);
  });

  it('gives an asset the cached node_modules without installing, with the package.json and lock file npm ci had', () => {
    const cache = join(work, 'cache');
    const entry = join(cache, lambdaModulesKey(modules), 'node_modules', 'tiny');
    mkdirSync(entry, { recursive: true });
    writeFileSync(join(entry, 'package.json'), '{"name":"tiny","version":"1.0.0"}');
    const assets = [join(work, 'asset-a'), join(work, 'asset-b')];
    for (const asset of assets) {
      mkdirSync(asset);
      expect(installLambdaModules(asset, modules, cache)).toEqual({ installed: false });
      expect(JSON.parse(readFileSync(join(asset, 'package.json'), 'utf8'))).toEqual({
        dependencies: { tiny: '^1.0.0' },
      });
      expect(readFileSync(join(asset, 'package-lock.json'), 'utf8')).toBe(readFileSync(lockFile, 'utf8'));
      const shipped = join(asset, 'node_modules', 'tiny', 'package.json');
      expect(readFileSync(shipped, 'utf8')).toBe('{"name":"tiny","version":"1.0.0"}');
      // The same file as the cache's (a hard link: both are under the same temp folder).
      expect(statSync(shipped).ino).toBe(statSync(join(entry, 'package.json')).ino);
    }
    expect(existsSync(join(cache, `${lambdaModulesKey(modules)}.partial-${process.pid}`))).toBe(false);
  });
});
