import type { App, Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { CachePolicy, OriginRequestPolicy } from 'aws-cdk-lib/aws-cloudfront';
import { beforeAll, describe, expect, it } from 'vitest';
import { tableDefinition } from '../../functions/src/adapters/table-definition.js';
import { routeGroup, routeGroups, routes } from '@app/shared/api';
import { API_FUNCTION_DEFAULTS } from '../lib/api-function.js';
import { IMAGES_KEY_PREFIX } from '../lib/capabilities.js';
import { FUNCTION_ACCESS, USER_SECRETS_PREFIX, type ContentPublisherStack } from '../lib/content-publisher-stack.js';
import { tableIndexes } from '../lib/data-table.js';
import { ON_DEMAND_MODULES, onDemandModulesOf } from '../lib/bundling.js';
import { lambdaEntryPath, repoRoot } from '../lib/paths.js';
import { BULK_JOBS_DEFAULTS } from '../lib/bulk-jobs.js';
import { SCHEDULE_DLQ_DEFAULTS } from '../lib/schedules.js';
import { CONTENT_SECURITY_POLICY, FORWARDED_HOST_FUNCTION, SPA_REWRITE_FUNCTION } from '../lib/site.js';
import { WORKER_ENTRY_NAME, WORKER_FUNCTION_DEFAULTS } from '../lib/worker-function.js';
import { builtSpaDir, deadLetterAlarmProperties, testApp } from './helpers.js';

type Resource = { Type: string; Properties: Record<string, any>; DeletionPolicy?: string; UpdateReplacePolicy?: string };
type Statement = { Effect: string; Action: string | string[]; Resource: unknown; Condition?: unknown };

const asArray = <T>(value: T | T[]): T[] => (Array.isArray(value) ? value : [value]);
const logicalId = (stack: Stack, construct: { node: { defaultChild?: unknown } }): string =>
  stack.resolve(stack.getLogicalId(construct.node.defaultChild as never)) as string;
const only = (resources: Record<string, Resource>): [string, Resource] => {
  const entries = Object.entries(resources);
  expect(entries).toHaveLength(1);
  return entries[0]!;
};

let app: App;
let stack: ContentPublisherStack;
let template: Template;
let tableId: string;
let secretId: string;
let workerId: string;
let imagesBucketId: string;
/** Logical id of each group's function. */
const functionIds = new Map<string, string>();

/** The role of a route group's function or of the worker. */
const roleOf = (name: string) => (name === WORKER_ENTRY_NAME ? stack.worker : stack.functions.get(name)!).role;
/** The statements of the one policy of a function's role. */
const policyOf = (name: string): Statement[] => {
  const roleId = logicalId(stack, roleOf(name));
  const policies = Object.values(template.findResources('AWS::IAM::Policy') as Record<string, Resource>).filter((p) =>
    (p.Properties.Roles as { Ref: string }[]).some((r) => r.Ref === roleId),
  );
  expect(policies).toHaveLength(1);
  return policies[0]!.Properties.PolicyDocument.Statement as Statement[];
};
/** The environment variables of a route group's function or of the worker. */
const environmentOf = (name: string): Record<string, unknown> => {
  const id = name === WORKER_ENTRY_NAME ? workerId : functionIds.get(name)!;
  return (template.findResources('AWS::Lambda::Function')[id] as Resource).Properties.Environment.Variables as Record<string, unknown>;
};

beforeAll(() => {
  ({ app, stack } = testApp());
  template = Template.fromStack(stack);
  tableId = logicalId(stack, stack.data.table);
  secretId = logicalId(stack, stack.sessionSecret);
  workerId = logicalId(stack, stack.worker.function);
  imagesBucketId = logicalId(stack, stack.imagesBucket);
  for (const [group, fn] of stack.functions) functionIds.set(group, logicalId(stack, fn.function));
});

describe('DynamoDB table', () => {
  it('is the one table, keyed as tableDefinition says', () => {
    const [, table] = only(template.findResources('AWS::DynamoDB::Table') as Record<string, Resource>);
    expect(table.Properties.KeySchema).toEqual([
      { AttributeName: tableDefinition.partitionKey.name, KeyType: 'HASH' },
      { AttributeName: tableDefinition.sortKey.name, KeyType: 'RANGE' },
    ]);
    expect(table.Properties.AttributeDefinitions).toEqual(
      expect.arrayContaining([
        { AttributeName: 'PK', AttributeType: 'S' },
        { AttributeName: 'SK', AttributeType: 'S' },
        { AttributeName: 'GSI1PK', AttributeType: 'S' },
        { AttributeName: 'GSI1SK', AttributeType: 'S' },
      ]),
    );
  });

  it('has every global secondary index of tableDefinition, all attributes projected', () => {
    const [, table] = only(template.findResources('AWS::DynamoDB::Table') as Record<string, Resource>);
    expect(table.Properties.GlobalSecondaryIndexes).toEqual(
      tableIndexes.map((index) => ({
        IndexName: index.indexName,
        KeySchema: [
          { AttributeName: index.partitionKey.name, KeyType: 'HASH' },
          ...(index.sortKey ? [{ AttributeName: index.sortKey.name, KeyType: 'RANGE' }] : []),
        ],
        Projection: { ProjectionType: 'ALL' },
      })),
    );
    expect(table.Properties.GlobalSecondaryIndexes[0].IndexName).toBe('GSI1');
  });

  it('is on-demand, with point-in-time recovery, TTL, encryption, and is retained', () => {
    template.hasResource('AWS::DynamoDB::Table', {
      Properties: {
        BillingMode: 'PAY_PER_REQUEST',
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        TimeToLiveSpecification: { AttributeName: tableDefinition.timeToLiveAttribute, Enabled: true },
        SSESpecification: { SSEEnabled: true },
      },
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
    });
  });
});

describe('session secret', () => {
  it('is generated by Secrets Manager, at least 48 characters long', () => {
    const secret = template.findResources('AWS::SecretsManager::Secret')[secretId] as Resource;
    expect(secret.Properties.GenerateSecretString.PasswordLength).toBeGreaterThanOrEqual(48);
    expect(secret.Properties.SecretString).toBeUndefined();
  });
});

describe('Lambda functions', () => {
  const apiFunctions = () =>
    Object.entries(template.findResources('AWS::Lambda::Function') as Record<string, Resource>).filter(([id]) =>
      [...functionIds.values()].includes(id),
    );

  it('exist once per route group, plus the worker, and only those', () => {
    expect([...stack.functions.keys()].sort()).toEqual(routeGroups().sort());
    expect(apiFunctions()).toHaveLength(routeGroups().length);
    expect(Object.keys(template.findResources('AWS::Lambda::Function')).sort()).toEqual([...functionIds.values(), workerId].sort());
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

  it.each(routeGroups())('%s: logs to its own log group, kept for a limited time', (group) => {
    const fn = template.findResources('AWS::Lambda::Function')[functionIds.get(group)!] as Resource;
    const logGroupRef = fn.Properties.LoggingConfig.LogGroup as { Ref: string };
    const logGroup = template.findResources('AWS::Logs::LogGroup')[logGroupRef.Ref] as Resource;
    expect(logGroup.Properties.RetentionInDays).toBe(30);
  });

  it.each(routeGroups())('%s: bundles everything (the AWS SDK too) but the on-demand packages, which it installs when it uses them', (group) => {
    const bundling = stack.functions.get(group)!.bundling;
    const installed = [...onDemandModulesOf(group)];
    expect(bundling.nodeModules ?? []).toEqual(installed);
    // nodeModules are external to esbuild by construction; the other on-demand packages are kept out too.
    expect([...(bundling.externalModules ?? []), ...installed].sort()).toEqual([...ON_DEMAND_MODULES].sort());
    expect(bundling.externalModules).not.toContain('@aws-sdk/*');
  });
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
      PUBLIC_URL: { 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [logicalId(stack, stack.site.distribution), 'DomainName'] }]] },
    });
    expect(variables.WORKER_FUNCTION_NAME).toBeUndefined();
    for (const name of ['SCHEDULE_GROUP_NAME', 'SCHEDULE_TARGET_ARN', 'SCHEDULER_ROLE_ARN', 'SCHEDULE_DLQ_ARN']) {
      expect(variables[name], name).toBeUndefined();
    }
  });

  it('has the S3 client, sharp, openai and google-auth-library installed for linux-arm64 next to the bundle, without install scripts', () => {
    const bundling = stack.worker.bundling;
    expect(bundling.nodeModules).toEqual(['@aws-sdk/client-s3', 'google-auth-library', 'openai', 'sharp']);
    // nodeModules are external to esbuild by construction; the AWS SDK is bundled; the other on-demand
    // packages (the auth function's common-password list) stay external too, never bundled.
    expect(bundling.externalModules).toEqual(['@zxcvbn-ts/language-common']);
    expect(bundling.environment).toEqual({
      npm_config_os: 'linux',
      npm_config_cpu: 'arm64',
      npm_config_libc: 'glibc',
      npm_config_ignore_scripts: 'true',
    });
  });

  it('logs to its own log group with its own role, and no API route reaches it', () => {
    const logGroupRef = worker().Properties.LoggingConfig.LogGroup as { Ref: string };
    expect((template.findResources('AWS::Logs::LogGroup')[logGroupRef.Ref] as Resource).Properties.RetentionInDays).toBe(30);
    const roleIds = [...stack.functions.values()].map((fn) => logicalId(stack, fn.role));
    expect(roleIds).not.toContain(logicalId(stack, stack.worker.role));
    expect(worker().Properties.Role).toEqual({ 'Fn::GetAtt': [logicalId(stack, stack.worker.role), 'Arn'] });
    const integrations = Object.values(template.findResources('AWS::ApiGatewayV2::Integration') as Record<string, Resource>);
    expect(JSON.stringify(integrations)).not.toContain(`"${workerId}"`);
    const permissions = Object.values(template.findResources('AWS::Lambda::Permission') as Record<string, Resource>);
    expect(JSON.stringify(permissions)).not.toContain(`"${workerId}"`);
  });
});

