import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UpstreamError } from '../src/domain/errors.js';
import { loadSharp } from '../src/adapters/ai/images.js';
import { SharpImageProcessor } from '../src/adapters/images/sharp-image-processor.js';
import { XrpcBlueskyClient, IMAGE_MAX_BYTES } from '../src/channels/bluesky/client.js';
import { parseBlueskyCredentials, type BlueskyCredentials } from '../src/channels/bluesky/credentials.js';
import { facetText, postRecordKey, type Facet } from '../src/channels/bluesky/text.js';
import { atprotoPdsOrSkip } from './channel-servers/atproto/pds.js';
import { pdsAccount, xrpc as callXrpc, type XrpcInit } from './channel-servers/atproto/xrpc.js';
import { trackSecret } from './helpers/secrets.js';

/**
 * The Bluesky client against a real PDS (@atproto/pds, started by channel-servers/atproto/pds.ts; docs/testing.md,
 * Channel servers): every call goes over HTTP to the server Bluesky runs, and what it stored is read back with
 * com.atproto.repo.getRecord.
 */
const pds = await atprotoPdsOrSkip();
afterAll(async () => {
  if (!pds) return;
  await pds.stop();
  // the server's process has ended and its data is gone: nothing outlives the file
  expect(() => process.kill(pds.pid, 0)).toThrow();
  expect(existsSync(pds.dataDir)).toBe(false);
});

const xrpc = (nsid: string, init: XrpcInit = {}) => callXrpc(pds!, nsid, init);

/** An account on the PDS and an app password for it, as a person makes them in the app. */
async function account(name: string): Promise<{ did: string; credentials: BlueskyCredentials }> {
  const made = await pdsAccount(pds!, name, trackSecret);
  return {
    did: made.did,
    credentials: parseBlueskyCredentials({
      handle: `@${made.handle}`,
      appPassword: made.appPassword,
      serviceUrl: pds!.url,
    }),
  };
}

/** A photo-like JPEG (noise compresses badly, as photos do). */
async function photo(width: number, height: number, quality = 90): Promise<Buffer> {
  const sharp = await loadSharp();
  return sharp({
    create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } },
  })
    .jpeg({ quality })
    .toBuffer();
}

async function postsOf(did: string): Promise<{ uri: string; value: any }[]> {
  const list = await xrpc('com.atproto.repo.listRecords', {
    query: { repo: did, collection: 'app.bsky.feed.post', limit: '100' },
  });
  expect(list.status).toBe(200);
  return list.json.records;
}

