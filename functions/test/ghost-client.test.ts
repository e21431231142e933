/**
 * The Ghost channel's client against a REAL Ghost (channel-servers/ghost/ghost.ts; docs/testing.md, Channel servers):
 * its own site from the pristine copy, started for this file and stopped after it. Without a Ghost (and without
 * REQUIRE_CHANNEL_SERVERS=1) the server tests skip with one line saying why; the checks of the settings and the
 * token need no server and always run.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import {
  adminToken,
  GhostAdminKey,
  GhostMessages,
  HttpGhostClient,
  normaliseGhostUrl,
  parseGhostCredentials,
  postTags,
  type GhostCredentials,
} from '../src/channels/ghost/index.js';
import { DomainError, InvalidError, UpstreamError } from '../src/domain/errors.js';
import { ghostForTests, type GhostServer } from './channel-servers/ghost/ghost.js';
import { trackSecret } from './helpers/secrets.js';

const KEY = `${'a1'.repeat(12)}:${'0f'.repeat(32)}`;

/** What a call threw, for checking its kind, code and message. */
async function thrown(promise: Promise<unknown>): Promise<DomainError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}

describe('Ghost settings and token', () => {
  it('keeps the site address readers visit and the Admin API key, refusing a Content API key or a cut key with what to copy', () => {
    const credentials = parseGhostCredentials({ siteUrl: ' blog.example.com/ghost/#/dashboard ', adminApiKey: KEY });
    expect(credentials.siteUrl).toBe('https://blog.example.com');
    expect(credentials.adminKey.id).toBe('a1'.repeat(12));
    expect(normaliseGhostUrl('http://127.0.0.1:2368/')).toBe('http://127.0.0.1:2368');

    const refused = (input: unknown) => {
      try {
        parseGhostCredentials(input);
      } catch (error) {
        expect(error).toBeInstanceOf(InvalidError);
        return (error as Error).message;
      }
      throw new Error('accepted');
    };
    expect(refused({ siteUrl: 'https://example.com', adminApiKey: 'ab'.repeat(13) })).toBe(
      GhostMessages.contentKeyGiven,
    );
    expect(refused({ siteUrl: 'https://example.com', adminApiKey: KEY.slice(0, -2) })).toBe(
      GhostMessages.adminKeyShape,
    );
    expect(refused({ siteUrl: 'https://example.com', adminApiKey: '' })).toBe(GhostMessages.adminKeyRequired);
    expect(refused({ siteUrl: '', adminApiKey: KEY })).toBe(GhostMessages.siteUrlRequired);
    expect(refused({ siteUrl: 'ftp://example.com', adminApiKey: KEY })).toBe(GhostMessages.siteUrlInvalid);
  });

  it('never shows the secret: JSON and logs get the key masked', () => {
    const credentials = parseGhostCredentials({ siteUrl: 'https://example.com', adminApiKey: KEY });
    const secret = KEY.split(':')[1]!;
    for (const shown of [JSON.stringify(credentials), inspect(credentials), String(credentials.adminKey)]) {
      expect(shown).not.toContain(secret);
      expect(shown).toContain(`${'a1'.repeat(12)}:`);
    }
    expect(credentials.adminKey.masked()).toMatch(/^(a1){12}:•{8}0f0f$/);
  });

  it('signs a token Ghost accepts: HS256 with the secret, kid the key id, audience /admin/, valid 5 minutes at most', async () => {
    const key = new GhostAdminKey(KEY);
    const now = new Date('2030-01-02T03:04:05Z');
    const token = await adminToken(key, now);
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'HS256', typ: 'JWT', kid: 'a1'.repeat(12) });
    const claims = decodeJwt(token);
    expect(claims.aud).toBe('/admin/');
    expect(claims.iat).toBe(now.getTime() / 1000);
    expect(claims.exp! - claims.iat!).toBeLessThanOrEqual(300);
    await expect(
      jwtVerify(token, Buffer.from(KEY.split(':')[1]!, 'hex'), { audience: '/admin/', currentDate: now }),
    ).resolves.toBeTruthy();
  });

  it('refuses, before any request, a slug Ghost would rewrite (a retry could not find the post by it)', async () => {
    const nowhere = parseGhostCredentials({ siteUrl: 'http://127.0.0.1:9', adminApiKey: KEY });
    const client = new HttpGhostClient({ allowPrivateUrls: true });
    for (const slug of ['Spring Notes', 'spring--notes', '-spring', 'x'.repeat(192)]) {
      const refused = await thrown(client.publishPost(nowhere, { title: 'Spring', html: '<p>x</p>', slug }));
      expect(refused).toBeInstanceOf(InvalidError);
      expect(refused.code).toBe('ghost_slug');
    }
  });

  it('puts the keyword first and each tag once', () => {
    expect(postTags(' Garden  care ', ['garden care', 'Roses', '', 'roses', 'Soil'])).toEqual([
      'Garden care',
      'Roses',
      'Soil',
    ]);
    expect(postTags(undefined)).toEqual([]);
  });
});

