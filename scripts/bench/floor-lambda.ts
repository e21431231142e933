/**
 * The floor of a cold start: a Lambda that holds only the DynamoDB document client every function
 * uses (made as the functions make it, functions/src/adapters/dynamo/client.ts) and reads one item.
 * No bundle can import faster than this one; the bench times each Lambda bundle against it, side by
 * side, so the budget is a ratio that holds on a busy machine as on an idle one (lambda-bundles.ts).
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../../functions/src/adapters/dynamo/client.js';

const db = createDocumentClient({ region: process.env.AWS_REGION ?? 'us-east-1' });

export const handler = async (event: { id: string }) =>
  (await db.send(new GetCommand({ TableName: process.env.TABLE_NAME, Key: { pk: event.id, sk: event.id } }))).Item;