describe.skipIf(!pds)('the Bluesky client against a real PDS', () => {
  const client = new XrpcBlueskyClient({ allowPrivateUrls: true, images: new SharpImageProcessor() });
  let writer: Awaited<ReturnType<typeof account>>;

  beforeAll(async () => {
    writer = await account('writer');
  });

  it('connects with the handle and an app password', async () => {
    const connection = await client.testConnection(writer.credentials);
    expect(connection).toEqual({ ok: true, did: writer.did, handle: 'writer.test' });
  });

  it('is refused with a wrong app password, and says what to do without repeating it', async () => {
    const wrong = { ...writer.credentials, appPassword: 'abcd-efgh-ijkl-mnop' };
    const connection = await new XrpcBlueskyClient({ allowPrivateUrls: true }).testConnection(wrong);
    expect(connection.ok).toBe(false);
    if (connection.ok) return;
    expect(connection.code).toBe('bluesky_auth_failed');
    expect(connection.message).toContain('did not accept the app password for writer.test');
    expect(connection.message).toContain('App passwords');
    expect(connection.message).not.toContain(wrong.appPassword);
    // publishing with it throws the same refusal as an upstream error (502), and posts nothing
    const refused = await new XrpcBlueskyClient({ allowPrivateUrls: true })
      .publishPost(wrong, { text: 'not sent', rkey: postRecordKey('a-refused', 'bluesky', '2026-01-01T00:00:00Z') })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(UpstreamError);
    expect((refused as UpstreamError).code).toBe('bluesky_auth_failed');
    expect(await postsOf(writer.did)).toEqual([]);
  });

  it('renews a session whose access token the server no longer takes, with its refresh token', async () => {
    const fresh = new XrpcBlueskyClient({ allowPrivateUrls: true });
    const session = await fresh.createSession(writer.credentials);
    trackSecret(session.accessJwt, 'Bluesky access token');
    trackSecret(session.refreshJwt, 'Bluesky refresh token');
    // A kept session whose access token is refused (as once its two hours are over): the refresh token renews it.
    fresh.restoreSession(writer.credentials, { ...session, accessJwt: `${session.accessJwt}x` });
    const blob = await fresh.uploadImage(writer.credentials, { bytes: await photo(40, 30), contentType: 'image/jpeg' });
    expect(blob.mimeType).toBe('image/jpeg');
    const renewed = fresh.currentSession(writer.credentials)!;
    trackSecret(renewed.accessJwt, 'Bluesky access token');
    trackSecret(renewed.refreshJwt, 'Bluesky refresh token');
    expect(renewed.did).toBe(writer.did);
    expect(renewed.refreshJwt).not.toBe(session.refreshJwt);
    // the spent refresh token is not taken a second time
    const again = await xrpc('com.atproto.server.refreshSession', { body: {}, token: session.refreshJwt });
    expect(again.status).toBeGreaterThanOrEqual(400);
  });

  it('uploads an image as a blob of its exact bytes', async () => {
    const bytes = await photo(640, 480);
    const blob = await client.uploadImage(writer.credentials, { bytes, contentType: 'image/jpeg' });
    expect(blob).toMatchObject({ $type: 'blob', mimeType: 'image/jpeg', size: bytes.length });
    expect(blob.ref.$link).toMatch(/^baf/);
  });

  it('shrinks an image over 1,000,000 bytes to fit, and without the image processor says it is too big', async () => {
    const bytes = await photo(2400, 2400, 100);
    expect(bytes.length).toBeGreaterThan(IMAGE_MAX_BYTES);
    const blob = await client.uploadImage(writer.credentials, { bytes, contentType: 'image/jpeg' });
    expect(blob.size).toBeLessThanOrEqual(IMAGE_MAX_BYTES);
    expect(blob.mimeType).toBe('image/jpeg');

    const refused = await new XrpcBlueskyClient({ allowPrivateUrls: true })
      .uploadImage(writer.credentials, { bytes, contentType: 'image/jpeg' })
      .catch((error: unknown) => error);
    expect((refused as Error).message).toBe(
      `The image is ${(bytes.length / 1_000_000).toFixed(1)} MB; Bluesky takes images of at most 1 MB (1,000,000 bytes). Choose a smaller image or save it at a lower quality.`,
    );
    expect((refused as { kind?: string }).kind).toBe('invalid');
  });

  it('posts text with an image and its alt text, link and hashtag facets at the right bytes', async () => {
    const text =
      'Caf\u00e9 \u2615 und Stra\u00dfe \u{1F468}\u200D\u{1F469}\u200D\u{1F467}: https://example.com/k\u00fcche?x=1. #Kaffee #\u65e5\u672c\u8a9e!';
    const image = { bytes: await photo(800, 400), contentType: 'image/jpeg', alt: 'A cup of coffee on a table' };
    const rkey = postRecordKey('article-1', 'bluesky', '2026-03-01T10:00:00Z');
    const post = await client.publishPost(writer.credentials, {
      text,
      image,
      rkey,
      createdAt: '2026-03-01T10:00:05.000Z',
    });
    expect(post).toEqual({
      uri: `at://${writer.did}/app.bsky.feed.post/${rkey}`,
      cid: expect.stringMatching(/^baf/),
      url: `https://bsky.app/profile/${writer.did}/post/${rkey}`,
      existed: false,
    });

    const stored = await xrpc('com.atproto.repo.getRecord', {
      query: { repo: writer.did, collection: 'app.bsky.feed.post', rkey },
    });
    expect(stored.status).toBe(200);
    expect(stored.json.cid).toBe(post.cid);
    const record = stored.json.value;
    expect(record.text).toBe(text);
    expect(record.createdAt).toBe('2026-03-01T10:00:05.000Z');
    const facets: Facet[] = record.facets;
    expect(facets.map((facet) => [facetText(record.text, facet), facet.features])).toEqual([
      [
        'https://example.com/k\u00fcche?x=1',
        [{ $type: 'app.bsky.richtext.facet#link', uri: 'https://example.com/k\u00fcche?x=1' }],
      ],
      ['#Kaffee', [{ $type: 'app.bsky.richtext.facet#tag', tag: 'Kaffee' }]],
      ['#\u65e5\u672c\u8a9e', [{ $type: 'app.bsky.richtext.facet#tag', tag: '\u65e5\u672c\u8a9e' }]],
    ]);
    // byte offsets, not UTF-16 indexes: the link starts after the multi-byte characters before it
    const linkStart = Buffer.byteLength(text.slice(0, text.indexOf('https://')), 'utf8');
    expect(facets[0]!.index.byteStart).toBe(linkStart);
    expect(linkStart).not.toBe(text.indexOf('https://'));
    expect(record.embed).toMatchObject({
      $type: 'app.bsky.embed.images',
      images: [
        {
          alt: 'A cup of coffee on a table',
          aspectRatio: { width: 800, height: 400 },
          image: { $type: 'blob', mimeType: 'image/jpeg', size: image.bytes.length },
        },
      ],
    });
  });

  it('posts a link card with its thumbnail when a link is given', async () => {
    const rkey = postRecordKey('article-2', 'bluesky', '2026-03-02T10:00:00Z');
    const thumb = await photo(600, 315);
    await client.publishPost(writer.credentials, {
      text: 'New on the blog',
      link: { url: 'https://example.com/blog/new', title: 'New on the blog', description: 'What changed this week' },
      image: { bytes: thumb, contentType: 'image/jpeg', alt: 'The cover' },
      rkey,
    });
    const stored = await xrpc('com.atproto.repo.getRecord', {
      query: { repo: writer.did, collection: 'app.bsky.feed.post', rkey },
    });
    expect(stored.json.value.embed).toMatchObject({
      $type: 'app.bsky.embed.external',
      external: {
        uri: 'https://example.com/blog/new',
        title: 'New on the blog',
        description: 'What changed this week',
        thumb: { $type: 'blob', mimeType: 'image/jpeg', size: thumb.length },
      },
    });
  });

  it('a retry under the same record key finds the post instead of posting twice', async () => {
    const author = await account('retrier');
    const rkey = postRecordKey('article-3', 'bluesky', '2026-03-03T10:00:00Z');
    const input = { text: 'Once only #retry', rkey };
    const first = await client.publishPost(author.credentials, input);
    // the answer was lost: the next attempt sends the same post again
    const retry = await new XrpcBlueskyClient({ allowPrivateUrls: true }).publishPost(author.credentials, input);
    expect(retry).toEqual({ ...first, existed: true });
    expect(await client.findPost(author.credentials, rkey)).toEqual({ uri: first.uri, cid: first.cid, url: first.url });
    // two attempts at the same moment: still one post
    const otherKey = postRecordKey('article-4', 'bluesky', '2026-03-03T10:00:00Z');
    const both = await Promise.all([
      client.publishPost(author.credentials, { text: 'At once', rkey: otherKey }),
      new XrpcBlueskyClient({ allowPrivateUrls: true }).publishPost(author.credentials, {
        text: 'At once',
        rkey: otherKey,
      }),
    ]);
    expect(both[0].uri).toBe(both[1].uri);
    expect((await postsOf(author.did)).map((r) => r.value.text).sort()).toEqual(['At once', 'Once only #retry']);
    expect(
      await client.findPost(author.credentials, postRecordKey('article-5', 'bluesky', '2026-03-03T10:00:00Z')),
    ).toBe(undefined);
  });

  it('refuses an image without alt text and a link that is not a web address, before sending anything', async () => {
    const author = await account('careless');
    const rkey = postRecordKey('article-7', 'bluesky', '2026-03-05T10:00:00Z');
    const noAlt = await client
      .publishPost(author.credentials, {
        text: 'A picture',
        image: { bytes: await photo(80, 60), contentType: 'image/jpeg', alt: '  ' },
        rkey,
      })
      .catch((error: unknown) => error);
    expect(noAlt).toMatchObject({
      kind: 'invalid',
      code: 'bluesky_alt_missing',
      message: 'Describe the image in its alt text: Bluesky reads it out to people who cannot see it.',
    });
    const badLink = await client
      .publishPost(author.credentials, {
        text: 'A link',
        link: { url: 'javascript:alert(1)', title: 't', description: 'd' },
        rkey,
      })
      .catch((error: unknown) => error);
    expect(badLink).toMatchObject({ kind: 'invalid', code: 'bluesky_link_invalid' });
    expect(await postsOf(author.did)).toEqual([]);
  });

  it('refuses a text over 300 graphemes before sending anything', async () => {
    const author = await account('verbose');
    const text = '\u{1F44D}\u{1F3FD}'.repeat(301);
    const refused = await client
      .publishPost(author.credentials, { text, rkey: postRecordKey('article-6', 'bluesky', '2026-03-04T10:00:00Z') })
      .catch((error: unknown) => error);
    expect((refused as Error).message).toBe(
      'The Bluesky post is 301 characters long; Bluesky allows 300. Shorten it by 1.',
    );
    expect(await postsOf(author.did)).toEqual([]);
  });
});

