/**
 * `node --import tsx infra/bin/install-lambda-modules.ts <outdir> <modules as JSON>`: a function's on-demand packages
 * beside its bundle (infra/lib/lambda-modules.ts), NodejsFunction's `afterBundling` step (app-function.ts).
 */
import { installLambdaModules, type LambdaModules } from '../lib/lambda-modules.js';

const [outdir, modules] = process.argv.slice(2);
if (!outdir || !modules) throw new Error('usage: install-lambda-modules.ts <outdir> <modules as JSON>');
installLambdaModules(outdir, JSON.parse(modules) as LambdaModules);
