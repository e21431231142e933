import { mkdirSync } from 'node:fs';
import S3rver from 's3rver';
import { freePort } from './ports.js';

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
    address: '127.0.0.1',
    directory: options.directory,
    silent: true,
    configureBuckets: options.buckets.map((name) => ({ name, configs: [] })),
  });
  await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    stop: () => server.close(),
  };
}
