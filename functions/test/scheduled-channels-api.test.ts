/**
 * The blog version's schedule publishes to each connected blog channel (WordPress and/or Ghost): the approval page
 * names them, Approve publishes to each, a partial failure says which channel failed and why, and approving again
 * sends only to that channel. Over DynamoDB Local with the fake WordPress and a REAL Ghost
 * (channel-servers/ghost/ghost.ts; without one, the tests skip with one line saying why).
 */
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { postSlug } from '../src/channels/post.js';
import { adminToken, GhostAdminKey } from '../src/channels/ghost/index.js';
import { ghostForTests, type GhostServer } from './channel-servers/ghost/ghost.js';
import { startFakeWordPress, type FakeWordPress } from './fakes/wordpress.js';
import { Client, registration, startTestApp, type TestApp } from './helpers/app.js';
import { connectWordPress, scheduledForApproval } from './helpers/scheduled.js';
import { trackSecret } from './helpers/secrets.js';

let app: TestApp;
let ghost: GhostServer | undefined;
let wp: FakeWordPress;
let user: Client;

beforeAll(async () => {
  [ghost, app, wp] = await Promise.all([ghostForTests(), startTestApp(), startFakeWordPress()]);
  if (ghost) {
    trackSecret(ghost.adminApiKey.split(':')[1], 'Ghost Admin API key secret');
    trackSecret(ghost.owner.password, 'Ghost owner password');
  }
  user = new Client(app.url);
  await user.call('/api/auth/register', { body: registration() });
}, 30 * 60_000);

afterAll(async () => {
  await app?.stop();
  await Promise.all([ghost?.stop(), wp?.stop()]);
});

const site = (ctx: TestContext): GhostServer => {
  if (!ghost) ctx.skip();
  return ghost!;
};

/** Ghost's posts of this slug, read with the site's own key (not through the app). */
async function ghostPosts(server: GhostServer, slug: string): Promise<{ id: string; url: string }[]> {
  const token = await adminToken(new GhostAdminKey(server.adminApiKey));
  const res = await fetch(`${server.url}/ghost/api/admin/posts/?filter=${encodeURIComponent(`slug:${slug}`)}`, {
    headers: { authorization: `Ghost ${token}`, 'accept-version': 'v6.0' },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { posts: { id: string; url: string }[] }).posts;
}

/** A drafted article whose blog version is scheduled half a second from now, and its approval link's token. */
const scheduledBlog = (title: string) =>
  scheduledForApproval(user, app, title, { topic: 'Blog channels', keyword: 'scheduling' });

const anonymous = () => new Client(app.url);

describe('the blog version scheduled to each connected blog channel', () => {
  it('a Ghost-only owner schedules the blog version: the approval names Ghost and publishes there', async (ctx) => {
    const server = site(ctx);
    const saved = await user.call('/api/channels/ghost/connection', {
      method: 'PUT',
      body: { siteUrl: server.url, adminApiKey: server.adminApiKey },
    });
    expect(saved.status).toBe(200);
    const { id, token, mail } = await scheduledBlog('Only on Ghost');
    expect(mail.text).toContain('Approving publishes to Ghost.');
    const preview = await anonymous().call('/api/approvals/preview', { body: { token } });
    // Its preview's text is the blog version's (Ghost publishes it).
    expect(preview.json.channels).toEqual([
      { channel: 'ghost', label: 'Ghost', published: false, postUrl: null, content: expect.any(String) },
    ]);
    expect(preview.json.channels[0].content).toBe(preview.json.content);
    const res = await anonymous().call('/api/approvals/confirm', { body: { token } });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json.message).toBe('Approved and published.');
    const [post, ...more] = await ghostPosts(server, postSlug('Only on Ghost', id));
    expect(more).toEqual([]);
    expect(res.json.channels).toEqual([{ channel: 'ghost', label: 'Ghost', postUrl: post!.url }]);
    expect(wp.posts).toHaveLength(0);
  });

  it('with WordPress too: one approval publishes to both; a partial failure names the channel, and the retry sends it alone', async (ctx) => {
    const server = site(ctx);
    await connectWordPress(user, wp);
    const { id, token, mail } = await scheduledBlog('WordPress and Ghost');
    expect(mail.text).toContain('Approving publishes to WordPress and Ghost.');
    const preview = await anonymous().call('/api/approvals/preview', { body: { token } });
    expect(preview.json.channels.map((c: { label: string }) => c.label)).toEqual(['WordPress', 'Ghost']);

    // WordPress is down at the approval: Ghost publishes, WordPress's failure is told and kept.
    wp.setMode('down');
    const failed = await anonymous().call('/api/approvals/confirm', { body: { token } });
    expect(failed.status).toBe(502);
    expect(failed.json.code).toBe('publish_partly_failed');
    expect(failed.json.message).toMatch(/^Published to Ghost\. WordPress failed: /);
    expect(failed.json.message).toMatch(/Open this link again to retry WordPress only; Ghost is not posted again\.$/);
    const slug = postSlug('WordPress and Ghost', id);
    expect(await ghostPosts(server, slug)).toHaveLength(1);
    const article = (await user.call(`/api/articles/${id}`)).json.article;
    expect(article.lastError.message).toMatch(/^WordPress: /);
    expect(article.posts.ghost.url).toMatch(/^http/);
    expect(article.blog.publishedToWordPress).toBe(false);

    // The link again, WordPress back: only WordPress is sent; Ghost's post stays the one post.
    wp.setMode('pretty');
    const retried = await anonymous().call('/api/approvals/confirm', { body: { token } });
    expect(retried.status, JSON.stringify(retried.json)).toBe(200);
    expect(retried.json.message).toBe('Approved and published to WordPress and Ghost.');
    expect(retried.json.channels.map((c: { channel: string }) => c.channel)).toEqual(['wordpress', 'ghost']);
    expect(await ghostPosts(server, slug)).toHaveLength(1);
    expect(wp.posts.filter((p) => p.slug === slug)).toHaveLength(1);
    const after = (await user.call(`/api/articles/${id}`)).json.article;
    expect(after.blog.publishedToWordPress).toBe(true);
    expect(after.lastError).toBeNull();
    // Used: 409 as ever.
    expect((await anonymous().call('/api/approvals/confirm', { body: { token } })).status).toBe(409);
  });
});
