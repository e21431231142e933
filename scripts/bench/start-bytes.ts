/**
 * What a Lambda's cold start loads, by package: bundles each entry as the stack does (infra/lib/bundling.ts) and
 * sums, over the outputs a cold start loads (`outputsLoadedAtStart`), each input's bytes in the output, grouped by
 * package (`zod`, `@aws-sdk/client-dynamodb`, …) or, for the project's own code, by workspace folder
 * (`shared/src`, `functions/src/domain`, …). `node --import tsx scripts/bench/start-bytes.ts [names…]`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stop as stopEsbuild } from 'esbuild';
import { buildLambdaBundle, outputsLoadedAtStart } from '../../infra/lib/bundling.js';
import { lambdaEntryPath, repoRoot } from '../../infra/lib/paths.js';
import { lambdaNames } from './lambda-bundles.js';

/** The package (or the project's folder) an esbuild input path belongs to. */
export function ownerOf(input: string): string {
  const modules = input.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const parts = input.slice(modules + 'node_modules/'.length).split('/');
    return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
  }
  const parts = input.split('/');
  return parts.slice(0, parts[0] === 'functions' && parts[1] === 'src' ? 3 : 2).join('/');
}

export async function startBytesByOwner(name: string, outDir: string): Promise<Map<string, number>> {
  const result = await buildLambdaBundle(
    lambdaEntryPath(repoRoot, name),
    join(repoRoot, 'functions', 'tsconfig.json'),
    join(outDir, name),
  );
  const totals = new Map<string, number>();
  for (const output of outputsLoadedAtStart(result.metafile))
    for (const [input, { bytesInOutput }] of Object.entries(result.metafile.outputs[output]!.inputs))
      totals.set(ownerOf(input), (totals.get(ownerOf(input)) ?? 0) + bytesInOutput);
  return totals;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const names = process.argv.slice(2).length ? process.argv.slice(2) : lambdaNames();
  const outDir = mkdtempSync(join(tmpdir(), 'start-bytes-'));
  try {
    for (const name of names) {
      const totals = [...(await startBytesByOwner(name, outDir))].sort((a, b) => b[1] - a[1]);
      const all = totals.reduce((sum, [, bytes]) => sum + bytes, 0);
      console.log(`${name}: ${(all / 1000).toFixed(0)} kB at start`);
      for (const [owner, bytes] of totals.filter(([, b]) => b >= 1000))
        console.log(`  ${(bytes / 1000).toFixed(1).padStart(7)} kB  ${owner}`);
    }
  } finally {
    rmSync(outDir, { recursive: true, force: true });
    await stopEsbuild();
  }
}
