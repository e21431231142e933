/**
 * The generic channel routes (`channels.*`, functions/src/http/channels.ts) with the Ghost channel, over DynamoDB
 * Local, publishing to a REAL Ghost (channel-servers/ghost/ghost.ts; docs/testing.md, Channel servers). Without a
 * Ghost (and without REQUIRE_CHANNEL_SERVERS=1) the tests that need it skip with one line saying why; the refusals
 * that need no server always run.
 */
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { wordpressPost } from '@app/shared/markdown';
import { postSlug } from '../src/channels/post.js';
import { adminToken, GhostAdminKey, GhostMessages, postTags } from '../src/channels/ghost/index.js';
import { ghostForTests, type GhostServer } from './channel-servers/ghost/ghost.js';
import { Client, registration, startTestApp, type TestApp, publishableArticle } from './helpers/app.js';
import { trackSecret } from './helpers/secrets.js';

let app: TestApp;
let ghost: GhostServer | undefined;
let user: Client;
let stranger: Client;

const newArticle = (title: string, withImage = true) =>
  publishableArticle(user, title, { topic: 'Publishing to Ghost', keyword: 'channel tests' }, withImage);

interface GhostAdminPost {
  id: string;
  slug: string;
  title: string;
  html: string;
  status: string;
  feature_image: string | null;
  tags: { name: string }[];
  url: string;
}

/** Posts as Ghost's Admin API answers them, read with the site's own key (not through the app). */
async function ghostPosts(server: GhostServer, filter: string): Promise<GhostAdminPost[]> {
  const token = await adminToken(new GhostAdminKey(server.adminApiKey));
  const res = await fetch(
    `${server.url}/ghost/api/admin/posts/?filter=${encodeURIComponent(filter)}&formats=html&include=tags`,
    { headers: { authorization: `Ghost ${token}`, 'accept-version': 'v6.0' } },
  );
  expect(res.status).toBe(200);
  return ((await res.json()) as { posts: GhostAdminPost[] }).posts;
}

beforeAll(async () => {
  [ghost, app] = await Promise.all([ghostForTests(), startTestApp()]);
  if (ghost) {
    trackSecret(ghost.adminApiKey.split(':')[1], 'Ghost Admin API key secret');
    trackSecret(ghost.owner.password, 'Ghost owner password');
  }
  user = new Client(app.url);
  await user.call('/api/auth/register', { body: registration() });
  stranger = new Client(app.url);
  const body = registration();
  await stranger.call('/api/auth/register', { body });
  const sid = (await user.call('/api/admin/users')).json.users.find(
    (u: { email: string }) => u.email === body.email,
  )._id;
  await user.call(`/api/admin/users/${sid}/status`, { method: 'PATCH', body: { isActive: true } });
  await stranger.call('/api/auth/login', { body: { email: body.email, password: body.password } });
}, 30 * 60_000);

afterAll(async () => {
  await app?.stop();
  await ghost?.stop();
});

/** This file's Ghost, or the test skips (ghostForTests said why). */
const site = (ctx: TestContext): GhostServer => {
  if (!ghost) ctx.skip();
  return ghost!;
};

describe('the generic channel routes', () => {
  it('answer 404 for a channel not in the registry, and for one with documented routes of its own', async () => {
    for (const channel of ['myspace', 'wordpress', 'linkedin']) {
      const res = await user.call(`/api/channels/${channel}/connection`);
      expect(res.status, channel).toBe(404);
      expect(res.json.message).toBe('Channel not found');
    }
    const publish = await user.call(`/api/channels/myspace/publish/abc`, { method: 'POST' });
    expect(publish.status).toBe(404);
  });

  it('refuse a Ghost key of the wrong shape with what to copy (400), saving nothing', async () => {
    const contentKey = await user.call('/api/channels/ghost/connection', {
      method: 'PUT',
      body: { siteUrl: 'https://blog.example.com', adminApiKey: 'ab'.repeat(13) },
    });
    expect(contentKey.status).toBe(400);
    expect(contentKey.json.message).toBe(GhostMessages.contentKeyGiven);
    const cut = await user.call('/api/channels/ghost/connection', {
      method: 'PUT',
      body: { siteUrl: 'https://blog.example.com', adminApiKey: `${'a1'.repeat(12)}:${'0f'.repeat(31)}` },
    });
    expect(cut.status).toBe(400);
    expect(cut.json.message).toBe(GhostMessages.adminKeyShape);
    const status = await user.call('/api/channels/ghost/connection');
    expect(status.status).toBe(200);
    expect(status.json).toMatchObject({ success: true, channel: 'ghost', connected: false });
  });

  it('refuse to publish to Ghost before it is connected (400), and another workspace’s article is not found (404)', async () => {
    const id = await newArticle('Not yet connected', false);
    const res = await user.call(`/api/channels/ghost/publish/${id}`, { method: 'POST' });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe('ghost_not_connected');
    const other = await stranger.call(`/api/channels/ghost/publish/${id}`, { method: 'POST' });
    expect(other.status).toBe(404);
  });
});

