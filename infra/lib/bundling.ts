/**
 * How every Lambda entry is bundled (esbuild through NodejsFunction), in one place so that the
 * stack, its tests and `npm run bench` bundle the same way.
 *
 * Cold start (docs/testing.md, Performance budgets: bundle ≤ 1 MB, import ≤ 1.3× a bundle of the DynamoDB
 * document client alone) decides the shape:
 * - The AWS SDK v3 clients every call needs (DynamoDB, Secrets Manager, …) are bundled, from their
 *   ES module build, tree-shaken. Left to the runtime's copy
 *   it is hundreds of CommonJS files that Node resolves and scans one by one at every cold start
 *   (the DynamoDB client alone takes ~140 ms to import that way).
 * - A few heavy packages only some calls need are loaded with `await import()` by those calls and
 *   are not bundled: the function that uses one gets it installed next to its bundle. A call that
 *   does not need them (listing articles, say) never loads them.
 * - Code split: each bundle is `index.mjs` and a `chunks/` folder. What the code (ours or the AWS SDK's)
 *   reaches only through `import()` is a chunk of its own that Node reads and parses when a call first
 *   imports it: the Lambda, SQS and Scheduler clients (functions/src/adapters/aws/*-sdk.ts), the SDK's
 *   credential providers other than the environment's (SSO, STS, INI files, …). In one file, V8 had to
 *   parse them at every cold start even though they never ran. NodejsFunction writes one `--outfile`, so
 *   its output is replaced by this build (`splitLambdaBundleCommand`, app-function.ts). esbuild's own chunks
 *   of code shared between the entry and an on-demand chunk are regrouped by rolldown into one (buildLambdaBundle),
 *   so a cold start loads two files.
 * - The code's own choices count as much: zod is `zod/mini` (functions esbuild leaves out when unused;
 *   classic zod's methods and messages were ~90 KB of every bundle's start), and every schema is built on
 *   first use (shared/src/lazy-schema.ts). infra/test/bundling.test.ts checks each.
 * - A function's bundle holds its own route group's entries of the route table only (routeTableOfGroup), and a
 *   package's package.json only as its name and version (the AWS SDK clients import theirs for the user agent).
 *   infra/test/bundling.test.ts caps what each function parses at start (START_KB_CEILING).
 */

import { readFile } from 'node:fs/promises';
import { isBuiltin } from 'node:module';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { build, type Plugin } from 'esbuild';
import { rolldown } from 'rolldown';
import ts from 'typescript';
import type { LambdaModules } from './lambda-modules.js';

/** Packages the code loads on demand (`await import()`), never bundled. */
export const ON_DEMAND_MODULES = [
  /** Native image library (only image work). */
  'sharp',
  /** OpenAI SDK, ~430 KB minified (only AI drafting, GPT edits and image generation). */
  'openai',
  /** Google OAuth client with its HTTP stack, ~230 KB (only Google Sheets and Gmail calls). */
  'google-auth-library',
  /** S3 client, ~130 KB (only image reads and writes; most calls of these functions never touch an image). */
  '@aws-sdk/client-s3',
  /**
   * The presigned POST of an upload (only its start). Bundled, its static import of the S3 client
   * would be hoisted to the bundle's top and load that client at every cold start.
   */
  '@aws-sdk/s3-presigned-post',
  /** The presigned GET of an image file (only the image routes' redirects), for the same reason. */
  '@aws-sdk/s3-request-presigner',
  /** The ranked common-password list, ~400 KB (only registration and password changes). */
  '@zxcvbn-ts/language-common',
  /** EventBridge client, only when the worker delivers domain events (the table's stream; infra/lib/event-delivery.ts). */
  '@aws-sdk/client-eventbridge',
  /**
   * The Markdown pipeline's parser and sanitizer (shared/src/markdown.ts), ~230 KB with postcss and htmlparser2
   * (only a WordPress publish). Bundled, they made three bundles ~900 KB and their cold starts the slowest.
   */
  'marked',
  'sanitize-html',
] as const;
export type OnDemandModule = (typeof ON_DEMAND_MODULES)[number];

