import type { TestProject } from 'vitest/node';
import { startDynamoLocal } from '../src/local/dynamo.js';
import { ensureAtprotoInstalled } from './channel-servers/atproto/pds.js';
import { cachedGhost } from './helpers/ghost-server.js';
import { unsupportedPlatform } from './helpers/server-cache.js';

/**
 * One in-memory DynamoDB Local for the whole run; each test file gets its own table. The cached Ghost install
 * (helpers/ghost-server.ts) is made in the background from the start, so the Ghost tests find it ready (or
 * wait on its lock) instead of holding up the run; a run that ends first stops it, and the next one starts over.
 */
export default async function setup(project: TestProject) {
  // In CI the Bluesky PDS's install (minutes on a fresh machine, nothing once cached) starts now, beside the other
  // files; only the file that needs it waits (channel-servers/atproto/pds.ts). A failure is that file's to report.
  const channelServers =
    process.env.REQUIRE_CHANNEL_SERVERS === '1' ? ensureAtprotoInstalled().catch(() => undefined) : undefined;
  const warm = new AbortController();
  const warming = unsupportedPlatform()
    ? Promise.resolve()
    : cachedGhost(warm.signal).then(
        () => undefined,
        (error: Error) => {
          // the Ghost test file builds it again and fails or skips with the reason; this says what went first
          if (!warm.signal.aborted) console.warn(`Ghost install in the background failed: ${error.message}`);
        },
      );
  const dynamo = await startDynamoLocal();
  project.provide('dynamoEndpoint', dynamo.endpoint);
  return async () => {
    warm.abort();
    await warming;
    await dynamo.stop();
    await channelServers;
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
  }
}
