import type { TestProject } from 'vitest/node';
import { startDynamoLocal } from '../src/local/dynamo.js';

/** One in-memory DynamoDB Local for the whole run; each test file gets its own table. */
export default async function setup(project: TestProject) {
  const dynamo = await startDynamoLocal();
  project.provide('dynamoEndpoint', dynamo.endpoint);
  return () => dynamo.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
  }
}
