import { HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  IMAGE_SIZES,
  IMAGE_UPLOAD_MAX_BYTES,
  ImageUploadMessages,
  cropRectangle,
  imageTooManyPixels,
} from '@app/shared';
import { Client, drafted, imageSettled, registration, startTestApp, type TestApp } from './helpers/app.js';

let app: TestApp;
let owner: Client;
let stranger: Client;
let s3: S3Client;
const bucket = process.env.IMAGES_BUCKET ?? 'content-publisher-images';

async function twoUsers() {
  const admin = new Client(app.url);
  await admin.call('/api/auth/register', { body: registration() });
  const other = new Client(app.url);
  const body = registration();
  await other.call('/api/auth/register', { body });
  const id = (await admin.call('/api/admin/users')).json.users.find(
    (u: { email: string }) => u.email === body.email,
  )._id;
  await admin.call(`/api/admin/users/${id}/status`, { method: 'PATCH', body: { isActive: true } });
  await other.call('/api/auth/login', { body: { email: body.email, password: body.password } });
  return [admin, other] as const;
}

beforeAll(async () => {
  app = await startTestApp();
  [owner, stranger] = await twoUsers();
  s3 = new S3Client({
    region: 'us-east-1',
    endpoint: process.env.S3_ENDPOINT,
    forcePathStyle: true,
    // The local store takes only requests signed with the run's secret (functions/src/local/s3.ts).
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: process.env.S3_LOCAL_SECRET! },
  });
});
afterAll(async () => {
  s3?.destroy();
  await app?.stop();
});

async function newArticle(client = owner) {
  const created = await client.call('/api/articles', {
    body: { title: 'Own pictures', topic: 'Uploading a photo', imageDescription: 'A harbour at dawn' },
  });
  await drafted(client, created.json.article._id);
  return created.json.article._id as string;
}

/** A 3000×1000 JPEG, left half red and right half blue, with a camera's EXIF and a GPS position. */
async function photo() {
  const halves = await sharp({ create: { width: 3000, height: 1000, channels: 3, background: '#ff0000' } })
    .composite([
      { input: { create: { width: 1500, height: 1000, channels: 3, background: '#0000ff' } }, left: 1500, top: 0 },
    ])
    .png()
    .toBuffer();
  return sharp(halves)
    .jpeg({ quality: 95 })
    .withExif({
      IFD0: { Make: 'TestCam', Model: 'Secret Phone' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 12/1', GPSLongitudeRef: 'W', GPSLongitude: '0/1 7/1 40/1' },
    })
    .toBuffer();
}

/** Posts the file to the signed form exactly as a browser does: multipart, the fields first, the file last. */
async function postToStore(upload: { url: string; fields: Record<string, string> }, bytes: Buffer, type: string) {
  const form = new FormData();
  for (const [name, value] of Object.entries(upload.fields)) form.append(name, value);
  form.append('file', new Blob([new Uint8Array(bytes)], { type }), 'picture');
  const res = await fetch(upload.url, { method: 'POST', body: form, headers: { origin: app.url } });
  await res.arrayBuffer();
  return res;
}

/** Start, post, complete: the whole browser flow. Answers the completion. */
async function upload(
  id: string,
  bytes: Buffer,
  options: { type?: string; size?: number; focalPoint?: { x: number; y: number }; client?: Client } = {},
) {
  const client = options.client ?? owner;
  const type = options.type ?? 'image/jpeg';
  const start = await client.call(`/api/image/upload/${id}`, {
    body: { contentType: type, size: options.size ?? bytes.length },
  });
  expect(start.status).toBe(200);
  const posted = await postToStore(start.json.upload, bytes, type);
  expect(posted.status).toBeLessThan(300);
  const complete = await client.call(`/api/image/upload/${id}/complete`, {
    body: { key: start.json.upload.key, ...(options.focalPoint ? { focalPoint: options.focalPoint } : {}) },
  });
  return { start, complete, key: start.json.upload.key as string };
}

const exists = (key: string) =>
  s3.send(new HeadObjectCommand({ Bucket: bucket, Key: key })).then(
    () => true,
    () => false,
  );
const listed = async (prefix: string) =>
  ((await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }))).Contents ?? [])
    .map((o) => o.Key!)
    .sort();

