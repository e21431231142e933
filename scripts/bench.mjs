// `npm run bench`: install what is missing, check Java, then measure the performance
// budgets on the local stack (scripts/bench/index.ts). Extra arguments pick parts: welcome, lambdas, stack, scale, lighthouse.
import { ensureInstalled, ensureJava, run } from './prepare.mjs';

ensureInstalled();
ensureJava();
process.exit(run(process.execPath, ['--import', 'tsx', 'scripts/bench/index.ts', ...process.argv.slice(2)]));
