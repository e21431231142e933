import sharp from 'sharp';
import { channelIds } from '../src/channels/ids.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, drafted, imageSettled, registration, startTestApp, waitUntil, type TestApp } from './helpers/app.js';

let app: TestApp;
let owner: Client;
let stranger: Client;

/** Registers the admin (first account) and an activated second user. */
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
});
afterAll(() => app?.stop());

const brief = {
  title: 'Serverless cost control',
  topic: 'Keeping AWS Lambda bills predictable',
  keyword: 'serverless costs',
  details: 'Right-size memory. Watch cold starts. Use budgets and alarms.',
  imageDescription: 'A calm dashboard with falling cost lines',
};

const getArticle = (c: Client, id: string) => c.call(`/api/articles/${id}`).then((r) => r.json.article);

describe('articles', () => {
  let id: string;

  it('saves the article at once and drafts both versions in the background (offline without a key)', async () => {
    const created = await owner.call('/api/articles', { body: brief });
    expect(created.status).toBe(201);
    expect(created.json.success).toBe(true);
    expect(created.json.article).toMatchObject({
      title: brief.title,
      keyword: brief.keyword,
      tags: [],
      linkedInMode: 'personal',
    });
    id = created.json.article._id;
    expect(created.json.article.id).toBe(id);

    const article = await drafted(owner, id);
    expect(article.generation.status).toBe('done');
    // Composed from the brief, without repeating the title as a heading (WordPress shows the title itself).
    expect(article.blog.content).toMatch(/keeping AWS Lambda bills predictable/i);
    expect(article.blog.content).not.toContain(`# ${brief.title}`);
    expect(article.blog.content).toMatch(/offline draft/i);
    expect(article.linkedin.content.length).toBeGreaterThan(100);
    expect(article.linkedin.content.length).toBeLessThanOrEqual(3000);
    expect(article.lastError).toBeNull();
  });

  it('lists newest first, and splits published from unpublished', async () => {
    const second = await owner.call('/api/articles', { body: { ...brief, title: 'Second article' } });
    const all = await owner.call('/api/articles');
    expect(all.status).toBe(200);
    expect(all.json.articles.map((a: { _id: string }) => a._id)).toEqual([second.json.article._id, id]);
    expect((await owner.call('/api/articles/unpublished')).json.articles).toHaveLength(2);
    expect((await owner.call('/api/articles/published')).json.articles).toEqual([]);
    expect((await stranger.call('/api/articles')).json.articles).toEqual([]);
  });

  it('persists manual edits of both versions', async () => {
    const blog = await owner.call(`/api/articles/${id}/blog`, {
      method: 'PUT',
      body: { content: '# Edited blog\n\nNew text.' },
    });
    expect(blog.status).toBe(200);
    const linkedin = await owner.call(`/api/articles/${id}/linkedin`, {
      method: 'PUT',
      body: { content: 'Edited post ✨' },
    });
    expect(linkedin.status).toBe(200);
    const article = await getArticle(owner, id);
    expect(article.blog.content).toBe('# Edited blog\n\nNew text.');
    expect(article.linkedin.content).toBe('Edited post ✨');
  });

  it('refuses a LinkedIn text over 3000 characters and changes nothing', async () => {
    const before = await app.items();
    const res = await owner.call(`/api/articles/${id}/linkedin`, {
      method: 'PUT',
      body: { content: 'x'.repeat(3001) },
    });
    expect(res.status).toBe(400);
    expect(res.json.message).toBe('LinkedIn posts must be under 3000 characters. Please shorten your text.');
    expect(await app.items()).toEqual(before);
    const exact = await owner.call(`/api/articles/${id}/linkedin`, {
      method: 'PUT',
      body: { content: 'y'.repeat(3000) },
    });
    expect(exact.status).toBe(200);
  });

  it('validates creation input', async () => {
    const before = await app.items();
    const missing = await owner.call('/api/articles', { body: { ...brief, topic: '  ' } });
    expect(missing.status).toBe(400);
    expect(missing.json.message).toBe('Topic is required');
    const long = await owner.call('/api/articles', { body: { ...brief, title: 't'.repeat(201) } });
    expect(long.status).toBe(400);
    expect(await app.items()).toEqual(before);
  });

  it('validates GPT edit requests', async () => {
    const blank = await owner.call('/api/gpt-edit', {
      body: { articleId: id, contentType: 'blog', editRequest: '   ' },
    });
    expect(blank.status).toBe(400);
    const noId = await owner.call('/api/gpt-edit', { body: { contentType: 'blog', editRequest: 'shorter' } });
    expect(noId.status).toBe(400);
    expect(noId.json.message).toBe('Article ID is missing. Cannot process GPT edit.');
    const missing = await owner.call('/api/gpt-edit', {
      body: { articleId: 'nope123', contentType: 'blog', editRequest: 'shorter' },
    });
    expect(missing.status).toBe(404);
    const badType = await owner.call('/api/gpt-edit', {
      body: { articleId: id, contentType: 'tweet', editRequest: 'shorter' },
    });
    expect(badType.status).toBe(400);
  });

  it('GPT edit offline (no OpenAI key): applies a mechanical request, and refuses one it cannot do with 409 (no service failed), saying it is offline and what to do', async () => {
    const fresh = (await owner.call('/api/articles', { body: { ...brief, title: 'Offline editing' } })).json.article
      ._id;
    await drafted(owner, fresh);

    const applied = await owner.call('/api/gpt-edit', {
      body: { articleId: fresh, contentType: 'linkedin', editRequest: 'add hashtags Cloud' },
    });
    expect(applied.status).toBe(200);
    expect(applied.json.editedContent).toMatch(/#Cloud$/);
    const before = await getArticle(owner, fresh);
    expect(before.linkedin.content).toBe(applied.json.editedContent);

    const refused = await owner.call('/api/gpt-edit', {
      body: { articleId: fresh, contentType: 'linkedin', editRequest: 'make it funnier' },
    });
    expect(refused.status).toBe(409);
    expect(refused.json.code).toBe('ai_unavailable');
    expect(refused.json.message).toMatch(/^Not applied: GPT editing is offline \(no OpenAI key\)/);
    expect(refused.json.message).toContain('add your OpenAI key (openai_api_key) in Settings → API Keys');
    expect(await getArticle(owner, fresh)).toMatchObject({ linkedin: { content: before.linkedin.content } });

    const notThere = await owner.call('/api/gpt-edit', {
      body: { articleId: fresh, contentType: 'linkedin', editRequest: 'replace "no such words" with "x"' },
    });
    expect(notThere.status).toBe(409);
    expect(notThere.json.code).toBe('edit_not_applicable');
    expect(await getArticle(owner, fresh)).toMatchObject({ linkedin: { content: before.linkedin.content } });
  });

  it('generates an image in the worker; the UI polls, then the preview serves both sizes', async () => {
    const empty = await owner.call(`/api/image/generate/${id}`, { body: { description: '  ' } });
    expect(empty.status).toBe(400);
    expect(empty.json.message).toBe('Please enter a description for the image.');

    const none = await owner.call(`/api/image/${id}`);
    expect(none.json).toMatchObject({ success: true, hasImage: false, image: null });

    const started = await owner.call(`/api/image/generate/${id}`, { body: { description: 'Falling cost lines' } });
    expect(started.status).toBe(202);
    expect(started.json.success).toBe(true);
    const status = await imageSettled(owner, id);
    expect(status).toMatchObject({ success: true, hasImage: true, error: null });
    expect(status.image.description).toBe('Falling cost lines');
    expect(status.image.url).toMatch(new RegExp(`^/api/image/preview/${id}\\?platform=blog&t=`));

    for (const [url, size] of [
      [status.image.url, { width: 1200, height: 800 }],
      [status.image.linkedinUrl, { width: 1200, height: 627 }],
    ] as const) {
      // The route sends the browser on to the store's signed URL: the bytes never pass through a function.
      const sent = await fetch(`${app.url}${url}`, { headers: { cookie: owner.cookie! }, redirect: 'manual' });
      expect(sent.status).toBe(302);
      expect(sent.headers.get('cache-control')).toBe('private, max-age=600');
      const location = new URL(sent.headers.get('location')!);
      expect(location.origin).not.toBe(new URL(app.url).origin);
      expect(location.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
      const res = await fetch(location);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^image\/(png|jpeg)$/);
      expect(res.headers.get('cache-control')).toContain('immutable');
      const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
      expect({ width: meta.width, height: meta.height }).toEqual(size);
    }

    const again = await owner.call(`/api/image/regenerate/${id}`, { body: { description: 'Rising savings' } });
    expect(again.status).toBe(202);
    const regenerated = await waitUntil(
      () => owner.call(`/api/image/${id}`).then((r) => r.json),
      (s) => !s.pending && s.image.generatedAt !== status.image.generatedAt,
      'image regeneration',
    );
    expect(regenerated.image.description).toBe('Rising savings');
  });

  it('an older image job finishing after a newer request changes nothing (the newer request wins)', async () => {
    const { deps } = await import('../src/wiring/deps.js');
    const { DynamoArticleStore } = await import('../src/adapters/dynamo/article-store.js');
    const { ArticleService } = await import('../src/domain/articles.js');
    const ownerId = (await owner.call('/api/auth/me')).json.user._id as string;
    const store = new DynamoArticleStore(deps().db, deps().config.tableName);
    let finish!: () => void;
    const rendering = new Promise<void>((resolve) => (finish = resolve));
    let started!: () => void;
    const renderingStarted = new Promise<void>((resolve) => (started = resolve));
    const service = new ArticleService({
      articles: store,
      objects: { put: async () => {}, get: async () => undefined, delete: async () => {} },
      jobs: { enqueue: async () => {} },
      ai: async () => ({
        content: undefined as never,
        image: {
          kind: 'offline' as const,
          generate: async () => (
            started(),
            await rendering,
            { blog: Buffer.from('old'), linkedin: Buffer.from('old'), contentType: 'image/png' as const }
          ),
        },
      }),
    });
    const older = '2026-01-01T00:00:00.000Z';
    const newer = '2026-01-01T00:00:05.000Z';
    await store.update(ownerId, id, { imageJob: { status: 'pending', requestedAt: older, error: null } });
    const job = service.generateImage(ownerId, id, 'An older idea', older);
    await renderingStarted; // the job has read the article (still its request) and is rendering
    await store.update(ownerId, id, { imageJob: { status: 'pending', requestedAt: newer, error: null } });
    const before = await store.get(ownerId, id);
    finish();
    await job;
    const after = await store.get(ownerId, id);
    expect(after!.imageJob).toEqual({ status: 'pending', requestedAt: newer, error: null });
    expect(after!.image).toEqual(before!.image);
  });

  it('answers 404 to another user on every article and image call, and changes nothing', async () => {
    const before = await app.items();
    const calls: [string, Parameters<Client['call']>[1]][] = [
      [`/api/articles/${id}`, {}],
      [`/api/articles/${id}/blog`, { method: 'PUT', body: { content: 'hijack' } }],
      [`/api/articles/${id}/linkedin`, { method: 'PUT', body: { content: 'hijack' } }],
      [`/api/articles/${id}/generate`, { method: 'POST' }],
      ['/api/gpt-edit', { body: { articleId: id, contentType: 'blog', editRequest: 'shorter' } }],
      [`/api/image/generate/${id}`, { body: { description: 'x' } }],
      [`/api/image/regenerate/${id}`, { body: { description: 'x' } }],
      [`/api/image/${id}`, {}],
      [`/api/image/preview/${id}`, {}],
    ];
    for (const [path, options] of calls) {
      const res = await stranger.call(path, options);
      expect(res.status, path).toBe(404);
      expect(res.text, path).not.toContain(brief.title);
    }
    expect(await app.items()).toEqual(before);
  });
});

describe('settings (API keys)', () => {
  it('stores values as secrets, masks them, normalizes keys and hides integration keys', async () => {
    const secret = 'sk-test-abcdefghijklmnop1234';
    const created = await owner.call('/api/settings', {
      body: { key: 'My Service Key', value: secret, description: 'For tests' },
    });
    expect(created.status).toBe(201);
    expect(created.json.message).toBe('Created settings entry successfully');
    expect(created.json.setting.key).toBe('my_service_key');
    expect(created.text).not.toContain(secret);

    // Integration keys are the panels' own (written after their checks): the generic call refuses them.
    const before = await app.items();
    for (const key of [
      'wordpress_site_url',
      'wordpress_app_password',
      'linkedin_webhook_url',
      'google_sheets_refresh_token',
      // Every registry channel's own keys, a channel added since the shared rule (shared/src/settings.ts) too.
      ...channelIds.map((id) => `${id}_app_password`),
    ]) {
      const refused = await owner.call('/api/settings', { body: { key, value: 'http://169.254.169.254/latest' } });
      expect(refused.status).toBe(400);
      expect(refused.json.message).toBe(
        'This key belongs to one of the connections on the Settings page (its name starts with the connection’s): change it in that connection’s panel.',
      );
      expect((await owner.call(`/api/settings/${key}`, { method: 'DELETE' })).status).toBe(400);
    }
    expect(await app.items()).toEqual(before);
    // …and the list hides them when the panels have written them.
    const { settingService } = await import('../src/wiring/settings.js');
    const ownerId = (await owner.call('/api/auth/me')).json.user._id as string;
    await settingService().put(ownerId, 'linkedin_client_secret', 'linkedin-secret-value', 'LinkedIn client secret');
    for (const id of channelIds) await settingService().put(ownerId, `${id}_app_password`, `${id}-secret-value`);

    for (const mask of ['true', 'false']) {
      const list = await owner.call(`/api/settings?mask=${mask}`);
      expect(list.status).toBe(200);
      expect(list.json.map((s: { key: string }) => s.key)).toEqual(['my_service_key']);
      expect(list.json[0].value).toBe('••••••••1234');
      expect(list.json[0].description).toBe('For tests');
      expect(Date.parse(list.json[0].updatedAt)).not.toBeNaN();
      expect(list.text).not.toContain(secret);
      expect(list.text).not.toContain('linkedin-secret-value');
      for (const id of channelIds) expect(list.text).not.toContain(`${id}_app_password`);
    }
    expect(JSON.stringify(await app.items())).not.toContain(secret);

    const updated = await owner.call('/api/settings', {
      body: { key: 'my_service_key', value: 'another-secret-9999', description: 'Changed' },
    });
    expect(updated.status).toBe(200);
    expect(updated.json.message).toBe('Updated settings entry successfully');

    // Without a value only the description changes: the value stays as it was.
    const described = await owner.call('/api/settings', {
      body: { key: 'my_service_key', description: 'Drafts and images' },
    });
    expect(described.status).toBe(200);
    expect(described.json).toMatchObject({
      message: 'Updated settings entry successfully',
      setting: { key: 'my_service_key', value: '••••••••9999', description: 'Drafts and images' },
    });
    const [kept] = (await owner.call('/api/settings?mask=true')).json;
    expect(kept).toMatchObject({ key: 'my_service_key', value: '••••••••9999', description: 'Drafts and images' });
    expect(Date.parse(kept.updatedAt)).toBeGreaterThanOrEqual(Date.parse(updated.json.setting.updatedAt));
    expect(await settingService().value(ownerId, 'my_service_key')).toBe('another-secret-9999');

    expect(await stranger.call('/api/settings').then((r) => r.json)).toEqual([]);
    expect((await stranger.call('/api/settings/my_service_key', { method: 'DELETE' })).status).toBe(404);

    const removed = await owner.call('/api/settings/my_service_key', { method: 'DELETE' });
    expect(removed.json).toEqual({ success: true, message: 'Settings entry deleted successfully' });
    expect((await owner.call('/api/settings/my_service_key', { method: 'DELETE' })).status).toBe(404);
  });

  it('refuses bad settings input with the form messages', async () => {
    const before = await app.items();
    expect((await owner.call('/api/settings', { body: { key: '  ', value: 'v' } })).json.message).toBe(
      'Key name is required',
    );
    // Spaces only are refused, not saved as underscores.
    const blank = await owner.call('/api/settings', { body: { key: '   ', value: 'sk-secret-value-1234' } });
    expect(blank.status).toBe(400);
    expect(blank.json.message).toBe('Key name is required');
    expect((await owner.call('/api/settings?mask=false')).json).toEqual([]);
    expect((await owner.call('/api/settings', { body: { key: 'k', value: '' } })).json.message).toBe(
      'Value is required',
    );
    // Only a saved key may leave its value out (a description edit).
    const noValue = await owner.call('/api/settings', { body: { key: 'k', description: 'No value yet' } });
    expect(noValue.status).toBe(400);
    expect(noValue.json.message).toBe('Value is required');
    expect((await owner.call('/api/settings?mask=maybe')).status).toBe(400);
    expect(await app.items()).toEqual(before);
  });
});
