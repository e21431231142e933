import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { routeGroups } from '@app/shared/api';
import { API_FUNCTION_DEFAULTS, AUDITED_ROUTE_GROUPS } from '../lib/api-function.js';
import { ON_DEMAND_MODULES, onDemandModulesOf } from '../lib/bundling.js';
import { USER_SECRETS_PREFIX } from '../lib/content-publisher-stack.js';
import { lambdaEntryPath, repoRoot } from '../lib/paths.js';
import { WORKER_ENTRY_NAME, WORKER_FUNCTION_DEFAULTS } from '../lib/worker-function.js';
import { Template } from 'aws-cdk-lib/assertions';
import { BULK_JOBS_DEFAULTS } from '../lib/bulk-jobs.js';
import { logicalId, synthesizeDefaultStack, testApp, type Resource } from './helpers.js';

const { stack, template, tableId, secretId, workerId, imagesBucketId, functionIds, environmentOf } =
  synthesizeDefaultStack();

describe('Lambda functions', () => {
  const apiFunctions = () =>
    Object.entries(template.findResources('AWS::Lambda::Function') as Record<string, Resource>).filter(([id]) =>
      [...functionIds.values()].includes(id),
    );

  it('exist once per route group, plus the worker and the table backfills (table-backfills.test.ts), and only those', () => {
    expect([...stack.functions.keys()].sort()).toEqual(routeGroups().sort());
    expect(apiFunctions()).toHaveLength(routeGroups().length);
    expect(Object.keys(template.findResources('AWS::Lambda::Function')).sort()).toEqual(
      [...functionIds.values(), workerId, logicalId(stack, stack.backfills.function.function)].sort(),
    );
  });

  it.each(routeGroups())('%s: Node.js 22 on arm64, handler `handler`, bounded timeout', (group) => {
    const fn = template.findResources('AWS::Lambda::Function')[functionIds.get(group)!] as Resource;
    expect(fn.Properties).toMatchObject({
      Runtime: 'nodejs22.x',
      Architectures: ['arm64'],
      Handler: 'index.handler',
      MemorySize: API_FUNCTION_DEFAULTS.memorySize,
    });
    expect(fn.Properties.Timeout).toBeLessThanOrEqual(29);
    expect(fn.Properties.Timeout).toBeGreaterThanOrEqual(10);
  });

  it.each(routeGroups())('%s: gets the table, the secret ARN, source maps and a service name', (group) => {
    const variables = environmentOf(group);
    expect(variables).toMatchObject({
      TABLE_NAME: { Ref: tableId },
      SESSION_SECRET_ARN: { Ref: secretId },
      NODE_OPTIONS: '--enable-source-maps',
      POWERTOOLS_SERVICE_NAME: `content-publisher-${group}`,
    });
    // No public URL unless the publicUrl context value is given (the functions use x-forwarded-host).
    expect(variables.PUBLIC_URL).toBeUndefined();
  });

  it.each(routeGroups())(
    '%s: logs to its own log group, kept a month, or a year when it writes the audit trail',
    (group) => {
      const fn = template.findResources('AWS::Lambda::Function')[functionIds.get(group)!] as Resource;
      const logGroupRef = fn.Properties.LoggingConfig.LogGroup as { Ref: string };
      const logGroup = template.findResources('AWS::Logs::LogGroup')[logGroupRef.Ref] as Resource;
      // A handler that calls a UserService method writing audit lines (functions/src/domain/users.ts).
      const handler = readFileSync(join(repoRoot, 'functions', 'src', 'http', `${group}.ts`), 'utf8');
      const audits = /\.(register|login|endSession|endAllSessions|changePassword|setActive)\(/.test(handler);
      expect(logGroup.Properties.RetentionInDays, audits ? 'writes audit lines' : 'no audit lines').toBe(
        audits ? 365 : 30,
      );
      expect(AUDITED_ROUTE_GROUPS.includes(group)).toBe(audits);
    },
  );

  it.each(routeGroups())(
    '%s: bundles everything (the AWS SDK too) but the on-demand packages, which it installs when it uses them',
    (group) => {
      const fn = stack.functions.get(group)!;
      const installed = [...onDemandModulesOf(group)];
      expect(Object.keys(fn.modules?.dependencies ?? {})).toEqual(installed);
      // No on-demand package is bundled, installed or not; NodejsFunction installs none itself.
      expect([...(fn.bundling.externalModules ?? [])].sort()).toEqual([...ON_DEMAND_MODULES].sort());
      expect(fn.bundling.externalModules).not.toContain('@aws-sdk/*');
      expect(fn.bundling.nodeModules).toBeUndefined();
    },
  );
});

describe('worker function', () => {
  const worker = () => template.findResources('AWS::Lambda::Function')[workerId] as Resource;

  it('is Node.js 22 on arm64 with 2048 MB and a 5-minute timeout', () => {
    expect(worker().Properties).toMatchObject({
      Runtime: 'nodejs22.x',
      Architectures: ['arm64'],
      Handler: 'index.handler',
      MemorySize: 2048,
      Timeout: 300,
    });
    expect(WORKER_FUNCTION_DEFAULTS.timeout.toSeconds()).toBe(300);
  });

  it('shares the account concurrency unless the workerReservedConcurrency context value reserves some', () => {
    expect(worker().Properties.ReservedConcurrentExecutions).toBeUndefined();
    for (const value of ['20']) {
      const { stack: reserved } = testApp({ context: { workerReservedConcurrency: value } });
      const fn = Template.fromStack(reserved).findResources('AWS::Lambda::Function')[
        logicalId(reserved, reserved.worker.function)
      ] as Resource;
      expect(fn.Properties.ReservedConcurrentExecutions).toBe(20);
      // Only the worker: the API functions keep the shared pool.
      for (const [, api] of reserved.functions) {
        const props = (
          Template.fromStack(reserved).findResources('AWS::Lambda::Function')[
            logicalId(reserved, api.function)
          ] as Resource
        ).Properties;
        expect(props.ReservedConcurrentExecutions).toBeUndefined();
      }
    }
  });

  it('refuses a reserved concurrency that is not a whole number, or below the bulk queue’s concurrency', () => {
    expect(() => testApp({ context: { workerReservedConcurrency: 'lots' } })).toThrow(
      /workerReservedConcurrency must be a positive whole number, not "lots"/,
    );
    expect(() => testApp({ context: { workerReservedConcurrency: BULK_JOBS_DEFAULTS.maxConcurrency - 1 } })).toThrow(
      new RegExp(`workerReservedConcurrency must be a whole number of at least ${BULK_JOBS_DEFAULTS.maxConcurrency}`),
    );
  });

  it('is bundled from functions/src/lambda/worker.ts', () => {
    expect(lambdaEntryPath(repoRoot, WORKER_ENTRY_NAME)).toMatch(/functions\/src\/lambda\/worker\.ts$/);
    expect(worker().Properties.Description).toMatch(/worker/i);
  });

  it('gets the table, the images bucket, the secrets prefix, and the session key and public URL of the approval links; no worker to call', () => {
    const variables = environmentOf(WORKER_ENTRY_NAME);
    expect(variables).toMatchObject({
      TABLE_NAME: { Ref: tableId },
      IMAGES_BUCKET: { Ref: imagesBucketId },
      SECRETS_PREFIX: USER_SECRETS_PREFIX,
      NODE_OPTIONS: '--enable-source-maps',
      POWERTOOLS_SERVICE_NAME: 'content-publisher-worker',
      // generate-and-notify signs the approval link with the session key…
      SESSION_SECRET_ARN: { Ref: secretId },
      // …on the app's URL: outside a request there is no host header (no publicUrl context: the distribution).
      PUBLIC_URL: {
        'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [logicalId(stack, stack.site.distribution), 'DomainName'] }]],
      },
    });
    expect(variables.WORKER_FUNCTION_NAME).toBeUndefined();
    // It schedules the retries of failed scheduled runs, whose target is itself: its own ARN comes from its
    // invocation (functions/src/lambda/worker.ts), the rest as the schedule function has it (access.test.ts).
    expect(variables.SCHEDULE_TARGET_ARN).toBeUndefined();
    for (const name of ['SCHEDULE_GROUP_NAME', 'SCHEDULER_ROLE_ARN', 'SCHEDULE_DLQ_ARN']) {
      expect(variables[name], name).toBeDefined();
    }
  });

  it('has the EventBridge and S3 clients and signers, sharp, openai, google-auth-library and the Markdown pipeline installed for linux-arm64 next to the bundle, without install scripts, an audit or notices', () => {
    const modules = stack.worker.modules!;
    expect(Object.keys(modules.dependencies)).toEqual([
      '@aws-sdk/client-eventbridge',
      '@aws-sdk/client-s3',
      '@aws-sdk/s3-presigned-post',
      '@aws-sdk/s3-request-presigner',
      'google-auth-library',
      'marked',
      'openai',
      'sanitize-html',
      'sharp',
    ]);
    // Their versions are the functions workspace's (the installed one's for the Markdown pipeline, which the shared
    // workspace brings); the AWS SDK is bundled, every on-demand package kept out of it.
    const declared = JSON.parse(readFileSync(join(repoRoot, 'functions', 'package.json'), 'utf8')).dependencies;
    const installed = (name: string) =>
      JSON.parse(readFileSync(join(repoRoot, 'node_modules', name, 'package.json'), 'utf8')).version;
    for (const [name, version] of Object.entries(modules.dependencies))
      expect(version, name).toBe(declared[name] ?? installed(name));
    expect([...(stack.worker.bundling.externalModules ?? [])].sort()).toEqual([...ON_DEMAND_MODULES].sort());
    expect(modules.lockFile).toBe(join(repoRoot, 'package-lock.json'));
    expect(modules.environment).toEqual({
      npm_config_os: 'linux',
      npm_config_cpu: 'arm64',
      npm_config_libc: 'glibc',
      npm_config_ignore_scripts: 'true',
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      npm_config_update_notifier: 'false',
    });
  });

  it('logs to its own log group with its own role, and no API route reaches it', () => {
    const logGroupRef = worker().Properties.LoggingConfig.LogGroup as { Ref: string };
    expect(
      (template.findResources('AWS::Logs::LogGroup')[logGroupRef.Ref] as Resource).Properties.RetentionInDays,
    ).toBe(30);
    const roleIds = [...stack.functions.values()].map((fn) => logicalId(stack, fn.role));
    expect(roleIds).not.toContain(logicalId(stack, stack.worker.role));
    expect(worker().Properties.Role).toEqual({ 'Fn::GetAtt': [logicalId(stack, stack.worker.role), 'Arn'] });
    const integrations = Object.values(
      template.findResources('AWS::ApiGatewayV2::Integration') as Record<string, Resource>,
    );
    expect(JSON.stringify(integrations)).not.toContain(`"${workerId}"`);
    const permissions = Object.values(template.findResources('AWS::Lambda::Permission') as Record<string, Resource>);
    expect(JSON.stringify(permissions)).not.toContain(`"${workerId}"`);
  });
});
