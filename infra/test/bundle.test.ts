import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { routeGroups } from '@app/shared/api';
import { ApiFunction } from '../lib/api-function.js';
import { onDemandModulesOf } from '../lib/bundling.js';
import { lambdaEntryPath, repoRoot } from '../lib/paths.js';
import { cdkJsonContext, tempDir } from './helpers.js';

// A function without on-demand packages: its asset is the bundle alone (no node_modules beside it).
const group = routeGroups().find((g) => onDemandModulesOf(g).length === 0)!;
const entry = lambdaEntryPath(repoRoot, group);

/** Budget from docs/testing.md (the bench checks it too): each Lambda bundle ≤ 1 MB minified. */
const MAX_BUNDLE_BYTES = 1024 * 1024;

describe('real bundling (esbuild, local)', () => {
  it.skipIf(!existsSync(entry))(
    `bundles the ${group} function: minified ESM split into chunks, with source maps, under 1 MB`,
    () => {
      const outdir = tempDir('bundle');
      const app = new App({ outdir, context: cdkJsonContext() });
      const stack = new Stack(app, 'BundleTest');
      new ApiFunction(stack, 'Fn', { group, entry, projectRoot: repoRoot, environment: { TABLE_NAME: 't' } });

      const started = Date.now();
      const assembly = app.synth();
      expect(Date.now() - started).toBeLessThan(60_000);

      const code = Template.fromStack(stack).findResources('AWS::Lambda::Function');
      const [fn] = Object.values(code) as { Properties: { Code: { S3Key: string }; Handler: string } }[];
      expect(fn!.Properties.Handler).toBe('index.handler');

      const assetDir = join(assembly.directory, `asset.${fn!.Properties.Code.S3Key.replace(/\.zip$/, '')}`);
      const files = readdirSync(assetDir).sort();
      expect(files).toEqual(['chunks', 'index.mjs']);
      // Split (bundling.ts): the chunks only some calls load, each with its source map.
      const chunks = readdirSync(join(assetDir, 'chunks'));
      const chunkCode = chunks.filter((f) => f.endsWith('.mjs'));
      expect(chunkCode.length).toBeGreaterThan(0);
      expect(chunks.filter((f) => f.endsWith('.mjs.map')).sort()).toEqual(chunkCode.map((f) => `${f}.map`).sort());

      // index.mjs is one line that re-exports `handler` from the start chunk, which holds all a cold start needs
      // (bundling.ts, buildLambdaBundle): it has no code of its own to map.
      const entryFile = readFileSync(join(assetDir, 'index.mjs'), 'utf8');
      const start = /^export\s*\{\s*\w+ as handler\s*\}\s*from\s*"\.\/chunks\/(start-[\w-]+\.mjs)";?\s*$/.exec(
        entryFile,
      );
      expect(start, entryFile).not.toBeNull();
      const startName = start![1]!;
      const bundle = readFileSync(join(assetDir, 'chunks', startName), 'utf8');
      const bytes = ['index.mjs', ...chunkCode.map((f) => `chunks/${f}`)].reduce(
        (total, f) => total + statSync(join(assetDir, f)).size,
        0,
      );
      expect(bytes).toBeLessThanOrEqual(MAX_BUNDLE_BYTES);
      // The start chunk: ES module with a source map link, the AWS SDK bundled (bundling.ts).
      expect(bundle).toMatch(new RegExp(`//# sourceMappingURL=${startName.replace(/[.-]/g, '\\$&')}\\.map\\s*$`));
      expect(bundle).not.toMatch(/(from|import\()\s*"\.\.\//); // no relative import left unbundled, only its chunks
      expect(bundle).not.toMatch(/(from|import\()\s*"@aws-sdk\//);
      // Minified: few, long lines.
      expect(bundle.split('\n').length).toBeLessThan(200);
      const map = JSON.parse(readFileSync(join(assetDir, 'chunks', `${startName}.map`), 'utf8')) as {
        sources: string[];
        sourcesContent?: unknown;
      };
      expect(map.sources.some((s) => s.includes(`functions/src/lambda/${group}.ts`))).toBe(true);
      expect(map.sourcesContent).toBeUndefined();

      // The bundle loads as an ES module in a fresh Node process and exports a handler function.
      // It is copied outside the repository: it needs no node_modules (this function uses no
      // on-demand package), as in the Lambda runtime.
      const loadDir = mkdtempSync(join(tmpdir(), 'bundle-'));
      try {
        cpSync(assetDir, loadDir, { recursive: true });
        const probe = spawnSync(
          process.execPath,
          [
            '--enable-source-maps',
            '--input-type=module',
            '-e',
            `const m = await import(${JSON.stringify(pathToFileURL(join(loadDir, 'index.mjs')).href)}); console.log(typeof m.handler);`,
          ],
          { encoding: 'utf8', env: { ...process.env, TABLE_NAME: 't', AWS_REGION: 'us-east-1' }, timeout: 30_000 },
        );
        expect(probe.stderr).toBe('');
        expect(probe.stdout.trim()).toBe('function');
      } finally {
        rmSync(loadDir, { recursive: true, force: true });
      }
    },
  );
});