describe('the Bluesky client when the server is not one it can use', () => {
  const credentials = (serviceUrl: string) =>
    parseBlueskyCredentials({ handle: 'writer.test', appPassword: 'abcd-efgh-ijkl-mnop', serviceUrl });
  let server: Server;
  let answer: { status: number; headers?: Record<string, string>; body: string };
  let requests = 0;

  beforeAll(async () => {
    server = createServer((_req, res) => {
      requests++;
      res.writeHead(answer.status, answer.headers ?? {}).end(answer.body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const local = () => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  it('refuses a private address in AWS before sending anything', async () => {
    const before = requests;
    const connection = await new XrpcBlueskyClient({ allowPrivateUrls: false }).testConnection(credentials(local()));
    expect(connection).toMatchObject({ ok: false, code: 'bluesky_service_forbidden' });
    expect(requests).toBe(before);
  });

  it('says the address is not a Bluesky server when a web page answers', async () => {
    answer = { status: 404, headers: { 'content-type': 'text/html' }, body: '<html>Not here</html>' };
    const connection = await new XrpcBlueskyClient({ allowPrivateUrls: true }).testConnection(credentials(local()));
    expect(connection).toEqual({
      ok: false,
      code: 'bluesky_not_a_server',
      message: `${local()} answered HTTP 404, not as a Bluesky server. Check the service address in the Bluesky settings (https://bsky.social for most accounts).`,
    });
  });

  it('passes on a rate limit with the time to wait', async () => {
    const reset = Math.floor(Date.now() / 1000) + 240;
    answer = {
      status: 429,
      headers: { 'content-type': 'application/json', 'ratelimit-reset': String(reset) },
      body: JSON.stringify({ error: 'RateLimitExceeded', message: 'Rate Limit Exceeded' }),
    };
    const error = await new XrpcBlueskyClient({ allowPrivateUrls: true })
      .createSession(credentials(local()))
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({ code: 'bluesky_rate_limited' });
    expect((error as UpstreamError).message).toMatch(
      /^Bluesky limits how often an account may sign in\. Try again in [45] minute\(s\)\.$/,
    );
    expect((error as UpstreamError).retryAfterSeconds).toBeGreaterThan(200);
    expect((error as UpstreamError).retryAfterSeconds).toBeLessThanOrEqual(240);
  });

  it('says when the server cannot be reached', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const connection = await new XrpcBlueskyClient({ allowPrivateUrls: true }).testConnection(credentials(url));
    expect(connection).toMatchObject({ ok: false, code: 'bluesky_unreachable' });
    expect((connection as { message: string }).message).toContain('refused the connection');
  });
});