describe('images bucket', () => {
  const bucket = () => template.findResources('AWS::S3::Bucket')[imagesBucketId] as Resource;

  it('is private: all public access blocked, objects owned by the bucket owner (no ACLs)', () => {
    expect(bucket().Properties.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
    expect(bucket().Properties.OwnershipControls).toEqual({ Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] });
  });

  it('is encrypted at rest and refuses requests without TLS', () => {
    expect(bucket().Properties.BucketEncryption.ServerSideEncryptionConfiguration[0].ServerSideEncryptionByDefault).toEqual({
      SSEAlgorithm: 'AES256',
    });
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: imagesBucketId },
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Principal: { AWS: '*' }, Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
  });

  it('grants nobody anything in its bucket policy (access is by the functions\' IAM policies)', () => {
    const policies = Object.values(template.findResources('AWS::S3::BucketPolicy') as Record<string, Resource>).filter(
      (p) => p.Properties.Bucket?.Ref === imagesBucketId,
    );
    expect(policies).toHaveLength(1);
    for (const statement of policies[0]!.Properties.PolicyDocument.Statement as Statement[]) expect(statement.Effect).toBe('Deny');
  });

  it('is retained with the stack, logs access to the logs bucket and aborts stale multipart uploads', () => {
    expect(bucket().DeletionPolicy).toBe('Retain');
    expect(bucket().UpdateReplacePolicy).toBe('Retain');
    expect(bucket().Properties.LoggingConfiguration).toEqual({
      DestinationBucketName: { Ref: logicalId(stack, stack.site.logsBucket) },
      LogFilePrefix: 's3/images/',
    });
    const rules = bucket().Properties.LifecycleConfiguration.Rules as Record<string, any>[];
    expect(rules).toContainEqual(
      expect.objectContaining({ Status: 'Enabled', AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 } }),
    );
  });
});

