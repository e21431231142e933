import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { Role } from 'aws-cdk-lib/aws-iam';
import { expect } from 'vitest';
import { routeGroups } from '@app/shared/api';
import { buildApp, type BuildAppOptions } from '../lib/app.js';
import type { ContentPublisherStack } from '../lib/content-publisher-stack.js';
import { lambdaEntryPath, repoRoot } from '../lib/paths.js';
import { BACKFILLS_ENTRY_NAME } from '../lib/table-backfills.js';
import { WORKER_ENTRY_NAME } from '../lib/worker-function.js';

/** A resource of a synthesized template, and a statement of an IAM policy in it. */
export type Resource = {
  Type: string;
  Properties: Record<string, any>;
  DeletionPolicy?: string;
  UpdateReplacePolicy?: string;
};
export type Statement = { Effect: string; Action: string | string[]; Resource: unknown; Condition?: unknown };

export const asArray = <T>(value: T | T[]): T[] => (Array.isArray(value) ? value : [value]);
export const logicalId = (stack: Stack, construct: { node: { defaultChild?: unknown } }): string =>
  stack.resolve(stack.getLogicalId(construct.node.defaultChild as never)) as string;
/** The one resource of `resources`, with its logical id. */
export const only = (resources: Record<string, Resource>): [string, Resource] => {
  const entries = Object.entries(resources);
  expect(entries).toHaveLength(1);
  return entries[0]!;
};

/** The feature flags and settings of cdk.json, so the tests synthesize what `cdk synth` does. */
export function cdkJsonContext(): Record<string, unknown> {
  const cdkJson = JSON.parse(readFileSync(join(repoRoot, 'cdk.json'), 'utf8')) as { context?: Record<string, unknown> };
  return cdkJson.context ?? {};
}

export const tempDir = (prefix: string): string => mkdtempSync(join(tmpdir(), `infra-test-${prefix}-`));

/** An empty folder: the SPA is "not built". */
export const unbuiltSpaDir = (): string => tempDir('nodist');

/** A folder shaped like Vite's output (index.html, a public file, hashed assets). */
export function builtSpaDir(): string {
  const dir = tempDir('dist');
  mkdirSync(join(dir, 'assets'));
  writeFileSync(
    join(dir, 'index.html'),
    '<!doctype html><div id="root"></div><script type="module" src="/assets/index-abc123.js"></script>',
  );
  writeFileSync(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(join(dir, 'assets', 'index-abc123.js'), 'console.log("app")');
  // The precompressed copies the build writes for the local server (frontend/vite-precompress.ts).
  writeFileSync(join(dir, 'assets', 'index-abc123.js.br'), 'brotli');
  writeFileSync(join(dir, 'assets', 'index-abc123.js.gz'), 'gzip');
  writeFileSync(join(dir, 'index.html.br'), 'brotli');
  return dir;
}

/** Every Lambda entry the stack bundles: one per route group, the worker and the table backfills. */
export const lambdaEntryNames = (): string[] => [...routeGroups(), WORKER_ENTRY_NAME, BACKFILLS_ENTRY_NAME];

export const missingEntryGroups = (): string[] =>
  lambdaEntryNames().filter((g) => !existsSync(lambdaEntryPath(repoRoot, g)));

/**
 * The project root the stack bundles from: the repository itself when every route group (and the
 * worker) has its Lambda entry; otherwise a throwaway root with stub entries (bundling is skipped in these tests,
 * and `lambda-entries.test.ts` reports the missing files).
 */
export function projectRootForTests(): string {
  if (missingEntryGroups().length === 0) return repoRoot;
  const root = tempDir('root');
  writeFileSync(join(root, 'package-lock.json'), '{"lockfileVersion":3,"packages":{}}');
  for (const name of lambdaEntryNames()) {
    const entry = lambdaEntryPath(root, name);
    mkdirSync(join(entry, '..'), { recursive: true });
    writeFileSync(entry, 'export const handler = async () => ({ statusCode: 200 });\n');
  }
  return root;
}

export interface TestAppOptions {
  /** Extra context (e.g. publicUrl, domainName). */
  context?: Record<string, unknown>;
  /** Stack overrides; spaDistDir defaults to an empty folder so results do not depend on frontend/dist. */
  stack?: BuildAppOptions['stack'];
  nag?: boolean;
  /** Bundle the Lambda code for real (slow); off by default. */
  bundle?: boolean;
}

/** The app as `bin/app.ts` builds it, with cdk.json's context, offline, without bundling by default. */
export function testApp(options: TestAppOptions = {}): { app: App; stack: ContentPublisherStack } {
  return buildApp({
    appProps: {
      outdir: tempDir('cdkout'),
      context: {
        ...cdkJsonContext(),
        ...(options.bundle ? {} : { 'aws:cdk:bundling-stacks': [] }),
        ...options.context,
      },
    },
    stack: { projectRoot: projectRootForTests(), spaDistDir: unbuiltSpaDir(), ...options.stack },
    nag: options.nag ?? false,
  });
}

/** What every dead-letter alarm of the stack is: fires as soon as one message waits in `queueLogicalId` (5-minute period). */
export const deadLetterAlarmProperties = (queueLogicalId: string) => ({
  Namespace: 'AWS/SQS',
  MetricName: 'ApproximateNumberOfMessagesVisible',
  Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [queueLogicalId, 'QueueName'] } }],
  Period: 300,
  Threshold: 1,
  ComparisonOperator: 'GreaterThanOrEqualToThreshold',
  EvaluationPeriods: 1,
  TreatMissingData: 'notBreaching',
});

