import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OFFLINE_BLOG_NOTE, OFFLINE_LINKEDIN_NOTE, renderMarkdown, withoutOfflineDraftNote } from '@app/shared';
import { verifyWebhookSignature } from '../src/adapters/integrations/webhook.js';
import { localJobsIdle } from '../src/adapters/local/in-process-job-queue.js';
import { startFakeLinkedIn, type FakeLinkedIn } from './fakes/linkedin.js';
import { FAKE_WP_EDITOR, startFakeWordPress, type FakeWordPress } from './fakes/wordpress.js';
import {
  Client,
  completeOAuth,
  drafted,
  registration,
  startTestApp,
  type TestApp,
  publishableArticle,
} from './helpers/app.js';

let app: TestApp;
let wp: FakeWordPress;
let li: FakeLinkedIn;
let user: Client;
let stranger: Client;

const newArticle = (title: string, withImage = true) =>
  publishableArticle(user, title, { topic: 'Publishing in tests', keyword: 'testing' }, withImage);

beforeAll(async () => {
  [wp, li] = await Promise.all([startFakeWordPress(), startFakeLinkedIn()]);
  process.env.LINKEDIN_OAUTH_URL = li.oauthUrl;
  process.env.LINKEDIN_API_URL = li.apiUrl;
  app = await startTestApp();
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

  await user.call('/api/wordpress/credentials', {
    body: { siteUrl: wp.url, username: FAKE_WP_EDITOR.username, appPassword: FAKE_WP_EDITOR.appPassword },
  });
  await user.call('/api/linkedin/credentials', {
    body: { clientId: li.app.clientId, clientSecret: li.app.clientSecret },
  });
  // Page access too: the company-mode test posts as the administered page.
  const { authUrl } = (await user.call('/api/linkedin/auth-url?pages=true')).json;
  expect((await completeOAuth(user, authUrl)).location).toBe('/settings?linkedin_connected=true');
});
afterAll(async () => {
  await app?.stop();
  await Promise.all([wp?.stop(), li?.stop()]);
});

