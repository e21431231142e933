/**
 * The blog-first bundle over the real local app (DynamoDB Local) with the fake WordPress and LinkedIn: the blog
 * version's schedule carries the social posts, one approval publishes the blog post first and then LinkedIn with
 * the live post's address; a social channel that fails is retried alone by the link, and a blog post that fails
 * keeps the social posts back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkedInCommentary } from '@app/shared';
import { startFakeLinkedIn, type FakeLinkedIn } from './fakes/linkedin.js';
import { startFakeWordPress, type FakeWordPress } from './fakes/wordpress.js';
import { Client, completeOAuth, registration, startTestApp, type TestApp } from './helpers/app.js';
import { connectWordPress, scheduledForApproval } from './helpers/scheduled.js';

let app: TestApp;
let wp: FakeWordPress;
let li: FakeLinkedIn;
let user: Client;

beforeAll(async () => {
  [wp, li] = await Promise.all([startFakeWordPress(), startFakeLinkedIn()]);
  process.env.LINKEDIN_OAUTH_URL = li.oauthUrl;
  process.env.LINKEDIN_API_URL = li.apiUrl;
  app = await startTestApp();
  user = new Client(app.url);
  await user.call('/api/auth/register', { body: registration() });
  await connectWordPress(user, wp);
  await user.call('/api/linkedin/credentials', {
    body: { clientId: li.app.clientId, clientSecret: li.app.clientSecret },
  });
  const { authUrl } = (await user.call('/api/linkedin/auth-url')).json;
  expect((await completeOAuth(user, authUrl)).location).toBe('/settings?linkedin_connected=true');
});
afterAll(async () => {
  await app?.stop();
  await Promise.all([wp?.stop(), li?.stop()]);
});

/** A drafted article whose blog version is scheduled as a bundle half a second from now, and its approval link. */
async function bundled(title: string) {
  const { id, token, mail, article } = await scheduledForApproval(
    user,
    app,
    title,
    { topic: 'Bundles', keyword: 'blog first' },
    { bundle: true },
  );
  expect(article.bundle).toBe(true);
  return { id, token, mail };
}

const approve = (token: string) => new Client(app.url).call('/api/approvals/confirm', { body: { token } });
const postsCreated = () =>
  wp.requests.filter((r) => r.method === 'POST' && /^\/wp\/v2\/posts(\/\d+)?$/.test(r.route ?? '')).length;