/** The stack as testApp() synthesizes it, its template, and the logical ids and lookups the tests use. */
export interface DefaultStack {
  app: App;
  stack: ContentPublisherStack;
  template: Template;
  tableId: string;
  secretId: string;
  workerId: string;
  /** Logical id of the worker's live alias (what every caller of the worker names). */
  workerAliasId: string;
  imagesBucketId: string;
  /** Logical id of each group's function. */
  functionIds: Map<string, string>;
  /** Logical id of each group's live alias (what the HTTP API integrates with). */
  aliasIds: Map<string, string>;
  /** The role of a route group's function or of the worker. */
  roleOf(name: string): Role;
  /** The statements of the one policy of a function's role. */
  policyOf(name: string): Statement[];
  /** The environment variables of a route group's function or of the worker. */
  environmentOf(name: string): Record<string, unknown>;
}

/** Synthesizes the stack with testApp()'s defaults (call it in a test file's beforeAll). */
export function synthesizeDefaultStack(): DefaultStack {
  const { app, stack } = testApp();
  const template = Template.fromStack(stack);
  const workerId = logicalId(stack, stack.worker.function);
  const functionIds = new Map<string, string>();
  const aliasIds = new Map<string, string>();
  for (const [group, fn] of stack.functions) {
    functionIds.set(group, logicalId(stack, fn.function));
    aliasIds.set(group, logicalId(stack, fn.alias));
  }
  const roleOf = (name: string) => (name === WORKER_ENTRY_NAME ? stack.worker : stack.functions.get(name)!).role;
  return {
    app,
    stack,
    template,
    tableId: logicalId(stack, stack.data.table),
    secretId: logicalId(stack, stack.sessionSecret),
    workerId,
    workerAliasId: logicalId(stack, stack.worker.alias),
    imagesBucketId: logicalId(stack, stack.imagesBucket),
    functionIds,
    aliasIds,
    roleOf,
    policyOf: (name) => {
      const roleId = logicalId(stack, roleOf(name));
      const policies = Object.values(template.findResources('AWS::IAM::Policy') as Record<string, Resource>).filter(
        (p) => (p.Properties.Roles as { Ref: string }[]).some((r) => r.Ref === roleId),
      );
      expect(policies).toHaveLength(1);
      return policies[0]!.Properties.PolicyDocument.Statement as Statement[];
    },
    environmentOf: (name) => {
      const id = name === WORKER_ENTRY_NAME ? workerId : functionIds.get(name)!;
      return (template.findResources('AWS::Lambda::Function')[id] as Resource).Properties.Environment
        .Variables as Record<string, unknown>;
    },
  };
}
