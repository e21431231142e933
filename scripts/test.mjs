// `npm test`: install what is missing, type-check every workspace, lint (`npm run lint`), build the
// SPA (browser journeys run against it), then run every workspace's tests with Vitest. Extra
// arguments go to Vitest and make it a partial run, which skips the lint.
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { ensureInstalled, ensureJava, localEnv, root, run } from './prepare.mjs';

ensureInstalled();
ensureJava();

const vitestArgs = process.argv.slice(2);
const tsc = 'node_modules/typescript/bin/tsc';

/**
 * The checks before Vitest. Each is one process that keeps one core busy, so they run side by side, as many at once
 * as the machine has cores, the longest first (on 2 cores: the lint beside the four type checks and the build, about
 * half the time of one after another; docs/testing.md, Run time). Each one's output is printed whole when it ends.
 */
const steps = [
  ...(vitestArgs.length === 0
    ? [
        {
          name: 'lint',
          command: 'npm',
          args: ['run', 'lint', '--silent'],
          failure: 'Lint or format problems: see above (`npm run format` rewrites the formatting).',
        },
      ]
    : []),
  ...['functions', 'infra', 'frontend', 'shared'].map((project) => ({
    name: `type check of ${project}/`,
    command: process.execPath,
    args: [tsc, '-p', project],
    failure: `Type errors in ${project}/: see above.`,
  })),
  {
    name: 'SPA build',
    command: 'npm',
    args: ['run', 'build', '-w', 'frontend', '--silent'],
    failure: 'The SPA build failed: see above.',
  },
];

/** Runs one step with its output kept; resolves to whether it passed. */
function runStep(step) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(step.command, step.args, { cwd: root, env: localEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    const output = [];
    child.stdout.on('data', (d) => output.push(d));
    child.stderr.on('data', (d) => output.push(d));
    let ended = false;
    // A command that cannot start reports 'error' and then 'close': one report.
    const finish = (status, error) => {
      if (ended) return;
      ended = true;
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      process.stdout.write(Buffer.concat(output));
      if (error) console.error(error.message);
      console.log(`${status === 0 ? '✓' : '✗'} ${step.name} (${seconds} s)`);
      if (status !== 0) console.error(step.failure);
      resolve(status === 0);
    };
    child.once('error', (error) => finish(1, error));
    child.once('close', (code) => finish(code ?? 1));
  });
}

const queue = [...steps];
const results = [];
const lane = async () => {
  for (let step = queue.shift(); step; step = queue.shift()) results.push(await runStep(step));
};
await Promise.all(Array.from({ length: Math.min(availableParallelism(), steps.length) }, lane));
if (results.includes(false)) process.exit(1);

process.exit(run(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', ...vitestArgs]));