describe('IAM', () => {
  const SM_READ = ['secretsmanager:GetSecretValue'];
  /** On the users' secrets; a function that writes them may also delete the one-per-key secrets of before (and only those). */
  const SM_READ_WRITE = ['secretsmanager:CreateSecret', 'secretsmanager:GetSecretValue', 'secretsmanager:PutSecretValue', 'secretsmanager:TagResource'];
  /**
   * Besides its logs, the table and (API functions) the session secret, what each function may do,
   * written out here on purpose: a change to FUNCTION_ACCESS must be made here too.
   */
  const EXPECTED: Record<
    string,
    { userSecrets: string[]; invokesWorker: boolean; images: string[]; managesSchedules: boolean; sessionKey: boolean; sendsBulkJobs?: boolean }
  > = {
    auth: { userSecrets: [], invokesWorker: false, images: [], managesSchedules: false, sessionKey: true },
    admin: { userSecrets: [], invokesWorker: false, images: [], managesSchedules: false, sessionKey: true },
    settings: { userSecrets: SM_READ_WRITE, invokesWorker: false, images: [], managesSchedules: false, sessionKey: true },
    articles: { userSecrets: SM_READ, invokesWorker: true, images: [], managesSchedules: false, sessionKey: true },
    images: { userSecrets: [], invokesWorker: true, images: ['s3:GetObject'], managesSchedules: false, sessionKey: true },
    wordpress: { userSecrets: SM_READ_WRITE, invokesWorker: false, images: ['s3:GetObject'], managesSchedules: false, sessionKey: true },
    linkedin: { userSecrets: SM_READ_WRITE, invokesWorker: false, images: ['s3:GetObject'], managesSchedules: false, sessionKey: true },
    email: { userSecrets: SM_READ_WRITE, invokesWorker: false, images: [], managesSchedules: false, sessionKey: true },
    schedule: { userSecrets: [], invokesWorker: false, images: [], managesSchedules: true, sessionKey: true },
    approvals: { userSecrets: SM_READ, invokesWorker: false, images: ['s3:GetObject'], managesSchedules: false, sessionKey: true },
    // Its drafting jobs go to the bulk job queue (SQS), not to the worker directly.
    sheets: { userSecrets: SM_READ_WRITE, invokesWorker: false, images: [], managesSchedules: false, sessionKey: true, sendsBulkJobs: true },
    // The session key signs the approval links it e-mails.
    // The approval e-mail carries the stored image: the worker reads images as well as writing them.
    worker: { userSecrets: SM_READ, invokesWorker: false, images: ['s3:GetObject', 's3:PutObject'], managesSchedules: false, sessionKey: true },
  };
  const SCHEDULE_ENV = ['SCHEDULE_GROUP_NAME', 'SCHEDULE_TARGET_ARN', 'SCHEDULER_ROLE_ARN', 'SCHEDULE_DLQ_ARN'];
  const schedulesArn = () => ({
    'Fn::Join': [
      '',
      [
        'arn:',
        { Ref: 'AWS::Partition' },
        ':scheduler:',
        { Ref: 'AWS::Region' },
        ':',
        { Ref: 'AWS::AccountId' },
        `:schedule/${stack.schedules.group.scheduleGroupName}/*`,
      ],
    ],
  });
  const names = () => [...routeGroups(), WORKER_ENTRY_NAME];
  const userSecretsArn = () => stack.resolve(stack.userSecretsArn) as unknown;
  const oldUserSecretsArn = () => stack.resolve(stack.oldUserSecretsArn) as unknown;
  const writesUserSecrets = (name: string) => EXPECTED[name]!.userSecrets.includes('secretsmanager:PutSecretValue');
  const imagesObjectsArn = () => ({ 'Fn::Join': ['', [{ 'Fn::GetAtt': [imagesBucketId, 'Arn'] }, `/${IMAGES_KEY_PREFIX}*`]] });

  /** [action, resource] of every statement of a function's role, one pair per action and resource. */
  const grantsOf = (name: string, service: string): [string, unknown][] =>
    policyOf(name).flatMap((s) =>
      asArray(s.Action)
        .filter((a) => a.startsWith(`${service}:`))
        .flatMap((a) => asArray(s.Resource).map((r) => [a, r] as [string, unknown])),
    );
  const sorted = (pairs: [string, unknown][]) => pairs.map(([a, r]) => `${a} ${JSON.stringify(r)}`).sort();

  it('every function is expected here (a new route group needs a line in FUNCTION_ACCESS and here)', () => {
    expect(names().sort()).toEqual(Object.keys(EXPECTED).sort());
    expect(Object.keys(FUNCTION_ACCESS).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it('names the per-user secrets by the prefix only: arn:…:secret:content-publisher/*', () => {
    expect(USER_SECRETS_PREFIX).toBe('content-publisher/');
    expect(userSecretsArn()).toEqual({
      'Fn::Join': [
        '',
        [
          'arn:',
          { Ref: 'AWS::Partition' },
          ':secretsmanager:',
          { Ref: 'AWS::Region' },
          ':',
          { Ref: 'AWS::AccountId' },
          ':secret:content-publisher/*',
        ],
      ],
    });
    // The one-per-key secrets of before, <prefix><userId>/<key>: a user's secret (<prefix><userId>) is not among them.
    expect(JSON.stringify(oldUserSecretsArn())).toBe(JSON.stringify(userSecretsArn()).replace(':secret:content-publisher/*', ':secret:content-publisher/*/*'));
  });

  it('no function may delete a user\'s secret: DeleteSecret only on the one-per-key secrets of before, for the functions that write secrets', () => {
    for (const name of names()) {
      const deletes = grantsOf(name, 'secretsmanager').filter(([action]) => action === 'secretsmanager:DeleteSecret');
      expect(deletes, name).toEqual(writesUserSecrets(name) ? [['secretsmanager:DeleteSecret', oldUserSecretsArn()]] : []);
    }
  });

  it.each(routeGroups())('%s: reads and writes the table items and its indexes, by name', (group) => {
    const statements = policyOf(group);
    const dynamo = statements.filter((s) => asArray(s.Action).some((a) => a.startsWith('dynamodb:')));
    expect(dynamo).toHaveLength(1);
    expect(asArray(dynamo[0]!.Action).sort()).toEqual(
      [
        'dynamodb:BatchGetItem',
        'dynamodb:BatchWriteItem',
        'dynamodb:ConditionCheckItem',
        'dynamodb:DeleteItem',
        'dynamodb:GetItem',
        'dynamodb:PutItem',
        'dynamodb:Query',
        'dynamodb:UpdateItem',
      ].sort(),
    );
    expect(dynamo[0]!.Resource).toEqual([
      { 'Fn::GetAtt': [tableId, 'Arn'] },
      ...tableIndexes.map((index) => ({
        'Fn::Join': ['', [{ 'Fn::GetAtt': [tableId, 'Arn'] }, `/index/${index.indexName}`]],
      })),
    ]);
  });

  it('worker: the same table access as the API functions', () => {
    const dynamo = (name: string) => sorted(grantsOf(name, 'dynamodb'));
    expect(dynamo(WORKER_ENTRY_NAME)).toEqual(dynamo(routeGroups()[0]!));
  });

  /** Read access to one of the stack's own secrets. */
  const readsSecret = (construct: { node: { defaultChild?: unknown } }): [string, unknown][] => [
    ['secretsmanager:DescribeSecret', { Ref: logicalId(stack, construct) }],
    ['secretsmanager:GetSecretValue', { Ref: logicalId(stack, construct) }],
  ];

  it.each(names())('%s: Secrets Manager: the session secret (if it signs) and the per-user secrets it needs, nothing else', (name) => {
    const expected: [string, unknown][] = [
      // API functions check CloudFront's origin secret (infra/test/security.test.ts); auth reads the setup code.
      ...(name === WORKER_ENTRY_NAME ? [] : readsSecret(stack.originSecret)),
      ...(name === 'auth' ? readsSecret(stack.setupCodeSecret) : []),
      ...(EXPECTED[name]!.sessionKey
        ? ([
            ['secretsmanager:DescribeSecret', { Ref: secretId }],
            ['secretsmanager:GetSecretValue', { Ref: secretId }],
          ] as [string, unknown][])
        : []),
      ...EXPECTED[name]!.userSecrets.map((a) => [a, userSecretsArn()] as [string, unknown]),
      ...(writesUserSecrets(name) ? [['secretsmanager:DeleteSecret', oldUserSecretsArn()] as [string, unknown]] : []),
    ];
    expect(sorted(grantsOf(name, 'secretsmanager'))).toEqual(sorted(expected));
    expect(environmentOf(name).SESSION_SECRET_ARN).toEqual(EXPECTED[name]!.sessionKey ? { Ref: secretId } : undefined);
    expect(environmentOf(name).SECRETS_PREFIX).toBe(EXPECTED[name]!.userSecrets.length > 0 ? USER_SECRETS_PREFIX : undefined);
  });

  it('auth and admin get nothing of Secrets Manager but the session secret, the origin secret and (auth) the setup code', () => {
    for (const group of ['auth', 'admin']) {
      const own = [stack.sessionSecret, stack.originSecret, ...(group === 'auth' ? [stack.setupCodeSecret] : [])];
      for (const [, resource] of grantsOf(group, 'secretsmanager')) {
        expect(own.map((secret) => ({ Ref: logicalId(stack, secret) }))).toContainEqual(resource);
      }
    }
  });

  it.each(names())('%s: invokes the worker, and only the worker, exactly when it starts jobs', (name) => {
    const invokes = grantsOf(name, 'lambda');
    if (EXPECTED[name]!.invokesWorker) {
      expect(invokes).toEqual([['lambda:InvokeFunction', { 'Fn::GetAtt': [workerId, 'Arn'] }]]);
      expect(environmentOf(name).WORKER_FUNCTION_NAME).toEqual({ Ref: workerId });
    } else {
      expect(invokes).toEqual([]);
      expect(environmentOf(name).WORKER_FUNCTION_NAME).toBeUndefined();
    }
  });

  it('articles and images invoke the worker; auth, admin and settings do not', () => {
    expect(grantsOf('articles', 'lambda')).toHaveLength(1);
    expect(grantsOf('images', 'lambda')).toHaveLength(1);
    for (const group of ['auth', 'admin', 'settings']) expect(grantsOf(group, 'lambda')).toEqual([]);
  });

  it.each(names())('%s: EventBridge Scheduler: manages the group\'s schedules and passes the scheduler role exactly when it schedules', (name) => {
    const scheduler = sorted(grantsOf(name, 'scheduler'));
    const passRole = policyOf(name).filter((s) => asArray(s.Action).includes('iam:PassRole'));
    const variables = environmentOf(name);
    if (EXPECTED[name]!.managesSchedules) {
      expect(scheduler).toEqual(
        sorted(['scheduler:CreateSchedule', 'scheduler:DeleteSchedule', 'scheduler:UpdateSchedule'].map((a) => [a, schedulesArn()])),
      );
      expect(passRole).toEqual([
        {
          Effect: 'Allow',
          Action: 'iam:PassRole',
          Resource: { 'Fn::GetAtt': [logicalId(stack, stack.schedules.role), 'Arn'] },
          Condition: { StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } },
        },
      ]);
      // All four, or the code falls back to in-process timers.
      expect(variables).toMatchObject({
        SCHEDULE_GROUP_NAME: stack.schedules.group.scheduleGroupName,
        SCHEDULE_TARGET_ARN: { 'Fn::GetAtt': [workerId, 'Arn'] },
        SCHEDULER_ROLE_ARN: { 'Fn::GetAtt': [logicalId(stack, stack.schedules.role), 'Arn'] },
        SCHEDULE_DLQ_ARN: { 'Fn::GetAtt': [logicalId(stack, stack.schedules.deadLetterQueue), 'Arn'] },
      });
    } else {
      expect(scheduler).toEqual([]);
      expect(passRole).toEqual([]);
      for (const variable of SCHEDULE_ENV) expect(variables[variable], variable).toBeUndefined();
    }
  });

  it('only the schedule function manages schedules; no policy but its own passes a role', () => {
    expect(names().filter((n) => EXPECTED[n]!.managesSchedules)).toEqual(['schedule']);
    const scheduleRoleId = logicalId(stack, roleOf('schedule'));
    for (const policy of Object.values(template.findResources('AWS::IAM::Policy') as Record<string, Resource>)) {
      const mine = (policy.Properties.Roles as { Ref: string }[]).some((r) => r.Ref === scheduleRoleId);
      for (const statement of policy.Properties.PolicyDocument.Statement as Statement[]) {
        for (const action of asArray(statement.Action)) {
          if (!mine) expect(action).not.toMatch(/^(scheduler:|iam:)/);
        }
      }
    }
  });

  const imagesBucketArn = () => ({ 'Fn::GetAtt': [imagesBucketId, 'Arn'] });
  /** Readers may list the images' prefix: S3 then answers a missing image 404, not 403 (s3-object-store.ts). */
  const listImages = () => ({ Effect: 'Allow', Action: 's3:ListBucket', Resource: imagesBucketArn(), Condition: { StringLike: { 's3:prefix': [`${IMAGES_KEY_PREFIX}*`] } } });

  it.each(names())('%s: S3: only what it needs of the images, under users/ only', (name) => {
    const reads = EXPECTED[name]!.images.includes('s3:GetObject');
    expect(sorted(grantsOf(name, 's3'))).toEqual(
      sorted([...EXPECTED[name]!.images.map((a) => [a, imagesObjectsArn()] as [string, unknown]), ...(reads ? [['s3:ListBucket', imagesBucketArn()] as [string, unknown]] : [])]),
    );
    // Listing only under users/ (the s3:prefix condition), and only for the functions that read images.
    expect(policyOf(name).filter((st) => asArray(st.Action).includes('s3:ListBucket'))).toEqual(reads ? [listImages()] : []);
    const needsBucket = EXPECTED[name]!.images.length > 0 || EXPECTED[name]!.invokesWorker || Boolean(EXPECTED[name]!.sendsBulkJobs);
    expect(environmentOf(name).IMAGES_BUCKET).toEqual(needsBucket ? { Ref: imagesBucketId } : undefined);
  });

  it('IMAGES_BUCKET goes to the job starters, the publishers and the worker; WORKER_FUNCTION_NAME to the job starters', () => {
    const withVariable = (variable: string) => names().filter((n) => environmentOf(n)[variable] !== undefined).sort();
    expect(withVariable('IMAGES_BUCKET')).toEqual(['approvals', 'articles', 'images', 'linkedin', 'sheets', 'wordpress', 'worker']);
    expect(withVariable('WORKER_FUNCTION_NAME')).toEqual(['articles', 'images']);
    expect(withVariable('BULK_JOB_QUEUE_URL')).toEqual(['sheets']);
  });

  const bulkQueueId = () => logicalId(stack, stack.bulkJobs.queue);
  const bulkQueueArn = () => ({ 'Fn::GetAtt': [bulkQueueId(), 'Arn'] });

  it.each(names())('%s: SQS: sends to the bulk job queue exactly when it hands over bulk jobs; only the worker consumes it', (name) => {
    const sqs = sorted(grantsOf(name, 'sqs'));
    if (EXPECTED[name]!.sendsBulkJobs) {
      expect(sqs).toEqual(sorted(['sqs:GetQueueAttributes', 'sqs:GetQueueUrl', 'sqs:SendMessage'].map((a) => [a, bulkQueueArn()])));
      expect(environmentOf(name).BULK_JOB_QUEUE_URL).toEqual({ Ref: bulkQueueId() });
    } else if (name === WORKER_ENTRY_NAME) {
      // The event source mapping's consumer permissions, on this queue only; it never sends to it. Its
      // failed async invocations go to the job failure queue (the on-failure destination, sent as the worker).
      const failureQueueArn = { 'Fn::GetAtt': [logicalId(stack, stack.bulkJobs.deadLetterQueue), 'Arn'] };
      expect(sqs).toEqual(
        sorted([
          ...['sqs:ChangeMessageVisibility', 'sqs:DeleteMessage', 'sqs:GetQueueAttributes', 'sqs:GetQueueUrl', 'sqs:ReceiveMessage'].map(
            (a): [string, unknown] => [a, bulkQueueArn()],
          ),
          ...['sqs:GetQueueAttributes', 'sqs:GetQueueUrl', 'sqs:SendMessage'].map((a): [string, unknown] => [a, failureQueueArn]),
        ]),
      );
      expect(environmentOf(name).BULK_JOB_QUEUE_URL).toBeUndefined();
    } else {
      expect(sqs).toEqual([]);
      expect(environmentOf(name).BULK_JOB_QUEUE_URL).toBeUndefined();
    }
  });

  it('only the sheets function may send to the bulk job queue, in the whole stack; only SQS and the worker (its failed invocations) to its dead-letter queue', () => {
    const senders: string[] = [];
    const failureSenders: string[] = [];
    for (const policy of Object.values(template.findResources('AWS::IAM::Policy') as Record<string, Resource>)) {
      for (const statement of policy.Properties.PolicyDocument.Statement as Statement[]) {
        const text = JSON.stringify(statement.Resource);
        const roles = (policy.Properties.Roles as { Ref: string }[]).map((r) => r.Ref);
        if (asArray(statement.Action).includes('sqs:SendMessage') && text.includes(`"${bulkQueueId()}"`)) senders.push(...roles);
        if (text.includes(`"${logicalId(stack, stack.bulkJobs.deadLetterQueue)}"`)) failureSenders.push(...roles);
      }
    }
    expect(senders).toEqual([logicalId(stack, roleOf('sheets'))]);
    expect([...new Set(failureSenders)]).toEqual([logicalId(stack, stack.worker.role)]);
  });

  it.each(names())('%s: nothing broad (no wildcard action, no wildcard resource but the name prefixes, no managed policy)', (name) => {
    const allowedPatterns = [JSON.stringify(userSecretsArn()), JSON.stringify(oldUserSecretsArn()), JSON.stringify(imagesObjectsArn())];
    if (EXPECTED[name]!.managesSchedules) allowedPatterns.push(JSON.stringify(schedulesArn()));
    // Active tracing: the X-Ray actions have no resource but *, and nothing else is granted on *.
    const tracing = policyOf(name).filter((s) => s.Resource === '*');
    expect(tracing).toEqual([{ Effect: 'Allow', Action: ['xray:PutTelemetryRecords', 'xray:PutTraceSegments'], Resource: '*' }]);
    for (const statement of policyOf(name).filter((s) => s.Resource !== '*')) {
      expect(statement.Effect).toBe('Allow');
      // The conditions: PassRole to EventBridge Scheduler only, listing the images' prefix only (checked above).
      if (asArray(statement.Action).includes('iam:PassRole') || asArray(statement.Action).includes('s3:ListBucket')) expect(statement.Condition).toBeDefined();
      else expect(statement.Condition).toBeUndefined();
      for (const action of asArray(statement.Action)) expect(action).not.toContain('*');
      for (const resource of asArray(statement.Resource)) {
        const text = JSON.stringify(resource);
        if (!allowedPatterns.includes(text)) expect(text).not.toMatch(/\*/);
      }
      expect(asArray(statement.Action)).not.toContain('dynamodb:Scan');
    }
    const role = template.findResources('AWS::IAM::Role')[logicalId(stack, roleOf(name))] as Resource;
    expect(role.Properties.ManagedPolicyArns).toBeUndefined();
    expect(role.Properties.AssumeRolePolicyDocument.Statement).toEqual([
      { Action: 'sts:AssumeRole', Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' } },
    ]);
  });

  it('grants no wildcard action anywhere in the stack (without the SPA upload)', () => {
    for (const policy of Object.values(template.findResources('AWS::IAM::Policy') as Record<string, Resource>)) {
      for (const statement of policy.Properties.PolicyDocument.Statement as Statement[]) {
        for (const action of asArray(statement.Action)) expect(action).not.toContain('*');
      }
    }
  });
});

describe('EventBridge Scheduler', () => {
  const groupId = () => logicalId(stack, stack.schedules.group);
  const roleId = () => logicalId(stack, stack.schedules.role);
  const queueId = () => logicalId(stack, stack.schedules.deadLetterQueue);

  it('has one schedule group, named per stack, deleted with the stack', () => {
    const [id, group] = only(template.findResources('AWS::Scheduler::ScheduleGroup') as Record<string, Resource>);
    expect(id).toBe(groupId());
    expect(group.Properties.Name).toBe(`${stack.stackName}-schedules`);
    expect(group.Properties.Name).toMatch(/^[0-9a-zA-Z-_.]{1,64}$/);
    expect(group.DeletionPolicy).toBe('Delete');
    // The schedules themselves are made at run time by the schedule function.
    template.resourceCountIs('AWS::Scheduler::Schedule', 0);
  });

  it('the scheduler role is assumed by EventBridge Scheduler only, for this account and this group only', () => {
    const role = template.findResources('AWS::IAM::Role')[roleId()] as Resource;
    expect(role.Properties.AssumeRolePolicyDocument.Statement).toEqual([
      {
        Action: 'sts:AssumeRole',
        Effect: 'Allow',
        Principal: { Service: 'scheduler.amazonaws.com' },
        Condition: {
          StringEquals: {
            'aws:SourceAccount': { Ref: 'AWS::AccountId' },
            'aws:SourceArn': { 'Fn::GetAtt': [groupId(), 'Arn'] },
          },
        },
      },
    ]);
    expect(role.Properties.ManagedPolicyArns).toBeUndefined();
    expect(role.Properties.Policies).toBeUndefined();
  });

  it('the scheduler role may invoke the worker (the job function) and write dead letters, nothing else', () => {
    const policies = Object.values(template.findResources('AWS::IAM::Policy') as Record<string, Resource>).filter((p) =>
      (p.Properties.Roles as { Ref: string }[]).some((r) => r.Ref === roleId()),
    );
    expect(policies).toHaveLength(1);
    const statements = policies[0]!.Properties.PolicyDocument.Statement as Statement[];
    const pairs = statements.flatMap((s) => {
      expect(s.Effect).toBe('Allow');
      expect(s.Condition).toBeUndefined();
      return asArray(s.Action).flatMap((a) => asArray(s.Resource).map((r) => `${a} ${JSON.stringify(r)}`));
    });
    expect(pairs.sort()).toEqual(
      [
        `lambda:InvokeFunction ${JSON.stringify({ 'Fn::GetAtt': [workerId, 'Arn'] })}`,
        `sqs:SendMessage ${JSON.stringify({ 'Fn::GetAtt': [queueId(), 'Arn'] })}`,
      ].sort(),
    );
    // No resource policy on the worker either: only this role (and the functions that enqueue jobs) invoke it.
    const permissions = Object.values(template.findResources('AWS::Lambda::Permission') as Record<string, Resource>);
    expect(JSON.stringify(permissions)).not.toContain('scheduler.amazonaws.com');
  });

  it('the dead-letter queue is encrypted, refuses requests without TLS and keeps messages 14 days', () => {
    const queue = template.findResources('AWS::SQS::Queue')[queueId()] as Resource;
    expect(queue.Properties.SqsManagedSseEnabled).toBe(true);
    expect(queue.Properties.MessageRetentionPeriod).toBe(14 * 24 * 3600);
    expect(SCHEDULE_DLQ_DEFAULTS.retention.toSeconds()).toBe(14 * 24 * 3600);
    template.hasResourceProperties('AWS::SQS::QueuePolicy', {
      Queues: [{ Ref: queueId() }],
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Principal: { AWS: '*' }, Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
    const policies = Object.values(template.findResources('AWS::SQS::QueuePolicy') as Record<string, Resource>);
    for (const policy of policies) {
      for (const statement of policy.Properties.PolicyDocument.Statement as Statement[]) expect(statement.Effect).toBe('Deny');
    }
  });

  it('an alarm fires as soon as one dead letter waits (5-minute period); no topic without alarmEmail', () => {
    const alarm = template.findResources('AWS::CloudWatch::Alarm')[logicalId(stack, stack.schedules.deadLetterAlarm)] as Resource;
    expect(alarm.Properties).toMatchObject(deadLetterAlarmProperties(queueId()));
    expect(alarm.Properties.AlarmActions).toBeUndefined();
    template.resourceCountIs('AWS::SNS::Topic', 0);
    template.resourceCountIs('AWS::SNS::Subscription', 0);
  });

  it('alarmEmail: the alarm notifies a TLS-only topic with that e-mail subscription, which only this alarm may publish to', () => {
    const s = testApp({ context: { alarmEmail: 'ops@example.com' } }).stack;
    const t = Template.fromStack(s);
    const [topicId] = only(t.findResources('AWS::SNS::Topic') as Record<string, Resource>);
    const [, subscription] = only(t.findResources('AWS::SNS::Subscription') as Record<string, Resource>);
    expect(subscription.Properties).toEqual({ Protocol: 'email', Endpoint: 'ops@example.com', TopicArn: { Ref: topicId } });
    const alarmId = logicalId(s, s.schedules.deadLetterAlarm);
    const alarm = t.findResources('AWS::CloudWatch::Alarm')[alarmId] as Resource;
    expect(alarm.Properties.AlarmActions).toEqual([{ Ref: topicId }]);
    // The bulk jobs' dead-letter alarm notifies the same topic (one subscription to confirm).
    const bulkAlarmId = logicalId(s, s.bulkJobs.deadLetterAlarm);
    expect((t.findResources('AWS::CloudWatch::Alarm')[bulkAlarmId] as Resource).Properties.AlarmActions).toEqual([{ Ref: topicId }]);
    const [, topicPolicy] = only(t.findResources('AWS::SNS::TopicPolicy') as Record<string, Resource>);
    const statements = topicPolicy.Properties.PolicyDocument.Statement as (Statement & { Principal: unknown })[];
    expect(statements).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ Effect: 'Deny', Action: 'sns:Publish', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        expect.objectContaining({
          Effect: 'Allow',
          Action: 'sns:Publish',
          Principal: { Service: 'cloudwatch.amazonaws.com' },
          Condition: {
            ArnLike: { 'aws:SourceArn': { 'Fn::GetAtt': [alarmId, 'Arn'] } },
            StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } },
          },
        }),
      ]),
    );
    // One Allow per alarm of the stack (these two, and the functions' and the API's, alarms.ts), each by its own ARN.
    const alarmIds = Object.keys(t.findResources('AWS::CloudWatch::Alarm'));
    expect(alarmIds).toEqual(expect.arrayContaining([alarmId, bulkAlarmId]));
    expect(statements.filter((st) => st.Effect === 'Allow').map((st) => (st.Condition as { ArnLike: unknown }).ArnLike)).toEqual(
      alarmIds.map((id) => ({ 'aws:SourceArn': { 'Fn::GetAtt': [id, 'Arn'] } })),
    );
  });

  it('refuses an alarmEmail that is not an e-mail address', () => {
    expect(() => testApp({ context: { alarmEmail: 'not-an-address' } })).toThrow(/alarmEmail/);
  });
});

