import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes, type RouteDef } from '@app/shared/api';
import { Client, drafted, registration, startTestApp, type TestApp } from './helpers/app.js';
import { EXAMPLE_BODIES, exampleBody } from './helpers/example-bodies.js';

/**
 * Generated from the route table: every non-public route is called anonymously, with a session
 * of a deactivated user, as a regular user on admin routes, and as another user on everything
 * owned (routes with an id or key in the path). Each answers 401, 403 or 404, shows none of the
 * owner's data, and the table is unchanged afterwards.
 */
let app: TestApp;
let owner: Client;
let other: Client;
let deactivated: Client;
let articleId: string;
const settingKey = 'owner_private_key';
const secretValue = 'owner-secret-value-1234567890';
const title = 'Owner only article title';

const isOwned = (route: RouteDef) => /\{(id|articleId|key)\}/.test(route.path) && route.access === 'user';

function request(route: RouteDef) {
  // Any other path id (a comment's, say) is the article's too: a well-formed id the other user cannot reach.
  const path = route.path.replace('{key}', settingKey).replace(/\{\w+\}/g, articleId);
  const body = exampleBody(route.id, articleId);
  return { path, options: { method: route.method, ...(body !== undefined ? { body } : {}) } };
}

beforeAll(async () => {
  app = await startTestApp();
  owner = new Client(app.url);
  await owner.call('/api/auth/register', { body: registration() });
  const activate = async (c: Client) => {
    const body = registration();
    await c.call('/api/auth/register', { body });
    const id = (await owner.call('/api/admin/users')).json.users.find((u: { email: string }) => u.email === body.email)
      ._id as string;
    await owner.call(`/api/admin/users/${id}/status`, { method: 'PATCH', body: { isActive: true } });
    await c.call('/api/auth/login', { body: { email: body.email, password: body.password } });
    return id;
  };
  other = new Client(app.url);
  await activate(other);
  deactivated = new Client(app.url);
  const goneId = await activate(deactivated);
  await owner.call(`/api/admin/users/${goneId}/status`, { method: 'PATCH', body: { isActive: false } });

  articleId = (await owner.call('/api/articles', { body: { title, topic: 'Private topic' } })).json.article._id;
  await drafted(owner, articleId);
  await owner.call('/api/settings', { body: { key: settingKey, value: secretValue } });
});
afterAll(() => app?.stop());

describe('authorization over the whole route table', () => {
  it('has an example body for every route that takes one', () => {
    for (const route of routes) if ('body' in route) expect(EXAMPLE_BODIES[route.id], route.id).toBeDefined();
  });

  it('refuses every protected route to anonymous callers and to a deactivated user, and changes nothing', async () => {
    const before = await app.items();
    for (const route of routes.filter((r) => r.access !== 'public')) {
      const { path, options } = request(route);
      for (const [who, client] of [
        ['anonymous', new Client(app.url)],
        ['deactivated', deactivated],
      ] as const) {
        const res = await client.call(path, options);
        expect(res.status, `${who} ${route.id}`).toBe(401);
        expect(res.text, `${who} ${route.id}`).not.toContain(title);
        expect(res.text).not.toContain(secretValue);
      }
    }
    expect(await app.items()).toEqual(before);
  });

  it('refuses admin routes to a regular user with 403', async () => {
    const before = await app.items();
    for (const route of routes.filter((r) => r.access === 'admin')) {
      const { path, options } = request(route);
      const res = await other.call(path.replace(articleId, 'someone'), options);
      expect(res.status, route.id).toBe(403);
    }
    expect(await app.items()).toEqual(before);
  });

  it('answers 404 to another user on everything the owner has, leaking nothing', async () => {
    const owned = routes.filter(isOwned);
    expect(owned.length).toBeGreaterThan(10);
    const before = await app.items();
    for (const route of owned) {
      const { path, options } = request(route);
      const res = await other.call(path, options);
      expect(res.status, route.id).toBe(404);
      expect(res.text, route.id).not.toContain(title);
      expect(res.text, route.id).not.toContain(secretValue);
    }
    // Routes that take the article id in the body.
    const edit = await other.call('/api/gpt-edit', {
      body: { articleId, contentType: 'blog', editRequest: 'shorter' },
    });
    expect(edit.status).toBe(404);
    expect(await app.items()).toEqual(before);
    // The owner still sees everything.
    expect((await owner.call(`/api/articles/${articleId}`)).json.article.title).toBe(title);
  });

  it("lists show another user none of the owner's data", async () => {
    for (const path of [
      '/api/articles',
      '/api/articles/unpublished',
      '/api/articles/published',
      '/api/settings?mask=false',
    ]) {
      const res = await other.call(path);
      expect(res.status, path).toBe(200);
      expect(res.text, path).not.toContain(title);
      expect(res.text, path).not.toContain(settingKey);
    }
  });
});