/**
 * The on-demand packages each function's code imports, installed next to its bundle (for
 * linux-arm64). `infra/test/bundling.test.ts` checks this against what esbuild finds in each entry.
 * Only the worker carries @aws-sdk/client-eventbridge: the API functions write their domain events into the
 * table with their changes (functions/src/adapters/dynamo/event-outbox.ts), and the worker delivers them.
 * Every function with the images store carries @aws-sdk/s3-presigned-post and
 * @aws-sdk/s3-request-presigner (the store's signUpload and signDownload), which only the images
 * function's upload start and image redirects load. The functions that publish (wordpress, linkedin,
 * approvals: Publish Now and approval links) load marked and sanitize-html on a WordPress publish only, and
 * the worker on a blog post's approval e-mail (functions/src/domain/approval-email.ts). The same functions reach
 * every channel of the registry (functions/src/channels/registry.ts), so they carry sharp, which one channel loads
 * only to shrink an image over its service's size limit. The articles and images functions reach the registry too (a
 * channel's own version: its edit route, drafting and AI edit load the version's module), so they carry the Markdown
 * pipeline a WordPress publish would load, though they never publish.
 */
/** What a function with the images store carries: the S3 client and its two signers. */
const IMAGE_STORE: readonly OnDemandModule[] = [
  '@aws-sdk/client-s3',
  '@aws-sdk/s3-presigned-post',
  '@aws-sdk/s3-request-presigner',
];
/** The Markdown pipeline (shared/src/markdown.ts). */
const MARKDOWN: readonly OnDemandModule[] = ['marked', 'sanitize-html'];
/** One function's packages, sorted (npm installs them in any order; the lists compare as written). */
const carries = (...groups: (OnDemandModule | readonly OnDemandModule[])[]): readonly OnDemandModule[] =>
  [...new Set(groups.flat())].sort();

export const ON_DEMAND_MODULES_BY_FUNCTION: Readonly<Record<string, readonly OnDemandModule[]>> = {
  auth: ['@zxcvbn-ts/language-common'],
  articles: carries(IMAGE_STORE, MARKDOWN, 'openai', 'sharp'),
  images: carries(IMAGE_STORE, MARKDOWN, 'openai', 'sharp'),
  wordpress: carries(IMAGE_STORE, MARKDOWN, 'sharp'),
  linkedin: carries(IMAGE_STORE, MARKDOWN, 'sharp'),
  channels: carries(IMAGE_STORE, MARKDOWN, 'sharp'),
  email: ['google-auth-library'],
  /** Invitation e-mails go out through the workspace's (or the inviter's) Gmail. */
  workspaces: ['google-auth-library'],
  approvals: carries(IMAGE_STORE, 'google-auth-library', MARKDOWN, 'sharp'),
  sheets: carries(IMAGE_STORE, 'google-auth-library'),
  worker: carries('@aws-sdk/client-eventbridge', IMAGE_STORE, 'google-auth-library', MARKDOWN, 'openai', 'sharp'),
};

/** The on-demand packages installed next to a function's bundle. */
export const onDemandModulesOf = (name: string): readonly OnDemandModule[] => ON_DEMAND_MODULES_BY_FUNCTION[name] ?? [];

/**
 * Makes an ES module bundle able to `require()` Node built-ins from the CommonJS dependencies
 * esbuild inlines into it.
 */
export const ESM_REQUIRE_BANNER =
  "import { createRequire as __cpCreateRequire } from 'node:module';const require = __cpCreateRequire(import.meta.url);";

