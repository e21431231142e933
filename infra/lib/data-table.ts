import { RemovalPolicy } from 'aws-cdk-lib';
import {
  Attribute,
  AttributeType,
  BillingMode,
  ProjectionType,
  StreamViewType,
  Table,
  TableEncryption,
  type ITable,
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
 * How far back the table can be restored (point-in-time recovery, the most DynamoDB keeps); the images
 * bucket keeps replaced and deleted images as long (content-publisher-stack.ts), so a restore to any
 * moment of the window finds the images its articles name (docs/operations.md, Restore).
 */
export const PITR_RECOVERY_DAYS = 35;

/** A table name as DynamoDB allows it (3–255 of letters, digits, `_`, `-`, `.`). */
const TABLE_NAME_PATTERN = /^[A-Za-z0-9_.-]{3,255}$/;

export interface DataTableProps {
  /**
   * An existing table to use instead of creating one (the `tableName` context value): a table restored
   * from a backup or a point in time, with the same keys and indexes. The stack then neither creates
   * nor changes it (its PITR, TTL and deletion protection are set by the restore runbook).
   */
  existingTableName?: string;
  /**
   * That table's stream (the `tableStreamArn` context value), which delivers the domain events
   * (event-delivery.ts): required with existingTableName; the restore runbook turns it on.
   */
  existingTableStreamArn?: string;
}

/** What the table's stream carries: the new item, which the events' delivery reads (event-delivery.ts). */
export const TABLE_STREAM_VIEW = StreamViewType.NEW_IMAGE;

/**
 * The application's one DynamoDB table, built from the neutral `tableDefinition` that the local
 * stack uses too, so deployed and local data have the same keys and indexes.
 */
export class DataTable extends Construct {
  readonly table: ITable;
  /** Whether the stack creates the table (false with existingTableName). */
  readonly created: boolean;

  constructor(scope: Construct, id: string, props: DataTableProps = {}) {
    super(scope, id);

    if (props.existingTableName !== undefined) {
      if (!TABLE_NAME_PATTERN.test(props.existingTableName)) {
        throw new Error(
          `tableName must be the name of an existing DynamoDB table (3 to 255 letters, digits, _, - or .), not "${props.existingTableName}"`,
        );
      }
      if (!props.existingTableStreamArn?.startsWith('arn:')) {
        throw new Error(
          'tableStreamArn must be given with tableName: the ARN of that table’s stream (NEW_IMAGE), which delivers the ' +
            'domain events (docs/operations.md, Restore)',
        );
      }
      this.created = false;
      this.table = Table.fromTableAttributes(this, 'Table', {
        tableName: props.existingTableName,
        tableStreamArn: props.existingTableStreamArn,
        globalIndexes: tableIndexes.map((index) => index.indexName),
      });
      return;
    }
    this.created = true;
    const table = new Table(this, 'Table', {
      partitionKey: attribute(tableDefinition.partitionKey),
      sortKey: attribute(tableDefinition.sortKey),
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: {
        pointInTimeRecoveryEnabled: true,
        recoveryPeriodInDays: PITR_RECOVERY_DAYS,
      },
      // A `cdk destroy`, a replacement or a console click cannot delete it (docs/operations.md, Restore).
      deletionProtection: true,
      encryption: TableEncryption.AWS_MANAGED,
      timeToLiveAttribute: tableDefinition.timeToLiveAttribute,
      // The domain events' outbox items are delivered from the stream (event-delivery.ts).
      stream: TABLE_STREAM_VIEW,
      // The table holds every user's data: never delete it with the stack.
      removalPolicy: RemovalPolicy.RETAIN,
    });

    for (const index of tableIndexes) {
      table.addGlobalSecondaryIndex({
        indexName: index.indexName,
        partitionKey: attribute(index.partitionKey),
        sortKey: attribute(index.sortKey),
        projectionType: index.projection === 'KEYS_ONLY' ? ProjectionType.KEYS_ONLY : ProjectionType.ALL,
      });
    }
    this.table = table;
  }

  /** ARNs of the table and of each of its indexes, named one by one (no wildcard). */
  get resourceArns(): string[] {
    return [this.table.tableArn, ...tableIndexes.map((index) => `${this.table.tableArn}/index/${index.indexName}`)];
  }
}
