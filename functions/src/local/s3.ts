import { mkdirSync } from 'node:fs';
import S3rver from 's3rver';
import { freePort, LOOPBACK } from './ports.js';

export interface LocalS3 {
  endpoint: string;
  stop(): Promise<void>;
}

/** An S3-compatible store (s3rver) on loopback, reached with the real @aws-sdk/client-s3. */
export async function startLocalS3(options: { directory: string; buckets: string[] }): Promise<LocalS3> {
  mkdirSync(options.directory, { recursive: true });
  const port = await freePort();
  const server = new S3rver({
    port,
    // The app is its only client; never another interface (HOST moves the app server only).
    address: LOOPBACK,
    directory: options.directory,
    silent: true,
    configureBuckets: options.buckets.map((name) => ({ name, configs: [] })),
  });
  await server.run();
  return {
    endpoint: `http://${LOOPBACK}:${port}`,
    stop: () => server.close(),
  };
}