/** The esbuild settings of every Lambda bundle (NodejsFunction passes the same to esbuild). */
export const LAMBDA_ESBUILD = {
  platform: 'node',
  format: 'esm',
  target: 'node22',
  minify: true,
  /** ES module builds first: they tree-shake (the AWS SDK's `module` build especially). */
  mainFields: ['module', 'main'],
  banner: ESM_REQUIRE_BANNER,
  external: [...ON_DEMAND_MODULES],
  /**
   * Package conditions besides esbuild's own: `lambda` picks a Lambda's variant of a module where a package
   * has one (shared/package.json: #markdown-libraries loads marked and sanitize-html on demand); `module`,
   * which esbuild adds by itself only when no condition is given, keeps the ES module builds.
   */
  conditions: ['lambda', 'module'],
} as const;

/** Where the split bundle's chunks go, beside `index.mjs`. */
export const LAMBDA_CHUNK_NAMES = 'chunks/[name]-[hash]';

/**
 * esbuild's build options for one Lambda entry, as the stack ships it: `index.mjs` (exporting `handler`) and
 * its chunks in `outdir`. The stack (splitLambdaBundle), its tests and the bench all build with these.
 */
export const lambdaBuildOptions = (entry: string, tsconfig: string, outdir: string) => ({
  ...LAMBDA_ESBUILD,
  mainFields: [...LAMBDA_ESBUILD.mainFields],
  external: [...LAMBDA_ESBUILD.external],
  conditions: [...LAMBDA_ESBUILD.conditions],
  banner: { js: LAMBDA_ESBUILD.banner },
  entryPoints: { index: entry },
  outdir,
  splitting: true,
  chunkNames: LAMBDA_CHUNK_NAMES,
  outExtension: { '.js': '.mjs' },
  tsconfig,
  bundle: true,
  metafile: true as const,
  logLevel: 'error' as const,
});

type MetafileOutputs = Record<string, { bytes: number; imports: { path: string; kind: string; external?: boolean }[] }>;

/** One output of a bundle: `index.mjs`, a chunk, or a source map; `path` is absolute. */
export interface LambdaBundleFile {
  path: string;
  text: string;
}

/** What esbuild's metafile says of each output, for the bundle as it ships (buildLambdaBundle). */
export interface LambdaMetafile {
  outputs: Record<
    string,
    {
      bytes: number;
      imports: { path: string; kind: 'import-statement' | 'dynamic-import'; external?: boolean }[];
      /** The source files in this output, with their bytes in it (esbuild's figures). */
      inputs: Record<string, { bytesInOutput: number }>;
    }
  >;
}

/**
 * A package's own package.json as its code imports it, reduced to `name` and `version`: the AWS SDK's clients
 * import theirs whole for the version in their user agent, ~2.3 KB of text parsed at every cold start per client.
 */
const packageJsonVersionOnly: Plugin = {
  name: 'package-json-version-only',
  setup(build) {
    build.onLoad({ filter: /[\\/]node_modules[\\/].+[\\/]package\.json$/ }, async ({ path }) => {
      const { name, version } = JSON.parse(await readFile(path, 'utf8')) as { name?: string; version?: string };
      return { contents: JSON.stringify({ name, version }), loader: 'json' };
    });
  },
};

/**
 * @middy/core imports node:stream/web for one `instanceof ReadableStream`, in its streamed responses
 * (streamifyResponse), which no function uses; importing it loads Node's web streams at every cold start (~2 ms, some
 * 5% of a function's import; docs/testing.md, Performance budgets). In its place: a class whose `instanceof` asks
 * the global ReadableStream (the same class), which Node loads only when that check runs.
 */
const webStreamsOnUse: Plugin = {
  name: 'web-streams-on-use',
  setup(build) {
    build.onResolve({ filter: /^node:stream\/web$/ }, ({ importer }) =>
      /[\\/]node_modules[\\/]@middy[\\/]core[\\/]/.test(importer)
        ? { path: 'node:stream/web', namespace: 'web-streams-on-use' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'web-streams-on-use' }, () => ({
      contents:
        'export class ReadableStream { static [Symbol.hasInstance](value) { return value instanceof globalThis.ReadableStream; } }',
      loader: 'js',
    }));
  },
};

