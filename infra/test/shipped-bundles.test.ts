/**
 * What ships is what is tested: the stack is synthesized WITH bundling (NodejsFunction: esbuild, and
 * `npm ci` of the on-demand packages for linux-arm64 next to each bundle), and every function
 * asset in cdk.out is imported and invoked in a fresh Node process of its own, the way Lambda runs
 * it: the asset folder as working directory, the function's environment from the template and
 * nothing else from this process, an API Gateway v2 event (the HTTP API's integration picks the
 * function) or a worker event (the async-invoke payload, EventBridge Scheduler's input, an SQS batch).
 *
 * Around it: DynamoDB Local (the table), s3rver (the images bucket), a stub of Secrets Manager,
 * Lambda, EventBridge Scheduler and EventBridge PutEvents (aws-stub.ts) and the fake OpenAI (the openaiBaseUrl context
 * value, as a deployment would point at another endpoint). The bundles reach them through the AWS
 * SDK's own endpoint variables (AWS_ENDPOINT_URL_DYNAMODB, AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL for
 * the rest), not the app's local settings (DYNAMODB_ENDPOINT, S3_ENDPOINT, LOCAL_SECRETS_KEY), so
 * every client is built as in AWS; the template's values that are
 * CloudFormation references are replaced by local ones (resolveValue). ORIGIN_SECRET_ARN stays set:
 * the stub holds the origin secret and the events carry CloudFront's x-origin-verify header.
 *
 * Exercised: the middleware (origin secret, CSRF origin, sessions, routing, validation), DynamoDB,
 * Secrets Manager (the stack's secrets and a user's integration secret), S3 (an image of over 6 MB,
 * Lambda's answer limit, served through a presigned GET the route redirects to), the async invoke and the schedule a request makes, the drafting's
 * domain event (EventBridge PutEvents), and these
 * on-demand packages loaded from the asset's own node_modules (linux-arm64 installs of pure
 * JavaScript, which load here too): @zxcvbn-ts/language-common (registration), openai (the worker
 * drafting against the fake OpenAI), @aws-sdk/client-s3 and @aws-sdk/s3-request-presigner (the image
 * preview's signed URL), @aws-sdk/s3-presigned-post (an upload's start), @aws-sdk/client-eventbridge
 * (the worker's ArticleDrafted). sharp is NOT loaded:
 * its native linux-arm64 binary cannot run on this x64 machine, so no path here needs it (image
 * generation does); the test checks only that the arm64 build is in the assets that need it.
 * google-auth-library is installed in its assets (checked) but no call here reaches Google.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoArticleStore } from '../../functions/src/adapters/dynamo/article-store.js';
import { TABLE_BACKFILL_NAMES } from '../../functions/src/adapters/dynamo/backfills.js';
import { ensureTable, startDynamoLocal, type DynamoLocal } from '../../functions/src/local/dynamo.js';
import { startLocalS3, type LocalS3 } from '../../functions/src/local/s3.js';
import { matchRoute, routeKey } from '@app/shared/api';
import { startFakeOpenAi, type FakeOpenAi } from '../../functions/test/fakes/openai.js';
import type { AppFunction } from '../lib/app-function.js';
import { onDemandModulesOf } from '../lib/bundling.js';
import { lambdaModulesCacheDir, lambdaModulesKey, type LambdaModules } from '../lib/lambda-modules.js';
import { BACKFILLS_ENTRY_NAME } from '../lib/table-backfills.js';
import { WORKER_ENTRY_NAME } from '../lib/worker-function.js';
import { startAwsStub, type AwsStub } from './aws-stub.js';
import { lambdaEntryNames, testApp } from './helpers.js';

const REGION = 'us-east-1';
const ACCOUNT = '111111111111';
const DISTRIBUTION_DOMAIN = 'd111111abcdef8.cloudfront.net';
const TABLE = `shipped-${randomBytes(4).toString('hex')}`;
const BUCKET = 'shipped-images';

type Resource = { Type: string; Properties: Record<string, any> };
interface ShippedFunction {
  /** `auth`, …, `worker` */
  name: string;
  logicalId: string;
  assetDir: string;
  /** The template's environment with references resolved to the local services. */
  environment: Record<string, string>;
  timeoutSeconds: number;
  memory: number;
  /** Its on-demand packages' install (app-function.ts), if any. */
  modules: LambdaModules | undefined;
}

