import { request } from 'node:http';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIST_PREVIEW_CHARS } from '../src/http/article-view.js';
import { GZIP_LEVEL } from '../src/http/response.js';
import { Client, articleStore, drafted, registration, startTestApp, type TestApp } from './helpers/app.js';

/**
 * List answers (GET /api/articles, /unpublished, /published): previews of the long texts, reused
 * while the owner's articles are unchanged and rebuilt at once after any write, gzipped for
 * clients that accept it.
 */
let app: TestApp;
let owner: Client;

beforeAll(async () => {
  app = await startTestApp();
  owner = new Client(app.url);
  await owner.call('/api/auth/register', { body: registration() });
});
afterAll(() => app?.stop());

const create = async (title: string) =>
  (await owner.call('/api/articles', { body: { title, topic: 'Lists', keyword: 'lists' } })).json.article._id as string;
const listed = async (path = '/api/articles') => (await owner.call(path)).json.articles as any[];
const byId = async (id: string, path?: string) => (await listed(path)).find((a) => a._id === id);

/** A GET with the session cookie and the given headers, answered as raw bytes. */
function rawGet(path: string, headers: Record<string, string>) {
  return new Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
    const req = request(`${app.url}${path}`, { headers: { cookie: owner.cookie!, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('article lists', () => {
  it('carry the long texts as previews; the article itself has them in full', async () => {
    const id = await create('Previews');
    await drafted(owner, id);
    const blog = `  # A long post\n\n${'Word and more words. '.repeat(300)}`;
    await owner.call(`/api/articles/${id}/blog`, { method: 'PUT', body: { content: blog } });
    await owner.call(`/api/articles/${id}/linkedin`, { method: 'PUT', body: { content: 'Short post ✨' } });

    const item = await byId(id);
    expect(item.blog.content).toBe(`${blog.trim().slice(0, LIST_PREVIEW_CHARS)}…`);
    expect(item.linkedin.content).toBe('Short post ✨');
    expect(item).toMatchObject({ title: 'Previews', keyword: 'lists', generation: { status: 'done' } });
    const article = (await owner.call(`/api/articles/${id}`)).json.article;
    expect(article.blog.content).toBe(blog);
    expect(article).not.toHaveProperty('excerpt');
    expect({
      ...article,
      blog: { ...article.blog, content: item.blog.content },
      details: item.details,
      excerpt: item.excerpt,
    }).toEqual(item);
  });

  it("carry each article's first lines as plain text, from the whole text, in every list and the calendar", async () => {
    const id = await create('First lines');
    await drafted(owner, id);
    const intro = 'Small releases are easier to review and to roll back. '.repeat(3).trim();
    const blog = `# First lines\n\n${intro.replace('easier', '**easier**')}\n\n## Next\n\n${'More words follow. '.repeat(50)}`;
    await owner.call(`/api/articles/${id}/blog`, { method: 'PUT', body: { content: blog } });
    const at = new Date(Date.now() + 3600_000).toISOString();
    await owner.call(`/api/articles/${id}/schedule`, { method: 'PUT', body: { platform: 'blog', datetime: at } });

    const item = await byId(id, '/api/articles/unpublished');
    // Longer than the previews (which stop inside the intro), without the title's heading and the marks.
    expect(item.excerpt.startsWith(`${intro} Next More words follow.`)).toBe(true);
    expect(item.excerpt.length).toBeGreaterThan(LIST_PREVIEW_CHARS + 100);
    expect(item.excerpt.endsWith('…')).toBe(true);
    expect((await byId(id)).excerpt).toBe(item.excerpt);
    const from = new Date(Date.now() - 3600_000).toISOString();
    const to = new Date(Date.now() + 2 * 3600_000).toISOString();
    const calendar = (await owner.call(`/api/calendar?from=${from}&to=${to}`)).json;
    expect(calendar.articles.find((a: any) => a._id === id).excerpt).toBe(item.excerpt);
  });

  it('show every write at once, in every list, including the background drafting', async () => {
    const id = await create('Fresh lists');
    // Read (and keep) all three lists while the drafts are being written.
    for (const path of ['/api/articles', '/api/articles/unpublished', '/api/articles/published']) await listed(path);
    const done = await drafted(owner, id);
    const item = await byId(id);
    expect(item.generation.status).toBe('done');
    expect(item.linkedin.content).toBeTruthy();
    expect(done.linkedin.content.trim().startsWith(item.linkedin.content.replace(/…$/, ''))).toBe(true);

    await owner.call(`/api/articles/${id}/linkedin`, { method: 'PUT', body: { content: 'Edited after listing' } });
    expect((await byId(id)).linkedin.content).toBe('Edited after listing');
    expect((await byId(id, '/api/articles/unpublished')).linkedin.content).toBe('Edited after listing');

    const at = new Date(Date.now() + 3600_000).toISOString();
    await owner.call(`/api/articles/${id}/schedule`, { method: 'PUT', body: { platform: 'blog', datetime: at } });
    expect((await byId(id)).scheduled.blog).toBe(at);

    const second = await create('Newer article');
    expect((await listed()).map((a) => a._id).slice(0, 2)).toEqual([second, id]);
    expect((await owner.call('/api/auth/me')).json.user).not.toHaveProperty('articlesVersion');
  });

  it('list in History an article published on Ghost only, with its post', async () => {
    const id = await create('Ghost only');
    await drafted(owner, id);
    const userId = (await owner.call('/api/auth/me')).json.user._id;
    const post = { id: 'g1', url: 'https://ghost.example/ghost-only/', publishedAt: '2030-05-01T09:00:00.000Z' };
    // As the Ghost channel records its post (functions/src/channels/ghost/channel.ts).
    await articleStore(app).update(userId, id, { posts: { ghost: post } });
    const item = await byId(id, '/api/articles/published');
    expect(item).toMatchObject({ title: 'Ghost only', posts: { ghost: post } });
    expect(item.blog.publishedToWordPress).toBe(false);
    expect(item.linkedin.publishedToLinkedIn).toBe(false);
  });

  it('are gzipped for a client that accepts it, and plain for one that does not', async () => {
    // Enough text to be worth gzipping; drafted first, so the two reads below see the same articles.
    for (let i = 0; i < 12; i++) await drafted(owner, await create(`Padding ${i}`));
    const plain = await rawGet('/api/articles', {});
    expect(plain.headers['content-encoding']).toBeUndefined();
    const answer = JSON.parse(plain.body.toString('utf8'));
    expect(answer.articles.length).toBeGreaterThan(12);

    const gzipped = await rawGet('/api/articles', { 'accept-encoding': 'br, gzip;q=0.8' });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gzipped.headers.vary).toMatch(/accept-encoding/i);
    expect(JSON.parse(gunzipSync(gzipped.body).toString('utf8'))).toEqual(answer);
    // At the level chosen for answers built after every write (http/response.ts), not zlib's slower default.
    expect(gzipped.body.equals(gzipSync(plain.body, { level: GZIP_LEVEL }))).toBe(true);
    expect(gzipped.body.equals(gzipSync(plain.body))).toBe(false);

    expect(
      (await rawGet('/api/articles', { 'accept-encoding': 'gzip;q=0, deflate' })).headers['content-encoding'],
    ).toBeUndefined();
  });
});
