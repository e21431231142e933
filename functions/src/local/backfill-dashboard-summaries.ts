/**
 * The dashboard summary backfill as a command, for a deployed table (docs/operations.md):
 *
 *   TABLE_NAME=<table> AWS_REGION=<region> npx tsx functions/src/local/backfill-dashboard-summaries.ts
 *
 * with the operator's AWS credentials (dynamodb:Query, GetItem and PutItem on the table and its GSI1).
 * Recomputes every user's summary from their articles; safe to run twice and while the app runs
 * (adapters/dynamo/summary-store.ts). The local stack runs it at every start for users without one
 * (local/stack.ts).
 */
import { createDocumentClient } from '../adapters/dynamo/client.js';
import { backfillDashboardSummaries } from '../adapters/dynamo/summary-store.js';
import { loadConfig } from '../config.js';

const config = loadConfig(process.env);
const db = createDocumentClient(config);
try {
  const result = await backfillDashboardSummaries(db, config.tableName);
  console.log(`${config.tableName}: ${result.users} users, ${result.rebuilt} summaries written (missing or different)`);
} finally {
  db.destroy();
}