describe('WordPress publishing', () => {
  it('publishes one post with the featured image and records it on the article', async () => {
    const id = await newArticle('First post');
    const res = await user.call(`/api/wordpress/publish/${id}`, { method: 'POST' });
    expect(res.status).toBe(200);
    expect(res.json.success).toBe(true);
    expect(wp.posts).toHaveLength(1);
    const post = wp.posts[0]!;
    expect(res.json.post.link).toContain(`/${post.slug}`);
    expect(post.status).toBe('publish');
    expect(post.title).toBe('First post');
    expect(post.content).toMatch(/<h1>|<h2>|<p>/);
    expect(post.featuredMedia).toBeGreaterThan(0);
    expect(wp.media.find((m) => m.id === post.featuredMedia)?.filename).toMatch(/^first-post\.(png|jpg)$/);
    const article = (await user.call(`/api/articles/${id}`)).json.article;
    expect(article.blog).toMatchObject({ publishedToWordPress: true, wordpressPostUrl: res.json.post.link });
    expect(Date.parse(article.blog.lastPublished)).not.toBeNaN();
    expect((await user.call('/api/articles/published')).json.articles.map((a: { _id: string }) => a._id)).toContain(id);
  });

  it('makes exactly one post out of two concurrent publishes', async () => {
    const id = await newArticle('Race', false);
    const before = wp.posts.length;
    const results = await Promise.all(
      [1, 2, 3].map(() => user.call(`/api/wordpress/publish/${id}`, { method: 'POST' })),
    );
    expect(results.filter((r) => r.status === 200).length).toBeGreaterThanOrEqual(1);
    for (const r of results) expect([200, 409]).toContain(r.status);
    expect(wp.posts.length).toBe(before + 1);
  });

  it('updates the same post when republished after an edit', async () => {
    const id = await newArticle('Republish', false);
    await user.call(`/api/wordpress/publish/${id}`, { method: 'POST' });
    const count = wp.posts.length;
    await user.call(`/api/articles/${id}/blog`, { method: 'PUT', body: { content: '# Republish\n\nSecond version.' } });
    const again = await user.call(`/api/wordpress/publish/${id}`, { method: 'POST' });
    expect(again.status).toBe(200);
    expect(wp.posts.length).toBe(count);
    expect(wp.posts.find((p) => again.json.post.link.includes(`/${p.slug}`))!.content).toContain('Second version.');
  });

  it('keeps the content and records lastError when WordPress is down', async () => {
    const id = await newArticle('Down', false);
    const content = (await user.call(`/api/articles/${id}`)).json.article.blog.content;
    wp.setMode('down');
    try {
      const res = await user.call(`/api/wordpress/publish/${id}`, { method: 'POST' });
      expect(res.status).toBe(502);
      expect(res.json.message).toMatch(/WordPress/);
    } finally {
      wp.setMode('pretty');
    }
    const article = (await user.call(`/api/articles/${id}`)).json.article;
    expect(article.blog.content).toBe(content);
    expect(article.blog.publishedToWordPress).toBe(false);
    expect(article.lastError.message).toMatch(/WordPress/);
    // The claim is released: a retry works.
    expect((await user.call(`/api/wordpress/publish/${id}`, { method: 'POST' })).status).toBe(200);
  });

  it('publishes the blog text as the sanitized HTML of the shared pipeline (no script, handler or javascript: link)', async () => {
    const id = await newArticle('Hostile', false);
    // What an AI draft or a Sheets row could carry: marked passes raw HTML through.
    const content = [
      '# Hostile input',
      '',
      '<script>alert(1)</script>',
      '',
      'Text <img src="https://example.com/a.png" onerror="alert(2)"> and [a link](javascript:alert(3)),',
      '<a href="jav&#x61;script:alert(4)">encoded</a>, [data](data:text/html;base64,PHNjcmlwdD4=) and [fine](https://example.com/ok).',
      '',
      '<div onclick="alert(5)"><iframe src="https://example.com/frame"></iframe>kept text</div>',
    ].join('\n');
    expect((await user.call(`/api/articles/${id}/blog`, { method: 'PUT', body: { content } })).status).toBe(200);
    const res = await user.call(`/api/wordpress/publish/${id}`, { method: 'POST' });
    expect(res.status).toBe(200);

    const sent = wp.requests.filter((r) => r.route === '/wp/v2/posts' && r.method === 'POST').at(-1)!.body as {
      content: string;
    };
    expect(sent.content).toBe(renderMarkdown(content));
    expect(wp.posts.find((p) => res.json.post.link.includes(`/${p.slug}`))!.content).toBe(sent.content);
    expect(sent.content).not.toMatch(/<script|<iframe|onerror|onclick|javascript:|jav&#x61;script|data:/i);
    expect(sent.content).toContain(
      '<a href="https://example.com/ok" target="_blank" rel="noopener noreferrer">fine</a>',
    );
    expect(sent.content).toContain('<img src="https://example.com/a.png" />');
    expect(sent.content).toContain('kept text');
  });

  it('a javascript: post link answered by WordPress is neither stored nor answered (the ?p= address is)', async () => {
    const id = await newArticle('Odd link', false);
    wp.postLink = 'javascript:alert(document.cookie)';
    let res;
    try {
      res = await user.call(`/api/wordpress/publish/${id}`, { method: 'POST' });
    } finally {
      delete wp.postLink;
    }
    expect(res.status).toBe(200);
    const post = wp.posts.at(-1)!;
    expect(res.json.post.link).toBe(`${wp.url}/?p=${post.id}`);
    const article = (await user.call(`/api/articles/${id}`)).json.article;
    expect(article.blog).toMatchObject({ publishedToWordPress: true, wordpressPostUrl: `${wp.url}/?p=${post.id}` });
    const published = (await user.call('/api/articles/published')).json;
    expect(JSON.stringify(published)).not.toContain('javascript:');
  });

  it('answers 404 for another user and changes nothing', async () => {
    const id = await newArticle('Mine', false);
    const before = await app.items();
    expect((await stranger.call(`/api/wordpress/publish/${id}`, { method: 'POST' })).status).toBe(404);
    expect((await stranger.call(`/api/linkedin/publish/${id}`, { method: 'POST' })).status).toBe(404);
    expect((await stranger.call(`/api/linkedin/article/${id}/posting-mode`)).status).toBe(404);
    expect(
      (await stranger.call(`/api/linkedin/article/${id}/posting-mode`, { body: { mode: 'company' } })).status,
    ).toBe(404);
    expect(await app.items()).toEqual(before);
  });
});

describe('LinkedIn publishing', () => {
  let received: { headers: Record<string, string | string[] | undefined>; body: string }[] = [];
  let receiver: Server;
  let signingSecret: string;

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        res.end('ok');
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
    const port = (receiver.address() as { port: number }).port;
    signingSecret = (
      await user.call('/api/linkedin/zapier-webhook', { body: { webhookUrl: `http://127.0.0.1:${port}/hook` } })
    ).json.signingSecret;
  });
  afterAll(() => new Promise<void>((r) => receiver.close(() => r())));

  it('posts as the member with the image, escapes reserved characters, stores the URL, and delivers the signed webhook', async () => {
    const id = await newArticle('LinkedIn post');
    await user.call(`/api/articles/${id}/linkedin`, {
      method: 'PUT',
      body: { content: 'Ship it (today) — thanks to @team! #Launch' },
    });
    received = [];
    const res = await user.call(`/api/linkedin/publish/${id}`, { method: 'POST' });
    expect(res.status).toBe(200);
    const post = li.posts.at(-1)!;
    expect(post.body.author).toBe(`urn:li:person:${li.member.sub}`);
    expect(post.body.commentary).toBe('Ship it \\(today\\) — thanks to \\@team! #Launch');
    expect(post.body.content.media.id).toBe(li.images.at(-1)!.urn);
    expect(li.images.at(-1)!.owner).toBe(`urn:li:person:${li.member.sub}`);
    expect(res.json.post.url).toBe(`https://www.linkedin.com/feed/update/${post.urn}`);
    const article = (await user.call(`/api/articles/${id}`)).json.article;
    expect(article.linkedin).toMatchObject({ publishedToLinkedIn: true, linkedinPostUrl: res.json.post.url });

    // The linkedin.published payload once, and beside it the PublishSucceeded event (events-api.test.ts), each signed,
    // delivered from the outbox after the publish.
    await localJobsIdle();
    expect(received.map((r) => JSON.parse(r.body).event).sort()).toEqual(['PublishSucceeded.v1', 'linkedin.published']);
    for (const hook of received) {
      expect(
        verifyWebhookSignature(
          signingSecret,
          hook.headers['x-webhook-timestamp'] as string,
          hook.body,
          hook.headers['x-webhook-signature'] as string,
        ),
      ).toBe(true);
    }
    const hook = received.find((r) => JSON.parse(r.body).event === 'linkedin.published')!;
    expect(JSON.parse(hook.body)).toMatchObject({
      event: 'linkedin.published',
      articleId: id,
      postUrl: res.json.post.url,
    });

    const again = await user.call(`/api/linkedin/publish/${id}`, { method: 'POST' });
    expect(again.status).toBe(409);
    expect(li.posts.filter((p) => p.urn === post.urn)).toHaveLength(1);
  });

  it('posts as the administered page in company mode', async () => {
    const id = await newArticle('Company post', false);
    const bad = await user.call(`/api/linkedin/article/${id}/posting-mode`, { body: { mode: 'page' } });
    expect(bad.status).toBe(400);
    expect(bad.json.message).toBe('Valid mode (personal or company) is required');
    const set = await user.call(`/api/linkedin/article/${id}/posting-mode`, { body: { mode: 'company' } });
    expect(set.json).toEqual({ success: true, mode: 'company', message: 'LinkedIn posting mode set to Business Page' });
    expect((await user.call(`/api/linkedin/article/${id}/posting-mode`)).json).toEqual({
      success: true,
      mode: 'company',
    });
    const res = await user.call(`/api/linkedin/publish/${id}`, { method: 'POST' });
    expect(res.status).toBe(200);
    expect(li.posts.at(-1)!.body.author).toBe(`urn:li:organization:${li.organizations[0]!.id}`);
  });

  it('still publishes when the webhook is down, and asks to reconnect when the token is revoked', async () => {
    await user.call('/api/linkedin/zapier-webhook', { body: { webhookUrl: 'http://127.0.0.1:9/closed' } });
    const id = await newArticle('Hook down', false);
    expect((await user.call(`/api/linkedin/publish/${id}`, { method: 'POST' })).status).toBe(200);

    const id2 = await newArticle('Revoked', false);
    li.setMode('expire-tokens');
    try {
      const res = await user.call(`/api/linkedin/publish/${id2}`, { method: 'POST' });
      expect(res.status).toBe(502);
      expect(res.json.code).toBe('linkedin_token_invalid');
      expect(res.json.message).toMatch(/reconnect LinkedIn/i);
    } finally {
      li.setMode('ok');
    }
    expect((await user.call(`/api/articles/${id2}`)).json.article.linkedin.publishedToLinkedIn).toBe(false);
  });
});

