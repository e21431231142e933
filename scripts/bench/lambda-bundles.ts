/**
 * Bundles every Lambda entry exactly as the stack does (infra/lib/bundling.ts) and measures each
 * bundle: its minified size, the on-demand packages it imports, and how long importing it takes
 * in a fresh Node process (the cold-start share our code controls; docs/testing.md, Performance budgets),
 * side by side with the floor: a bundle of the DynamoDB document client alone (floor-lambda.ts), which
 * every function needs. The budget is the ratio, which a busy machine slows alike on both sides.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { stop as stopEsbuild } from 'esbuild';
import { routeGroups } from '@app/shared/api';
import { buildLambdaBundle, outputsLoadedAtStart, unbundledPackages } from '../../infra/lib/bundling.js';
import { lambdaEntryPath, repoRoot } from '../../infra/lib/paths.js';
import { WORKER_ENTRY_NAME } from '../../infra/lib/worker-function.js';

export interface LambdaBundleMeasure {
  name: string;
  /** Minified bundle size in bytes: the entry and all its chunks (the on-demand packages excluded: they load only when used). */
  bytes: number;
  /** What a cold start loads of it: the entry and the chunks it imports statically, in bytes. */
  startBytes: number;
  /** Median time of `await import(bundle)` in a fresh Node process, in ms. */
  importMs: number;
  /** Median CPU time (user + system) of that import, in ms. */
  importCpuMs: number;
  /** Median import time of the floor bundle in the runs alternating with this bundle's, in ms. */
  floorMs: number;
  floorCpuMs: number;
  /** importMs / floorMs: the budget (docs/testing.md). */
  ratio: number;
  /** importCpuMs / floorCpuMs, for context. */
  cpuRatio: number;
  /** On-demand packages (LAMBDA_ESBUILD.external) the bundle imports. */
  onDemand: string[];
}

/** The floor's entry: the DynamoDB document client alone, bundled like the functions. */
export const FLOOR_ENTRY = fileURLToPath(new URL('./floor-lambda.ts', import.meta.url));
export const FLOOR_NAME = 'floor (DynamoDB document client only)';

/** Every Lambda entry: one per route group, and the worker. */
export const lambdaNames = (): string[] => [...routeGroups(), WORKER_ENTRY_NAME];

/**
 * Bundles one entry like the stack does (its `index.mjs` and chunks); returns the entry's path, the size of
 * all its files, the size a cold start loads (the entry and the chunks it imports statically), and its
 * on-demand imports.
 */