describe('bulk job queue (SQS)', () => {
  const queueId = () => logicalId(stack, stack.bulkJobs.queue);
  const dlqId = () => logicalId(stack, stack.bulkJobs.deadLetterQueue);
  const queues = () => template.findResources('AWS::SQS::Queue') as Record<string, Resource>;

  it('is encrypted, keeps jobs 4 days, hides a job 6× the worker timeout while it runs, and dead-letters after 3 deliveries', () => {
    expect(Object.keys(queues()).sort()).toEqual([queueId(), dlqId(), logicalId(stack, stack.schedules.deadLetterQueue)].sort());
    const queue = queues()[queueId()]!;
    expect(queue.Properties).toEqual({
      SqsManagedSseEnabled: true,
      MessageRetentionPeriod: 4 * 24 * 3600,
      VisibilityTimeout: 6 * WORKER_FUNCTION_DEFAULTS.timeout.toSeconds(),
      RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [dlqId(), 'Arn'] }, maxReceiveCount: 3 },
    });
    expect(queue.Properties.VisibilityTimeout).toBe(1800);
    expect(BULK_JOBS_DEFAULTS.maxReceiveCount).toBe(3);
    expect(queues()[dlqId()]!.Properties).toEqual({ SqsManagedSseEnabled: true, MessageRetentionPeriod: 14 * 24 * 3600 });
  });

  it.each([
    ['the queue', () => queueId()],
    ['its dead-letter queue', () => dlqId()],
  ])('%s refuses requests without TLS, and its policy allows nothing', (_name, id) => {
    const policies = Object.values(template.findResources('AWS::SQS::QueuePolicy') as Record<string, Resource>).filter((p) =>
      JSON.stringify(p.Properties.Queues).includes(`"${id()}"`),
    );
    expect(policies).toHaveLength(1);
    const statements = policies[0]!.Properties.PolicyDocument.Statement as (Statement & { Principal: unknown })[];
    expect(statements).toContainEqual(
      expect.objectContaining({ Effect: 'Deny', Principal: { AWS: '*' }, Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
    );
    for (const statement of statements) expect(statement.Effect).toBe('Deny');
  });

  it('feeds the worker one job per invocation, at most 5 at once, reporting failed records', () => {
    const [, mapping] = only(template.findResources('AWS::Lambda::EventSourceMapping') as Record<string, Resource>);
    expect(mapping.Properties).toEqual({
      EventSourceArn: { 'Fn::GetAtt': [queueId(), 'Arn'] },
      FunctionName: { Ref: workerId },
      BatchSize: 1,
      ScalingConfig: { MaximumConcurrency: 5 },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    expect(BULK_JOBS_DEFAULTS.maxConcurrency).toBe(5);
  });

  it('alarms as soon as one dead letter waits (5-minute period)', () => {
    const alarm = template.findResources('AWS::CloudWatch::Alarm')[logicalId(stack, stack.bulkJobs.deadLetterAlarm)] as Resource;
    expect(alarm.Properties).toMatchObject(deadLetterAlarmProperties(dlqId()));
    expect(alarm.Properties.AlarmActions).toBeUndefined();
    // The two dead-letter alarms, and those of the functions and the API (alarms.ts, observability.test.ts).
    template.resourceCountIs('AWS::CloudWatch::Alarm', 2 + stack.alarms.all.length);
  });

  it('exports the dead-letter queue URL', () => {
    expect(template.findOutputs('*').BulkJobDeadLetterQueueUrl?.Value).toEqual({ Ref: dlqId() });
  });
});

describe('HTTP API', () => {
  const routeResources = () => Object.values(template.findResources('AWS::ApiGatewayV2::Route') as Record<string, Resource>);

  it('is an HTTP API', () => {
    template.resourceCountIs('AWS::ApiGatewayV2::Api', 1);
    template.hasResourceProperties('AWS::ApiGatewayV2::Api', { ProtocolType: 'HTTP' });
  });

  it('has exactly one route per route-table entry, method and path as written there', () => {
    const keys = routeResources().map((r) => r.Properties.RouteKey as string);
    expect(keys.sort()).toEqual(routes.map((r) => `${r.method} ${r.path}`).sort());
    expect(new Set(keys).size).toBe(routes.length);
  });

  it.each(routes.map((r) => [`${r.method} ${r.path}`, routeGroup(r)] as const))(
    '%s is served by the %s function (Lambda proxy, payload 2.0)',
    (routeKey, group) => {
      const route = routeResources().find((r) => r.Properties.RouteKey === routeKey)!;
      const target = route.Properties.Target as { 'Fn::Join': [string, [string, { Ref: string }]] };
      expect(target['Fn::Join'][1][0]).toBe('integrations/');
      const integration = template.findResources('AWS::ApiGatewayV2::Integration')[target['Fn::Join'][1][1].Ref] as Resource;
      expect(integration.Properties).toMatchObject({
        IntegrationType: 'AWS_PROXY',
        PayloadFormatVersion: '2.0',
        IntegrationUri: { 'Fn::GetAtt': [functionIds.get(group), 'Arn'] },
      });
    },
  );

  it('lets API Gateway invoke each function, once per function', () => {
    const permissions = Object.values(template.findResources('AWS::Lambda::Permission') as Record<string, Resource>);
    expect(permissions).toHaveLength(routeGroups().length);
    for (const id of functionIds.values()) {
      expect(permissions.filter((p) => JSON.stringify(p.Properties.FunctionName).includes(`"${id}"`))).toHaveLength(1);
    }
    for (const p of permissions) expect(p.Properties.Principal).toBe('apigateway.amazonaws.com');
  });

  it('has an auto-deployed $default stage with JSON access logs and throttling', () => {
    const [, stage] = only(template.findResources('AWS::ApiGatewayV2::Stage') as Record<string, Resource>);
    expect(stage.Properties).toMatchObject({ StageName: '$default', AutoDeploy: true });
    expect(stage.Properties.AccessLogSettings.DestinationArn).toEqual({
      'Fn::GetAtt': [logicalId(stack, stack.http.accessLogs), 'Arn'],
    });
    const format = JSON.parse(stage.Properties.AccessLogSettings.Format as string) as Record<string, string>;
    expect(format.requestId).toBe('$context.requestId');
    expect(format.status).toBe('$context.status');
    expect(JSON.stringify(format)).not.toMatch(/cookie|authorization|querystring/i);
    expect(stage.Properties.DefaultRouteSettings).toMatchObject({
      ThrottlingRateLimit: expect.any(Number),
      ThrottlingBurstLimit: expect.any(Number),
    });
  });
});

describe('site bucket and CloudFront', () => {
  const distribution = () => only(template.findResources('AWS::CloudFront::Distribution') as Record<string, Resource>)[1];
  const config = () => distribution().Properties.DistributionConfig as Record<string, any>;
  const siteBucketId = () => logicalId(stack, stack.site.bucket);
  const functionCode = (id: string) => (template.findResources('AWS::CloudFront::Function')[id] as Resource).Properties.FunctionCode;
  const functionIdOf = (association: { FunctionARN: { 'Fn::GetAtt': [string, string] } }) => association.FunctionARN['Fn::GetAtt'][0];

  it('keeps the SPA in a private, encrypted bucket that requires TLS', () => {
    const bucket = template.findResources('AWS::S3::Bucket')[siteBucketId()] as Resource;
    expect(bucket.Properties.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
    expect(bucket.Properties.BucketEncryption.ServerSideEncryptionConfiguration[0].ServerSideEncryptionByDefault).toEqual({
      SSEAlgorithm: 'AES256',
    });
    expect(bucket.Properties.LoggingConfiguration).toBeDefined();
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: siteBucketId() },
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
  });

  it('reads the bucket through origin access control, granted to this distribution only', () => {
    template.resourceCountIs('AWS::CloudFront::OriginAccessControl', 1);
    template.hasResourceProperties('AWS::CloudFront::OriginAccessControl', {
      OriginAccessControlConfig: { OriginAccessControlOriginType: 's3', SigningBehavior: 'always', SigningProtocol: 'sigv4' },
    });
    const s3Origin = (config().Origins as any[]).find((o) => o.S3OriginConfig);
    expect(s3Origin.DomainName).toEqual({ 'Fn::GetAtt': [siteBucketId(), 'RegionalDomainName'] });
    expect(s3Origin.OriginAccessControlId).toEqual({ 'Fn::GetAtt': [expect.any(String), 'Id'] });
    expect(s3Origin.S3OriginConfig.OriginAccessIdentity).toBe('');
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: siteBucketId() },
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Effect: 'Allow',
            Principal: { Service: 'cloudfront.amazonaws.com' },
            Action: 's3:GetObject',
            Condition: { StringEquals: { 'AWS:SourceArn': Match.anyValue() } },
          }),
        ]),
      },
    });
  });

  it('serves index.html at the root and rewrites client routes with a function, not with error responses', () => {
    expect(config().DefaultRootObject).toBe('index.html');
    // Distribution-wide error responses would turn the API's JSON 403/404 answers into index.html.
    expect(config().CustomErrorResponses).toBeUndefined();
    const behaviour = config().DefaultCacheBehavior;
    expect(behaviour.ViewerProtocolPolicy).toBe('redirect-to-https');
    expect(behaviour.FunctionAssociations).toHaveLength(1);
    expect(behaviour.FunctionAssociations[0].EventType).toBe('viewer-request');
    expect(functionCode(functionIdOf(behaviour.FunctionAssociations[0]))).toBe(SPA_REWRITE_FUNCTION);
  });

  it('sends /api/* to the HTTP API uncached, with all methods, cookies, query strings and headers', () => {
    const behaviours = config().CacheBehaviors as any[];
    expect(behaviours).toHaveLength(1);
    const api = behaviours[0];
    expect(api).toMatchObject({
      PathPattern: '/api/*',
      ViewerProtocolPolicy: 'https-only',
      CachePolicyId: CachePolicy.CACHING_DISABLED.cachePolicyId,
      OriginRequestPolicyId: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER.originRequestPolicyId,
    });
    expect([...api.AllowedMethods].sort()).toEqual(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT']);
    const origin = (config().Origins as any[]).find((o) => o.Id === api.TargetOriginId);
    expect(origin.CustomOriginConfig).toEqual({ OriginProtocolPolicy: 'https-only', OriginSSLProtocols: ['TLSv1.2'] });
    expect(JSON.stringify(origin.DomainName)).toContain(`"Ref":"${logicalId(stack, stack.http.api)}"`);
    expect(JSON.stringify(origin.DomainName)).toContain('.execute-api.');
  });

  it('passes the viewer host to the API as x-forwarded-host', () => {
    const api = (config().CacheBehaviors as any[])[0];
    expect(api.FunctionAssociations).toHaveLength(1);
    expect(api.FunctionAssociations[0].EventType).toBe('viewer-request');
    expect(functionCode(functionIdOf(api.FunctionAssociations[0]))).toBe(FORWARDED_HOST_FUNCTION);
    template.allResourcesProperties('AWS::CloudFront::Function', {
      FunctionConfig: Match.objectLike({ Runtime: 'cloudfront-js-2.0' }),
    });
  });

  it('adds security headers to every answer', () => {
    const policyId = config().DefaultCacheBehavior.ResponseHeadersPolicyId as { Ref: string };
    expect((config().CacheBehaviors as any[])[0].ResponseHeadersPolicyId).toEqual(policyId);
    const policy = template.findResources('AWS::CloudFront::ResponseHeadersPolicy')[policyId.Ref] as Resource;
    const security = policy.Properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig;
    expect(security.StrictTransportSecurity).toMatchObject({ IncludeSubdomains: true, Override: true });
    expect(security.StrictTransportSecurity.AccessControlMaxAgeSec).toBeGreaterThanOrEqual(31_536_000);
    expect(security.ContentTypeOptions).toEqual({ Override: true });
    expect(security.FrameOptions).toEqual({ FrameOption: 'DENY', Override: true });
    expect(security.ReferrerPolicy.ReferrerPolicy).toBe('strict-origin-when-cross-origin');
    expect(security.ContentSecurityPolicy.ContentSecurityPolicy).toBe(CONTENT_SECURITY_POLICY);
  });

  it('logs viewer requests to the logs bucket', () => {
    expect(config().Logging).toEqual({
      Bucket: { 'Fn::GetAtt': [logicalId(stack, stack.site.logsBucket), 'RegionalDomainName'] },
      Prefix: 'cloudfront/',
    });
  });

  it('uses the default certificate unless the context gives one, and the stack\'s own web ACL (infra/test/security.test.ts)', () => {
    expect(config().Aliases).toBeUndefined();
    expect(config().WebACLId).toEqual({ 'Fn::GetAtt': [stack.resolve(stack.getLogicalId(stack.webAcl!.webAcl)), 'Arn'] });
  });
});

