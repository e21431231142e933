import { mkdirSync } from 'node:fs';
import S3rver from 's3rver';
import { freePort, LOOPBACK } from './ports.js';

export interface LocalS3 {
  endpoint: string;
  /**
   * Lets pages of these origins post uploads to the bucket (its CORS rule, as the images bucket has in AWS:
   * infra/lib/content-publisher-stack.ts). s3rver checks the POST's signature but not the policy's
   * conditions (size, type): the server checks the object again (domain/images.ts).
   */
  allowBrowserUploads(bucket: string, origins: string[]): Promise<void>;
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
  const endpoint = `http://${LOOPBACK}:${port}`;
  return {
    endpoint,
    async allowBrowserUploads(bucket, origins) {
      const { S3Client, PutBucketCorsCommand } = await import('@aws-sdk/client-s3');
      const client = new S3Client({
        region: 'us-east-1',
        endpoint,
        forcePathStyle: true,
        credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      });
      try {
        await client.send(
          new PutBucketCorsCommand({
            Bucket: bucket,
            CORSConfiguration: {
              CORSRules: [
                { AllowedOrigins: origins, AllowedMethods: ['POST'], AllowedHeaders: ['*'], MaxAgeSeconds: 3000 },
              ],
            },
          }),
        );
      } finally {
        client.destroy();
      }
    },
    stop: () => server.close(),
  };
}
