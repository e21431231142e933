import type { TestProject } from 'vitest/node';
import { startDynamoLocal } from '../src/local/dynamo.js';
import { cachedAtproto } from './channel-servers/atproto/pds.js';
import { cachedGhost } from './channel-servers/ghost/ghost.js';
import { unsupportedPlatform } from './channel-servers/node22.js';

/** The channel servers whose installs (minutes on a fresh machine, nothing once cached) are warmed for the run. */
const CHANNEL_SERVERS: { name: string; install: (signal: AbortSignal) => Promise<unknown> }[] = [
  { name: 'Ghost', install: cachedGhost },
  { name: 'Bluesky PDS', install: cachedAtproto },
];

/**
 * One in-memory DynamoDB Local for the whole run; each test file gets its own table. The channel servers' cached
 * installs (channel-servers/) are made in the background from the start, every run alike, at a low CPU priority:
 * the other files run meanwhile and only the file that needs a server waits (on its lock). A run that ends first
 * stops them, and the next one starts over.
 */
export default async function setup(project: TestProject) {
  const warm = new AbortController();
  const warming = unsupportedPlatform()
    ? []
    : CHANNEL_SERVERS.map(({ name, install }) =>
        install(warm.signal).then(
          () => undefined,
          (error: Error) => {
            // the server's test file tries again and fails or skips with the reason; this says what went first
            if (!warm.signal.aborted) console.warn(`${name} install in the background failed: ${error.message}`);
          },
        ),
      );
  const dynamo = await startDynamoLocal();
  project.provide('dynamoEndpoint', dynamo.endpoint);
  return async () => {
    warm.abort();
    await Promise.all(warming);
    await dynamo.stop();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
  }
}
