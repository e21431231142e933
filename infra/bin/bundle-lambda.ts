/**
 * `node --import tsx infra/bin/bundle-lambda.ts <entry> <outdir> <tsconfig>`: bundles one Lambda entry as it
 * ships (infra/lib/bundling.ts, buildLambdaBundle: `index.mjs`, its `chunks/`, source maps without the sources' text) into
 * `outdir`, replacing the single file NodejsFunction wrote there (its `afterBundling` step, app-function.ts).
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { buildLambdaBundle } from '../lib/bundling.js';

const [entry, outdir, tsconfig] = process.argv.slice(2);
if (!entry || !outdir || !tsconfig) throw new Error('usage: bundle-lambda.ts <entry> <outdir> <tsconfig>');
rmSync(join(outdir, 'index.mjs'), { force: true });
rmSync(join(outdir, 'index.mjs.map'), { force: true });
await buildLambdaBundle(entry, tsconfig, outdir, { sourcemap: true });