const fetchImage = async (url: string) => {
  const res = await fetch(`${app.url}${url}`, { headers: { cookie: owner.cookie! } });
  return { status: res.status, type: res.headers.get('content-type'), body: Buffer.from(await res.arrayBuffer()) };
};
const meanColour = async (bytes: Buffer) =>
  (await sharp(bytes).stats()).channels.slice(0, 3).map((c) => Math.round(c.mean));

/**
 * The table without the per-user call counts (domain/job-limits.ts): an upload start is counted even when
 * its file is then refused, and "changes nothing" is about the articles and their images.
 */
const dataItems = async () => (await app.items()).filter((i) => !String(i.PK).startsWith('THROTTLE#'));

/** What the table holds of the article's image, by its keys (domain/articles.ts StoredImage). */
async function storedImage(id: string) {
  const item = (await app.items()).find((i) => i.SK === `ARTICLE#${id}`) as { image?: any; imageJob?: any } | undefined;
  return item?.image ?? null;
}

describe('uploading your own image', () => {
  it('signs a POST limited to the article upload prefix, the exact type and 15 MB, for a few minutes', async () => {
    const id = await newArticle();
    const start = await owner.call(`/api/image/upload/${id}`, { body: { contentType: 'image/png', size: 1234 } });
    expect(start.status).toBe(200);
    const { url, fields, key, expiresAt, maxBytes } = start.json.upload;
    expect(url).toBe(`${process.env.S3_ENDPOINT}/${bucket}`);
    expect(maxBytes).toBe(IMAGE_UPLOAD_MAX_BYTES);
    expect(key).toMatch(new RegExp(`^uploads/[^/]+/${id}/[a-f0-9]{32}$`));
    expect(fields.key).toBe(key);
    expect(fields['Content-Type']).toBe('image/png');
    const policy = JSON.parse(Buffer.from(fields.Policy, 'base64').toString('utf8'));
    expect(policy.conditions).toEqual(
      expect.arrayContaining([
        ['content-length-range', 1, IMAGE_UPLOAD_MAX_BYTES],
        ['eq', '$Content-Type', 'image/png'],
        { key },
        { bucket },
      ]),
    );
    const minutes = (Date.parse(policy.expiration) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(5);
    expect(minutes).toBeLessThanOrEqual(10);
    expect(Math.abs(Date.parse(expiresAt) - Date.parse(policy.expiration))).toBeLessThan(5_000);
  });

  it('refuses other types and files over 15 MB before signing anything', async () => {
    const id = await newArticle();
    const gif = await owner.call(`/api/image/upload/${id}`, { body: { contentType: 'image/gif', size: 100 } });
    expect(gif.status).toBe(400);
    expect(gif.json.message).toBe(ImageUploadMessages.wrongType);
    const big = await owner.call(`/api/image/upload/${id}`, {
      body: { contentType: 'image/jpeg', size: IMAGE_UPLOAD_MAX_BYTES + 1 },
    });
    expect(big.status).toBe(400);
    expect(big.json.message).toBe(ImageUploadMessages.tooLarge);
  });

  it('takes a JPEG: both sizes around the centre, upright, the GPS position and all EXIF gone', async () => {
    const id = await newArticle();
    const input = await photo();
    expect((await sharp(input).metadata()).exif?.includes(Buffer.from([0x25, 0x88]))).toBe(true); // GPS block
    const { complete, key } = await upload(id, input);
    expect(complete.status).toBe(200);
    expect(complete.json).toMatchObject({
      success: true,
      hasImage: true,
      pending: false,
      message: ImageUploadMessages.uploaded,
      image: { source: 'uploaded', focalPoint: { x: 0.5, y: 0.5 }, description: 'A harbour at dawn' },
    });
    const image = complete.json.image;
    expect(image.original).toMatchObject({ width: 2400, height: 800 });
    for (const [url, size] of [
      [image.url, { width: 1200, height: 800 }],
      [image.linkedinUrl, { width: 1200, height: 627 }],
      [image.original.url, { width: 2400, height: 800 }],
    ] as const) {
      const res = await fetchImage(url);
      expect(res.status).toBe(200);
      expect(res.type).toBe('image/jpeg');
      const meta = await sharp(res.body).metadata();
      expect(meta).toMatchObject(size);
      expect(meta.exif).toBeUndefined();
      expect(res.body.includes(Buffer.from('Secret Phone'))).toBe(false);
    }
    // The raw upload is gone once used.
    expect(await exists(key)).toBe(false);
    // The article's own answer carries the same image.
    expect((await owner.call(`/api/articles/${id}`)).json.article.image).toEqual(image);
  });

  it('crops around the focal point given, and again around a new one from the kept original; the old crops go', async () => {
    const id = await newArticle();
    const { complete } = await upload(id, await photo(), { focalPoint: { x: 0, y: 0.5 } });
    expect(complete.json.image.focalPoint).toEqual({ x: 0, y: 0.5 });
    const [red, , blue] = await meanColour((await fetchImage(complete.json.image.url)).body);
    expect(red).toBeGreaterThan(230);
    expect(blue).toBeLessThan(25);
    const before = await storedImage(id);

    const moved = await owner.call(`/api/image/focal-point/${id}`, {
      method: 'PUT',
      body: { focalPoint: { x: 1, y: 0.5 } },
    });
    expect(moved.status).toBe(200);
    expect(moved.json.message).toBe(ImageUploadMessages.cropSaved);
    expect(moved.json.image.focalPoint).toEqual({ x: 1, y: 0.5 });
    expect(moved.json.image.url).not.toBe(complete.json.image.url); // a new version: caches see new bytes
    const right = await meanColour((await fetchImage(moved.json.image.url)).body);
    expect(right[0]).toBeLessThan(25);
    expect(right[2]).toBeGreaterThan(230);
    // LinkedIn's window is wider (1531 of the 2400 px): against the right edge it still holds a strip of red.
    const window = cropRectangle({ width: 2400, height: 800 }, IMAGE_SIZES.linkedin, { x: 1, y: 0.5 });
    expect(window).toEqual({ left: 869, top: 0, width: 1531, height: 800 });
    const redShare = (1200 - window.left) / window.width;
    const linkedin = await meanColour((await fetchImage(moved.json.image.linkedinUrl)).body);
    expect(Math.abs(linkedin[0]! - 255 * redShare)).toBeLessThan(12);
    expect(Math.abs(linkedin[2]! - 255 * (1 - redShare))).toBeLessThan(12);

    const after = await storedImage(id);
    expect(after.original).toEqual(before.original);
    expect(await exists(before.original.key)).toBe(true);
    expect(await exists(before.blogKey)).toBe(false);
    expect(await exists(before.linkedinKey)).toBe(false);
    expect(await exists(after.blogKey)).toBe(true);
    expect(await exists(after.linkedinKey)).toBe(true);

    const bad = await owner.call(`/api/image/focal-point/${id}`, {
      method: 'PUT',
      body: { focalPoint: { x: 1.5, y: 0 } },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.message).toBe(ImageUploadMessages.focalPointInvalid);
  });

  it('a text file or a GIF named as an image answers 400 and changes nothing', async () => {
    const id = await newArticle();
    await upload(id, await photo());
    const before = await owner.call(`/api/articles/${id}`);
    const itemsBefore = await dataItems();
    const gif = await sharp({ create: { width: 40, height: 40, channels: 3, background: '#00ff00' } })
      .gif()
      .toBuffer();
    for (const bytes of [Buffer.from('name,amount\nAda,1\n'), gif]) {
      const { complete, key } = await upload(id, bytes, { type: 'image/png' });
      expect(complete.status).toBe(400);
      expect(complete.json.message).toBe(ImageUploadMessages.wrongType);
      expect(complete.json.message).toContain('is not a JPEG, PNG or WebP image');
      expect(await exists(key)).toBe(false);
    }
    expect((await owner.call(`/api/articles/${id}`)).json).toEqual(before.json);
    expect(await dataItems()).toEqual(itemsBefore);
  });

  it('a JPEG cut short answers 400 "could not be read" and changes nothing', async () => {
    const id = await newArticle();
    const itemsBefore = await dataItems();
    const whole = await photo();
    const { complete, key } = await upload(id, whole.subarray(0, Math.floor(whole.length / 3)));
    expect(complete.status).toBe(400);
    expect(complete.json.message).toBe(ImageUploadMessages.unreadable);
    expect(await exists(key)).toBe(false);
    expect(await dataItems()).toEqual(itemsBefore);
  });

  it('a file over 15 MB that reached the store anyway (a store that did not hold the policy) answers 400 and changes nothing', async () => {
    const id = await newArticle();
    const itemsBefore = await dataItems();
    const big = Buffer.alloc(IMAGE_UPLOAD_MAX_BYTES + 1, 0);
    (await photo()).copy(big);
    // The signed form refuses it (its size range)...
    const start = await owner.call(`/api/image/upload/${id}`, { body: { contentType: 'image/jpeg', size: 1000 } });
    const key = start.json.upload.key as string;
    expect((await postToStore(start.json.upload, big, 'image/jpeg')).status).toBe(400);
    expect(await exists(key)).toBe(false);
    // ...and were it written all the same, the server checks the object itself.
    await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: big, ContentType: 'image/jpeg' }));
    const complete = await owner.call(`/api/image/upload/${id}/complete`, { body: { key } });
    expect(complete.status).toBe(400);
    expect(complete.json.message).toBe(ImageUploadMessages.tooLarge);
    expect(await exists(key)).toBe(false);
    expect(await dataItems()).toEqual(itemsBefore);
  });

  it('a progressive JPEG over 25 megapixels answers 400 with its size before it is decoded; the same picture as baseline is taken', async () => {
    const id = await newArticle();
    const itemsBefore = await dataItems();
    // 5200×5000 = 26 MP: a small file (one colour) whose header says a picture that is costly to decode whole.
    const picture = sharp({ create: { width: 5200, height: 5000, channels: 3, background: '#336699' } });
    const progressive = await picture.clone().jpeg({ progressive: true }).toBuffer();
    const { complete, key } = await upload(id, progressive);
    expect(complete.status).toBe(400);
    expect(complete.json.code).toBe('upload_too_many_pixels');
    expect(complete.json.message).toBe(imageTooManyPixels({ width: 5200, height: 5000 }, 25, true));
    expect(await exists(key)).toBe(false);
    expect(await dataItems()).toEqual(itemsBefore);

    const baseline = await upload(id, await picture.clone().jpeg({ progressive: false }).toBuffer());
    expect(baseline.complete.status).toBe(200);
    expect(baseline.complete.json.image.original).toBeTruthy();
  });

  it("another user's article answers 404; a key of another article or a made-up key answers 400", async () => {
    const id = await newArticle();
    const theirs = await stranger.call(`/api/image/upload/${id}`, { body: { contentType: 'image/jpeg', size: 10 } });
    expect(theirs.status).toBe(404);
    const start = await owner.call(`/api/image/upload/${id}`, { body: { contentType: 'image/jpeg', size: 10 } });
    const key = start.json.upload.key;
    await postToStore(start.json.upload, await photo(), 'image/jpeg');
    const itemsBefore = await app.items();
    for (const [path, body] of [
      [`/api/image/upload/${id}/complete`, { key }],
      [`/api/image/focal-point/${id}`, { focalPoint: { x: 0.2, y: 0.2 } }],
    ] as const) {
      const res = await stranger.call(path, { method: path.includes('focal') ? 'PUT' : 'POST', body });
      expect(res.status).toBe(404);
    }
    expect((await fetch(`${app.url}/api/image/original/${id}`, { headers: { cookie: stranger.cookie! } })).status).toBe(
      404,
    );
    const other = await newArticle();
    const wrongArticle = await owner.call(`/api/image/upload/${other}/complete`, { body: { key } });
    expect(wrongArticle.status).toBe(400);
    expect(wrongArticle.json.message).toBe(ImageUploadMessages.uploadKeyInvalid);
    const madeUp = await owner.call(`/api/image/upload/${id}/complete`, {
      body: { key: key.replace(/[a-f0-9]{32}$/, 'f'.repeat(32)) },
    });
    expect(madeUp.status).toBe(400);
    expect(madeUp.json.message).toBe(ImageUploadMessages.uploadMissing);
    const articleItem = (items: Record<string, unknown>[]) => items.find((i) => i.SK === `ARTICLE#${id}`);
    expect(articleItem(await app.items())).toEqual(articleItem(itemsBefore));
    // Refused before reading it: the upload stays for the right call.
    expect(await exists(key)).toBe(true);
  });

  it('replacing keeps the newest only: the previous image and the raw uploads are deleted', async () => {
    const id = await newArticle();
    await upload(id, await photo());
    const first = await storedImage(id);
    const { complete } = await upload(id, await photo(), { focalPoint: { x: 0.9, y: 0.1 } });
    expect(complete.status).toBe(200);
    const second = await storedImage(id);
    for (const key of [first.blogKey, first.linkedinKey, first.original.key]) expect(await exists(key)).toBe(false);
    const userPrefix = second.blogKey.slice(0, second.blogKey.indexOf(`/articles/${id}/`));
    expect(await listed(`${userPrefix}/articles/${id}/`)).toEqual(
      [second.blogKey, second.linkedinKey, second.original.key].sort(),
    );
    expect(await listed(`uploads/${userPrefix.slice('users/'.length)}/${id}/`)).toEqual([]);

    // Generating replaces an upload the same way.
    await owner.call(`/api/image/regenerate/${id}`, { body: { description: 'A lighthouse' } });
    const generated = await imageSettled(owner, id);
    expect(generated.image.source).toBe('generated');
    const third = await storedImage(id);
    expect(await listed(`${userPrefix}/articles/${id}/`)).toEqual([third.blogKey, third.linkedinKey].sort());
  });

  it('a second completion of the same upload answers 400 and leaves the article on the files it shows', async () => {
    const id = await newArticle();
    const { complete, key } = await upload(id, await photo());
    expect(complete.status).toBe(200);
    const again = await owner.call(`/api/image/upload/${id}/complete`, { body: { key } });
    expect(again.status).toBe(400);
    expect(again.json.message).toBe(ImageUploadMessages.uploadMissing);
    const image = await storedImage(id);
    for (const k of [image.blogKey, image.linkedinKey, image.original.key]) expect(await exists(k)).toBe(true);
  });

  it('two completions and a generation at once leave the article on files that exist, and no others', async () => {
    const id = await newArticle();
    const starts = await Promise.all(
      [0, 1].map(() => owner.call(`/api/image/upload/${id}`, { body: { contentType: 'image/jpeg', size: 1000 } })),
    );
    const bytes = await photo();
    for (const start of starts) await postToStore(start.json.upload, bytes, 'image/jpeg');
    const results = await Promise.all([
      ...starts.map((start) =>
        owner.call(`/api/image/upload/${id}/complete`, { body: { key: start.json.upload.key } }),
      ),
      owner.call(`/api/image/generate/${id}`, { body: { description: 'A lighthouse' } }),
    ]);
    expect(results.map((r) => r.status)).toEqual([200, 200, 202]);
    await imageSettled(owner, id);
    const image = await storedImage(id);
    const keys = [image.blogKey, image.linkedinKey, ...(image.original ? [image.original.key] : [])].sort();
    for (const key of keys) expect(await exists(key)).toBe(true);
    const userPrefix = image.blogKey.slice(0, image.blogKey.indexOf(`/articles/${id}/`));
    expect(await listed(`${userPrefix}/articles/${id}/`)).toEqual(keys);
    const preview = await fetchImage((await owner.call(`/api/image/${id}`)).json.image.url);
    expect(preview.status).toBe(200);
  });
});
