import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseMime } from './fakes/mime.js';
import { Client, drafted, registration, startTestApp, waitUntil, type TestApp } from './helpers/app.js';
import { activeAccount, invitationMails, invitationToken, testDb, WorkspaceClient } from './helpers/workspaces.js';

/**
 * Workspaces over the real local stack (docs/product.md, Workspaces): a team workspace, invitations
 * (single use, expiring, registration through the link with and without the admin's approval), roles
 * enforced by the server, isolation (404) and removal or a lower role taking effect on the next request.
 */
let app: TestApp;
let admin: WorkspaceClient;
let owner: Awaited<ReturnType<typeof activeAccount>>;
let teamId: string;
const db = testDb();

const approvalMails = () => {
  const dir = join(app.dataDir, 'outbox');
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.eml'));
  } catch {
    return [];
  }
  return files.map((f) => parseMime(readFileSync(join(dir, f), 'utf8')));
};

async function invite(email: string, role: string) {
  const res = await owner.client.call('/api/workspace/invitations', { body: { email, role } });
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  return invitationToken(app, email);
}

beforeAll(async () => {
  app = await startTestApp();
  admin = new WorkspaceClient(app.url);
  await admin.call('/api/auth/register', { body: registration({ email: 'admin@example.com' }) });
  owner = await activeAccount(app, admin, { email: 'owner@example.com', name: 'Olive', surname: 'Owner' });
});
afterAll(async () => {
  await app?.stop();
  db.destroy();
});

