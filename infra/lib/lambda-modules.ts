/**
 * The on-demand packages of a Lambda asset (`package.json`, `package-lock.json`, `node_modules/`), installed the way
 * NodejsFunction's `nodeModules` installs them (the package.json it writes, the workspace's lock file, `npm ci` with
 * the given npm settings), but each distinct install done once per machine: its `node_modules` is kept in a cache
 * folder keyed by what decides it (the package.json written, the lock file, the npm settings) and linked into every
 * asset that needs the same (hard links where the cache and the asset share a file system, a copy otherwise). Several
 * functions carry the same packages, and every synth with bundling installed each again (docs/testing.md, Run time).
 * The asset's files are the same either way, so is its hash (computed from its contents).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** `${XDG_CACHE_HOME:-~/.cache}/content-publisher/lambda-modules`: outside the clone, kept between runs. */
export function lambdaModulesCacheDir(): string {
  return join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'content-publisher', 'lambda-modules');
}

export interface LambdaModules {
  /** Package name → version, as the function's package.json gives them. */
  dependencies: Record<string, string>;
  /** The workspace's package-lock.json. */
  lockFile: string;
  /** npm settings of the install (`npm_config_*`). */
  environment: Readonly<Record<string, string>>;
}

/** The package.json NodejsFunction writes beside a bundle with `nodeModules`. */
const packageJsonOf = (modules: LambdaModules): string => JSON.stringify({ dependencies: modules.dependencies });

/** The cache entry's name: a hash of everything that decides the installed tree. */
export function lambdaModulesKey(modules: LambdaModules): string {
  const settings = Object.entries(modules.environment).sort(([a], [b]) => a.localeCompare(b));
  return createHash('sha256')
    .update(packageJsonOf(modules))
    .update('\0')
    .update(readFileSync(modules.lockFile))
    .update('\0')
    .update(JSON.stringify(settings))
    .digest('hex')
    .slice(0, 24);
}

/**
 * Writes the asset's package.json and package-lock.json into `outputDir` and gives it its `node_modules`: from the
 * cache entry, which is made first (`npm ci` in a folder of its own, renamed into place once complete, so a half-made
 * entry is never used; of two processes making the same entry, the first renamed is kept) when missing. Answers
 * whether the entry was made now. Delete the cache folder to install again.
 */
export function installLambdaModules(
  outputDir: string,
  modules: LambdaModules,
  cacheDir: string = lambdaModulesCacheDir(),
): { installed: boolean } {
  const packageJson = packageJsonOf(modules);
  writeFileSync(join(outputDir, 'package.json'), packageJson);
  copyFileSync(modules.lockFile, join(outputDir, 'package-lock.json'));

  const entry = join(cacheDir, lambdaModulesKey(modules));
  const installed = !existsSync(join(entry, 'node_modules'));
  if (installed) {
    const partial = `${entry}.partial-${process.pid}`;
    rmSync(partial, { recursive: true, force: true });
    mkdirSync(partial, { recursive: true });
    try {
      writeFileSync(join(partial, 'package.json'), packageJson);
      copyFileSync(modules.lockFile, join(partial, 'package-lock.json'));
      const npm = spawnSync('npm', ['ci'], {
        cwd: partial,
        env: { ...process.env, ...modules.environment },
        stdio: ['ignore', 'inherit', 'inherit'],
      });
      if (npm.status !== 0) throw new Error(`npm ci of ${Object.keys(modules.dependencies).join(', ')} failed`);
      try {
        renameSync(partial, entry);
      } catch (error) {
        // Another process made the same entry meanwhile: its copy is kept.
        if (!existsSync(join(entry, 'node_modules'))) throw error;
      }
    } finally {
      rmSync(partial, { recursive: true, force: true });
    }
  }

  const target = join(outputDir, 'node_modules');
  rmSync(target, { recursive: true, force: true });
  const linked = spawnSync('cp', ['-al', join(entry, 'node_modules'), target], { stdio: 'ignore' });
  if (linked.status !== 0) {
    rmSync(target, { recursive: true, force: true });
    cpSync(join(entry, 'node_modules'), target, { recursive: true, verbatimSymlinks: true });
  }
  return { installed };
}
