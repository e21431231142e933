/**
 * The content step's previews (frontend/src/components/create/preview/) show what publishing sends, computed by the
 * same shared functions the publishers call: wordpressPost (shared/src/markdown.ts) and linkedInCommentary
 * (shared/src/little-text.ts), and the images the preview route serves. Here the real publish path runs against the
 * fake WordPress and LinkedIn, and what they received is compared with what the preview computes from the same text.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkedInCommentary, littleTextSegments, wordpressPost } from '@app/shared';
import { startFakeLinkedIn, type FakeLinkedIn } from './fakes/linkedin.js';
import { FAKE_WP_EDITOR, startFakeWordPress, type FakeWordPress } from './fakes/wordpress.js';
import {
  Client,
  completeOAuth,
  drafted,
  imageSettled,
  registration,
  startTestApp,
  type TestApp,
} from './helpers/app.js';

let app: TestApp;
let wp: FakeWordPress;
let li: FakeLinkedIn;
let user: Client;

const BLOG = [
  '# Ship it <em>today</em>',
  '',
  '<script>alert("x")</script>',
  '',
  'A [safe link](https://example.com/a), a [bad one](javascript:alert(1)) and an ![image](https://example.com/i.png).',
  '',
  '| a | b |',
  '|:--|--:|',
  '| 1 | 2 |',
  '',
  '> quoted `code`',
].join('\n');

/** Reserved characters and hashtags, long enough that the escaped text is cut to 3000 characters. */
const LINKEDIN = `  ${'Launch (v2) for @team, C# and #1: #Launch #machine_learning\n\n'.repeat(46)}The end.  `;

async function newArticle(title: string): Promise<string> {
  const id = (await user.call('/api/articles', { body: { title, topic: 'Previews', keyword: 'testing' } })).json.article
    ._id as string;
  await drafted(user, id);
  await user.call(`/api/image/generate/${id}`, { body: { description: 'a printing press' } });
  await imageSettled(user, id);
  return id;
}

/** The bytes of the image the preview shows for `platform` (the route the preview's <img> loads). */
async function previewImage(id: string, platform: 'blog' | 'linkedin'): Promise<Buffer> {
  const res = await fetch(`${app.url}/api/image/preview/${id}?platform=${platform}`, {
    headers: { cookie: user.cookie! },
  });
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

beforeAll(async () => {
  [wp, li] = await Promise.all([startFakeWordPress(), startFakeLinkedIn()]);
  process.env.LINKEDIN_OAUTH_URL = li.oauthUrl;
  process.env.LINKEDIN_API_URL = li.apiUrl;
  app = await startTestApp();
  user = new Client(app.url);
  await user.call('/api/auth/register', { body: registration() });
  await user.call('/api/wordpress/credentials', {
    body: { siteUrl: wp.url, username: FAKE_WP_EDITOR.username, appPassword: FAKE_WP_EDITOR.appPassword },
  });
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

describe('the previews equal what the platforms receive', () => {
  it('WordPress: the title, the sanitized HTML and the featured image are the preview’s', async () => {
    const id = await newArticle('Previews <& "quotes">');
    expect((await user.call(`/api/articles/${id}/blog`, { method: 'PUT', body: { content: BLOG } })).status).toBe(200);
    const article = (await user.call(`/api/articles/${id}`)).json.article;
    const preview = wordpressPost({ title: article.title, blogContent: article.blog.content });

    expect((await user.call(`/api/wordpress/publish/${id}`, { method: 'POST' })).status).toBe(200);
    const post = wp.posts.at(-1)!;
    expect(post.title).toBe(preview.titleHtml);
    expect(post.title).toBe('Previews &lt;&amp; &quot;quotes&quot;&gt;');
    expect(post.content).toBe(preview.html);
    expect(preview.html).not.toMatch(/<script|javascript:/i);
    const media = wp.media.find((m) => m.id === post.featuredMedia)!;
    expect(media.bytes.equals(await previewImage(id, 'blog'))).toBe(true);
  });

  it('WordPress: a title with markup (a spreadsheet cell, say) reaches the blog as text, never as HTML', async () => {
    const id = await newArticle('<img src=x onerror=alert(1)><script>alert(2)</script>');
    expect((await user.call(`/api/articles/${id}/blog`, { method: 'PUT', body: { content: BLOG } })).status).toBe(200);
    expect((await user.call(`/api/wordpress/publish/${id}`, { method: 'POST' })).status).toBe(200);
    const post = wp.posts.at(-1)!;
    expect(post.title).not.toMatch(/<img|<script/i);
    expect(post.title).toBe('&lt;img src=x onerror=alert(1)&gt;&lt;script&gt;alert(2)&lt;/script&gt;');
  });

  it('WordPress: a text that starts with its title as a heading (older drafts) is posted with one headline, as previewed', async () => {
    const title = 'Ten habits of calm teams';
    const id = await newArticle(title);
    const blog = '#  Ten Habits of Calm Teams!\n\nCalm teams ship more.\n\n## Habit one\n\nWrite it down.';
    expect((await user.call(`/api/articles/${id}/blog`, { method: 'PUT', body: { content: blog } })).status).toBe(200);
    const preview = wordpressPost({ title, blogContent: blog });

    expect((await user.call(`/api/wordpress/publish/${id}`, { method: 'POST' })).status).toBe(200);
    const post = wp.posts.at(-1)!;
    expect(post.title).toBe(title);
    expect(post.content).toBe(preview.html);
    expect(post.content).not.toMatch(/<h1/);
    expect(post.content).not.toMatch(/ten habits/i);
    expect(post.content).toMatch(/^<p>Calm teams ship more\.<\/p>\n<h2>Habit one<\/h2>/);
  });

  it('LinkedIn: the commentary as posted, read back as the card shows it, and the image are the preview’s', async () => {
    const id = await newArticle('LinkedIn preview');
    const saved = await user.call(`/api/articles/${id}/linkedin`, { method: 'PUT', body: { content: LINKEDIN } });
    expect(saved.status).toBe(200);
    const article = (await user.call(`/api/articles/${id}`)).json.article;
    const commentary = linkedInCommentary(article.linkedin.content);
    expect(commentary.length).toBeLessThanOrEqual(3000);
    expect(commentary.endsWith('…')).toBe(true); // the escapes make it longer than 3000: cut as it is sent

    expect((await user.call(`/api/linkedin/publish/${id}`, { method: 'POST' })).status).toBe(200);
    const post = li.posts.at(-1)!;
    expect(post.body.commentary).toBe(commentary);
    const segments = littleTextSegments(post.body.commentary);
    expect(segments.filter((s) => s.kind === 'hashtag').map((s) => s.text)).toContain('#Launch');
    expect(segments.map((s) => s.text).join('')).toMatch(/^Launch \(v2\) for @team, C# and #1: #Launch/);
    const image = li.images.find((i) => i.urn === post.body.content.media.id)!;
    expect(image.bytes!.equals(await previewImage(id, 'linkedin'))).toBe(true);
  });
});