describe('workspaces', () => {
  it('lists the personal workspace alone for an account without a team, and answers as before without a header', async () => {
    const res = await owner.client.call('/api/workspaces');
    expect(res.status).toBe(200);
    expect(res.json.workspaces).toEqual([{ id: owner.id, name: 'Personal', personal: true, role: 'owner' }]);
    // Naming the personal workspace is the same as naming none.
    owner.client.workspace = owner.id;
    expect((await owner.client.call('/api/articles')).status).toBe(200);
    owner.client.workspace = undefined;
  });

  it('refuses invitations into a personal workspace (400) and writes nothing', async () => {
    const before = await app.items();
    const res = await owner.client.call('/api/workspace/invitations', {
      body: { email: 'someone@example.com', role: 'writer' },
    });
    expect(res.status).toBe(400);
    expect(res.json.message).toMatch(/team workspace/);
    expect(await app.items()).toEqual(before);
  });

  it('creates a team workspace whose only member is its owner', async () => {
    const res = await owner.client.call('/api/workspaces', { body: { name: 'Acme Marketing' } });
    expect(res.status).toBe(201);
    teamId = res.json.workspace.id;
    expect(res.json.workspace).toEqual({ id: teamId, name: 'Acme Marketing', personal: false, role: 'owner' });
    expect((await owner.client.call('/api/workspaces')).json.workspaces.map((w: { name: string }) => w.name)).toEqual([
      'Personal',
      'Acme Marketing',
    ]);
    owner.client.workspace = teamId;
    const members = (await owner.client.call('/api/workspace/members')).json.members;
    expect(members).toEqual([expect.objectContaining({ userId: owner.id, role: 'owner', email: 'owner@example.com' })]);
    // Empty, and not the owner's personal data.
    expect((await owner.client.call('/api/articles')).json.articles).toEqual([]);
  });

  it('e-mails a single-use link; registering through it waits for the admin by default, then the member is in', async () => {
    const token = await invite('writer@example.com', 'writer');
    const mail = invitationMails(app, 'writer@example.com').at(-1)!;
    expect(mail.subject).toBe('Olive Owner invited you to Acme Marketing on Content Publisher');
    // The link goes to the invitee only: the inviter's answer does not carry it.
    const listed = await owner.client.call('/api/workspace/invitations');
    expect(listed.text).not.toContain(token.split('.')[2]);
    expect(listed.json.invitations).toEqual([
      expect.objectContaining({ email: 'writer@example.com', role: 'writer', expired: false }),
    ]);

    const anonymous = new Client(app.url);
    const preview = await anonymous.call('/api/invitations/preview', { body: { token } });
    expect(preview.status).toBe(200);
    expect(preview.json).toMatchObject({
      workspaceName: 'Acme Marketing',
      invitedBy: 'Olive Owner',
      email: 'writer@example.com',
      role: 'writer',
    });

    const writer = new WorkspaceClient(app.url);
    const { email: _email, ...form } = registration();
    const reg = await writer.call('/api/auth/register-invited', { body: { ...form, token } });
    expect(reg.status).toBe(201);
    expect(reg.json.message).toMatch(/once an admin activates it/);
    expect(writer.cookie).toBeUndefined();
    // Pending like any new account.
    const pending = await writer.call('/api/auth/login', {
      body: { email: 'writer@example.com', password: form.password },
    });
    expect(pending.status).toBe(403);

    // Used: the same link a second time is refused and creates nothing.
    const before = await app.items();
    const again = await new Client(app.url).call('/api/auth/register-invited', { body: { ...form, token } });
    expect(again.status).toBe(400);
    expect(again.json.message).toBe('This invitation has been used already.');
    expect(await app.items()).toEqual(before);
    expect((await owner.client.call('/api/workspace/invitations')).json.invitations).toEqual([]);

    const id = (await admin.call('/api/admin/users')).json.users.find(
      (u: { email: string }) => u.email === 'writer@example.com',
    )._id;
    await admin.call(`/api/admin/users/${id}/status`, { method: 'PATCH', body: { isActive: true } });
    await writer.call('/api/auth/login', { body: { email: 'writer@example.com', password: form.password } });
    const listedBy = (await writer.call('/api/workspaces')).json.workspaces;
    expect(listedBy).toEqual([
      expect.objectContaining({ personal: true, role: 'owner' }),
      { id: teamId, name: 'Acme Marketing', personal: false, role: 'writer' },
    ]);
  });

  it('registers and signs in at once through a link when the admin lets invitations activate accounts', async () => {
    expect((await owner.client.call('/api/admin/settings')).status).toBe(403);
    const set = await admin.call('/api/admin/settings', {
      method: 'PUT',
      body: { invitationsActivateAccounts: true },
    });
    expect(set.status).toBe(200);
    expect((await admin.call('/api/admin/settings')).json.settings).toEqual({ invitationsActivateAccounts: true });
    const token = await invite('reviewer@example.com', 'reviewer');
    const reviewer = new WorkspaceClient(app.url);
    const { email: _email, ...form } = registration({ name: 'Rita' });
    const reg = await reviewer.call('/api/auth/register-invited', { body: { ...form, token } });
    expect(reg.status).toBe(201);
    expect(reg.json.user.email).toBe('reviewer@example.com');
    expect(reg.json.workspace).toEqual({ id: teamId, name: 'Acme Marketing', personal: false, role: 'reviewer' });
    expect(reviewer.cookie).toBeDefined();
    reviewer.workspace = teamId;
    expect((await reviewer.call('/api/articles')).status).toBe(200);
    await admin.call('/api/admin/settings', { method: 'PUT', body: { invitationsActivateAccounts: false } });
  });

  it('an existing account accepts with its own address only; an expired or forged link is refused', async () => {
    const editor = await activeAccount(app, admin, { email: 'editor@example.com' });
    const outsider = await activeAccount(app, admin, { email: 'outsider@example.com' });
    const token = await invite('editor@example.com', 'editor');

    const before = await app.items();
    const wrong = await outsider.client.call('/api/invitations/accept', { body: { token } });
    expect(wrong.status).toBe(403);
    expect(wrong.json.message).toContain('editor@example.com');
    const forged = await editor.client.call('/api/invitations/accept', {
      body: { token: token.replace(/\.[^.]+$/, '.forged-secret') },
    });
    expect(forged.status).toBe(400);
    expect(forged.json.message).toMatch(/not valid/);
    expect(await app.items()).toEqual(before);

    const accepted = await editor.client.call('/api/invitations/accept', { body: { token } });
    expect(accepted.status).toBe(200);
    expect(accepted.json.workspace.role).toBe('editor');

    // An expired link: the invitation's time moved into the past.
    const late = await invite('late@example.com', 'writer');
    const [, invitationId] = late.split('.');
    await db.send(
      new UpdateCommand({
        TableName: app.tableName,
        Key: { PK: `USER#${teamId}`, SK: `INVITE#${invitationId}` },
        UpdateExpression: 'SET expiresAt = :past',
        ExpressionAttributeValues: { ':past': Math.floor(Date.now() / 1000) - 60 },
      }),
    );
    const expired = await new Client(app.url).call('/api/invitations/preview', { body: { token: late } });
    expect(expired.status).toBe(400);
    expect(expired.json.message).toMatch(/expired/);
    expect((await owner.client.call('/api/workspace/invitations')).json.invitations).toEqual([
      expect.objectContaining({ email: 'late@example.com', expired: true }),
    ]);
  });

  it('keeps each workspace to itself: a writer’s article is the team’s, not anyone’s personal, and outsiders get 404', async () => {
    const members = (await owner.client.call('/api/workspace/members')).json.members as { email: string }[];
    expect(members.map((m) => m.email).sort()).toEqual([
      'editor@example.com',
      'owner@example.com',
      'reviewer@example.com',
      'writer@example.com',
    ]);
    const writerAccount = await activeAccount(app, admin, { email: 'writer2@example.com' });
    const token = await invite('writer2@example.com', 'writer');
    expect((await writerAccount.client.call('/api/invitations/accept', { body: { token } })).status).toBe(200);
    const w = writerAccount.client;
    w.workspace = teamId;
    const created = await w.call('/api/articles', { body: { title: 'Team launch post', topic: 'Launch' } });
    expect(created.status).toBe(201);
    const articleId = created.json.article._id as string;
    await drafted(w, articleId);

    // The owner sees it in the team workspace, nobody sees it in a personal one.
    expect((await owner.client.call(`/api/articles/${articleId}`)).json.article.title).toBe('Team launch post');
    owner.client.workspace = undefined;
    expect((await owner.client.call(`/api/articles/${articleId}`)).status).toBe(404);
    expect((await owner.client.call('/api/articles')).text).not.toContain('Team launch post');
    owner.client.workspace = teamId;
    w.workspace = undefined;
    expect((await w.call(`/api/articles/${articleId}`)).status).toBe(404);
    w.workspace = teamId;

    // An outsider naming the workspace, or the article from their own: 404.
    const outsider = await activeAccount(app, admin);
    outsider.client.workspace = teamId;
    for (const path of ['/api/articles', `/api/articles/${articleId}`, '/api/dashboard', '/api/workspace/members']) {
      const res = await outsider.client.call(path);
      expect(res.status, path).toBe(404);
      expect(res.text).not.toContain('Team launch post');
    }
    outsider.client.workspace = undefined;
    expect((await outsider.client.call(`/api/articles/${articleId}`)).status).toBe(404);

    // The writer may not publish or change the workspace's settings (403, nothing written).
    const before = await app.items();
    const publish = await w.call(`/api/wordpress/publish/${articleId}`, { method: 'POST' });
    expect(publish.status).toBe(403);
    expect(publish.json.message).toBe(
      'Your role in this workspace (Writer) does not allow this. Ask an owner of the workspace.',
    );
    expect((await w.call('/api/settings', { body: { key: 'k', value: 'v' } })).status).toBe(403);
    expect(await app.items()).toEqual(before);
    // A writer schedules (nothing publishes without an approval: docs/product.md, Workspaces).
    const schedule = await w.call(`/api/articles/${articleId}/schedule`, {
      method: 'PUT',
      body: { platform: 'blog', datetime: new Date(Date.now() + 3600_000).toISOString() },
    });
    expect(schedule.status).toBe(200);
  });

  it('a lower role and a removal take effect on the member’s next request', async () => {
    const member = await activeAccount(app, admin, { email: 'moved@example.com' });
    const token = await invite('moved@example.com', 'editor');
    await member.client.call('/api/invitations/accept', { body: { token } });
    member.client.workspace = teamId;
    expect((await member.client.call('/api/articles', { body: { title: 'By an editor', topic: 'x' } })).status).toBe(
      201,
    );

    expect(
      (
        await owner.client.call(`/api/workspace/members/${member.id}`, {
          method: 'PUT',
          body: { role: 'reviewer' },
        })
      ).status,
    ).toBe(200);
    expect((await member.client.call('/api/articles', { body: { title: 'Refused', topic: 'x' } })).status).toBe(403);
    expect((await member.client.call('/api/articles')).status).toBe(200);

    expect((await owner.client.call(`/api/workspace/members/${member.id}`, { method: 'DELETE' })).status).toBe(200);
    const gone = await member.client.call('/api/articles');
    expect(gone.status).toBe(404);
    expect(gone.json.code).toBe('workspace_not_found');
    expect((await member.client.call('/api/workspaces')).json.workspaces).toHaveLength(1);
  });

  it('keeps an owner: the last one can be neither lowered nor removed (409)', async () => {
    const before = await app.items();
    const lower = await owner.client.call(`/api/workspace/members/${owner.id}`, {
      method: 'PUT',
      body: { role: 'editor' },
    });
    expect(lower.status).toBe(409);
    expect((await owner.client.call(`/api/workspace/members/${owner.id}`, { method: 'DELETE' })).status).toBe(409);
    expect(await app.items()).toEqual(before);
  });

  it("sends a team workspace's approval e-mail to its owner and its image addresses name the workspace", async () => {
    const editor = await activeAccount(app, admin, { email: 'scheduler@example.com' });
    const token = await invite('scheduler@example.com', 'editor');
    await editor.client.call('/api/invitations/accept', { body: { token } });
    editor.client.workspace = teamId;
    const id = (await editor.client.call('/api/articles', { body: { title: 'Team scheduled', topic: 'x' } })).json
      .article._id as string;
    await drafted(editor.client, id);
    const at = new Date(Date.now() + 1000).toISOString();
    expect(
      (
        await editor.client.call(`/api/articles/${id}/schedule`, {
          method: 'PUT',
          body: { platform: 'blog', datetime: at },
        })
      ).status,
    ).toBe(200);
    const mail = await waitUntil(
      async () => approvalMails().find((m) => m.subject === 'Approve for WordPress (blog): Team scheduled'),
      Boolean,
      'the approval e-mail',
    );
    expect(mail!.to).toBe('owner@example.com');
    const approval = /\/approve\?token=([A-Za-z0-9._%-]+)/.exec(mail!.text ?? '')![1]!;
    const preview = await new Client(app.url).call('/api/approvals/preview', {
      body: { token: decodeURIComponent(approval) },
    });
    expect(preview.status).toBe(200);
    expect(preview.json.title).toBe('Team scheduled');

    // An <img> sends no header: the address names the workspace (?ws=), else it is the personal one's.
    const imageClient = new WorkspaceClient(app.url);
    imageClient.cookie = editor.client.cookie;
    const withWs = await imageClient.call(`/api/image/${id}?ws=${teamId}`);
    expect(withWs.status).toBe(200);
    expect((await imageClient.call(`/api/image/${id}`)).status).toBe(404);
    // …or the SPA's cookie does, which the browser sends with an <img>'s request.
    imageClient.cookie = `${editor.client.cookie}; cp-workspace=${teamId}`;
    expect((await imageClient.call(`/api/image/${id}`)).status).toBe(200);
  });

  it("serves an account's existing data as its personal workspace, rewriting nothing", async () => {
    const solo = await activeAccount(app, admin, { email: 'solo@example.com' });
    const id = (await solo.client.call('/api/articles', { body: { title: 'Solo article', topic: 'x' } })).json.article
      ._id as string;
    await drafted(solo.client, id);
    await solo.client.call('/api/settings', { body: { key: 'solo_key', value: 'solo-value-123456' } });
    const before = await app.items();
    expect((await solo.client.call('/api/workspaces')).json.workspaces).toEqual([
      { id: solo.id, name: 'Personal', personal: true, role: 'owner' },
    ]);
    expect((await solo.client.call('/api/workspace/members')).json.members).toEqual([
      expect.objectContaining({ userId: solo.id, email: 'solo@example.com', role: 'owner' }),
    ]);
    for (const workspace of [undefined, solo.id]) {
      solo.client.workspace = workspace;
      expect((await solo.client.call(`/api/articles/${id}`)).json.article.title).toBe('Solo article');
      expect((await solo.client.call('/api/settings')).text).toContain('solo_key');
    }
    expect(await app.items()).toEqual(before);
  });

  it('refuses an X-Workspace that is not an id (400) and one the caller is not in (404)', async () => {
    const c = new WorkspaceClient(app.url);
    c.cookie = owner.client.cookie;
    c.workspace = 'not a workspace!';
    expect((await c.call('/api/articles')).status).toBe(400);
    c.workspace = '00000000-0000-0000-0000-000000000000';
    expect((await c.call('/api/articles')).status).toBe(404);
  });
});
