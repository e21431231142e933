/**
 * Bundles every Lambda entry exactly as the stack does (infra/lib/bundling.ts) and measures each
 * bundle: its minified size, the on-demand packages it imports, and how long importing it takes
 * in a fresh Node process (the cold-start share our code controls; docs/testing.md, Performance budgets).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, stop as stopEsbuild } from 'esbuild';
import { routeGroups } from '@app/shared/api';
import { lambdaBuildOptions, unbundledPackages } from '../../infra/lib/bundling.js';
import { lambdaEntryPath, repoRoot } from '../../infra/lib/paths.js';
import { WORKER_ENTRY_NAME } from '../../infra/lib/worker-function.js';

export interface LambdaBundleMeasure {
  name: string;
  /** Minified bundle size in bytes (the on-demand packages excluded: they load only when used). */
  bytes: number;
  /** Median time of `await import(bundle)` in a fresh Node process, in ms. */
  importMs: number;
  /** Median CPU time (user + system) of that import, in ms: steadier than wall time on a busy machine. */
  importCpuMs: number;
  /** On-demand packages (LAMBDA_ESBUILD.external) the bundle imports. */
  onDemand: string[];
}

/** Every Lambda entry: one per route group, and the worker. */
export const lambdaNames = (): string[] => [...routeGroups(), WORKER_ENTRY_NAME];

/** Bundles one entry like the stack does; returns the bundle's path, size and on-demand imports. */
export async function bundleLambda(
  name: string,
  outDir: string,
): Promise<{ file: string; bytes: number; onDemand: string[] }> {
  const file = join(outDir, name, 'index.mjs');
  const result = await build({
    ...lambdaBuildOptions(lambdaEntryPath(repoRoot, name), join(repoRoot, 'functions', 'tsconfig.json')),
    outfile: file,
  });
  return { file, bytes: statSync(file).size, onDemand: unbundledPackages(result.metafile) };
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Imports a bundle once in a fresh Node process; wall and CPU (user + system) time of the import in ms. */
function importOnce(file: string): { wallMs: number; cpuMs: number } {
  const url = pathToFileURL(file).href;
  const script =
    `const t = performance.now(), c = process.cpuUsage(); await import(${JSON.stringify(url)}); ` +
    `const u = process.cpuUsage(c); process.stdout.write(JSON.stringify([performance.now() - t, (u.user + u.system) / 1000]));`;
  const probe = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH,
      AWS_REGION: 'us-east-1',
      TABLE_NAME: 'bench',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    },
    timeout: 30_000,
  });
  if (probe.status !== 0) throw new Error(`Importing ${file} failed: ${probe.stderr.slice(0, 500)}`);
  const [wallMs, cpuMs] = JSON.parse(probe.stdout) as [number, number];
  return { wallMs, cpuMs };
}

/**
 * Imports each bundle `runs` times in fresh Node processes and answers the median wall and CPU
 * times per bundle. The runs go round the bundles in turn, so a burst of noise on the machine
 * spreads over all of them instead of landing on one.
 */
export function importTimes(files: string[], runs = 9): { wallMs: number; cpuMs: number }[] {
  const samples = files.map(() => ({ wall: [] as number[], cpu: [] as number[] }));
  for (let i = 0; i < runs; i++) {
    files.forEach((file, j) => {
      const { wallMs, cpuMs } = importOnce(file);
      samples[j]!.wall.push(wallMs);
      samples[j]!.cpu.push(cpuMs);
    });
  }
  return samples.map(({ wall, cpu }) => ({ wallMs: median(wall), cpuMs: median(cpu) }));
}

/**
 * Bundles and measures every Lambda. Bundles are written inside the repository (git-ignored
 * `.tmp/`) so the on-demand packages resolve from the workspace's node_modules. All are bundled
 * first and esbuild's service is stopped before any import is timed, so it does not share the CPU.
 */
export async function measureLambdaBundles(names: string[] = lambdaNames()): Promise<LambdaBundleMeasure[]> {
  mkdirSync(join(repoRoot, '.tmp'), { recursive: true });
  const outDir = mkdtempSync(join(repoRoot, '.tmp', 'bench-bundles-'));
  try {
    const bundles = [];
    for (const name of names) bundles.push({ name, ...(await bundleLambda(name, outDir)) });
    await stopEsbuild();
    const times = importTimes(bundles.map((b) => b.file));
    return bundles.map(({ name, bytes, onDemand }, i) => ({
      name,
      bytes,
      importMs: times[i]!.wallMs,
      importCpuMs: times[i]!.cpuMs,
      onDemand,
    }));
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

// `node --import tsx scripts/bench/lambda-bundles.ts [names…]`: just this part of the bench.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const names = process.argv.slice(2);
  for (const m of await measureLambdaBundles(names.length ? names : undefined))
    console.log(
      `${m.name.padEnd(10)} ${String(m.bytes).padStart(9)} B ${m.importMs.toFixed(0).padStart(5)} ms (cpu ${m.importCpuMs.toFixed(0).padStart(4)} ms)  ${m.onDemand.join(', ')}`,
    );
}