describe('an offline draft is not published while its note is in it', () => {
  it('Publish Now refuses each version with the note (400, what to do, which line), sends and changes nothing; without it, publishes', async () => {
    const id = (
      await user.call('/api/articles', { body: { title: 'Noted draft', topic: 'Offline notes', keyword: 'notes' } })
    ).json.article._id as string;
    // No OpenAI key in the tests: the drafts are offline ones, each starting with the note.
    const drafts = await drafted(user, id);
    expect(drafts.blog.content.split('\n')[0]).toBe(OFFLINE_BLOG_NOTE);
    expect(drafts.linkedin.content.split('\n')[0]).toBe(OFFLINE_LINKEDIN_NOTE);
    const posts = { wp: wp.posts.length, li: li.posts.length };
    const before = await app.items();

    const blog = await user.call(`/api/wordpress/publish/${id}`, { method: 'POST' });
    expect(blog.status).toBe(400);
    expect(blog.json).toMatchObject({
      code: 'offline_draft_note',
      message:
        'Remove the offline-draft note before publishing: line 1 of the blog text is still the note "Offline draft — …".',
    });
    const linkedin = await user.call(`/api/linkedin/publish/${id}`, { method: 'POST' });
    expect(linkedin.status).toBe(400);
    expect(linkedin.json.code).toBe('offline_draft_note');
    expect(linkedin.json.message).toMatch(
      /^Remove the offline-draft note before publishing: line 1 of the LinkedIn text/,
    );
    // Nothing went out and nothing was recorded (no lastError: the text only needs an edit).
    expect({ wp: wp.posts.length, li: li.posts.length }).toEqual(posts);
    expect(await app.items()).toEqual(before);

    // The note left further down (a paste, a half-done edit) is found as well.
    const moved = `Calm teams ship more.\n\n${OFFLINE_BLOG_NOTE.replace('> ', '')}\n\nMore text.`;
    await user.call(`/api/articles/${id}/blog`, { method: 'PUT', body: { content: moved } });
    const again = await user.call(`/api/wordpress/publish/${id}`, { method: 'POST' });
    expect(again.status).toBe(400);
    expect(again.json.message).toContain('line 3 of the blog text');

    // Without the note, both publish.
    await user.call(`/api/articles/${id}/blog`, { method: 'PUT', body: { content: withoutOfflineDraftNote(moved) } });
    const text = withoutOfflineDraftNote(drafts.linkedin.content);
    await user.call(`/api/articles/${id}/linkedin`, { method: 'PUT', body: { content: text } });
    expect((await user.call(`/api/wordpress/publish/${id}`, { method: 'POST' })).status).toBe(200);
    expect(wp.posts.at(-1)!.content).toBe('<p>Calm teams ship more.</p>\n<p>More text.</p>\n');
    expect((await user.call(`/api/linkedin/publish/${id}`, { method: 'POST' })).status).toBe(200);
    expect(li.posts.at(-1)!.body.commentary).not.toMatch(/offline draft/i);
  });
});