export async function bundleLambda(
  name: string,
  outDir: string,
  entry = lambdaEntryPath(repoRoot, name),
): Promise<{ file: string; bytes: number; startBytes: number; onDemand: string[] }> {
  const dir = join(outDir, name);
  const result = await buildLambdaBundle(entry, join(repoRoot, 'functions', 'tsconfig.json'), dir);
  const outputs = result.metafile.outputs;
  const sum = (files: string[]) => files.reduce((total, file) => total + outputs[file]!.bytes, 0);
  return {
    file: join(dir, 'index.mjs'),
    bytes: sum(Object.keys(outputs)),
    startBytes: sum(outputsLoadedAtStart(result.metafile)),
    onDemand: unbundledPackages(result.metafile),
  };
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
 * Imports each bundle `runs` times in fresh Node processes, each time next to an import of the floor
 * bundle (the two in turn, which goes first alternating), and answers per bundle the median wall and
 * CPU times of its imports and of the floor's imports paired with them. The runs go round the bundles,
 * so a burst of noise on the machine spreads over all of them, and lands on a bundle and its floor alike.
 */
export function pairedImportTimes(
  floor: string,
  files: string[],
  runs = 15,
): { wallMs: number; cpuMs: number; floorWallMs: number; floorCpuMs: number; ratio: number; cpuRatio: number }[] {
  const samples = files.map(() => ({
    wall: [] as number[],
    cpu: [] as number[],
    floorWall: [] as number[],
    floorCpu: [] as number[],
    ratio: [] as number[],
    cpuRatio: [] as number[],
  }));
  for (let i = 0; i < runs; i++) {
    files.forEach((file, j) => {
      const [a, b] = i % 2 === 0 ? [floor, file] : [file, floor];
      const first = importOnce(a);
      const second = importOnce(b);
      const [base, own] = i % 2 === 0 ? [first, second] : [second, first];
      const s = samples[j]!;
      s.wall.push(own.wallMs);
      s.cpu.push(own.cpuMs);
      s.floorWall.push(base.wallMs);
      s.floorCpu.push(base.cpuMs);
      s.ratio.push(own.wallMs / base.wallMs);
      s.cpuRatio.push(own.cpuMs / base.cpuMs);
    });
  }
  return samples.map((s) => ({
    wallMs: median(s.wall),
    cpuMs: median(s.cpu),
    floorWallMs: median(s.floorWall),
    floorCpuMs: median(s.floorCpu),
    ratio: median(s.ratio),
    cpuRatio: median(s.cpuRatio),
  }));
}

/**
 * Bundles and measures every Lambda, and the floor. Bundles are written inside the repository
 * (git-ignored `.tmp/`) so the on-demand packages resolve from the workspace's node_modules. All are
 * bundled first and esbuild's service is stopped before any import is timed, so it does not share the CPU.
 */
export async function measureLambdaBundles(
  names: string[] = lambdaNames(),
  runs = 15,
): Promise<{ floor: { bytes: number; startBytes: number; importMs: number }; bundles: LambdaBundleMeasure[] }> {
  mkdirSync(join(repoRoot, '.tmp'), { recursive: true });
  const outDir = mkdtempSync(join(repoRoot, '.tmp', 'bench-bundles-'));
  try {
    const floor = await bundleLambda('floor', outDir, FLOOR_ENTRY);
    const bundles = [];
    for (const name of names) bundles.push({ name, ...(await bundleLambda(name, outDir)) });
    await stopEsbuild();
    const times = pairedImportTimes(
      floor.file,
      bundles.map((b) => b.file),
      runs,
    );
    return {
      floor: { bytes: floor.bytes, startBytes: floor.startBytes, importMs: median(times.map((t) => t.floorWallMs)) },
      bundles: bundles.map(({ name, bytes, startBytes, onDemand }, i) => {
        const t = times[i]!;
        return {
          name,
          bytes,
          startBytes,
          importMs: t.wallMs,
          importCpuMs: t.cpuMs,
          floorMs: t.floorWallMs,
          floorCpuMs: t.floorCpuMs,
          ratio: t.ratio,
          cpuRatio: t.cpuRatio,
          onDemand,
        };
      }),
    };
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

// `node --import tsx scripts/bench/lambda-bundles.ts [names…]`: just this part of the bench
// (BENCH_IMPORT_RUNS: the pairs per bundle, default 15).
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const names = process.argv.slice(2);
  const { floor, bundles } = await measureLambdaBundles(
    names.length ? names : undefined,
    Number(process.env.BENCH_IMPORT_RUNS ?? 15),
  );
  console.log(
    `floor      ${String(floor.bytes).padStart(9)} B (${String(floor.startBytes).padStart(7)} B at start) ${floor.importMs.toFixed(0).padStart(5)} ms`,
  );
  for (const m of bundles)
    console.log(
      `${m.name.padEnd(10)} ${String(m.bytes).padStart(9)} B (${String(m.startBytes).padStart(7)} B at start) ${m.importMs.toFixed(0).padStart(5)} ms vs floor ${m.floorMs.toFixed(0).padStart(4)} ms: ` +
        `${m.ratio.toFixed(2)}× (cpu ${m.importCpuMs.toFixed(0)}/${m.floorCpuMs.toFixed(0)} ms: ${m.cpuRatio.toFixed(2)}×)  ${m.onDemand.join(', ')}`,
    );
}
