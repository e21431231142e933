/**
 * The article index backfill as a command, for a deployed table (docs/operations.md):
 *
 *   TABLE_NAME=<table> AWS_REGION=<region> npx tsx functions/src/local/backfill-article-indexes.ts
 *
 * with the operator's AWS credentials (dynamodb:Scan and dynamodb:UpdateItem on the table). Safe to
 * run twice and while the app runs (adapters/dynamo/article-index-backfill.ts). The local stack runs
 * the same backfill at every start (local/stack.ts).
 */
import { backfillArticleIndexes } from '../adapters/dynamo/article-index-backfill.js';
import { createDocumentClient } from '../adapters/dynamo/client.js';
import { loadConfig } from '../config.js';

const config = loadConfig(process.env);
const db = createDocumentClient(config);
try {
  const result = await backfillArticleIndexes(db, config.tableName);
  console.log(
    `${config.tableName}: ${result.articles} articles, ${result.fixed} given their index attributes, ` +
      `${result.skipped} changed meanwhile (their own write set them)`,
  );
} finally {
  db.destroy();
}