describe('Ghost Admin API client against a real Ghost', () => {
  let ghost: GhostServer | undefined;
  let credentials: GhostCredentials;
  const client = new HttpGhostClient({ allowPrivateUrls: true });

  beforeAll(async () => {
    ghost = await ghostForTests();
    if (!ghost) return;
    trackSecret(ghost.adminApiKey.split(':')[1], 'Ghost Admin API key secret');
    trackSecret(ghost.owner.password, 'Ghost owner password');
    console.log(`Ghost ${ghost.version} answered ${ghost.startMs} ms after its start, using ${ghost.rssMiB} MiB`);
    credentials = parseGhostCredentials({ siteUrl: ghost.url, adminApiKey: ghost.adminApiKey });
  }, 30 * 60_000);

  afterAll(async () => {
    await ghost?.stop();
  });

  /** This file's Ghost, or the test skips (ghostForTests said why). */
  const site = (ctx: TestContext): GhostServer => {
    if (!ghost) ctx.skip();
    return ghost!;
  };

  /** Reads posts as the tests see them, straight from the Admin API with the same key. */
  async function adminPosts(server: GhostServer, filter: string) {
    const token = await adminToken(new GhostAdminKey(server.adminApiKey));
    const res = await fetch(
      `${server.url}/ghost/api/admin/posts/?filter=${encodeURIComponent(filter)}&formats=html&include=tags`,
      { headers: { authorization: `Ghost ${token}`, 'accept-version': 'v6.0' } },
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      posts: {
        id: string;
        title: string;
        html: string;
        status: string;
        feature_image: string | null;
        tags: { name: string }[];
        url: string;
      }[];
    };
    return body.posts;
  }

  it('connects: the site is Ghost and the key is valid', async (ctx) => {
    const server = site(ctx);
    const about = await client.testConnection(credentials);
    expect(about).toEqual({
      url: server.url,
      title: 'Channel tests',
      version: server.version.split('.').slice(0, 2).join('.'),
    });
  });

  it('refuses a wrong key, a site that is not Ghost, an address that redirects elsewhere and one where nothing answers, saying what to do', async (ctx) => {
    const server = site(ctx);
    const wrongKey = parseGhostCredentials({ siteUrl: server.url, adminApiKey: KEY });
    const refusedKey = await thrown(client.testConnection(wrongKey));
    expect(refusedKey).toBeInstanceOf(InvalidError);
    expect(refusedKey.code).toBe('ghost_wrong_key');
    expect(refusedKey.message).toMatch(/Ghost refused the Admin API key .*Settings → Integrations/);
    // the same key on a publish: the saved key no longer works
    const publishRefused = await thrown(client.findPost(wrongKey, 'anything'));
    expect(publishRefused).toBeInstanceOf(UpstreamError);
    expect(publishRefused.code).toBe('ghost_wrong_key');

    const plain: Server = createServer((_req, res) =>
      res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not here</h1>'),
    );
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    try {
      const other = `http://127.0.0.1:${(plain.address() as AddressInfo).port}`;
      const notGhost = await thrown(client.testConnection(parseGhostCredentials({ siteUrl: other, adminApiKey: KEY })));
      expect(notGhost).toBeInstanceOf(InvalidError);
      expect(notGhost.code).toBe('ghost_not_ghost');
      expect(notGhost.message).toContain(`No Ghost site answered at ${other}`);
    } finally {
      await new Promise((resolve) => plain.close(resolve));
    }

    // an address that sends the API elsewhere: the owner is told the address to enter
    const elsewhere = `http://localhost:${new URL(server.url).port}`;
    const moved: Server = createServer((req, res) => res.writeHead(301, { location: `${elsewhere}${req.url}` }).end());
    await new Promise<void>((resolve) => moved.listen(0, '127.0.0.1', resolve));
    try {
      const old = `http://127.0.0.1:${(moved.address() as AddressInfo).port}`;
      const redirected = await thrown(client.testConnection(parseGhostCredentials({ siteUrl: old, adminApiKey: KEY })));
      expect(redirected).toBeInstanceOf(InvalidError);
      expect(redirected.code).toBe('ghost_site_url');
      expect(redirected.message).toBe(`The site redirects to ${elsewhere}. Enter that address instead.`);
    } finally {
      await new Promise((resolve) => moved.close(resolve));
    }

    const nowhere = await thrown(
      client.testConnection(parseGhostCredentials({ siteUrl: 'http://127.0.0.1:9', adminApiKey: KEY })),
    );
    expect(nowhere.code).toBe('ghost_unreachable');
    expect(nowhere.message).toMatch(/refused the connection\. Check the address/);
  });

  it('uploads a JPEG, publishes it as the feature image with the keyword and tags, and a retry finds that post instead of making a second', async (ctx) => {
    const server = site(ctx);
    const photo = await sharp({ create: { width: 1200, height: 630, channels: 3, background: '#2a7f62' } })
      .jpeg({ quality: 90 })
      .toBuffer();
    const image = await client.uploadImage(credentials, {
      bytes: photo,
      filename: 'harbour.jpg',
      contentType: 'image/jpeg',
    });
    expect(image.url).toMatch(new RegExp(`^${server.url}/content/images/.+/harbour\\.jpg$`));
    // a name without the extension of its type gets it (Ghost refuses a mismatch)
    const named = await client.uploadImage(credentials, {
      bytes: photo,
      filename: 'Hafen am Abend',
      contentType: 'image/jpeg',
    });
    expect(named.url).toMatch(/\/Hafen-am-Abend\.jpg$/i);
    const served = await fetch(image.url);
    expect(served.headers.get('content-type')).toBe('image/jpeg');
    expect(Buffer.from(await served.arrayBuffer()).subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));

    const slug = 'spring-garden-notes-x7k2p9';
    expect(await client.findPost(credentials, slug)).toBeUndefined();
    const input = {
      title: 'Spring garden notes',
      html: '<p>Roses want <strong>sun</strong> and deep watering.</p><h2>Soil</h2><p>Mulch in April.</p>',
      slug,
      featureImage: image.url,
      keyword: 'Garden care',
      tags: ['Roses', 'garden care'],
    };
    const published = await client.publishPost(credentials, input);
    expect(published).toMatchObject({
      created: true,
      slug,
      status: 'published',
      title: 'Spring garden notes',
      featureImage: image.url,
      tags: ['Garden care', 'Roses'],
      url: `${server.url}/${slug}/`,
    });

    const [post, ...others] = await adminPosts(server, `slug:${slug}`);
    expect(others).toEqual([]);
    expect(post).toMatchObject({ id: published.id, status: 'published', feature_image: image.url });
    expect(post!.html).toContain('<strong>sun</strong>');
    expect(post!.html).toContain('Mulch in April.');
    expect(post!.tags.map((t) => t.name)).toEqual(['Garden care', 'Roses']);
    const live = await fetch(published.url);
    expect(live.status).toBe(200);
    expect(await live.text()).toContain('Spring garden notes');

    // the answer of the first attempt was lost: the retry finds the post
    const retried = await client.publishPost(credentials, input);
    expect(retried).toMatchObject({ created: false, id: published.id, url: published.url });
    expect(await client.findPost(credentials, slug)).toMatchObject({ id: published.id, status: 'published' });
    expect((await adminPosts(server, `title:'Spring garden notes'`)).map((p) => p.id)).toEqual([published.id]);
  });
});