describe('Ghost through the channel model, against a real Ghost', () => {
  it('connects with the Admin API key (checked against the site) and never answers the key unmasked', async (ctx) => {
    const server = site(ctx);
    const test = await user.call('/api/channels/ghost/test', {
      body: { siteUrl: server.url, adminApiKey: server.adminApiKey },
    });
    expect(test.json).toMatchObject({ success: true });
    expect(test.json.message).toContain('Ghost');
    const saved = await user.call('/api/channels/ghost/connection', {
      method: 'PUT',
      body: { siteUrl: server.url, adminApiKey: server.adminApiKey },
    });
    expect(saved.status).toBe(200);
    expect(saved.json).toMatchObject({ success: true, channel: 'ghost', connected: true });
    const [keyId, secret] = server.adminApiKey.split(':') as [string, string];
    const status = await user.call('/api/channels/ghost/connection');
    expect(status.json.fields.siteUrl).toBe(server.url);
    expect(status.json.fields.adminApiKey).toMatch(new RegExp(`^${keyId}:`));
    expect(JSON.stringify(status.json)).not.toContain(secret);
    // the saved connection checks out
    expect((await user.call('/api/channels/ghost/test', { body: {} })).json).toMatchObject({ success: true });
  });

  it('publishes the blog version with its feature image and tags, records it on the article, and a retry posts no second one', async (ctx) => {
    const server = site(ctx);
    const id = await newArticle('Ghost first post');
    // The blog version's own schedule (WordPress's) is not this channel's: publishing to Ghost leaves it.
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 14) + '00:00.000Z';
    const scheduled = await user.call(`/api/articles/${id}/schedule`, {
      method: 'PUT',
      body: { platform: 'blog', datetime: tomorrow },
    });
    expect(scheduled.status, JSON.stringify(scheduled.json)).toBe(200);
    const res = await user.call(`/api/channels/ghost/publish/${id}`, { method: 'POST' });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json.message).toBe('Successfully published to Ghost!');
    const article = res.json.article;
    const slug = postSlug('Ghost first post', id);
    const [post, ...more] = await ghostPosts(server, `slug:${slug}`);
    expect(more).toEqual([]);
    expect(post!.status).toBe('published');
    expect(post!.title).toBe('Ghost first post');
    // the HTML the blog preview shows, without a first heading that only repeats the title
    const expected = wordpressPost({ title: article.title, blogContent: article.blog.content });
    expect(post!.html).not.toMatch(/<h1[^>]*>\s*Ghost first post\s*<\/h1>/);
    expect(post!.html.replace(/\s+/g, '')).toContain(
      /<p>(.*?)<\/p>/s
        .exec(expected.html)![1]!
        .replace(/<[^>]+>/g, '')
        .replace(/\s+/g, '')
        .slice(0, 20),
    );
    expect(post!.tags.map((t) => t.name)).toEqual(postTags(article.keyword, article.tags));
    expect(post!.feature_image).toMatch(/^http/);
    const image = await fetch(post!.feature_image!);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toMatch(/^image\//);
    expect(res.json.post.url).toBe(post!.url);
    // recorded on the article, in its API answer
    const read = (await user.call(`/api/articles/${id}`)).json.article;
    expect(read.posts.ghost).toEqual({ id: post!.id, url: post!.url, publishedAt: expect.any(String) });
    expect(read.lastError).toBeNull();
    expect(read.blog.publishedToWordPress).toBe(false);
    expect(read.scheduled.blog).toBe(scheduled.json.scheduledFor);
    expect(read.scheduled.blog).not.toBeNull();

    // again: the post the first made is found by its slug, not made twice
    const again = await user.call(`/api/channels/ghost/publish/${id}`, { method: 'POST' });
    expect(again.status).toBe(200);
    expect(await ghostPosts(server, `slug:${slug}`)).toHaveLength(1);
    expect(again.json.article.posts.ghost.id).toBe(post!.id);
  });

  it('a post an earlier attempt made (its answer lost) is found and recorded, not posted again', async (ctx) => {
    const server = site(ctx);
    const id = await newArticle('Made before the answer was lost', false);
    const slug = postSlug('Made before the answer was lost', id);
    // The post as that attempt left it on the site, without the app having recorded it.
    const token = await adminToken(new GhostAdminKey(server.adminApiKey));
    const made = await fetch(`${server.url}/ghost/api/admin/posts/?source=html`, {
      method: 'POST',
      headers: { authorization: `Ghost ${token}`, 'accept-version': 'v6.0', 'content-type': 'application/json' },
      body: JSON.stringify({
        posts: [{ title: 'Made before the answer was lost', html: '<p>x</p>', slug, status: 'published' }],
      }),
    });
    expect(made.status).toBe(201);
    const earlier = ((await made.json()) as { posts: GhostAdminPost[] }).posts[0]!;
    const res = await user.call(`/api/channels/ghost/publish/${id}`, { method: 'POST' });
    expect(res.status).toBe(200);
    expect(await ghostPosts(server, `slug:${slug}`)).toHaveLength(1);
    expect(res.json.article.posts.ghost.id).toBe(earlier.id);
  });

  it('disconnects: the key is forgotten and publishing asks to connect again', async (ctx) => {
    site(ctx);
    const res = await user.call('/api/channels/ghost/connection', { method: 'DELETE' });
    expect(res.json).toEqual({ success: true, message: 'Ghost disconnected.' });
    expect((await user.call('/api/channels/ghost/connection')).json.connected).toBe(false);
    const id = await newArticle('After disconnecting', false);
    expect((await user.call(`/api/channels/ghost/publish/${id}`, { method: 'POST' })).json.code).toBe(
      'ghost_not_connected',
    );
  });
});
