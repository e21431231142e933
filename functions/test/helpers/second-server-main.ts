/** The child process of second-server.ts: starts the local stack on the given table and data folder and says where it listens. */
import { startLocalStack } from '../../src/local/stack.js';

const { dataDir, tableName, dynamoEndpoint } = JSON.parse(process.env.CP_SECOND_SERVER ?? '{}') as {
  dataDir: string;
  tableName: string;
  dynamoEndpoint: string;
};
const stack = await startLocalStack({ port: 0, host: '127.0.0.1', dataDir, tableName, dynamoEndpoint });
process.stdout.write(`SECOND_SERVER ${stack.url}\n`);