/** The route table's modules: its entries (shared/src/api/routes.ts) and each route's role (roles.ts). */
const ROUTE_TABLES = [
  { file: /[\\/]shared[\\/]src[\\/]api[\\/]routes\.ts$/, name: 'routes' },
  { file: /[\\/]shared[\\/]src[\\/]api[\\/]roles\.ts$/, name: 'ROUTE_ROLES' },
] as const;

/**
 * A route table's source with only the entries of one route group (the part of the route's id before the dot),
 * or undefined when it has none of that group (the worker, the backfills). `name` is the table's constant: the
 * array of routes (`routes`, each entry's `id`) or the object of roles by id (`ROUTE_ROLES`). API Gateway sends
 * a function only its group's routes, and its middleware looks up only those (functions/src/middleware/api.ts,
 * findRouteByKey; middleware/workspace.ts, routeRole): the other groups' entries, and the schemas they name,
 * were ~20 KB of every API function's cold start.
 */
export function routeTableOfGroup(source: string, group: string, name = 'routes'): string | undefined {
  const file = ts.createSourceFile('table.ts', source, ts.ScriptTarget.Latest, true);
  let table: ts.ArrayLiteralExpression | ts.ObjectLiteralExpression | undefined;
  const find = (node: ts.Node): void => {
    if (ts.isVariableDeclaration(node) && node.name.getText(file) === name && node.initializer) {
      let init: ts.Expression = node.initializer;
      while (ts.isSatisfiesExpression(init) || ts.isAsExpression(init)) init = init.expression;
      if (ts.isArrayLiteralExpression(init) || ts.isObjectLiteralExpression(init)) table = init;
    }
    ts.forEachChild(node, find);
  };
  find(file);
  if (!table) throw new Error(`The route table ${name} was not found`);
  const literal = (node: ts.Node | undefined): string => {
    if (node && (ts.isStringLiteral(node) || ts.isIdentifier(node))) return node.text;
    throw new Error(`A route table entry without a literal id: ${node?.getText(file).slice(0, 80)}`);
  };
  const idOf = (element: ts.Node): string => {
    if (ts.isPropertyAssignment(element)) {
      if (ts.isArrayLiteralExpression(table!)) throw new Error('Unexpected property');
      if (!ts.isObjectLiteralExpression(element.parent) || element.parent !== table) throw new Error('Nested');
      return literal(element.name);
    }
    const id =
      ts.isObjectLiteralExpression(element) &&
      element.properties.find((p) => ts.isPropertyAssignment(p) && p.name.getText(file) === 'id');
    return literal(id && ts.isPropertyAssignment(id) ? id.initializer : undefined);
  };
  const elements: readonly ts.Node[] = ts.isArrayLiteralExpression(table) ? table.elements : table.properties;
  const kept = elements.filter((element) => idOf(element).split('.')[0] === group);
  if (!kept.length) return undefined;
  const [open, close] = ts.isArrayLiteralExpression(table) ? ['[', ']'] : ['{', '}'];
  const entries = kept.map((element) => element.getText(file)).join(',\n');
  return `${source.slice(0, table.getStart(file))}${open}\n${entries},\n${close}${source.slice(table.getEnd())}`;
}

/** The route tables of the entry's group (functions/src/lambda/<group>.ts) in its bundle: routeTableOfGroup. */
const routeTableOfEntry = (entry: string): Plugin => ({
  name: 'route-table-of-group',
  setup(build) {
    for (const { file, name } of ROUTE_TABLES)
      build.onLoad({ filter: file }, async ({ path }) => {
        const source = await readFile(path, 'utf8');
        const own = routeTableOfGroup(source, basename(entry).replace(/\.[cm]?[jt]s$/, ''), name);
        return { contents: own ?? source, loader: 'ts' };
      });
  },
});

