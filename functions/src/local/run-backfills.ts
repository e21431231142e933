/**
 * The table's backfills as a command, for a deployed table whose deployment could not finish them
 * (docs/operations.md, Table changes):
 *
 *   TABLE_NAME=<table> AWS_REGION=<region> npx tsx functions/src/local/run-backfills.ts
 *
 * with the operator's AWS credentials (dynamodb:DescribeTable, Scan, Query, GetItem, BatchGetItem, PutItem,
 * UpdateItem, DeleteItem and ConditionCheckItem on the table and its indexes). Runs the same list, with the
 * same markers, as every deployment and the local start-up (adapters/dynamo/backfills.ts): a backfill that
 * finished is passed over, one that stopped part way resumes where it stopped. Safe while the app runs.
 */
import { runTableBackfills } from '../adapters/dynamo/backfills.js';
import { createDocumentClient, createDynamoClient } from '../adapters/dynamo/client.js';
import { loadConfig } from '../config.js';

const config = loadConfig(process.env);
const client = createDynamoClient(config);
const db = createDocumentClient(config);
try {
  const outcome = await runTableBackfills(db, client, config.tableName, {
    // An index added by the deployment may still be building: wait up to an hour for it.
    indexWaitUntil: Date.now() + 60 * 60_000,
    onProgress: (event) => console.log(`${config.tableName}: ${JSON.stringify(event)}`),
  });
  console.log(`${config.tableName}: ${outcome.ran.length ? `ran ${outcome.ran.join(', ')}` : 'nothing left to run'}`);
} finally {
  db.destroy();
  client.destroy();
}
