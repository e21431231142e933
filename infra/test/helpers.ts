import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { App } from 'aws-cdk-lib';
import { routeGroups } from '@app/shared/api';
import { buildApp, type BuildAppOptions } from '../lib/app.js';
import type { ContentPublisherStack } from '../lib/content-publisher-stack.js';
import { lambdaEntryPath, repoRoot } from '../lib/paths.js';
import { WORKER_ENTRY_NAME } from '../lib/worker-function.js';

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
  writeFileSync(join(dir, 'index.html'), '<!doctype html><div id="root"></div><script type="module" src="/assets/index-abc123.js"></script>');
  writeFileSync(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(join(dir, 'assets', 'index-abc123.js'), 'console.log("app")');
  return dir;
}

/** Every Lambda entry the stack bundles: one per route group, and the worker. */
export const lambdaEntryNames = (): string[] => [...routeGroups(), WORKER_ENTRY_NAME];

export const missingEntryGroups = (): string[] => lambdaEntryNames().filter((g) => !existsSync(lambdaEntryPath(repoRoot, g)));

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
