import type { TestProject } from 'vitest/node';
import { startDynamoLocal } from '../src/local/dynamo.js';
import { ensureAtprotoInstalled } from './channel-servers/atproto/pds.js';

/** One in-memory DynamoDB Local for the whole run; each test file gets its own table. */
export default async function setup(project: TestProject) {
  // In CI the Bluesky PDS's install (minutes on a fresh machine, nothing once cached) starts now, beside the other
  // files; only the file that needs it waits (channel-servers/atproto/pds.ts). A failure is that file's to report.
  const channelServers =
    process.env.REQUIRE_CHANNEL_SERVERS === '1' ? ensureAtprotoInstalled().catch(() => undefined) : undefined;
  const dynamo = await startDynamoLocal();
  project.provide('dynamoEndpoint', dynamo.endpoint);
  return async () => {
    await dynamo.stop();
    await channelServers;
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
  }
}
