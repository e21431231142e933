/**
 * The calendar entry backfill as a command, for a deployed table (docs/operations.md):
 *
 *   TABLE_NAME=<table> AWS_REGION=<region> npx tsx functions/src/local/backfill-calendar-entries.ts
 *
 * with the operator's AWS credentials (dynamodb:Scan, dynamodb:ConditionCheckItem, dynamodb:PutItem and
 * dynamodb:DeleteItem on the table). Safe to run twice and while the app runs
 * (adapters/dynamo/calendar-backfill.ts). The local stack runs the same backfill once per table (local/stack.ts).
 */
import { backfillCalendarEntries } from '../adapters/dynamo/calendar-backfill.js';
import { createDocumentClient } from '../adapters/dynamo/client.js';
import { loadConfig } from '../config.js';

const config = loadConfig(process.env);
const db = createDocumentClient(config);
try {
  const result = await backfillCalendarEntries(db, config.tableName);
  console.log(
    `${config.tableName}: ${result.articles} articles, ${result.fixed} given their calendar entries, ` +
      `${result.skipped} changed meanwhile (their own write set them)`,
  );
} finally {
  db.destroy();
}
