import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createObjectStore } from '../../src/adapters/aws/s3-object-store.js';
import { startLocalS3, type LocalS3 } from '../../src/local/s3.js';
import { checkPostPolicy } from '../../src/local/s3-guard.js';

/**
 * The embedded store (functions/src/local/s3.ts) as S3 would answer: only requests signed with the run's
 * secret, and browser uploads only as their presigned policy allows (bucket, key, type, size, expiry).
 */
const bucket = 'guarded-images';
let dir: string;
let s3: LocalS3;
let client: S3Client;
const store = () =>
  createObjectStore({
    region: 'us-east-1',
    s3Endpoint: s3.endpoint,
    s3LocalSecret: s3.credentials.secretAccessKey,
    imagesBucket: bucket,
  });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cp-s3-test-'));
  s3 = await startLocalS3({ directory: join(dir, 's3'), buckets: [bucket] });
  await s3.allowBrowserUploads(bucket, ['http://localhost:3999']);
  client = new S3Client({
    region: 'us-east-1',
    endpoint: s3.endpoint,
    forcePathStyle: true,
    credentials: s3.credentials,
  });
});
afterAll(async () => {
  client?.destroy();
  await s3?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const read = async (key: string) => {
  try {
    const out = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    return await out.Body!.transformToString();
  } catch {
    return undefined;
  }
};
const put = (key: string, body: string) =>
  client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentType: 'text/plain' }));

/** Posts a form as a browser does: the fields, then the file last. */
async function post(fields: Record<string, string>, bytes: Buffer | string, type = 'image/jpeg') {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('file', new Blob([typeof bytes === 'string' ? bytes : new Uint8Array(bytes)], { type }), 'picture');
  const res = await fetch(`${s3.endpoint}/${bucket}`, {
    method: 'POST',
    body: form,
    headers: { origin: 'http://localhost:3999' },
  });
  return { status: res.status, text: await res.text(), cors: res.headers.get('access-control-allow-origin') };
}

describe('requests to the store', () => {
  it('the app’s signed calls work: write, read, list, delete', async () => {
    await put('users/alice/a.txt', 'alice');
    expect(await read('users/alice/a.txt')).toBe('alice');
    const listed = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: 'users/alice/' }));
    expect(listed.Contents?.map((o) => o.Key)).toEqual(['users/alice/a.txt']);
    await store().delete('users/alice/a.txt');
    expect(await read('users/alice/a.txt')).toBeUndefined();
  });

  it('unsigned reads, writes, deletes and listings answer 403 and change nothing', async () => {
    await put('users/bob/secret.txt', 'bob');
    const url = `${s3.endpoint}/${bucket}/users/bob/secret.txt`;
    for (const [method, body] of [
      ['GET', undefined],
      ['HEAD', undefined],
      ['PUT', 'overwritten'],
      ['DELETE', undefined],
    ] as const) {
      const res = await fetch(url, { method, body });
      expect(res.status, method).toBe(403);
    }
    expect((await fetch(`${s3.endpoint}/${bucket}?list-type=2`)).status).toBe(403);
    expect((await fetch(`${s3.endpoint}/`)).status).toBe(403);
    expect(await read('users/bob/secret.txt')).toBe('bob');
  });

  it('requests signed with s3rver’s well-known secret (or any other) answer 403', async () => {
    const forged = new S3Client({
      region: 'us-east-1',
      endpoint: s3.endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    });
    try {
      await expect(
        forged.send(new PutObjectCommand({ Bucket: bucket, Key: 'users/bob/secret.txt', Body: 'forged' })),
      ).rejects.toMatchObject({ $metadata: { httpStatusCode: 403 } });
      await expect(
        forged.send(new GetObjectCommand({ Bucket: bucket, Key: 'users/bob/secret.txt' })),
      ).rejects.toMatchObject({ $metadata: { httpStatusCode: 403 } });
    } finally {
      forged.destroy();
    }
    expect(await read('users/bob/secret.txt')).toBe('bob');
  });
});

describe('presigned POST uploads', () => {
  const sign = (key: string, contentType = 'image/jpeg', maxBytes = 1000) =>
    store().signUpload({ key, contentType, maxBytes, expiresInSeconds: 600 });

  it('a form writes its own key, and answers the page that may post (CORS)', async () => {
    const form = await sign('uploads/alice/a1/0001');
    const res = await post(form.fields, 'a small picture');
    expect(res.status).toBe(204);
    expect(res.cors).toBe('http://localhost:3999');
    expect(await read('uploads/alice/a1/0001')).toBe('a small picture');
  });

  it("one user's form cannot write into another user's folder (key changed), nor another bucket", async () => {
    await put('uploads/bob/b1/0002', 'bob');
    const form = await sign('uploads/alice/a1/0002');
    const res = await post({ ...form.fields, key: 'uploads/bob/b1/0002' }, 'overwritten');
    expect(res.status).toBe(403);
    expect(res.text).toMatch(/Policy Condition failed/);
    expect(res.cors).toBe('http://localhost:3999');
    expect(await read('uploads/bob/b1/0002')).toBe('bob');
    expect(await read('uploads/alice/a1/0002')).toBeUndefined();
    const elsewhere = await fetch(`${s3.endpoint}/other-bucket`, { method: 'POST', body: formOf(form.fields, 'x') });
    expect(elsewhere.status).toBe(403);
  });

  it('another type, a file over the size range, an extra field, a changed policy or no policy answer 4xx and write nothing', async () => {
    const key = 'uploads/alice/a1/0003';
    const form = await sign(key);
    expect((await post({ ...form.fields, 'Content-Type': 'text/html' }, '<script>', 'text/html')).status).toBe(403);
    expect((await post(form.fields, Buffer.alloc(1001))).status).toBe(400);
    expect((await post(form.fields, Buffer.alloc(0))).status).toBe(400);
    expect((await post({ ...form.fields, acl: 'public-read' }, 'x')).status).toBe(403);
    const policy = JSON.parse(Buffer.from(form.fields.Policy!, 'base64').toString('utf8'));
    const widened = {
      ...policy,
      conditions: policy.conditions.map((c: unknown) =>
        JSON.stringify(c) === JSON.stringify({ key }) ? ['starts-with', '$key', 'uploads/'] : c,
      ),
    };
    const tampered = {
      ...form.fields,
      Policy: Buffer.from(JSON.stringify(widened)).toString('base64'),
      key: 'uploads/bob/b1/x',
    };
    expect((await post(tampered, 'x')).status).toBe(403);
    const { Policy: _p, 'X-Amz-Signature': _s, ...unsigned } = form.fields;
    expect((await post(unsigned, 'x')).status).toBe(403);
    expect(await read(key)).toBeUndefined();
    expect(await read('uploads/bob/b1/x')).toBeUndefined();
  });

  it('an expired policy answers 403', async () => {
    const form = await sign('uploads/alice/a1/0004');
    const fields = new Map(Object.entries(form.fields).map(([k, v]) => [k.toLowerCase(), v]));
    const check = (now: number) =>
      checkPostPolicy({ fields, order: [...fields.keys(), 'file'], file: { size: 10 } }, bucket, s3.credentials, now);
    expect(check(Date.now())).toBeUndefined();
    expect(check(Date.now() + 11 * 60_000)).toMatchObject({ status: 403, message: expect.stringMatching(/expired/) });
  });
});

function formOf(fields: Record<string, string>, text: string) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('file', new Blob([text], { type: 'image/jpeg' }), 'picture');
  return form;
}
