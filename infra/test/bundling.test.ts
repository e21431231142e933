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

/** The packages left out of a Lambda's bundle that its code imports (Node built-ins aside). */
async function unbundledImports(name: string): Promise<string[]> {
  const result = await build({
    ...lambdaBuildOptions(lambdaEntryPath(repoRoot, name), join(repoRoot, 'functions', 'tsconfig.json')),
    write: false,
    outfile: join(repoRoot, '.tmp', `${name}.mjs`),
  });
  return unbundledPackages(result.metafile);
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
});
