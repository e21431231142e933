import type { S3Client } from '@aws-sdk/client-s3';
import type { Config } from '../../config.js';
import type { ObjectStore, StoredObject, UploadForm, UploadSigner } from '../../domain/ports.js';

type S3Module = typeof import('@aws-sdk/client-s3');

let s3Module: Promise<S3Module> | undefined;
/**
 * The S3 client is loaded by the first image read or write, not at cold start: most calls of the
 * functions that may touch images (listing and editing articles, approval previews, imports) never
 * do (infra/lib/bundling.ts, docs/testing.md Performance budgets).
 */
const loadS3 = (): Promise<S3Module> => (s3Module ??= import('@aws-sdk/client-s3'));

/** S3 in AWS; locally the same client talks to s3rver. */
export class S3ObjectStore implements ObjectStore, UploadSigner {
  private client: S3Client | undefined;

  constructor(
    private readonly makeClient: (s3: S3Module) => S3Client,
    private readonly bucket: string,
  ) {}

  private async s3(): Promise<{ s3: S3Module; client: S3Client }> {
    const s3 = await loadS3();
    this.client ??= this.makeClient(s3);
    return { s3, client: this.client };
  }

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    const { s3, client } = await this.s3();
    await client.send(new s3.PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentType: contentType }));
  }

  /**
   * The object, or undefined when there is none. S3 answers a missing key with 404 NoSuchKey only
   * to a caller that may list the bucket, else with 403 AccessDenied, like a key it may not read.
   * The functions may list the images' prefix (infra/lib/content-publisher-stack.ts), so a 403 is
   * "no image" only when a listing of that very key confirms it is not there; a 403 on a key that
   * exists, or a listing that is refused too, is a real permission error and is thrown.
   */
  async get(key: string): Promise<StoredObject | undefined> {
    const { s3, client } = await this.s3();
    try {
      const out = await client.send(new s3.GetObjectCommand({ Bucket: this.bucket, Key: key }));
      const body = Buffer.from(await out.Body!.transformToByteArray());
      return { body, contentType: out.ContentType ?? 'application/octet-stream' };
    } catch (err) {
      if (err instanceof s3.NoSuchKey || (err as { name?: string }).name === 'NoSuchKey') return undefined;
      if (isAccessDenied(err) && (await this.listed(key).catch(() => true)) === false) return undefined;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    const { s3, client } = await this.s3();
    // S3 answers 204 for a key that is not there: deleting twice is fine.
    await client.send(new s3.DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  /**
   * A presigned POST (signed with this client's credentials: in AWS the function's role, which must
   * itself be allowed to put the key) for exactly this key and content type, at most `maxBytes`.
   */
  async signUpload(input: {
    key: string;
    contentType: string;
    maxBytes: number;
    expiresInSeconds: number;
  }): Promise<UploadForm> {
    const { client } = await this.s3();
    const { createPresignedPost } = await import('@aws-sdk/s3-presigned-post');
    const { url, fields } = await createPresignedPost(client, {
      Bucket: this.bucket,
      Key: input.key,
      Conditions: [
        ['content-length-range', 1, input.maxBytes],
        ['eq', '$Content-Type', input.contentType],
      ],
      Fields: { 'Content-Type': input.contentType },
      Expires: input.expiresInSeconds,
    });
    return { url, fields };
  }

  /**
   * A presigned GET of this key (signed with the function's role, which may read it), whose answer
   * carries `cacheControl`. The signer loads with it, on the first image read, like the client.
   */
  async signDownload(
    key: string,
    options: { expiresInSeconds: number; cacheControl: string; signingDate: Date },
  ): Promise<string> {
    const { s3, client } = await this.s3();
    const { getSignedUrl } = await import('@aws-sdk/s3-request-presigner');
    return getSignedUrl(
      client,
      new s3.GetObjectCommand({ Bucket: this.bucket, Key: key, ResponseCacheControl: options.cacheControl }),
      { expiresIn: options.expiresInSeconds, signingDate: options.signingDate },
    );
  }

  /** Whether a listing of the bucket shows exactly this key (the first key with it as prefix is itself, if it exists). */
  private async listed(key: string): Promise<boolean> {
    const { s3, client } = await this.s3();
    const out = await client.send(new s3.ListObjectsV2Command({ Bucket: this.bucket, Prefix: key, MaxKeys: 1 }));
    return (out.Contents ?? []).some((object) => object.Key === key);
  }
}

const isAccessDenied = (err: unknown): boolean => {
  const { name, $metadata } = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return name === 'AccessDenied' || $metadata?.httpStatusCode === 403;
};

/** The images store for this environment: S3 in AWS, the embedded store locally (path-style, the run's secret). */
export function createObjectStore(
  config: Pick<Config, 'region' | 's3Endpoint' | 's3LocalSecret' | 'imagesBucket'>,
): S3ObjectStore {
  return new S3ObjectStore(
    ({ S3Client }) =>
      new S3Client({
        region: config.region,
        ...(config.s3Endpoint
          ? {
              endpoint: config.s3Endpoint,
              forcePathStyle: true,
              credentials: { accessKeyId: 'S3RVER', secretAccessKey: config.s3LocalSecret ?? 'S3RVER' },
            }
          : {}),
      }),
    config.imagesBucket,
  );
}
