// `npm test`: install what is missing, type-check every workspace, lint (`npm run lint`), build the
// SPA (browser journeys run against it), then run every workspace's tests with Vitest. Extra
// arguments go to Vitest and make it a partial run, which skips the lint.
import { ensureInstalled, ensureJava, run } from './prepare.mjs';

ensureInstalled();
ensureJava();

for (const project of ['shared', 'functions', 'frontend', 'infra']) {
  if (run(process.execPath, ['node_modules/typescript/bin/tsc', '-p', project]) !== 0) {
    console.error(`Type errors in ${project}/: see above.`);
    process.exit(1);
  }
}
const vitestArgs = process.argv.slice(2);
if (vitestArgs.length === 0 && run('npm', ['run', 'lint', '--silent']) !== 0) {
  console.error('Lint or format problems: see above (`npm run format` rewrites the formatting).');
  process.exit(1);
}
if (run('npm', ['run', 'build', '-w', 'frontend', '--silent']) !== 0) process.exit(1);
process.exit(run(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', ...vitestArgs]));