let work: string;
let cdkOut: string;
let resources: Record<string, Resource>;
let functions: Map<string, ShippedFunction>;
let dynamo: DynamoLocal;
let s3: LocalS3;
let stub: AwsStub;
let openai: FakeOpenAi;
/** The stack's generated secrets, by logical id: what the stub answers for their ARNs. */
const secretValues = new Map<string, string>();
const invoked = new Set<string>();

const secretArn = (logicalId: string) => `arn:aws:secretsmanager:${REGION}:${ACCOUNT}:secret:${logicalId}-AbCdEf`;
const functionName = (logicalId: string) => `ContentPublisher-${logicalId}`;
/** The ARN of an alias (logical id): its function's ARN and the alias's name. */
const aliasArn = (aliasId: string): string => {
  const alias = resources[aliasId]!.Properties as { FunctionName: { Ref: string }; Name: string };
  return `arn:aws:lambda:${REGION}:${ACCOUNT}:function:${functionName(alias.FunctionName.Ref)}:${alias.Name}`;
};

/**
 * A template value with its CloudFormation references replaced by what they are here: the table
 * and bucket names of the local services, the secrets' ARNs (answered by the stub), the worker's
 * name and ARN, the queues' and roles' ARNs, the distribution's domain. Any other reference fails.
 */
function resolveValue(value: unknown, where: string): string {
  if (typeof value === 'string') return value;
  const v = value as Record<string, any>;
  if (v.Ref !== undefined) {
    const ref = String(v.Ref);
    if (ref === 'AWS::Region') return REGION;
    if (ref === 'AWS::AccountId') return ACCOUNT;
    if (ref === 'AWS::Partition') return 'aws';
    if (ref === 'AWS::URLSuffix') return 'amazonaws.com';
    const type = resources[ref]?.Type;
    if (type === 'AWS::DynamoDB::Table') return TABLE;
    if (type === 'AWS::S3::Bucket') return BUCKET;
    if (type === 'AWS::SecretsManager::Secret') return secretArn(ref);
    if (type === 'AWS::Lambda::Function') return functionName(ref);
    // An alias's Ref is its ARN (what the callers of the worker are given: app-function.ts).
    if (type === 'AWS::Lambda::Alias') return aliasArn(ref);
    if (type === 'AWS::SQS::Queue') return `${stub.url}/${ACCOUNT}/${ref}`;
    if (type === 'AWS::Events::EventBus') return `ContentPublisher-${ref}`;
  }
  if (v['Fn::GetAtt']) {
    const [ref, attribute] = v['Fn::GetAtt'] as [string, string];
    const type = resources[ref]?.Type;
    if (type === 'AWS::Lambda::Function' && attribute === 'Arn')
      return `arn:aws:lambda:${REGION}:${ACCOUNT}:function:${functionName(ref)}`;
    if (type === 'AWS::SQS::Queue' && attribute === 'Arn') return `arn:aws:sqs:${REGION}:${ACCOUNT}:${ref}`;
    if (type === 'AWS::IAM::Role' && attribute === 'Arn') return `arn:aws:iam::${ACCOUNT}:role/${ref}`;
    if (type === 'AWS::CloudFront::Distribution' && attribute === 'DomainName') return DISTRIBUTION_DOMAIN;
  }
  if (v['Fn::Join']) {
    const [separator, parts] = v['Fn::Join'] as [string, unknown[]];
    return parts.map((p) => resolveValue(p, where)).join(separator);
  }
  throw new Error(`${where}: no local value for ${JSON.stringify(value)}`);
}

/** Runs one bundle's handler in a fresh Node process (a Lambda container's cold start). */
const RUNNER = `
import { readFileSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
const [bundle, eventFile, resultFile, timeoutMs] = process.argv.slice(2);
const deadline = Date.now() + Number(timeoutMs);
const context = {
  functionName: process.env.AWS_LAMBDA_FUNCTION_NAME,
  functionVersion: '$LATEST',
  invokedFunctionArn: 'arn:aws:lambda:${REGION}:${ACCOUNT}:function:' + process.env.AWS_LAMBDA_FUNCTION_NAME,
  memoryLimitInMB: process.env.AWS_LAMBDA_FUNCTION_MEMORY_SIZE,
  awsRequestId: randomUUID(),
  logGroupName: '/aws/lambda/' + process.env.AWS_LAMBDA_FUNCTION_NAME,
  logStreamName: 'test',
  callbackWaitsForEmptyEventLoop: true,
  getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
};
let outcome;
try {
  const { handler } = await import(pathToFileURL(bundle).href);
  const result = await handler(JSON.parse(readFileSync(eventFile, 'utf8')), context);
  outcome = { ok: true, result: result ?? null };
} catch (err) {
  outcome = { ok: false, error: { name: err?.name, message: err?.message, stack: err?.stack } };
}
writeFileSync(resultFile, JSON.stringify(outcome));
process.exit(0);
`;

