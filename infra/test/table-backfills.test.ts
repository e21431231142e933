import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { TABLE_BACKFILL_NAMES } from '../../functions/src/adapters/dynamo/backfills.js';
import { BACKFILL_FUNCTION_TIMEOUT_S, BACKFILL_SERVICE_TIMEOUT_S } from '../../functions/src/time-budgets.js';
import { ON_DEMAND_MODULES } from '../lib/bundling.js';
import { BACKFILL_INDEX_ACTIONS, BACKFILL_TABLE_ACTIONS } from '../lib/table-backfills.js';
import {
  asArray,
  logicalId,
  only,
  synthesizeDefaultStack,
  testApp,
  type DefaultStack,
  type Resource,
  type Statement,
} from './helpers.js';

/**
 * The table's backfills after every deployment (infra/lib/table-backfills.ts): a custom resource after the
 * table, served by a function of the app, with only the access the backfills need, whose properties move
 * with the function's code.
 */
let s: DefaultStack;
let resourceId: string;
let resource: Resource & { DependsOn?: string[] };
let functionId: string;
beforeAll(() => {
  s = synthesizeDefaultStack();
  [resourceId, resource] = only(s.template.findResources('Custom::TableBackfills') as Record<string, Resource>);
  functionId = logicalId(s.stack, s.stack.backfills.function.function);
});

const lambdaFunction = (template: Template, id: string) =>
  (template.findResources('AWS::Lambda::Function') as Record<string, Resource>)[id]!;

describe('the backfill custom resource', () => {
  it('is served by the backfill function and runs the registry on the stack’s table, CloudFormation waiting an hour', () => {
    expect(resource.Properties).toEqual({
      ServiceToken: { 'Fn::GetAtt': [functionId, 'Arn'] },
      ServiceTimeout: String(BACKFILL_SERVICE_TIMEOUT_S),
      TableName: { Ref: s.tableId },
      Backfills: [...TABLE_BACKFILL_NAMES],
      CodeHash: expect.any(String),
    });
    expect(resourceId).toMatch(/^BackfillsRun/);
  });

  it('runs after the table (and after its function may send a long run on to itself)', () => {
    const continuePolicy = logicalId(s.stack, s.stack.backfills.continuePolicy);
    expect(resource.DependsOn).toEqual(expect.arrayContaining([s.tableId, continuePolicy]));
  });

  it('runs again at every deployment of new code: CodeHash is the function’s code asset (named by its hash)', () => {
    // The asset's S3 key is the hash of the bundle (NodejsFunction): new code, a new key, an Update.
    const code = lambdaFunction(s.template, functionId).Properties.Code as { S3Key: string };
    expect(code.S3Key).toMatch(/^[0-9a-f]{64}\.zip$/);
    expect(resource.Properties.CodeHash).toBe(code.S3Key);
  });

  it('names a restored table given as tableName', () => {
    const { stack } = testApp({
      context: {
        tableName: 'restored-table',
        tableStreamArn: 'arn:aws:dynamodb:us-east-1:123456789012:table/restored-table/stream/2026-11-20T09:30:00.000',
      },
    });
    const [, run] = only(Template.fromStack(stack).findResources('Custom::TableBackfills') as Record<string, Resource>);
    expect(run.Properties.TableName).toBe('restored-table');
  }, 60_000);
});

describe('the backfill function', () => {
  it('is bundled like the app’s others: Node.js 22 on arm64, Lambda’s longest timeout, no on-demand package', () => {
    expect(lambdaFunction(s.template, functionId).Properties).toMatchObject({
      Runtime: 'nodejs22.x',
      Architectures: ['arm64'],
      Handler: 'index.handler',
      Timeout: BACKFILL_FUNCTION_TIMEOUT_S,
    });
    const bundling = s.stack.backfills.function.bundling;
    expect(s.stack.backfills.function.modules).toBeUndefined();
    expect(bundling.nodeModules).toBeUndefined();
    expect([...(bundling.externalModules ?? [])].sort()).toEqual([...ON_DEMAND_MODULES].sort());
  });

  it('may only read and correct the table, see its indexes’ state, query its indexes and invoke itself', () => {
    const roleId = logicalId(s.stack, s.stack.backfills.function.role);
    const statements = Object.values(s.template.findResources('AWS::IAM::Policy') as Record<string, Resource>)
      .filter((p) => (p.Properties.Roles as { Ref: string }[]).some((r) => r.Ref === roleId))
      .flatMap((p) => p.Properties.PolicyDocument.Statement as Statement[]);
    const tableArn = { 'Fn::GetAtt': [s.tableId, 'Arn'] };
    const indexArn = (name: string) => ({ 'Fn::Join': ['', [tableArn, `/index/${name}`]] });
    const logGroupId = (lambdaFunction(s.template, functionId).Properties.LoggingConfig.LogGroup as { Ref: string })
      .Ref;
    expect(statements.map((st) => ({ ...st, Action: asArray(st.Action).sort() }))).toEqual(
      expect.arrayContaining([
        {
          Effect: 'Allow',
          Action: ['logs:CreateLogStream', 'logs:PutLogEvents'],
          Resource: { 'Fn::GetAtt': [logGroupId, 'Arn'] },
        },
        { Effect: 'Allow', Action: [...BACKFILL_TABLE_ACTIONS].sort(), Resource: tableArn },
        { Effect: 'Allow', Action: [...BACKFILL_INDEX_ACTIONS], Resource: [indexArn('GSI1'), indexArn('GSI2')] },
        { Effect: 'Allow', Action: ['lambda:InvokeFunction'], Resource: { 'Fn::GetAtt': [functionId, 'Arn'] } },
      ]),
    );
    expect(statements).toHaveLength(4);
    // Nothing of the table's administration but DescribeTable; no other function may Scan.
    expect(
      statements.flatMap((st) => asArray(st.Action)).filter((a) => /^dynamodb:(Create|Update|Delete)Table/.test(a)),
    ).toEqual([]);
    for (const name of [...s.functionIds.keys(), 'worker']) {
      expect(s.policyOf(name).flatMap((st) => asArray(st.Action))).not.toContain('dynamodb:Scan');
    }
  });
});
