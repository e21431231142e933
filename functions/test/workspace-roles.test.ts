import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localJobsIdle } from '../src/adapters/local/in-process-job-queue.js';
import { WORKSPACE_ROLES, roleAtLeast, type WorkspaceRole } from '@app/shared';
import { ROUTE_ROLES, routes, type RouteDef, type RouteId } from '@app/shared/api';
import { drafted, registration, startTestApp, type TestApp } from './helpers/app.js';
import { exampleBody } from './helpers/example-bodies.js';
import { activeAccount, invitationToken, WorkspaceClient } from './helpers/workspaces.js';

/**
 * Generated from the route table and its roles (shared/src/api/roles.ts): every route that acts in a
 * workspace is called in a team workspace by a member of each role, by someone outside it naming it, and
 * by the owner of another workspace with this one's article. A role below the route's answers 403 and an
 * outsider 404, both changing nothing and showing none of the workspace's data; a role at or above it is
 * let through (whatever the call itself then answers). A new route is covered without editing this file.
 */
let app: TestApp;
let admin: WorkspaceClient;
const members = {} as Record<WorkspaceRole, WorkspaceClient>;
let outsider: WorkspaceClient;
let otherOwner: WorkspaceClient;
let teamId: string;
let articleId: string;
const title = 'Team only article title';
const settingKey = 'team_private_key';
const secretValue = 'team-secret-value-1234567890';

const needed = (route: RouteDef) => ROUTE_ROLES[route.id as RouteId];
const inWorkspace = routes.filter((r) => r.access === 'user' && needed(r) !== 'none');
const personLevel = routes.filter((r) => r.access === 'user' && needed(r) === 'none');

function request(route: RouteDef, article = articleId) {
  const path = route.path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    if (name === 'key') return settingKey;
    if (name === 'userId') return 'no-such-member';
    if (name === 'id' && route.path.includes('/invitations/')) return 'no-such-invitation';
    return article;
  });
  const body = exampleBody(route.id, article);
  return { path, options: { method: route.method, ...(body !== undefined ? { body } : {}) } };
}

/** The refusals that are about the workspace (not about the call's own input or state). */
const workspaceRefusal = (res: { status: number; json?: { code?: string } }) =>
  res.status === 401 || res.json?.code === 'role_forbidden' || res.json?.code === 'workspace_not_found';

beforeAll(async () => {
  app = await startTestApp();
  admin = new WorkspaceClient(app.url);
  await admin.call('/api/auth/register', { body: registration() });
  const owner = await activeAccount(app, admin);
  members.owner = owner.client;
  teamId = (await owner.client.call('/api/workspaces', { body: { name: 'Matrix team' } })).json.workspace.id;
  owner.client.workspace = teamId;
  for (const role of WORKSPACE_ROLES.filter((r) => r !== 'owner')) {
    const account = await activeAccount(app, admin);
    await owner.client.call('/api/workspace/invitations', { body: { email: account.email, role } });
    const accepted = await account.client.call('/api/invitations/accept', {
      body: { token: invitationToken(app, account.email) },
    });
    expect(accepted.status).toBe(200);
    account.client.workspace = teamId;
    members[role] = account.client;
  }
  outsider = (await activeAccount(app, admin)).client;
  outsider.workspace = teamId;
  otherOwner = (await activeAccount(app, admin)).client;
  otherOwner.workspace = (await otherOwner.call('/api/workspaces', { body: { name: 'Other team' } })).json.workspace.id;

  articleId = (await owner.client.call('/api/articles', { body: { title, topic: 'Private topic' } })).json.article._id;
  await drafted(owner.client, articleId);
  await owner.client.call('/api/settings', { body: { key: settingKey, value: secretValue } });
});
afterAll(() => app?.stop());

