import { RemovalPolicy } from 'aws-cdk-lib';
import {
  Attribute,
  AttributeType,
  BillingMode,
  ProjectionType,
  Table,
  TableEncryption,
} from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import {
  tableDefinition,
  type IndexDefinition,
  type KeyAttribute,
} from '../../functions/src/adapters/table-definition.js';

/** The table's global secondary indexes, read as a plain list so a new index needs no change here. */
export const tableIndexes: readonly IndexDefinition[] = tableDefinition.globalSecondaryIndexes;

const attribute = (key: KeyAttribute): Attribute => ({
  name: key.name,
  type: key.type === 'N' ? AttributeType.NUMBER : AttributeType.STRING,
});

/**
 * The application's one DynamoDB table, built from the neutral `tableDefinition` that the local
 * stack uses too, so deployed and local data have the same keys and indexes.
 */
export class DataTable extends Construct {
  readonly table: Table;

  constructor(scope: Construct, id: string) {
    super(scope, id);

    this.table = new Table(this, 'Table', {
      partitionKey: attribute(tableDefinition.partitionKey),
      sortKey: attribute(tableDefinition.sortKey),
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      encryption: TableEncryption.AWS_MANAGED,
      timeToLiveAttribute: tableDefinition.timeToLiveAttribute,
      // The table holds every user's data: never delete it with the stack.
      removalPolicy: RemovalPolicy.RETAIN,
    });

    for (const index of tableIndexes) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.indexName,
        partitionKey: attribute(index.partitionKey),
        sortKey: attribute(index.sortKey),
        projectionType: index.projection === 'KEYS_ONLY' ? ProjectionType.KEYS_ONLY : ProjectionType.ALL,
      });
    }
  }

  /** ARNs of the table and of each of its indexes, named one by one (no wildcard). */
  get resourceArns(): string[] {
    return [this.table.tableArn, ...tableIndexes.map((index) => `${this.table.tableArn}/index/${index.indexName}`)];
  }
}