interface Invocation {
  ok: boolean;
  result?: any;
  error?: { name: string; message: string; stack?: string };
  /** The process's stdout and stderr (log lines, EMF lines). */
  output: string;
}

/** Invokes a function's bundle with `event`, as Lambda would, in a process of its own. */
async function invoke(name: string, event: unknown): Promise<Invocation> {
  const fn = functions.get(name);
  if (!fn) throw new Error(`No function ${name} in the template`);
  invoked.add(name);
  const id = randomUUID();
  const eventFile = join(work, `${id}.event.json`);
  const resultFile = join(work, `${id}.result.json`);
  writeFileSync(eventFile, JSON.stringify(event));
  const env: Record<string, string> = {
    // What the Lambda runtime sets.
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    AWS_REGION: REGION,
    AWS_DEFAULT_REGION: REGION,
    AWS_LAMBDA_FUNCTION_NAME: functionName(fn.logicalId),
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(fn.memory),
    AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
    AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x',
    LAMBDA_TASK_ROOT: fn.assetDir,
    TZ: 'UTC',
    // The local store's own (it refuses other signatures: functions/src/local/s3.ts); DynamoDB Local takes any.
    AWS_ACCESS_KEY_ID: s3.credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: s3.credentials.secretAccessKey,
    // No shared AWS config of this machine: only what is given here.
    AWS_CONFIG_FILE: join(work, 'no-aws-config'),
    AWS_SHARED_CREDENTIALS_FILE: join(work, 'no-aws-credentials'),
    // The local stand-ins, through the SDK's own endpoint settings (any other service: the stub, which refuses it).
    AWS_ENDPOINT_URL: stub.url,
    AWS_ENDPOINT_URL_DYNAMODB: dynamo.endpoint,
    AWS_ENDPOINT_URL_S3: s3.endpoint,
    // This machine's Node is older than Lambda's: the SDK's notice about it is not the function's output.
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    // The function's own environment, from the template.
    ...fn.environment,
  };
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        join(work, 'runner.mjs'),
        join(fn.assetDir, 'index.mjs'),
        eventFile,
        resultFile,
        String(fn.timeoutSeconds * 1000),
      ],
      {
        cwd: fn.assetDir,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let text = '';
    child.stdout.on('data', (d: Buffer) => (text += d.toString()));
    child.stderr.on('data', (d: Buffer) => (text += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.once('error', reject);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(text);
    });
  });
  if (!existsSync(resultFile)) throw new Error(`${name} ended without an answer:\n${output.slice(-3000)}`);
  return { ...(JSON.parse(readFileSync(resultFile, 'utf8')) as Omit<Invocation, 'output'>), output };
}

