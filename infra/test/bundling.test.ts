import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROUTE_ROLES, routeGroup, routeGroups, routes } from '@app/shared/api';
import { readFileSync } from 'node:fs';
import { renderMarkdown } from '@app/shared/markdown';
import {
  ON_DEMAND_MODULES_BY_FUNCTION,
  buildLambdaBundle,
  type LambdaMetafile,
  onDemandModulesOf,
  outputsLoadedAtStart,
  routeTableOfGroup,
  unbundledPackages,
} from '../lib/bundling.js';
import { lambdaEntryPath, repoRoot } from '../lib/paths.js';
import { BACKFILLS_ENTRY_NAME } from '../lib/table-backfills.js';
import { WORKER_ENTRY_NAME } from '../lib/worker-function.js';

const names = [...routeGroups(), WORKER_ENTRY_NAME, BACKFILLS_ENTRY_NAME];

/** Each entry bundled once (in memory), as the stack bundles it; the tests below read the same result. */
const bundles = new Map<string, Promise<{ metafile: LambdaMetafile; files: Map<string, string>; code: string }>>();
const bundle = (name: string) => {
  if (!bundles.has(name)) {
    const outdir = join(repoRoot, '.tmp', 'bundling-test', name);
    bundles.set(
      name,
      buildLambdaBundle(lambdaEntryPath(repoRoot, name), join(repoRoot, 'functions', 'tsconfig.json'), outdir, {
        write: false,
      }).then((result) => ({
        metafile: result.metafile,
        /** Each output by its path in the bundle's folder (index.mjs, chunks/…). */
        files: new Map(result.outputFiles.map((file) => [relative(outdir, file.path), file.text])),
        /** The text of every output, the chunks loaded on demand too: V8 parses each when it loads. */
        code: result.outputFiles.map((file) => file.text).join('\n'),
      })),
    );
  }
  return bundles.get(name)!;
};

/** The packages left out of a Lambda's bundle that its code imports (Node built-ins aside). */
async function unbundledImports(name: string): Promise<string[]> {
  return unbundledPackages((await bundle(name)).metafile);
}

/** The packages the finished bundle imports statically from what a cold start loads (Node built-ins aside). */
async function packagesLoadedAtStart(name: string): Promise<string[]> {
  const { metafile } = await bundle(name);
  return outputsLoadedAtStart(metafile)
    .flatMap((file) => metafile.outputs[file]!.imports)
    .filter((imported) => imported.kind === 'import-statement' && imported.external && !isBuiltin(imported.path))
    .map((imported) => imported.path);
}

describe('on-demand packages (bundling.ts)', () => {
  it('names only Lambda functions that exist', () => {
    for (const name of Object.keys(ON_DEMAND_MODULES_BY_FUNCTION)) expect(names).toContain(name);
  });

  // A package a function's code imports but its asset lacks would fail that call in AWS only;
  // one installed but never imported only makes the asset bigger.
  it.each(names)('%s installs exactly the on-demand packages its code imports', async (name) => {
    expect(await unbundledImports(name)).toEqual([...onDemandModulesOf(name)].sort());
  });

  // esbuild hoists a bundled module's static imports of an unbundled package to the bundle's top,
  // even when the code reaches that module with `await import()`: the package would then load at
  // every cold start (once the S3 client, through the bundled presigned-post package, +100 ms).
  it.each(names)('%s loads no on-demand package at start', async (name) => {
    expect(await packagesLoadedAtStart(name)).toEqual([]);
  });
});

/**
 * Bundled code that only some calls run, reached through import(): the Lambda, SQS and Scheduler clients
 * (functions/src/adapters/aws/*-sdk.ts) and the credential providers other than the environment's, which a
 * Lambda never uses (its credentials are in its environment), with the clients they bring.
 */
const LOADED_ON_DEMAND =
  /node_modules\/(@aws-sdk\/(client-lambda|client-sqs|client-scheduler|nested-clients|credential-provider-(ini|sso|process|web-identity|login|http))|bowser)\//;