describe('CloudFront function code', () => {
  type Request = { uri: string; headers: Record<string, { value: string }> };
  const load = (code: string) => new Function(`${code}\nreturn handler;`)() as (event: { request: Request }) => Request;
  const spa = load(SPA_REWRITE_FUNCTION);
  const host = load(FORWARDED_HOST_FUNCTION);
  const request = (uri: string, headers: Record<string, { value: string }> = {}): { request: Request } => ({
    request: { uri, headers },
  });

  it.each(['/', '/dashboard', '/articles/123', '/articles/123/edit', '/settings/'])('SPA: %s → /index.html', (uri) => {
    expect(spa(request(uri)).uri).toBe('/index.html');
  });

  it.each(['/index.html', '/assets/index-abc123.js', '/assets/style.css', '/favicon.svg', '/robots.txt'])(
    'SPA: file %s is left as it is',
    (uri) => {
      expect(spa(request(uri)).uri).toBe(uri);
    },
  );

  it('API: copies Host into x-forwarded-host, replacing a value sent by the viewer', () => {
    const out = host(request('/api/auth/me', { host: { value: 'd111.cloudfront.net' }, 'x-forwarded-host': { value: 'evil.example' } }));
    expect(out.headers['x-forwarded-host']).toEqual({ value: 'd111.cloudfront.net' });
    expect(out.uri).toBe('/api/auth/me');
  });

  it('API: drops a viewer x-forwarded-host when there is no Host', () => {
    const out = host(request('/api/auth/me', { 'x-forwarded-host': { value: 'evil.example' } }));
    expect(out.headers['x-forwarded-host']).toBeUndefined();
  });
});

