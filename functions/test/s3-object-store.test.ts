import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { S3ObjectStore } from '../src/adapters/aws/s3-object-store.js';

/** What S3 answers GetObject on a key the caller may not read, or on a missing key when it may not list. */
const accessDenied = () =>
  new S3ServiceException({
    name: 'AccessDenied',
    $fault: 'client',
    message: 'Access Denied',
    $metadata: { httpStatusCode: 403 },
  });

describe('S3ObjectStore.get (the images in AWS)', () => {
  const s3 = mockClient(S3Client);
  const store = new S3ObjectStore(({ S3Client: Client }) => new Client({ region: 'us-east-1' }), 'images-bucket');
  const key = 'users/u1/articles/a1/1700000000000-blog.png';
  beforeEach(() => s3.reset());

  it('answers the object', async () => {
    s3.on(GetObjectCommand, { Bucket: 'images-bucket', Key: key }).resolves({
      // The SDK's stream body, reduced to what the store reads.
      Body: { transformToByteArray: async () => new Uint8Array(Buffer.from('png-bytes')) } as never,
      ContentType: 'image/png',
    });
    expect(await store.get(key)).toEqual({ body: Buffer.from('png-bytes'), contentType: 'image/png' });
  });

  it('a missing key answered 404 NoSuchKey is no image', async () => {
    s3.on(GetObjectCommand).rejects(
      new NoSuchKey({ message: 'The specified key does not exist.', $metadata: { httpStatusCode: 404 } }),
    );
    expect(await store.get(key)).toBeUndefined();
    expect(s3.commandCalls(ListObjectsV2Command)).toHaveLength(0);
  });

  it('a 403 on a key that a listing shows is not there is no image (S3 hides a missing key behind 403 from a caller without s3:ListBucket)', async () => {
    s3.on(GetObjectCommand).rejects(accessDenied());
    // Another key under the same prefix does not count: only this key.
    s3.on(ListObjectsV2Command).resolves({ Contents: [{ Key: `${key}.old` }], KeyCount: 1 });
    expect(await store.get(key)).toBeUndefined();
    expect(s3.commandCalls(ListObjectsV2Command)[0]!.args[0].input).toEqual({
      Bucket: 'images-bucket',
      Prefix: key,
      MaxKeys: 1,
    });
  });

  it('a 403 on a key that exists is a real permission error: thrown', async () => {
    s3.on(GetObjectCommand).rejects(accessDenied());
    s3.on(ListObjectsV2Command).resolves({ Contents: [{ Key: key }], KeyCount: 1 });
    await expect(store.get(key)).rejects.toMatchObject({ name: 'AccessDenied' });
  });

  it('a 403 that the listing cannot settle (listing refused too) is thrown, not taken for "no image"', async () => {
    s3.on(GetObjectCommand).rejects(accessDenied());
    s3.on(ListObjectsV2Command).rejects(accessDenied());
    await expect(store.get(key)).rejects.toMatchObject({ name: 'AccessDenied' });
  });

  it('other failures are thrown as they are', async () => {
    s3.on(GetObjectCommand).rejects(
      new S3ServiceException({
        name: 'SlowDown',
        $fault: 'server',
        message: 'Slow down',
        $metadata: { httpStatusCode: 503 },
      }),
    );
    await expect(store.get(key)).rejects.toMatchObject({ name: 'SlowDown' });
    expect(s3.commandCalls(ListObjectsV2Command)).toHaveLength(0);
  });
});

describe('S3ObjectStore: deleting and signing uploads (AWS)', () => {
  const s3 = mockClient(S3Client);
  beforeEach(() => s3.reset());
  const store = new S3ObjectStore(
    ({ S3Client: Client }) =>
      new Client({
        region: 'eu-west-1',
        credentials: { accessKeyId: 'AKIAEXAMPLE', secretAccessKey: 'example-secret', sessionToken: 'example-session' },
      }),
    'images-bucket',
  );

  it('delete sends DeleteObject for that key of the bucket', async () => {
    s3.on(DeleteObjectCommand).resolves({});
    await store.delete('users/u1/articles/a1/1-blog.jpg');
    expect(s3.commandCalls(DeleteObjectCommand)[0]!.args[0].input).toEqual({
      Bucket: 'images-bucket',
      Key: 'users/u1/articles/a1/1-blog.jpg',
    });
  });

  it("signs a POST to the bucket's regional endpoint (what the CSP allows) for one key, one type and a size range", async () => {
    const before = Date.now();
    const form = await store.signUpload({
      key: 'uploads/u1/a1/abc',
      contentType: 'image/webp',
      maxBytes: 15 * 1024 * 1024,
      expiresInSeconds: 600,
    });
    expect(form.url).toBe('https://images-bucket.s3.eu-west-1.amazonaws.com/');
    expect(form.fields).toMatchObject({ key: 'uploads/u1/a1/abc', 'Content-Type': 'image/webp' });
    // The secret key never leaves: only its signature, the key id's scope and the role's session token.
    expect(JSON.stringify(form)).not.toContain('example-secret');
    const policy = JSON.parse(Buffer.from(form.fields.Policy!, 'base64').toString('utf8'));
    expect(policy.conditions).toEqual(
      expect.arrayContaining([
        ['content-length-range', 1, 15 * 1024 * 1024],
        ['eq', '$Content-Type', 'image/webp'],
        { key: 'uploads/u1/a1/abc' },
        { bucket: 'images-bucket' },
      ]),
    );
    const expires = Date.parse(policy.expiration) - before;
    expect(expires).toBeGreaterThan(590_000);
    expect(expires).toBeLessThan(610_000);
    // Signing is local: nothing was sent to S3.
    expect(s3.calls()).toHaveLength(0);
  });
});