/** An API Gateway HTTP API (payload 2.0) event, as CloudFront → API Gateway deliver it. */
function apiEvent(
  method: string,
  path: string,
  options: { body?: unknown; cookies?: string[]; query?: Record<string, string>; originSecret?: string | null } = {},
) {
  const match = matchRoute(method, path);
  if (!match || !('route' in match)) throw new Error(`No route for ${method} ${path}`);
  const key = routeKey(match.route);
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  const now = new Date();
  const originSecret =
    options.originSecret === undefined
      ? secretValues.get(logicalIdOfSecret('ORIGIN_SECRET_ARN'))
      : options.originSecret;
  const headers: Record<string, string> = {
    host: DISTRIBUTION_DOMAIN,
    'user-agent': 'Mozilla/5.0 (shipped-bundles test)',
    'cloudfront-viewer-address': '203.0.113.10:52144',
    'x-forwarded-for': '203.0.113.10',
    ...(originSecret ? { 'x-origin-verify': originSecret } : {}),
    ...(body
      ? {
          'content-type': 'application/json',
          origin: `https://${DISTRIBUTION_DOMAIN}`,
          'sec-fetch-site': 'same-origin',
        }
      : {}),
  };
  return {
    version: '2.0',
    routeKey: key,
    rawPath: path,
    rawQueryString: new URLSearchParams(options.query ?? {}).toString(),
    ...(options.cookies?.length ? { cookies: options.cookies } : {}),
    headers,
    ...(options.query ? { queryStringParameters: options.query } : {}),
    ...(Object.keys(match.params).length ? { pathParameters: match.params } : {}),
    requestContext: {
      accountId: ACCOUNT,
      apiId: 'abc123defg',
      domainName: `abc123defg.execute-api.${REGION}.amazonaws.com`,
      domainPrefix: 'abc123defg',
      http: { method, path, protocol: 'HTTP/1.1', sourceIp: '130.176.0.1', userAgent: headers['user-agent']! },
      requestId: randomUUID(),
      routeKey: key,
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    ...(body ? { body } : {}),
    isBase64Encoded: false,
  };
}

/** The secret an environment variable names (its logical id), e.g. ORIGIN_SECRET_ARN. */
function logicalIdOfSecret(variable: string): string {
  const arn = functions.get('auth')!.environment[variable]!;
  return [...secretValues.keys()].find((id) => secretArn(id) === arn)!;
}

/** The function the HTTP API sends a route to: route → integration → function, from the template. */
function functionForRoute(key: string): string {
  const route = Object.values(resources).find(
    (r) => r.Type === 'AWS::ApiGatewayV2::Route' && r.Properties.RouteKey === key,
  );
  if (!route) throw new Error(`The HTTP API has no route ${key}`);
  const target = resolveTarget(route.Properties.Target);
  const integration = resources[target]!;
  // The integration names the group's live alias; the alias names the function.
  const aliasId = (integration.Properties.IntegrationUri as { Ref: string }).Ref;
  const fnId = (resources[aliasId]!.Properties.FunctionName as { Ref: string }).Ref;
  return [...functions.values()].find((f) => f.logicalId === fnId)!.name;
}
const resolveTarget = (target: any): string => {
  const parts = target['Fn::Join'][1] as unknown[];
  return (parts.find((p) => typeof p === 'object') as { Ref: string }).Ref;
};

/** Sends an API request to the function the HTTP API routes it to; the answer with its parsed JSON body. */
async function api(method: string, path: string, options: Parameters<typeof apiEvent>[2] = {}) {
  const event = apiEvent(method, path, options);
  const name = functionForRoute(event.routeKey);
  const out = await invoke(name, event);
  if (!out.ok) throw new Error(`${name} threw on ${method} ${path}: ${out.error?.message}\n${out.output.slice(-3000)}`);
  const response = out.result as {
    statusCode: number;
    headers?: Record<string, string>;
    body?: string;
    cookies?: string[];
    isBase64Encoded?: boolean;
  };
  const type = response.headers?.['content-type'] ?? response.headers?.['Content-Type'] ?? '';
  const json = type.includes('json') && response.body ? JSON.parse(response.body) : undefined;
  return { name, response, json, output: out.output };
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'shipped-bundles-'));
  writeFileSync(join(work, 'runner.mjs'), RUNNER);
  openai = await startFakeOpenAi();
  const synthStarted = Date.now();
  const { app, stack } = testApp({ bundle: true, context: { openaiBaseUrl: openai.url } });
  const assembly = app.synth();
  cdkOut = assembly.directory;
  console.log(`shipped-bundles: synthesized with bundling in ${((Date.now() - synthStarted) / 1000).toFixed(1)} s`);
  const template = JSON.parse(readFileSync(join(cdkOut, `${stack.artifactId}.template.json`), 'utf8')) as {
    Resources: Record<string, Resource>;
  };
  resources = template.Resources;

  for (const [id, r] of Object.entries(resources)) {
    if (r.Type === 'AWS::SecretsManager::Secret') secretValues.set(id, randomBytes(24).toString('hex'));
  }
  [dynamo, s3, stub] = await Promise.all([
    startDynamoLocal(),
    startLocalS3({ directory: join(work, 's3'), buckets: [BUCKET] }),
    startAwsStub(new Map([...secretValues].map(([id, value]) => [secretArn(id), value]))),
  ]);
  await ensureTable(dynamo.endpoint, TABLE);

  const appFunctions: [string, AppFunction][] = [
    ...stack.functions,
    [WORKER_ENTRY_NAME, stack.worker],
    [BACKFILLS_ENTRY_NAME, stack.backfills.function],
  ];
  const ours = new Map(
    appFunctions.map(([name, fn]) => [
      stack.resolve(stack.getLogicalId(fn.function.node.defaultChild as never)) as string,
      { name, modules: fn.modules },
    ]),
  );
  functions = new Map();
  for (const [logicalId, r] of Object.entries(resources)) {
    if (r.Type !== 'AWS::Lambda::Function') continue;
    const { name, modules } = ours.get(logicalId) ?? {};
    if (!name) throw new Error(`A Lambda function the app does not know: ${logicalId}`);
    const assetDir = join(cdkOut, `asset.${String(r.Properties.Code.S3Key).replace(/\.zip$/, '')}`);
    const variables = (r.Properties.Environment?.Variables ?? {}) as Record<string, unknown>;
    const environment = Object.fromEntries(
      Object.entries(variables).map(([k, v]) => [k, resolveValue(v, `${name}.${k}`)]),
    );
    functions.set(name, {
      name,
      logicalId,
      assetDir,
      environment,
      timeoutSeconds: r.Properties.Timeout,
      memory: r.Properties.MemorySize,
      modules,
    });
  }
}, 420_000);