describe('SPA upload', () => {
  it('is skipped with a warning when the SPA is not built', () => {
    template.resourceCountIs('Custom::CDKBucketDeployment', 0);
    Annotations.fromStack(stack).hasWarning(
      '/ContentPublisher/Site',
      Match.stringLikeRegexp('No built SPA at .*npm run build'),
    );
  });

  it('uploads a built SPA: hashed assets immutable first, then the pages with an invalidation', () => {
    const built = testApp({ stack: { spaDistDir: builtSpaDir() } }).stack;
    const t = Template.fromStack(built);
    const deployments = Object.entries(t.findResources('Custom::CDKBucketDeployment') as Record<string, Resource & { DependsOn?: string[] }>);
    expect(deployments).toHaveLength(2);
    const bucketRef = { Ref: logicalId(built, built.site.bucket) };
    const [assetsId, assets] = deployments.find(([, d]) => d.Properties.Include)!;
    const [, pages] = deployments.find(([, d]) => !d.Properties.Include)!;
    expect(assets.Properties).toMatchObject({
      DestinationBucketName: bucketRef,
      Include: ['assets/*'],
      Prune: false,
      SystemMetadata: { 'cache-control': 'public, max-age=31536000, immutable' },
    });
    expect(pages.Properties).toMatchObject({
      DestinationBucketName: bucketRef,
      Exclude: ['assets/*'],
      Prune: true,
      SystemMetadata: { 'cache-control': 'no-cache' },
      DistributionId: { Ref: logicalId(built, built.site.distribution) },
      DistributionPaths: ['/*'],
    });
    expect(pages.DependsOn).toContain(assetsId);
  });
});