describe('code splitting (bundling.ts)', () => {
  // In one file, V8 parsed all of it at every cold start though none of it ran: ~25 M instructions a 100 KB.
  // (The backfill function runs once a deployment, nobody waiting on it: it imports the Lambda client as it starts.)
  it.each(names.filter((name) => name !== BACKFILLS_ENTRY_NAME))(
    '%s parses none of the code only some calls use at start',
    async (name) => {
      const { metafile } = await bundle(name);
      const atStart = outputsLoadedAtStart(metafile).flatMap((file) => Object.keys(metafile.outputs[file]!.inputs));
      expect(atStart.filter((input) => LOADED_ON_DEMAND.test(input))).toEqual([]);
    },
  );

  // Each file a cold start loads is a module resolution, a read and a compile unit: with esbuild's chunks
  // alone the publishing functions loaded 16-26 (the code an import()ed chunk shares with the entry, in chunks
  // of its own), ~16 M instructions more than those that loaded 9-12 (buildLambdaBundle, bundling.ts).
  it.each(names)('%s loads two files at start: index.mjs and the one chunk of all its start needs', async (name) => {
    const { metafile } = await bundle(name);
    const start = outputsLoadedAtStart(metafile).map((file) => relative(repoRoot, file));
    expect(start).toHaveLength(2);
    expect(start[0]).toMatch(/(^|\/)index\.mjs$/);
    // The entry only re-exports the handler from that chunk.
    expect(metafile.outputs[outputsLoadedAtStart(metafile)[0]!]!.bytes).toBeLessThan(200);
  });

  /** The inputs a cold start of the named function parses. */
  const parsedAtStart = async (name: string) => {
    const { metafile } = await bundle(name);
    return outputsLoadedAtStart(metafile).flatMap((file) => Object.keys(metafile.outputs[file]!.inputs));
  };

  // Only drafting, GPT edits and image generation use them (functions/src/wiring/articles.ts).
  it.each(names.filter((name) => name !== BACKFILLS_ENTRY_NAME))(
    '%s parses no AI adapter (OpenAI, offline generators) at start',
    async (name) => {
      // (ai/images.ts aside: the crops, which an upload uses too; sharp itself loads on demand.)
      const generators = (await parsedAtStart(name)).filter(
        (input) => input.startsWith('functions/src/adapters/ai/') && input !== 'functions/src/adapters/ai/images.ts',
      );
      expect(generators).toEqual([]);
    },
  );

  // A container that only delivers the table's stream never runs a job (functions/src/lambda/worker.ts).
  it("the worker parses the jobs' code with the first job, not at start", async () => {
    const atStart = await parsedAtStart(WORKER_ENTRY_NAME);
    expect(atStart).toContain('functions/src/jobs/deliver-events.ts');
    expect(atStart).not.toContain('functions/src/jobs/run-job.ts');
    expect(atStart.filter((input) => input.startsWith('functions/src/channels/wordpress/'))).toEqual([]);
  });

  // A channel's module (its publisher: ~40 kB for WordPress and LinkedIn) is loaded by the registry's import() on a
  // publish (functions/src/channels/registry.ts): the functions that publish carry it, but parse it only then.
  const CHANNEL_MODULES = /^functions\/src\/channels\/[^/]+\/(module|publish|publisher)\.ts$/;
  it.each(names.filter((name) => name !== BACKFILLS_ENTRY_NAME))(
    "%s parses no channel's publisher at start",
    async (name) => {
      expect((await parsedAtStart(name)).filter((input) => CHANNEL_MODULES.test(input))).toEqual([]);
    },
  );
  it.each(['approvals', 'wordpress', 'linkedin', WORKER_ENTRY_NAME])(
    '%s carries the WordPress and LinkedIn publishers for a publish',
    async (name) => {
      const { metafile } = await bundle(name);
      const carried = Object.values(metafile.outputs).flatMap((output) => Object.keys(output.inputs));
      expect(carried).toEqual(
        expect.arrayContaining([
          'functions/src/channels/wordpress/publish.ts',
          'functions/src/channels/linkedin/publish.ts',
        ]),
      );
    },
  );

  // A route group's rare routes load what only they use with import(): the connection's routes (status, test, save,
  // OAuth) need no publishing, and a workspace's member routes no review setting, channel nor mail code.
  const PUBLISHING_SIDE = [
    'functions/src/adapters/dynamo/article-store.ts',
    'functions/src/domain/review.ts',
    'functions/src/domain/publishing.ts',
  ];
  it.each(['wordpress', 'linkedin', 'channels', 'workspaces'])(
    '%s parses no article store, review nor publishing at start (its publish route loads them)',
    async (name) => {
      expect((await parsedAtStart(name)).filter((input) => PUBLISHING_SIDE.includes(input))).toEqual([]);
    },
  );
  it.each([
    ['workspaces', /^functions\/src\/(channels\/[^/]+\/(client|service)|adapters\/integrations\/(mail|google))\.ts$/],
    ['wordpress', /^functions\/src\/(channels\/linkedin\/(client|service)|adapters\/integrations\/(mail|google))\.ts$/],
    ['linkedin', /^functions\/src\/(channels\/wordpress\/(client|service)|adapters\/integrations\/(mail|google))\.ts$/],
    ['email', /^functions\/src\/channels\/[^/]+\/(client|service)\.ts$/],
    ['approvals', /^functions\/src\/(channels\/[^/]+\/(client|service)|adapters\/integrations\/(mail|google))\.ts$/],
    // The table's stream delivers events; only an owner's webhook needs the HTTP delivery and its URL checks.
    [
      WORKER_ENTRY_NAME,
      /^functions\/src\/(channels\/[^/]+\/(client|service)|adapters\/integrations\/(webhook|url-safety))\.ts$/,
    ],
  ])("%s parses no other service's connection code at start", async (name, others) => {
    expect((await parsedAtStart(name)).filter((input) => others.test(input))).toEqual([]);
  });

  it("puts the job queue's Lambda client in a chunk that the first job loads", async () => {
    const { metafile } = await bundle('articles');
    const start = new Set(outputsLoadedAtStart(metafile));
    const lambdaClient = Object.keys(metafile.outputs).filter((file) =>
      Object.keys(metafile.outputs[file]!.inputs).some((input) =>
        input.includes('node_modules/@aws-sdk/client-lambda/'),
      ),
    );
    expect(lambdaClient.length).toBeGreaterThan(0);
    for (const file of lambdaClient) expect(start.has(file), file).toBe(false);
  });
});

