import { isBuiltin } from 'node:module';
import { join } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { routeGroups } from '@app/shared/api';
import {
  ON_DEMAND_MODULES_BY_FUNCTION,
  lambdaBuildOptions,
  onDemandModulesOf,
  unbundledPackages,
} from '../lib/bundling.js';
import { lambdaEntryPath, repoRoot } from '../lib/paths.js';
import { WORKER_ENTRY_NAME } from '../lib/worker-function.js';

const names = [...routeGroups(), WORKER_ENTRY_NAME];

const bundle = (name: string) =>
  build({
    ...lambdaBuildOptions(lambdaEntryPath(repoRoot, name), join(repoRoot, 'functions', 'tsconfig.json')),
    write: false,
    outfile: join(repoRoot, '.tmp', `${name}.mjs`),
  });

/** The packages left out of a Lambda's bundle that its code imports (Node built-ins aside). */
async function unbundledImports(name: string): Promise<string[]> {
  return unbundledPackages((await bundle(name)).metafile);
}

/** The packages the finished bundle imports statically, at load (Node built-ins aside). */
async function packagesLoadedAtStart(name: string): Promise<string[]> {
  const { metafile } = await bundle(name);
  return Object.values(metafile.outputs)
    .flatMap((output) => output.imports)
    .filter((imported) => imported.kind === 'import-statement' && !isBuiltin(imported.path))
    .map((imported) => imported.path);
}

describe('on-demand packages (bundling.ts)', () => {
  it('names only Lambda functions that exist', () => {
    for (const name of Object.keys(ON_DEMAND_MODULES_BY_FUNCTION)) expect(names).toContain(name);
  });

  // A package a function's code imports but its asset lacks would fail that call in AWS only;
  // one installed but never imported only makes the asset bigger.
  it.each(names)('%s installs exactly the on-demand packages its code imports', async (name) => {
    expect(await unbundledImports(name)).toEqual([...onDemandModulesOf(name)].sort());
  });

  // esbuild hoists a bundled module's static imports of an unbundled package to the bundle's top,
  // even when the code reaches that module with `await import()`: the package would then load at
  // every cold start (once the S3 client, through the bundled presigned-post package, +100 ms).
  it.each(names)('%s loads no on-demand package at start', async (name) => {
    expect(await packagesLoadedAtStart(name)).toEqual([]);
  });
});
