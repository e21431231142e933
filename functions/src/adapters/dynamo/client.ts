import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Config } from '../../config.js';

export function createDocumentClient(config: Pick<Config, 'region' | 'dynamoEndpoint'>): DynamoDBDocumentClient {
  const client = new DynamoDBClient({
    region: config.region,
    ...(config.dynamoEndpoint
      ? {
          endpoint: config.dynamoEndpoint,
          // DynamoDB Local accepts any credentials; fixed ones keep a laptop free of AWS setup.
          credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
        }
      : {}),
  });
  return DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
}