/** The Markdown pipeline's libraries and what they bring (sanitize-html: postcss, htmlparser2, …). */
const MARKDOWN_PACKAGES = /node_modules\/(marked|sanitize-html|postcss|htmlparser2)\//;

/** Imports a bundle in a fresh Node process, then runs `probe` with the module as `m`. */
function importFresh(file: string, probe = ''): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(
    process.execPath,
    ['--input-type=module', '-e', `const m = await import(${JSON.stringify(pathToFileURL(file).href)}); ${probe}`],
    { encoding: 'utf8', env: { PATH: process.env.PATH, AWS_REGION: 'us-east-1', TABLE_NAME: 't' }, timeout: 30_000 },
  );
}

describe('the Markdown pipeline in a Lambda (shared/src/markdown-libraries.lambda.ts)', () => {
  // Bundled, marked and sanitize-html made the three publishing functions' bundles ~900 KB and their
  // cold starts the slowest (docs/testing.md, Performance budgets), though only a WordPress publish uses them.
  it.each(names)('%s does not carry marked, sanitize-html or their dependencies', async (name) => {
    const { metafile } = await bundle(name);
    const carried = Object.values(metafile.outputs).flatMap((output) => Object.keys(output.inputs));
    expect(carried.filter((input) => MARKDOWN_PACKAGES.test(input))).toEqual([]);
  });

  // Each bundle alone, as in a Lambda without its on-demand packages: it starts, so none is loaded at start
  // (a hoisted static import, or an import() run at the top, would fail here).
  it.each(names)('%s starts without any on-demand package installed', async (name) => {
    const dir = mkdtempSync(join(tmpdir(), 'bundle-alone-'));
    try {
      for (const [path, contents] of (await bundle(name)).files) {
        mkdirSync(dirname(join(dir, path)), { recursive: true });
        writeFileSync(join(dir, path), contents);
      }
      const run = importFresh(join(dir, 'index.mjs'), 'console.log(typeof m.handler);');
      expect(run.stderr).toBe('');
      expect(run.stdout.trim()).toBe('function');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('renders in a bundle exactly as imported, loading marked and sanitize-html on the first render', async () => {
    const dir = join(repoRoot, '.tmp', `markdown-bundle-${process.pid}`);
    mkdirSync(dir, { recursive: true });
    try {
      // An entry that renders the way publishing does (functions/src/domain/publishing.ts), bundled like a
      // Lambda inside the repository, so the two packages resolve from node_modules as from the asset's own.
      const entry = join(dir, 'entry.ts');
      writeFileSync(
        entry,
        "export const render = async (text: string) => (await import('@app/shared/markdown')).renderMarkdown(text);\n",
      );
      const file = join(dir, 'index.mjs');
      await buildLambdaBundle(entry, join(repoRoot, 'functions', 'tsconfig.json'), dir);
      const text =
        '# Title\n\nSome **bold** [link](https://example.com) <script>alert(1)</script> [bad](javascript:alert(1))';
      const run = importFresh(file, `process.stdout.write(JSON.stringify(await m.render(${JSON.stringify(text)})));`);
      expect(run.stderr).toBe('');
      expect(JSON.parse(run.stdout)).toBe(renderMarkdown(text));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** The regex literals of a bundle's code, as a JavaScript parser finds them. */
function regexLiterals(code: string): string[] {
  const file = ts.createSourceFile('index.mjs', code, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) found.push(node.getText(file));
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

// What V8 does with a bundle's text before any of it runs, paid at every cold start (docs/testing.md,
// Performance budgets).
describe('what parsing a bundle costs', () => {
  // V8 checks each such literal as it parses the script, looking the properties up in ICU (~1 M instructions
  // a literal, run or not): they are built on first use instead (shared/src/unicode-regexp.ts).
  it.each(names)('%s holds no regex literal with Unicode property escapes (\\p{…})', async (name) => {
    const { code } = await bundle(name);
    expect(regexLiterals(code).filter((literal) => /\\[pP]\{/.test(literal))).toEqual([]);
  });

  // One character outside ASCII makes V8 turn the whole text into two-byte characters (decoded, then scanned,
  // at twice the size). esbuild escapes such characters in strings but not in regex literals: write them as \u2022 and the like.
  // Classic zod installs its methods on every schema and its English messages when it loads, none of which
  // esbuild can leave out: ~90 KB of every cold start (~6 ms). The code uses zod/mini's functions instead,
  // of which a bundle carries only those it calls (shared/src/lazy-schema.ts sets the messages).
  it.each(names)('%s carries no classic zod (zod/mini only)', async (name) => {
    const { metafile } = await bundle(name);
    const inputs = Object.values(metafile.outputs).flatMap((output) => Object.keys(output.inputs));
    expect(inputs).toContain('node_modules/zod/v4/mini/schemas.js');
    expect(inputs.filter((input) => /node_modules\/zod\/(v4\/classic|v3)\//.test(input))).toEqual([]);
  });

  // The domain events' schemas document the events and type them; no function parses with them. A getter no
  // code calls is kept by esbuild unless its call is marked pure (functions/src/domain/automation-events.ts):
  // kept, they brought ~11 KB (zod's uuid, URL and ISO date checks among them) to every cold start.
  it.each(names)("%s carries none of the domain events' schemas", async (name) => {
    const { code } = await bundle(name);
    expect(code.includes('Unique per event'), "the domain events' schemas are in the bundle").toBe(false);
  });

  it.each(names)('%s is ASCII only', async (name) => {
    const { code } = await bundle(name);
    // eslint-disable-next-line no-control-regex -- the point is the range
    expect(code.match(/[^\x00-\x7F]+/g) ?? []).toEqual([]);
  });
});

/**
 * What a cold start parses, by function (docs/testing.md, Performance budgets): the import is mostly V8 parsing
 * the start chunk, ~0.05 ms a KB on the bench's machine, so its size holds the budget (at most 1.3× the import of
 * the DynamoDB client alone, ~220 KB at start) where a time would be noise in a test. A function over its
 * ceiling moves code only some calls need behind import() (functions/src/http/approvals.ts,
 * functions/src/wiring/sheets.ts); a ceiling is raised only with `npm run bench` showing the ratio still met.
 */
const START_KB_CEILING: Readonly<Record<string, number>> = {
  auth: 360,
  admin: 340,
  articles: 414,
  schedule: 392,
  dashboard: 371,
  images: 405,
  settings: 357,
  wordpress: 367,
  channels: 367,
  linkedin: 377,
  email: 370,
  approvals: 401,
  sheets: 383,
  workspaces: 351,
  worker: 384,
  [BACKFILLS_ENTRY_NAME]: 393,
};

/** Packages no function bundles: the code has a few lines of its own where the package was KBs at every start. */
const NEVER_BUNDLED = [
  // The API's security headers: middleware/api.ts with http/security-headers.ts (~4 KB at start).
  '@middy/http-security-headers',
  // The JSON body's parsing: a few lines of middleware/api.ts (jsonBody) where the parser and its helpers were ~2.5 KB.
  '@middy/http-json-body-parser',
  '@middy/util',
];

/**
 * What only some calls use, and the functions (if any) whose start needs it: none other parses it at start
 * (docs/testing.md, Performance budgets). Powertools Metrics loads with a call's first business event
 * (functions/src/business-events.ts); registration, sign-in and password changes are the auth function's
 * (wiring/accounts.ts); the settings and the OAuth state are getters of their own (wiring/settings.ts,
 * wiring/oauth-state.ts), which a session check never reads.
 */
const ONLY_AT_START_OF: readonly [input: string, functions: readonly string[]][] = [
  ['node_modules/@aws-lambda-powertools/metrics/', []],
  ['functions/src/metrics.ts', []],
  ['functions/src/domain/accounts.ts', ['auth']],
  ['functions/src/domain/login-throttle.ts', ['auth']],
  ['functions/src/domain/settings.ts', ['settings', 'wordpress', 'channels', 'linkedin', 'email', 'sheets', 'worker']],
  ['functions/src/domain/oauth-state.ts', ['linkedin', 'email', 'sheets', 'worker']],
];

describe('what a cold start parses', () => {
  const startInputs = async (name: string) => {
    const { metafile } = await bundle(name);
    return outputsLoadedAtStart(metafile).flatMap((file) => Object.entries(metafile.outputs[file]!.inputs));
  };

  it('has a ceiling for every function', () => {
    expect(Object.keys(START_KB_CEILING).sort()).toEqual([...names].sort());
  });

  it.each(names)('%s parses at most its ceiling of KB at start', async (name) => {
    const bytes = (await startInputs(name)).reduce((sum, [, input]) => sum + input.bytesInOutput, 0);
    expect(Math.round(bytes / 1000)).toBeLessThanOrEqual(START_KB_CEILING[name]!);
  });

  it.each(names)('%s parses at start only what ONLY_AT_START_OF lets it', async (name) => {
    const atStart = (await startInputs(name)).map(([input]) => input);
    const found = ONLY_AT_START_OF.filter(
      ([input, functions]) => !functions.includes(name) && atStart.some((parsed) => parsed.includes(input)),
    ).map(([input]) => input);
    expect(found).toEqual([]);
  });

  // @middy/core's one use of web streams is in streamed responses, which no function makes (webStreamsOnUse,
  // infra/lib/bundling.ts): loading them at start was ~2 ms of every cold start.
  it.each(names)('%s loads no web streams at start', async (name) => {
    const { metafile } = await bundle(name);
    const imported = outputsLoadedAtStart(metafile).flatMap((file) =>
      metafile.outputs[file]!.imports.map((i) => i.path),
    );
    expect(imported.filter((path) => /^(node:)?stream\/web$/.test(path))).toEqual([]);
  });

  it.each(names)('%s bundles no package of NEVER_BUNDLED', async (name) => {
    const { metafile } = await bundle(name);
    const inputs = Object.values(metafile.outputs).flatMap((output) => Object.keys(output.inputs));
    for (const pkg of NEVER_BUNDLED)
      expect(inputs.filter((input) => input.includes(`node_modules/${pkg}/`))).toEqual([]);
  });

  // zod/mini's z.catch reaches a helper through zod's whole `util` namespace, which esbuild then keeps entire
  // (13.6 KB where the schemas' own use is ~7 KB): the code uses withFallback (shared/src/lazy-schema.ts).
  it.each(names)("%s parses only the part of zod's util that its schemas use", async (name) => {
    const util = (await startInputs(name)).find(([input]) => input === 'node_modules/zod/v4/core/util.js');
    expect(util?.[1].bytesInOutput ?? 0).toBeLessThan(9000);
  });
});

// API Gateway sends a function only its group's routes: its bundle carries only their entries and schemas.
describe("a function's route table (routeTableOfGroup, bundling.ts)", () => {
  const source = readFileSync(join(repoRoot, 'shared', 'src', 'api', 'routes.ts'), 'utf8');
  const idsIn = (text: string) => [...text.matchAll(/\bid: '([\w.]+)'/g)].map((m) => m[1]!);

  it.each(routeGroups())('%s: every entry of its group, none of another', (group) => {
    const own = routeTableOfGroup(source, group)!;
    expect(idsIn(own).sort()).toEqual(
      routes
        .filter((route) => routeGroup(route) === group)
        .map((route) => route.id)
        .sort(),
    );
    // What surrounds the table (imports, lookups) is kept as written.
    expect(own.slice(0, source.indexOf('export const routes = ['))).toBe(
      source.slice(0, source.indexOf('export const routes = [')),
    );
  });

  it.each(routeGroups())("%s: the roles of its group's routes, none of another's", (group) => {
    const roles = readFileSync(join(repoRoot, 'shared', 'src', 'api', 'roles.ts'), 'utf8');
    const own = routeTableOfGroup(roles, group, 'ROUTE_ROLES')!;
    expect([...own.matchAll(/^\s*'([\w.]+)': '\w+',?$/gm)].map((m) => m[1]!).sort()).toEqual(
      Object.keys(ROUTE_ROLES)
        .filter((id) => id.split('.')[0] === group)
        .sort(),
    );
  });

  it('leaves the table whole for an entry that is no route group (the worker)', () => {
    expect(routeTableOfGroup(source, WORKER_ENTRY_NAME)).toBeUndefined();
  });

  it.each(routeGroups())("%s's bundle holds no other group's route", async (group) => {
    const { code } = await bundle(group);
    const others = routes.filter((route) => routeGroup(route) !== group).map((route) => `"${route.path}"`);
    expect(others.filter((path) => code.includes(path.replace(/"/g, '`')) || code.includes(path))).toEqual([]);
  });
});
