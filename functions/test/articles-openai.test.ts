import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFakeOpenAi, type FakeOpenAi } from './fakes/openai.js';
import { Client, drafted as draftedBy, imageSettled, registration, startTestApp, type TestApp } from './helpers/app.js';

/** The same flow as articles.test.ts, with the user's openai_api_key setting pointing at a fake OpenAI. */
let app: TestApp;
let fake: FakeOpenAi;
let user: Client;

beforeAll(async () => {
  fake = await startFakeOpenAi();
  process.env.OPENAI_BASE_URL = fake.url;
  delete process.env.OPENAI_API_KEY;
  app = await startTestApp();
  user = new Client(app.url);
  await user.call('/api/auth/register', { body: registration() });
  const saved = await user.call('/api/settings', {
    body: { key: 'openai_api_key', value: fake.apiKey, description: 'OpenAI' },
  });
  expect(saved.status).toBe(201);
});
afterAll(async () => {
  await app?.stop();
  await fake?.stop();
  delete process.env.OPENAI_BASE_URL;
});

const brief = {
  title: 'Edge caching for APIs',
  topic: 'CDN in front of JSON APIs',
  keyword: 'edge caching',
  details: 'Cache keys. TTLs.',
  imageDescription: 'a globe',
};

const drafted = (id: string) => draftedBy(user, id);

it('drafts both versions with OpenAI using the user key, and edits through it', async () => {
  fake.reset();
  const created = await user.call('/api/articles', { body: brief });
  const article = await drafted(created.json.article._id);
  expect(article.generation.status).toBe('done');
  expect(article.blog.content).not.toMatch(/offline draft/i);
  const textCalls = fake.requests.filter((r) => r.path === '/v1/responses' || r.path === '/v1/chat/completions');
  expect(textCalls).toHaveLength(2);
  expect(textCalls.every((r) => r.authorized)).toBe(true);
  expect(JSON.stringify(textCalls.map((r) => r.body))).toContain('edge caching');

  const edit = await user.call('/api/gpt-edit', {
    body: { articleId: article._id, contentType: 'linkedin', editRequest: 'Make it punchier' },
  });
  expect(edit.status).toBe(200);
  expect(edit.json.editedContent.length).toBeGreaterThan(0);
  expect(edit.json.editedContent.length).toBeLessThanOrEqual(3000);
  expect((await user.call(`/api/articles/${article._id}`)).json.article.linkedin.content).toBe(edit.json.editedContent);
});

it('keeps the article and records insufficient_quota as lastError, without retrying', async () => {
  fake.reset();
  fake.setMode('insufficient_quota');
  const created = await user.call('/api/articles', { body: { ...brief, title: 'No credit left' } });
  expect(created.status).toBe(201);
  const article = await drafted(created.json.article._id);
  expect(article.title).toBe('No credit left');
  expect(article.generation.status).toBe('failed');
  expect(article.lastError.code).toBe('insufficient_quota');
  expect(article.lastError.message).toMatch(/quota/);
  expect(fake.requests).toHaveLength(2); // one per version, none retried

  const edit = await user.call('/api/gpt-edit', {
    body: { articleId: article._id, contentType: 'blog', editRequest: 'shorter' },
  });
  expect(edit.status).toBe(402);
  expect(edit.json.code).toBe('insufficient_quota');

  fake.setMode('ok');
  const retried = await user.call(`/api/articles/${article._id}/generate`, { method: 'POST' });
  expect(retried.status).toBe(202);
  const after = await drafted(article._id);
  expect(after.generation.status).toBe('done');
  expect(after.lastError).toBeNull();
  expect(after.blog.content.length).toBeGreaterThan(0);
});

it('generates the image with the OpenAI image model and stores both sizes', async () => {
  fake.reset();
  const id = (await user.call('/api/articles', { body: brief })).json.article._id;
  await drafted(id);
  expect((await user.call(`/api/image/generate/${id}`, { body: { description: 'a glowing globe' } })).status).toBe(202);
  const status = await imageSettled(user, id);
  expect(status.hasImage).toBe(true);
  const imageCall = fake.requests.find((r) => r.path === '/v1/images/generations');
  expect(imageCall?.body.prompt).toContain('a glowing globe');
  const res = await fetch(`${app.url}${status.image.linkedinUrl}`, { headers: { cookie: user.cookie! } });
  const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
  expect([meta.width, meta.height]).toEqual([1200, 627]);
  // Cut by sharp's attention strategy, no point chosen; the picture is kept so that one can be.
  expect(status.image).toMatchObject({
    source: 'generated',
    focalPoint: null,
    original: { width: 1536, height: 1024 },
  });
  const original = await fetch(`${app.url}${status.image.original.url}`, { headers: { cookie: user.cookie! } });
  expect(await sharp(Buffer.from(await original.arrayBuffer())).metadata()).toMatchObject({
    width: 1536,
    height: 1024,
  });

  const recut = await user.call(`/api/image/focal-point/${id}`, {
    method: 'PUT',
    body: { focalPoint: { x: 0.2, y: 0.8 } },
  });
  expect(recut.status).toBe(200);
  expect(recut.json.image).toMatchObject({ source: 'generated', focalPoint: { x: 0.2, y: 0.8 } });
  // The same kept picture, cut again.
  expect(recut.json.image.original).toMatchObject({ width: 1536, height: 1024 });
  const blog = await fetch(`${app.url}${recut.json.image.url}`, { headers: { cookie: user.cookie! } });
  expect(await sharp(Buffer.from(await blog.arrayBuffer())).metadata()).toMatchObject({ width: 1200, height: 800 });
});