afterAll(async () => {
  await Promise.all([dynamo?.stop(), s3?.stop(), stub?.stop(), openai?.stop()]);
  if (cdkOut) rmSync(cdkOut, { recursive: true, force: true });
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('every bundled handler in cdk.out answers an event (DynamoDB Local, s3rver, AWS stub)', () => {
  let cookies: string[];
  let articleId: string;
  let userId: string;

  it('ships one asset per function: index.mjs with exactly its on-demand packages (sharp as the linux-arm64 build)', () => {
    expect([...functions.keys()].sort()).toEqual(lambdaEntryNames().sort());
    for (const fn of functions.values()) {
      expect(existsSync(join(fn.assetDir, 'index.mjs')), fn.name).toBe(true);
      const modules = onDemandModulesOf(fn.name);
      for (const m of modules)
        expect(existsSync(join(fn.assetDir, 'node_modules', m, 'package.json')), `${fn.name}: ${m}`).toBe(true);
      if (modules.length === 0) expect(existsSync(join(fn.assetDir, 'node_modules')), fn.name).toBe(false);
      else {
        const installed = JSON.parse(readFileSync(join(fn.assetDir, 'package.json'), 'utf8')) as {
          dependencies: Record<string, string>;
        };
        expect(Object.keys(installed.dependencies).sort(), fn.name).toEqual([...modules].sort());
      }
      if (modules.includes('sharp')) {
        const img = readdirSync(join(fn.assetDir, 'node_modules', '@img'));
        expect(
          img.some((d) => d.startsWith('sharp-linux-arm64')),
          `${fn.name}: ${img.join(', ')}`,
        ).toBe(true);
        expect(
          img.some((d) => d.includes('x64')),
          `${fn.name}: ${img.join(', ')}`,
        ).toBe(false);
      }
    }
  });

  it('installs each distinct set of on-demand packages once: the assets that carry it get the same cached node_modules', () => {
    const withModules = [...functions.values()].filter((fn) => fn.modules);
    const keys = new Map(withModules.map((fn) => [fn.name, lambdaModulesKey(fn.modules!)]));
    const sets = new Set(withModules.map((fn) => [...onDemandModulesOf(fn.name)].sort().join(' ')));
    // Fewer installs than functions: one per distinct set of packages.
    expect(new Set(keys.values()).size).toBe(sets.size);
    expect(sets.size).toBeLessThan(withModules.length);
    const files = (dir: string) => (readdirSync(dir, { recursive: true }) as string[]).sort();
    for (const fn of withModules) {
      const cached = join(lambdaModulesCacheDir(), keys.get(fn.name)!, 'node_modules');
      const shipped = join(fn.assetDir, 'node_modules');
      expect(files(shipped), fn.name).toEqual(files(cached));
      // Hard links where the cache and cdk.out share a file system (a copy otherwise).
      const probe = join(onDemandModulesOf(fn.name)[0]!, 'package.json');
      const [a, b] = [statSync(join(cached, probe)), statSync(join(shipped, probe))];
      if (a.dev === b.dev) expect(b.ino, `${fn.name}: ${probe}`).toBe(a.ino);
      else expect(readFileSync(join(shipped, probe))).toEqual(readFileSync(join(cached, probe)));
    }
  });

  it('auth: the origin check is on (no x-origin-verify: 403); GET /api/auth/me without a session: 200 {user: null}', async () => {
    const refused = await api('GET', '/api/auth/me', { originSecret: null });
    expect(refused.response.statusCode).toBe(403);
    const me = await api('GET', '/api/auth/me');
    expect(me.name).toBe('auth');
    expect(me.response.statusCode).toBe(200);
    expect(me.json).toEqual({ user: null });
  });

  it('auth: the first account registers with the setup code (Secrets Manager) and the common-password list (on-demand package)', async () => {
    const setup = await api('GET', '/api/auth/setup');
    expect(setup.response.statusCode).toBe(200);
    const weak = await api('POST', '/api/auth/register', {
      body: {
        name: 'Ada',
        surname: 'Lovelace',
        email: 'ada@example.com',
        password: 'qwerty123',
        timezone: 'Europe/London',
        setupCode: secretValues.get(logicalIdOfSecret('SETUP_CODE_SECRET_ARN')),
      },
    });
    // A common password: refused by the list loaded from the asset's node_modules.
    expect(weak.response.statusCode, weak.output.slice(-2000)).toBe(400);
    expect(weak.json).toMatchObject({ code: 'password_too_common' });
    const registered = await api('POST', '/api/auth/register', {
      body: {
        name: 'Ada',
        surname: 'Lovelace',
        email: 'ada@example.com',
        password: 'correct horse battery',
        timezone: 'Europe/London',
        setupCode: secretValues.get(logicalIdOfSecret('SETUP_CODE_SECRET_ARN')),
      },
    });
    expect(registered.response.statusCode, registered.output.slice(-2000)).toBe(201);
    cookies = (registered.response.cookies ?? []).map((c) => c.split(';')[0]!);
    expect(cookies.some((c) => c.startsWith('session='))).toBe(true);
    userId = registered.json.user._id;
    const me = await api('GET', '/api/auth/me', { cookies });
    expect(me.response.statusCode).toBe(200);
    expect(me.json.user).toMatchObject({ email: 'ada@example.com', role: 'admin' });
  });

  it('admin: GET /api/admin/users lists the account', async () => {
    const users = await api('GET', '/api/admin/users', { cookies });
    expect(users.name).toBe('admin');
    expect(users.response.statusCode).toBe(200);
    expect(JSON.stringify(users.json)).toContain('ada@example.com');
  });

  it('settings: the OpenAI key is saved as the user’s secret (Secrets Manager) and listed masked', async () => {
    const saved = await api('POST', '/api/settings', {
      cookies,
      body: { key: 'openai_api_key', value: openai.apiKey },
    });
    expect(saved.name).toBe('settings');
    expect(saved.response.statusCode, saved.output.slice(-2000)).toBeLessThan(300);
    const listed = await api('GET', '/api/settings', { cookies });
    expect(listed.response.statusCode).toBe(200);
    expect(JSON.stringify(listed.json)).toContain('openai_api_key');
    expect(JSON.stringify(listed.json)).not.toContain(openai.apiKey);
  });

  it('articles: POST /api/articles saves the article and invokes the worker asynchronously', async () => {
    const created = await api('POST', '/api/articles', {
      cookies,
      body: { title: 'Shipped bundles', topic: 'Testing what ships', keyword: 'cdk' },
    });
    expect(created.name).toBe('articles');
    expect(created.response.statusCode, created.output.slice(-2000)).toBe(201);
    articleId = created.json.article._id;
    const worker = functions.get(WORKER_ENTRY_NAME)!;
    expect(stub.invocations).toEqual([
      {
        // The worker's live alias, by its ARN (WORKER_FUNCTION_NAME), not $LATEST.
        functionName: `arn:aws:lambda:${REGION}:${ACCOUNT}:function:${functionName(worker.logicalId)}:live`,
        invocationType: 'Event',
        // It holds one of the user's places in flight (functions/src/domain/job-limits.ts), counted in the table.
        // The member who asked is named for the ArticleDrafted event (personal workspace: the owner).
        payload: { type: 'generate-content', userId, articleId, actorId: userId, inFlight: true },
      },
    ]);
  });

  it('dashboard: GET /api/dashboard counts the new article from the summary the create wrote in its transaction', async () => {
    const dashboard = await api('GET', '/api/dashboard', { cookies });
    expect(dashboard.name).toBe('dashboard');
    expect(dashboard.response.statusCode, dashboard.output.slice(-2000)).toBe(200);
    expect(dashboard.json).toMatchObject({ total: 1, keywords: { demo: false } });
  });

  it('worker: the async invocation drafts with the user’s key through the openai package (fake OpenAI), records its metrics', async () => {
    const ran = await invoke(WORKER_ENTRY_NAME, stub.invocations[0]!.payload);
    expect(ran.ok, `${ran.error?.message}\n${ran.output.slice(-3000)}`).toBe(true);
    expect(ran.result).toBeNull();
    expect(
      openai.requests
        .filter((r) => r.path === '/v1/responses' || r.path === '/v1/chat/completions')
        .every((r) => r.authorized),
    ).toBe(true);
    expect(openai.requests.length).toBeGreaterThanOrEqual(2);
    // The drafts' domain event is written to the table with them (delivered from the table's stream, not here).
    expect(stub.putEvents).toEqual([]);
    // EMF in the namespace the template gives (POWERTOOLS_METRICS_NAMESPACE), with the Lambda context in the log lines.
    const lines = ran.output
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l));
    expect(lines.find((l) => l._aws)?._aws.CloudWatchMetrics[0]).toMatchObject({
      Namespace: functions.get(WORKER_ENTRY_NAME)!.environment.POWERTOOLS_METRICS_NAMESPACE,
      Metrics: [{ Name: 'JobDuration' }],
    });
    expect(lines.find((l) => l.message === 'job')).toMatchObject({
      function_name: functionName(functions.get(WORKER_ENTRY_NAME)!.logicalId),
      function_request_id: expect.any(String),
    });

    const article = await api('GET', `/api/articles/${articleId}`, { cookies });
    expect(article.response.statusCode).toBe(200);
    expect(article.json.article.generation.status).toBe('done');
    expect(article.json.article.blog.content).toContain('Fake answer from');
  });

  it('images: the preview redirects to a presigned GET of S3 (on-demand signer) that serves an image over 6 MB', async () => {
    // Over Lambda's 6 MB answer limit (a base64 body of it would be a 5xx in AWS): only a redirect can serve it.
    const png = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), randomBytes(7 * 1024 * 1024)]);
    const base = `users/${userId}/articles/${articleId}/1700000000000`;
    const client = new S3Client({
      region: REGION,
      endpoint: s3.endpoint,
      forcePathStyle: true,
      credentials: s3.credentials,
    });
    await client.send(
      new PutObjectCommand({ Bucket: BUCKET, Key: `${base}-blog.png`, Body: png, ContentType: 'image/png' }),
    );
    client.destroy();
    // What the worker's image job records (it needs sharp, which only runs on arm64 here).
    const db = DynamoDBDocumentClient.from(
      new DynamoDBClient({
        region: REGION,
        endpoint: dynamo.endpoint,
        credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
      }),
    );
    await new DynamoArticleStore(db, TABLE).update(userId, articleId, {
      image: {
        blogKey: `${base}-blog.png`,
        linkedinKey: `${base}-linkedin.png`,
        contentType: 'image/png',
        description: 'a ship',
        generatedAt: new Date().toISOString(),
      },
    });
    db.destroy();

    const blog = await api('GET', `/api/image/preview/${articleId}`, { cookies, query: { platform: 'blog' } });
    expect(blog.name).toBe('images');
    expect(blog.response.statusCode, blog.output.slice(-2000)).toBe(302);
    expect(blog.response.body ?? '').toBe('');
    const location = new URL(blog.response.headers!.location!);
    expect(location.pathname).toContain(`${base}-blog.png`);
    expect(location.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    expect(location.searchParams.get('X-Amz-Expires')).toBe('7200');
    const file = await fetch(location);
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer()).equals(png)).toBe(true);
  });

  it('images: an upload start signs a presigned POST with the on-demand @aws-sdk/s3-presigned-post, for the bucket and the one key', async () => {
    const started = await api('POST', `/api/image/upload/${articleId}`, {
      cookies,
      body: { contentType: 'image/jpeg', size: 123_456 },
    });
    expect(started.name).toBe('images');
    expect(started.response.statusCode, started.output.slice(-2000)).toBe(200);
    const { url, fields } = started.json.upload;
    expect(url).toContain(BUCKET);
    expect(fields.key).toMatch(new RegExp(`^uploads/${userId}/${articleId}/[0-9a-f]{32}$`));
    expect(fields['Content-Type']).toBe('image/jpeg');
    const policy = JSON.parse(Buffer.from(fields.Policy, 'base64').toString('utf8'));
    expect(policy.conditions).toEqual(expect.arrayContaining([['content-length-range', 1, 15 * 1024 * 1024]]));
    expect(fields['X-Amz-Signature']).toMatch(/^[0-9a-f]{64}$/);
  });

  it('schedule: PUT …/schedule creates the one-off schedule (EventBridge Scheduler) whose input the worker runs', async () => {
    const at = new Date(Date.now() + 3600_000).toISOString();
    const scheduled = await api('PUT', `/api/articles/${articleId}/schedule`, {
      cookies,
      body: { platform: 'blog', datetime: at },
    });
    expect(scheduled.name).toBe('schedule');
    expect(scheduled.response.statusCode, scheduled.output.slice(-2000)).toBe(200);
    expect(stub.schedules).toHaveLength(1);
    const target = stub.schedules[0]!.input.Target;
    expect(target.Arn).toBe(functions.get('schedule')!.environment.SCHEDULE_TARGET_ARN);
    // EventBridge Scheduler invokes the worker with the target's input as the event.
    const ran = await invoke(WORKER_ENTRY_NAME, JSON.parse(target.Input));
    expect(ran.ok, `${ran.error?.message}\n${ran.output.slice(-3000)}`).toBe(true);
    // No Gmail in this account: the run records that the approval e-mail could not be sent.
    const article = await api('GET', `/api/articles/${articleId}`, { cookies });
    expect(article.json.article.lastError).toMatchObject({ code: 'email_not_configured' });
  });

  it('worker: an SQS batch from the bulk job queue answers its batch response', async () => {
    const record = (messageId: string, body: string) => ({
      messageId,
      receiptHandle: `rh-${messageId}`,
      body,
      attributes: { ApproximateReceiveCount: '1', SentTimestamp: String(Date.now()) },
      messageAttributes: {},
      md5OfBody: '',
      eventSource: 'aws:sqs',
      eventSourceARN: `arn:aws:sqs:${REGION}:${ACCOUNT}:bulk-jobs`,
      awsRegion: REGION,
    });
    const ran = await invoke(WORKER_ENTRY_NAME, {
      Records: [
        record('m1', JSON.stringify({ type: 'generate-content', userId, articleId })),
        record('m2', 'not a job'),
      ],
    });
    expect(ran.ok, `${ran.error?.message}\n${ran.output.slice(-3000)}`).toBe(true);
    expect(ran.result).toEqual({ batchItemFailures: [] });
  });

  it.each([
    ['wordpress', 'GET', '/api/wordpress/credentials'],
    ['linkedin', 'GET', '/api/linkedin/status'],
    ['email', 'GET', '/api/email/settings'],
    ['sheets', 'GET', '/api/sheets/status'],
    ['workspaces', 'GET', '/api/workspaces'],
    // A registry channel's connection (functions/src/channels/registry.ts): its module loaded on demand by the route.
    ['channels', 'GET', '/api/channels/ghost/connection'],
  ])('%s: %s %s answers 200 JSON', async (name, method, path) => {
    const out = await api(method, path, { cookies });
    expect(out.name).toBe(name);
    expect(out.response.statusCode, out.output.slice(-2000)).toBe(200);
    expect(out.json).toBeDefined();
  });

  it('approvals: a link that is not valid answers 400 (the session key read from Secrets Manager)', async () => {
    const out = await api('POST', '/api/approvals/preview', { body: { token: 'x'.repeat(40) } });
    expect(out.name).toBe('approvals');
    expect(out.response.statusCode, out.output.slice(-2000)).toBe(400);
    expect(out.json).toMatchObject({ code: 'invalid_approval' });
  });

  it("backfills: a deployment's custom resource request runs the backfills on the table and answers SUCCESS to its URL", async () => {
    const answers: Record<string, unknown>[] = [];
    const cloudFormation = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        answers.push(JSON.parse(body) as Record<string, unknown>);
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => cloudFormation.listen(0, '127.0.0.1', resolve));
    try {
      const run = await invoke(BACKFILLS_ENTRY_NAME, {
        RequestType: 'Create',
        ResponseURL: `http://127.0.0.1:${(cloudFormation.address() as AddressInfo).port}/response`,
        StackId: `arn:aws:cloudformation:${REGION}:${ACCOUNT}:stack/ContentPublisher/1`,
        RequestId: randomUUID(),
        LogicalResourceId: 'BackfillsRun',
        ResourceType: 'Custom::TableBackfills',
        ResourceProperties: {
          ServiceToken: 'arn',
          TableName: TABLE,
          Backfills: [...TABLE_BACKFILL_NAMES],
          CodeHash: 'h',
        },
      });
      expect(run.ok, run.error?.message).toBe(true);
      expect(answers).toEqual([
        expect.objectContaining({ Status: 'SUCCESS', Data: { Ran: TABLE_BACKFILL_NAMES.join(',') } }),
      ]);
    } finally {
      await new Promise((resolve) => cloudFormation.close(resolve));
    }
  });

  it('every function was invoked, and no call reached an AWS API the stub does not answer', () => {
    expect([...invoked].sort()).toEqual([...functions.keys()].sort());
    expect(stub.unexpected).toEqual([]);
  });
});