describe('context values', () => {
  it('publicUrl becomes PUBLIC_URL of every API function', () => {
    const s = testApp({ context: { publicUrl: 'https://publish.example.com/' } }).stack;
    const t = Template.fromStack(s);
    for (const fn of s.functions.values()) {
      const id = logicalId(s, fn.function);
      expect((t.findResources('AWS::Lambda::Function')[id] as Resource).Properties.Environment.Variables.PUBLIC_URL).toBe(
        'https://publish.example.com',
      );
    }
    // The approval links the worker e-mails use it too.
    expect((t.findResources('AWS::Lambda::Function')[logicalId(s, s.worker.function)] as Resource).Properties.Environment.Variables.PUBLIC_URL).toBe(
      'https://publish.example.com',
    );
  });

  it('a custom domain with its certificate raises the minimum TLS version; webAclArn attaches a web ACL', () => {
    const s = testApp({
      context: {
        domainName: 'publish.example.com',
        certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/11111111-2222-3333-4444-555555555555',
        webAclArn: 'arn:aws:wafv2:us-east-1:123456789012:global/webacl/publisher/abcd',
      },
    }).stack;
    const t = Template.fromStack(s);
    t.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({
        Aliases: ['publish.example.com'],
        ViewerCertificate: Match.objectLike({ MinimumProtocolVersion: 'TLSv1.2_2021', SslSupportMethod: 'sni-only' }),
        WebACLId: 'arn:aws:wafv2:us-east-1:123456789012:global/webacl/publisher/abcd',
      }),
    });
  });
  it('AI settings (openaiBaseUrl, textModel, imageModel) reach the functions that call OpenAI, and no API key anywhere', () => {
    const s = testApp({
      context: { openaiBaseUrl: 'https://ai.example.com/v1', textModel: 'text-model-x', imageModel: 'image-model-y' },
    }).stack;
    const t = Template.fromStack(s);
    const variablesOf = (fn: { function: { node: { defaultChild?: unknown } } }) =>
      (t.findResources('AWS::Lambda::Function')[logicalId(s, fn.function)] as Resource).Properties.Environment.Variables;
    const all = new Map([...s.functions, [WORKER_ENTRY_NAME, s.worker] as const]);
    for (const [name, fn] of all) {
      const variables = variablesOf(fn);
      if (name === 'articles' || name === WORKER_ENTRY_NAME) {
        expect(variables).toMatchObject({ OPENAI_BASE_URL: 'https://ai.example.com/v1', TEXT_MODEL: 'text-model-x', IMAGE_MODEL: 'image-model-y' });
      } else {
        expect(Object.keys(variables)).not.toEqual(expect.arrayContaining(['OPENAI_BASE_URL']));
        expect(variables.TEXT_MODEL).toBeUndefined();
      }
      expect(variables.OPENAI_API_KEY).toBeUndefined();
    }
    // Without the context values the functions use the code's defaults.
    expect(environmentOf('articles').TEXT_MODEL).toBeUndefined();
    expect(environmentOf(WORKER_ENTRY_NAME).OPENAI_BASE_URL).toBeUndefined();
    expect(JSON.stringify(template.toJSON())).not.toContain('OPENAI_API_KEY');
  });
});

