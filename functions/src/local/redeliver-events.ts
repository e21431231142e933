/**
 * The domain events' redelivery as a command, for a deployed table (docs/operations.md, Domain events):
 *
 *   TABLE_NAME=<table> EVENT_BUS_NAME=<bus> SECRETS_PREFIX=<prefix> AWS_REGION=<region> \
 *     npx tsx functions/src/local/redeliver-events.ts
 *
 * with the operator's AWS credentials (dynamodb:Scan, BatchGetItem and UpdateItem on the table, events:PutEvents on
 * the bus, secretsmanager:GetSecretValue on the owners' secrets, for their webhooks). Delivers each event item not
 * delivered yet, as the worker does from the stream; what arrived before is skipped by its marks, so it is safe to
 * run twice and while the app runs.
 */
import { redeliverEvents } from '../adapters/dynamo/event-outbox.js';
import { deps } from '../wiring/deps.js';
import { eventRelay } from '../wiring/automation-events.js';

const { db, config } = deps();
try {
  const result = await redeliverEvents(db, config.tableName, eventRelay());
  console.log(`${config.tableName}: ${result.found} events not delivered, ${result.delivered} delivered now`);
} finally {
  db.destroy();
}
