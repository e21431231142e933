import { LambdaClient, InvokeCommand } from '@aws-sdk/client-lambda';
import type { Context } from 'aws-lambda';
import { runTableBackfills } from '../adapters/dynamo/backfills.js';
import { createDocumentClient, createDynamoClient } from '../adapters/dynamo/client.js';
import { sendCloudFormationResponse } from '../adapters/aws/cloudformation-response.js';
import { handleBackfillRequest, type BackfillRequest } from '../jobs/table-backfills.js';
import { logger } from '../logger.js';

const region = process.env.AWS_REGION ?? 'us-east-1';
const dynamo = { region, dynamoEndpoint: process.env.DYNAMODB_ENDPOINT || undefined };

/**
 * The table's backfills after each deployment (jobs/table-backfills.ts): the handler of the custom resource
 * of infra/lib/table-backfills.ts, invoked by CloudFormation and, for a run longer than one invocation, by
 * itself (asynchronously, with the same request).
 */
export const handler = async (request: BackfillRequest, context: Context): Promise<void> => {
  logger.addContext(context);
  const client = createDynamoClient(dynamo);
  const db = createDocumentClient(dynamo);
  try {
    await handleBackfillRequest(request, {
      run: (tableName, names, limits) =>
        runTableBackfills(db, client, tableName, {
          names,
          ...limits,
          onProgress: (event) => logger.info('backfill', { ...event }),
        }),
      respond: sendCloudFormationResponse,
      continueLater: async (next) => {
        await new LambdaClient({ region }).send(
          new InvokeCommand({
            FunctionName: context.invokedFunctionArn,
            InvocationType: 'Event',
            Payload: Buffer.from(JSON.stringify(next)),
          }),
        );
      },
      now: () => Date.now(),
      remainingMs: () => context.getRemainingTimeInMillis(),
      region,
      log: {
        info: (message, fields) => logger.info(message, fields ?? {}),
        error: (message, fields) => logger.error(message, fields ?? {}),
      },
    });
  } finally {
    db.destroy();
    client.destroy();
  }
};
