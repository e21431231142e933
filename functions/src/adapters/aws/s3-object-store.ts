import { GetObjectCommand, NoSuchKey, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { Config } from '../../config.js';
import type { ObjectStore, StoredObject } from '../../domain/ports.js';

/** S3 in AWS; locally the same client talks to s3rver. */
export class S3ObjectStore implements ObjectStore {
  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
  ) {}

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentType: contentType }));
  }

  async get(key: string): Promise<StoredObject | undefined> {
    try {
      const out = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      const body = Buffer.from(await out.Body!.transformToByteArray());
      return { body, contentType: out.ContentType ?? 'application/octet-stream' };
    } catch (err) {
      if (err instanceof NoSuchKey || (err as { name?: string }).name === 'NoSuchKey') return undefined;
      throw err;
    }
  }
}

/** The images store for this environment: S3 in AWS, s3rver (path-style, fixed keys) locally. */
export function createObjectStore(config: Pick<Config, 'region' | 's3Endpoint' | 'imagesBucket'>): S3ObjectStore {
  const client = new S3Client({
    region: config.region,
    ...(config.s3Endpoint
      ? { endpoint: config.s3Endpoint, forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } }
      : {}),
  });
  return new S3ObjectStore(client, config.imagesBucket);
}