describe('the blog-first bundle', () => {
  it('only the blog version carries it (400, nothing saved)', async () => {
    const id = (await user.call('/api/articles', { body: { title: 'Not a bundle', topic: 'x', keyword: 'y' } })).json
      .article._id as string;
    const res = await user.call(`/api/articles/${id}/schedule`, {
      method: 'PUT',
      body: { platform: 'linkedin', datetime: new Date(Date.now() + 86_400_000).toISOString(), bundle: true },
    });
    expect(res.status).toBe(400);
    expect(res.json.message).toBe('Only the blog version can carry the social posts (bundle).');
    const article = (await user.call(`/api/articles/${id}`)).json.article;
    expect(article.scheduled.linkedin).toBeNull();
    expect(article.bundle).toBeUndefined();
  });

  it('one approval: the blog post first, then LinkedIn with its live address; LinkedIn failing is retried alone', async () => {
    const { id, token, mail } = await bundled('Blog first');
    expect(mail.text).toContain('Approving publishes to WordPress and LinkedIn.');
    // Each channel's post previewed, LinkedIn's with the blog post's link card.
    expect([...mail.html!.matchAll(/>What will be published on ([^<]+)</g)].map((m) => m[1])).toEqual([
      'WordPress',
      'LinkedIn',
    ]);
    expect(mail.text).toContain('What will be published on LinkedIn:');
    expect(mail.text).toContain('[Link: Blog first — the blog post’s address, once it is live]');
    const preview = await new Client(app.url).call('/api/approvals/preview', { body: { token } });
    expect(preview.json.channels.map((c: { label: string }) => c.label)).toEqual(['WordPress', 'LinkedIn']);
    // Each channel's text for its preview on the page, the social post marked; LinkedIn's author for its card.
    const drafted = (await user.call(`/api/articles/${id}`)).json.article;
    expect(preview.json.channels).toMatchObject([
      { channel: 'wordpress', content: drafted.blog.content },
      { channel: 'linkedin', content: drafted.linkedin.content, social: true },
    ]);
    expect(preview.json.channels[0]).not.toHaveProperty('social');
    expect(preview.json.linkedIn).toMatchObject({ mode: 'personal', connected: true });

    li.setMode('down');
    const failed = await approve(token);
    expect(failed.status).toBe(502);
    expect(failed.json.code).toBe('publish_partly_failed');
    expect(failed.json.message).toMatch(/^Published to WordPress\. LinkedIn failed: /);
    expect(failed.json.message).toMatch(/retry LinkedIn only; WordPress is not posted again\.$/);
    const article = (await user.call(`/api/articles/${id}`)).json.article;
    expect(article.blog.publishedToWordPress).toBe(true);
    expect(article.lastError.message).toMatch(/^LinkedIn: /);
    // Each failed channel named with its own reason (the Schedule card's badges).
    expect(Object.keys(article.lastError.channels)).toEqual(['linkedin']);
    expect(article.lastError.message).toBe(`LinkedIn: ${article.lastError.channels.linkedin}`);
    expect(postsCreated()).toBe(1);
    expect(li.posts).toHaveLength(0);

    li.setMode('ok');
    const retried = await approve(token);
    expect(retried.status, JSON.stringify(retried.json)).toBe(200);
    expect(retried.json.message).toBe('Approved and published to WordPress and LinkedIn.');
    const blogUrl = article.blog.wordpressPostUrl as string;
    expect(blogUrl).toMatch(/^http/);
    expect(li.posts).toHaveLength(1);
    // An article share of the live blog post (its card on LinkedIn), the text as written.
    expect(li.posts[0]!.body.content).toEqual({
      article: { source: blogUrl, title: 'Blog first', description: 'Bundles' },
    });
    expect(li.posts[0]!.body.commentary).toBe(linkedInCommentary(article.linkedin.content.trim()));
    expect(li.posts[0]!.body.commentary).not.toContain(blogUrl);
    // The blog post was neither made nor updated again.
    expect(postsCreated()).toBe(1);
    const after = (await user.call(`/api/articles/${id}`)).json.article;
    expect(after.linkedin.publishedToLinkedIn).toBe(true);
    expect(after.lastError).toBeNull();
  });

  it('a social post that failed, published again by hand (the card’s retry), shares the live blog post too', async () => {
    const { id, token } = await bundled('Blog first, retried by hand');
    li.setMode('down');
    expect((await approve(token)).status).toBe(502);
    li.setMode('ok');
    const before = li.posts.length;
    const blogUrl = (await user.call(`/api/articles/${id}`)).json.article.blog.wordpressPostUrl as string;
    const res = await user.call(`/api/linkedin/publish/${id}`, { method: 'POST' });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(li.posts).toHaveLength(before + 1);
    expect(li.posts.at(-1)!.body.content).toEqual({
      article: { source: blogUrl, title: 'Blog first, retried by hand', description: 'Bundles' },
    });
    expect((await user.call(`/api/articles/${id}`)).json.article.lastError).toBeNull();
  });

  it('the blog post failing keeps the social posts back, and says so', async () => {
    const before = li.posts.length;
    const { token } = await bundled('Blog fails first');
    wp.setMode('down');
    try {
      const res = await approve(token);
      expect(res.status).toBe(502);
      expect(res.json.message).toMatch(/LinkedIn waits for the blog post and was not sent\.$/);
      expect(li.posts).toHaveLength(before);
    } finally {
      wp.setMode('pretty');
    }
  });
});