/**
 * Builds one Lambda entry as it ships: `index.mjs` and its `chunks/` in `outdir` (written when `write`), with
 * a metafile of the same shape as esbuild's (outputs relative to the working folder, as esbuild names them).
 *
 * Two steps. esbuild bundles and splits (lambdaBuildOptions): TypeScript, conditions, tree-shaking, what is
 * reached only through `import()` in chunks of its own. But esbuild also puts the code an `import()`ed chunk
 * shares with the entry into chunks of their own, which the entry imports statically: 10–25 files at every
 * cold start, each a module resolution, a read and a compile unit (~16 M instructions of V8 optimizing
 * Node's path functions alone where there were 16 or more; docs/testing.md, Performance budgets). Then
 * rolldown reads esbuild's output (in memory, with its source maps) and puts every module a start loads
 * (its `$initial` tag: the entry's static imports, in turn) into one chunk, which the on-demand chunks import
 * what they share from: a cold start loads `index.mjs` (the handler's export, a line) and that one chunk.
 * (Rolldown's own merging into the entry stays off once any module has a top-level await, as
 * shared/src/markdown-libraries.lambda.ts does; the group does not depend on it.)
 */
export async function buildLambdaBundle(
  entry: string,
  tsconfig: string,
  outdir: string,
  { write = true, sourcemap = false }: { write?: boolean; sourcemap?: boolean } = {},
): Promise<{ metafile: LambdaMetafile; outputFiles: LambdaBundleFile[] }> {
  outdir = resolve(outdir);
  const first = await build({
    ...lambdaBuildOptions(entry, tsconfig, outdir),
    write: false,
    sourcemap: 'external',
    sourcesContent: false,
    plugins: [packageJsonVersionOnly, webStreamsOnUse, routeTableOfEntry(entry)],
  });
  const modules = new Map<string, { code: string; map: string | undefined }>();
  for (const file of first.outputFiles)
    if (file.path.endsWith('.mjs'))
      modules.set(file.path, {
        // The comment points at a map beside a file that is never written.
        code: file.text.replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n'),
        map: first.outputFiles.find((other) => other.path === `${file.path}.map`)?.text,
      });
  const inputsOf = new Map(
    Object.entries(first.metafile.outputs).map(([file, output]) => [resolve(file), output.inputs] as const),
  );
  const bundle = await rolldown({
    input: { index: join(outdir, 'index.mjs') },
    platform: 'node',
    // Every import that is not one of esbuild's outputs stays as written: Node built-ins and ON_DEMAND_MODULES.
    external: (id, importer) => !modules.has(importer && id.startsWith('.') ? join(dirname(importer), id) : id),
    plugins: [
      {
        name: 'esbuild-output',
        resolveId: (id, importer) => {
          const path = importer && id.startsWith('.') ? join(dirname(importer), id) : id;
          return modules.has(path) ? path : null;
        },
        load: (id) => modules.get(id) ?? null,
      },
    ],
  });
  const options = {
    dir: outdir,
    format: 'esm' as const,
    entryFileNames: '[name].mjs',
    chunkFileNames: `${LAMBDA_CHUNK_NAMES}.mjs`,
    minify: true,
    // esbuild escapes non-ASCII characters; one left in makes V8 decode the whole file to two-byte characters.
    charset: 'ascii' as const,
    sourcemap,
    sourcemapExcludeSources: true,
    codeSplitting: { groups: [{ name: 'start', tags: ['$initial' as const] }] },
  };
  const { output } = write ? await bundle.write(options) : await bundle.generate(options);
  await bundle.close();

  const chunkFiles = new Set(output.filter((file) => file.type === 'chunk').map((file) => file.fileName));
  const metafile: LambdaMetafile = { outputs: {} };
  const outputFiles: LambdaBundleFile[] = [];
  for (const file of output) {
    const text = file.type === 'chunk' ? file.code : String(file.source);
    outputFiles.push({ path: join(outdir, file.fileName), text });
    if (file.type !== 'chunk') continue;
    // Chunk imports are relative to the bundle's folder; the others are external.
    const imported = (path: string, kind: 'import-statement' | 'dynamic-import') =>
      chunkFiles.has(path)
        ? { path: relative(process.cwd(), join(outdir, path)), kind }
        : { path, kind, external: true as const };
    const inputs: Record<string, { bytesInOutput: number }> = {};
    for (const id of file.moduleIds) Object.assign(inputs, inputsOf.get(id));
    metafile.outputs[relative(process.cwd(), join(outdir, file.fileName))] = {
      bytes: Buffer.byteLength(text),
      imports: [
        ...file.imports.map((path) => imported(path, 'import-statement')),
        ...file.dynamicImports.map((path) => imported(path, 'dynamic-import')),
      ],
      inputs,
    };
  }
  return { metafile, outputFiles };
}

