import { CustomResource, Duration } from 'aws-cdk-lib';
import { Grant, Policy, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { TABLE_BACKFILL_NAMES } from '../../functions/src/adapters/dynamo/backfills.js';
import { BACKFILL_FUNCTION_TIMEOUT_S, BACKFILL_SERVICE_TIMEOUT_S } from '../../functions/src/time-budgets.js';
import { AppFunction } from './app-function.js';
import { tableIndexes, type DataTable } from './data-table.js';
import { lambdaEntryPath } from './paths.js';

/** The backfill function's Lambda entry name: `functions/src/lambda/backfills.ts`. It serves no route. */
export const BACKFILLS_ENTRY_NAME = 'backfills';

/**
 * What the backfills do with the table (adapters/dynamo/backfills.ts): see whether an index is built
 * (DescribeTable), Scan it page by page, read items by key and correct them (single writes and
 * transactions of condition checks, puts and deletes).
 */
export const BACKFILL_TABLE_ACTIONS = [
  'dynamodb:DescribeTable',
  'dynamodb:Scan',
  'dynamodb:GetItem',
  'dynamodb:BatchGetItem',
  'dynamodb:ConditionCheckItem',
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
] as const;
/** And on the indexes: the accounts are read through GSI1 (the dashboard summaries). */
export const BACKFILL_INDEX_ACTIONS = ['dynamodb:Query'] as const;

export interface TableBackfillsProps {
  data: DataTable;
  /** The npm workspaces root (the entry is functions/src/lambda/backfills.ts under it). */
  projectRoot: string;
}

/**
 * The table's backfills after every deployment (docs/operations.md, Table changes): a custom resource whose
 * handler is a function of the app (bundled like the others) that runs the registry's backfills once per
 * table (functions/src/jobs/table-backfills.ts). It comes after the table (its name is a property), so an
 * index the deployment adds exists when it runs (the run waits until it is built); its properties change
 * with the function's code (CodeHash: the asset's hash), so every deployment of new code runs it, and a
 * new backfill, which is new code, runs at the deployment that brings it. Its answer decides the
 * deployment: a failure fails it (and rolls it back).
 */
export class TableBackfills extends Construct {
  readonly function: AppFunction;
  readonly resource: CustomResource;
  /** Lets the function send a run that outlasts one invocation on to the next (its own ARN). */
  readonly continuePolicy: Policy;

  constructor(scope: Construct, id: string, props: TableBackfillsProps) {
    super(scope, id);
    const { table } = props.data;

    this.function = new AppFunction(this, 'Fn', {
      name: BACKFILLS_ENTRY_NAME,
      description: 'Content publisher: runs the table backfills once per table after each deployment',
      roleDescription: 'Content publisher table backfills (deployment custom resource)',
      entry: lambdaEntryPath(props.projectRoot, BACKFILLS_ENTRY_NAME),
      projectRoot: props.projectRoot,
      // The table comes with each request (the resource's TableName).
      environment: {},
      memorySize: 1024,
      timeout: Duration.seconds(BACKFILL_FUNCTION_TIMEOUT_S),
    });
    Grant.addToPrincipal({
      grantee: this.function.role,
      actions: [...BACKFILL_TABLE_ACTIONS],
      resourceArns: [table.tableArn],
    });
    Grant.addToPrincipal({
      grantee: this.function.role,
      actions: [...BACKFILL_INDEX_ACTIONS],
      resourceArns: tableIndexes.map((index) => `${table.tableArn}/index/${index.indexName}`),
    });
    // A policy of its own, not the role's default one that the function depends on: naming the function's
    // ARN there would make a cycle.
    this.continuePolicy = new Policy(this, 'ContinueRun', {
      roles: [this.function.role],
      statements: [
        new PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [this.function.function.functionArn] }),
      ],
    });

    const code = (this.function.function.node.defaultChild as CfnFunction).code as CfnFunction.CodeProperty;
    this.resource = new CustomResource(this, 'Run', {
      serviceToken: this.function.function.functionArn,
      resourceType: 'Custom::TableBackfills',
      serviceTimeout: Duration.seconds(BACKFILL_SERVICE_TIMEOUT_S),
      properties: {
        TableName: table.tableName,
        Backfills: [...TABLE_BACKFILL_NAMES],
        CodeHash: code.s3Key,
      },
    });
    this.resource.node.addDependency(props.data, this.continuePolicy);
  }
}