describe('every route × every role in a team workspace', () => {
  it('declares what every signed-in route needs', () => {
    expect(inWorkspace.length).toBeGreaterThan(40);
    // Review (domain/review.ts): submitting is a writer's; approving and requesting changes start at reviewer (the
    // review's stage rule decides further); the setting is read by every member and changed by an owner.
    expect(inWorkspace.map((r) => [r.id, needed(r)])).toEqual(
      expect.arrayContaining([
        ['approvals.submit', 'writer'],
        ['approvals.approve', 'reviewer'],
        ['approvals.requestChanges', 'reviewer'],
        ['workspaces.review', 'reviewer'],
        ['workspaces.setReview', 'owner'],
      ]),
    );
    for (const route of routes) expect(ROUTE_ROLES[route.id], route.id).toBeDefined();
  });

  it('refuses each route to the roles below its own with 403, and changes nothing', async () => {
    const before = await app.items();
    let refused = 0;
    for (const route of inWorkspace) {
      for (const role of WORKSPACE_ROLES.filter((r) => !roleAtLeast(r, needed(route) as WorkspaceRole))) {
        const { path, options } = request(route);
        const res = await members[role].call(path, options);
        expect(res.status, `${role} ${route.id}`).toBe(403);
        expect(res.json.code, `${role} ${route.id}`).toBe('role_forbidden');
        expect(res.text).not.toContain(title);
        expect(res.text).not.toContain(secretValue);
        refused++;
      }
    }
    expect(refused).toBeGreaterThan(50);
    expect(await app.items()).toEqual(before);
  });

  it('answers 404 on every route to someone who names a workspace they are not in, and changes nothing', async () => {
    const before = await app.items();
    for (const route of inWorkspace) {
      const { path, options } = request(route);
      const res = await outsider.call(path, options);
      expect(res.status, route.id).toBe(404);
      expect(res.json.code, route.id).toBe('workspace_not_found');
      expect(res.text).not.toContain(title);
    }
    expect(await app.items()).toEqual(before);
  });

  it("answers 404 to another workspace's owner on everything this one has, leaking nothing", async () => {
    const owned = inWorkspace.filter((r) => /\{(id|articleId|key)\}/.test(r.path));
    expect(owned.length).toBeGreaterThan(10);
    const before = await app.items();
    for (const route of owned) {
      const { path, options } = request(route);
      const res = await otherOwner.call(path, options);
      expect(res.status, route.id).toBe(404);
      expect(res.text, route.id).not.toContain(title);
      expect(res.text, route.id).not.toContain(secretValue);
    }
    const edit = await otherOwner.call('/api/gpt-edit', { body: { articleId, contentType: 'blog', editRequest: 'x' } });
    expect(edit.status).toBe(404);
    for (const path of ['/api/articles', '/api/articles/unpublished', '/api/articles/published', '/api/settings']) {
      const res = await otherOwner.call(path);
      expect(res.status, path).toBe(200);
      expect(res.text, path).not.toContain(title);
      expect(res.text, path).not.toContain(settingKey);
    }
    const from = new Date(Date.now() - 86_400_000).toISOString();
    const to = new Date(Date.now() + 30 * 86_400_000).toISOString();
    for (const path of ['/api/dashboard', `/api/calendar?from=${from}&to=${to}`]) {
      const res = await otherOwner.call(path);
      expect(res.status, path).toBe(200);
      expect(res.text, path).not.toContain(title);
    }
    expect(await app.items()).toEqual(before);
  });

  it('lets each route through for its role and every role above it', async () => {
    for (const route of inWorkspace) {
      for (const role of WORKSPACE_ROLES.filter((r) => roleAtLeast(r, needed(route) as WorkspaceRole))) {
        const { path, options } = request(route);
        const res = await members[role].call(path, options);
        expect(workspaceRefusal(res), `${role} ${route.id}: ${res.status} ${res.text.slice(0, 200)}`).toBe(false);
        // A call's background job (drafting, an image) ends before the next call can delete or replace its files:
        // otherwise the local store reads a file removed under it (an uncaught ENOENT after the test).
        await localJobsIdle();
      }
    }
  });

  it('routes about the caller, not a workspace, ignore the workspace named', async () => {
    for (const route of personLevel.filter((r) => r.method === 'GET')) {
      const res = await outsider.call(route.path);
      expect(workspaceRefusal(res), route.id).toBe(false);
    }
  });
});