const shellQuote = (arg: string) => `'${arg.replaceAll("'", `'\\''`)}'`;

/**
 * The shell command (run in the project's root, `inputDir`) that writes an entry's split bundle into
 * `outputDir` (infra/bin/bundle-lambda.ts, with lambdaBuildOptions).
 */
export const splitLambdaBundleCommand = (inputDir: string, outputDir: string, relativeEntry: string): string =>
  [
    'node',
    '--import',
    'tsx',
    `${inputDir}/infra/bin/bundle-lambda.ts`,
    `${inputDir}/${relativeEntry}`,
    outputDir,
    `${inputDir}/functions/tsconfig.json`,
  ]
    .map(shellQuote)
    .join(' ');

/**
 * The `afterBundling` command that writes a function's package.json and package-lock.json beside its bundle and
 * gives it its on-demand packages' `node_modules` (infra/bin/install-lambda-modules.ts, lambda-modules.ts).
 */
export const installLambdaModulesCommand = (inputDir: string, outputDir: string, modules: LambdaModules): string =>
  ['node', '--import', 'tsx', `${inputDir}/infra/bin/install-lambda-modules.ts`, outputDir, JSON.stringify(modules)]
    .map(shellQuote)
    .join(' ');

/** The output files of a split bundle that its entry (index.mjs) reaches through imports of these kinds. */
function outputsReached(metafile: { outputs: MetafileOutputs }, kinds: readonly string[]): string[] {
  const outputs = metafile.outputs;
  // An import() target is an entry point of its own in the metafile: the Lambda's is named index.mjs.
  const entry = Object.keys(outputs).find((file) => /(^|\/)index\.mjs$/.test(file));
  if (!entry) throw new Error('The bundle has no index.mjs');
  const reached = new Set([entry]);
  for (const file of reached)
    for (const imported of outputs[file]!.imports)
      if (kinds.includes(imported.kind) && !imported.external && outputs[imported.path]) reached.add(imported.path);
  return [...reached];
}

/**
 * The output files a cold start loads: the entry and the chunks it imports statically, and theirs, in turn.
 * The other chunks load when a call first runs the `import()` that reaches them.
 */
export const outputsLoadedAtStart = (metafile: { outputs: MetafileOutputs }): string[] =>
  outputsReached(metafile, ['import-statement']);

/**
 * The packages an esbuild metafile shows the finished bundle importing from outside itself (Node
 * built-ins aside, with or without `node:`: CommonJS dependencies require 'fs'), sorted. Read from the
 * outputs its entry can reach, not the inputs: an input tree-shaken away (shared/src/markdown.ts behind the
 * `@app/shared` barrel, in a function that never renders Markdown) still lists its imports there, and esbuild
 * still writes the chunk of an `import()` whose caller it dropped, which nothing then loads.
 */
export function unbundledPackages(metafile: { outputs: MetafileOutputs }): string[] {
  const found = new Set<string>();
  for (const file of outputsReached(metafile, ['import-statement', 'dynamic-import']))
    for (const imported of metafile.outputs[file]!.imports)
      if (imported.external && !isBuiltin(imported.path)) found.add(imported.path);
  return [...found].sort();
}