describe('outputs and environment', () => {
  it('exports the distribution URL, the API URL, the table, the images bucket and the worker', () => {
    const outputs = template.findOutputs('*');
    expect(outputs.DistributionUrl?.Value).toEqual({
      'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [logicalId(stack, stack.site.distribution), 'DomainName'] }]],
    });
    expect(JSON.stringify(outputs.ApiUrl?.Value)).toContain(logicalId(stack, stack.http.api));
    expect(outputs.TableName?.Value).toEqual({ Ref: tableId });
    expect(outputs.ImagesBucketName?.Value).toEqual({ Ref: imagesBucketId });
    expect(outputs.WorkerFunctionName?.Value).toEqual({ Ref: workerId });
    expect(outputs.ScheduleGroupName?.Value).toBe(stack.schedules.group.scheduleGroupName);
    expect(outputs.ScheduleDeadLetterQueueUrl?.Value).toEqual({ Ref: logicalId(stack, stack.schedules.deadLetterQueue) });
  });

  it('has no dependency cycle between its resources (references and DependsOn)', () => {
    const resources = template.toJSON().Resources as Record<string, Resource & { DependsOn?: string | string[] }>;
    const edges = new Map<string, Set<string>>();
    const collect = (value: unknown, into: Set<string>): void => {
      if (Array.isArray(value)) for (const v of value) collect(v, into);
      else if (value && typeof value === 'object') {
        for (const [key, v] of Object.entries(value)) {
          if (key === 'Ref' && typeof v === 'string' && v in resources) into.add(v);
          else if (key === 'Fn::GetAtt' && Array.isArray(v) && typeof v[0] === 'string' && v[0] in resources) into.add(v[0]);
          else collect(v, into);
        }
      }
    };
    for (const [id, resource] of Object.entries(resources)) {
      const into = new Set<string>(resource.DependsOn ? asArray(resource.DependsOn) : []);
      collect(resource.Properties, into);
      edges.set(id, into);
    }
    const state = new Map<string, 'visiting' | 'done'>();
    const visit = (id: string, path: string[]): void => {
      if (state.get(id) === 'done') return;
      if (state.get(id) === 'visiting') throw new Error(`dependency cycle: ${[...path, id].join(' → ')}`);
      state.set(id, 'visiting');
      for (const next of edges.get(id) ?? []) visit(next, [...path, id]);
      state.set(id, 'done');
    };
    for (const id of edges.keys()) visit(id, []);
  });

  it('synthesizes offline: environment-agnostic, no context lookups', () => {
    expect(stack.environment).toBe('aws://unknown-account/unknown-region');
    expect(app.synth().manifest.missing).toBeUndefined();
  });
});
