import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMENT_MAX_CHARS } from '@app/shared';
import { localJobsIdle } from '../src/adapters/local/in-process-job-queue.js';
import { FAKE_WP_EDITOR, startFakeWordPress, type FakeWordPress } from './fakes/wordpress.js';
import { draftedForPublishing, registration, startTestApp, type TestApp } from './helpers/app.js';
import { activeAccount, invitationToken, testDb, WorkspaceClient } from './helpers/workspaces.js';

/**
 * Comments on an article's versions and its activity, over the real local stack (docs/product.md, Comments and
 * activity): members of a team workspace comment and delete their own, a comment on a text changed since is
 * marked, bad input changes nothing, another workspace gets 404; the activity names who created, edited (a burst
 * of edits is one entry) and published, newest first, page by page.
 */
let app: TestApp;
let wp: FakeWordPress;
let admin: WorkspaceClient;
const db = testDb();
let teamId: string;
let articleId: string;
type Member = Awaited<ReturnType<typeof activeAccount>>;
let owner: Member;
let editor: Member;
let writer: Member;
let reviewer: Member;
let otherOwner: Member;

const comments = (client: WorkspaceClient, id = articleId) => client.call(`/api/articles/${id}/comments`);
const comment = (client: WorkspaceClient, body: unknown, id = articleId) =>
  client.call(`/api/articles/${id}/comments`, { body });
const activity = (client: WorkspaceClient, query = '', id = articleId) =>
  client.call(`/api/articles/${id}/activity${query}`);
const edit = async (client: WorkspaceClient, platform: 'blog' | 'linkedin', content: string) => {
  const res = await client.call(`/api/articles/${articleId}/${platform}`, { method: 'PUT', body: { content } });
  expect(res.status, JSON.stringify(res.json)).toBe(200);
};

async function member(role: string, name: string, surname: string): Promise<Member> {
  const account = await activeAccount(app, admin, { name, surname });
  await owner.client.call('/api/workspace/invitations', { body: { email: account.email, role } });
  const accepted = await account.client.call('/api/invitations/accept', {
    body: { token: invitationToken(app, account.email) },
  });
  expect(accepted.status).toBe(200);
  account.client.workspace = teamId;
  return account;
}

beforeAll(async () => {
  wp = await startFakeWordPress();
  app = await startTestApp();
  admin = new WorkspaceClient(app.url);
  await admin.call('/api/auth/register', { body: registration({ email: 'admin@example.com' }) });
  owner = await activeAccount(app, admin, { name: 'Olive', surname: 'Owner' });
  teamId = (await owner.client.call('/api/workspaces', { body: { name: 'Comment team' } })).json.workspace.id;
  owner.client.workspace = teamId;
  editor = await member('editor', 'Eddie', 'Editor');
  writer = await member('writer', 'Wanda', 'Writer');
  reviewer = await member('reviewer', 'Rita', 'Reviewer');
  otherOwner = await activeAccount(app, admin, { name: 'Oscar', surname: 'Other' });
  await owner.client.call('/api/wordpress/credentials', {
    body: { siteUrl: wp.url, username: FAKE_WP_EDITOR.username, appPassword: FAKE_WP_EDITOR.appPassword },
  });
  articleId = (await owner.client.call('/api/articles', { body: { title: 'Team piece', topic: 'Comments' } })).json
    .article._id;
  await draftedForPublishing(owner.client, articleId);
});
afterAll(async () => {
  await app?.stop();
  await wp?.stop();
  db.destroy();
});

describe('comments on a version', () => {
  it('lets every role comment, shows the thread with names and times, and lets the author delete their own', async () => {
    const made = await comment(reviewer.client, { platform: 'blog', text: '  The intro runs long.  ' });
    expect(made.status, JSON.stringify(made.json)).toBe(201);
    expect(made.json.comment).toMatchObject({
      platform: 'blog',
      authorId: reviewer.id,
      authorName: 'Rita Reviewer',
      text: 'The intro runs long.',
      onEarlierVersion: false,
    });
    expect(Date.parse(made.json.comment.createdAt)).toBeGreaterThan(Date.now() - 60_000);
    const onLinkedIn = await comment(writer.client, { platform: 'linkedin', text: 'Add a hashtag?' });
    expect(onLinkedIn.status).toBe(201);

    const seen = await comments(editor.client);
    expect(seen.status).toBe(200);
    expect(seen.json.comments.map((c: { text: string }) => c.text)).toEqual(
      expect.arrayContaining(['The intro runs long.', 'Add a hashtag?']),
    );
    const ids = seen.json.comments.map((c: { id: string }) => c.id);
    expect([...ids].sort()).toEqual(ids); // oldest first

    const deleted = await reviewer.client.call(`/api/articles/${articleId}/comments/${made.json.comment.id}`, {
      method: 'DELETE',
    });
    expect(deleted.status).toBe(200);
    const after = (await comments(owner.client)).json.comments.map((c: { id: string }) => c.id);
    expect(after).not.toContain(made.json.comment.id);
    expect(after).toContain(onLinkedIn.json.comment.id);
  });

  it("refuses deleting another member's comment (an owner's too) with 403, and it stays", async () => {
    const made = (await comment(reviewer.client, { platform: 'blog', text: 'Mine to delete' })).json.comment;
    const before = await app.items();
    for (const other of [writer, owner]) {
      const res = await other.client.call(`/api/articles/${articleId}/comments/${made.id}`, { method: 'DELETE' });
      expect(res.status).toBe(403);
      expect(res.json).toMatchObject({ code: 'not_your_comment', message: 'You can only delete your own comments' });
    }
    expect(await app.items()).toEqual(before);
    expect((await comments(owner.client)).json.comments.map((c: { id: string }) => c.id)).toContain(made.id);
  });

  it('answers bad input with 400 and a clear message, and writes nothing', async () => {
    await localJobsIdle();
    const before = await app.items();
    const cases: [unknown, RegExp][] = [
      [{ platform: 'blog', text: '' }, /Write a comment first/],
      [{ platform: 'blog', text: '   \n ' }, /Write a comment first/],
      [{ platform: 'blog', text: 'x'.repeat(COMMENT_MAX_CHARS + 1) }, /at most 2000 characters/],
      [{ platform: 'blog', text: 'bad \u0007 bell' }, /not allowed/],
      [{ platform: 'twitter', text: 'hello' }, /platform must be blog or linkedin/],
      [{ platform: 'blog' }, /text/],
      [{ platform: 'blog', text: 'hello', extra: 1 }, /extra/i],
    ];
    for (const [body, message] of cases) {
      const res = await comment(writer.client, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.json.message, JSON.stringify(body).slice(0, 80)).toMatch(message);
    }
    expect((await activity(writer.client, '?limit=0')).status).toBe(400);
    expect((await activity(writer.client, '?cursor=bm90LWEta2V5')).status).toBe(400);
    expect(await app.items()).toEqual(before);
    const longest = await comment(writer.client, { platform: 'blog', text: 'y'.repeat(COMMENT_MAX_CHARS) });
    expect(longest.status).toBe(201);
  });

  it('keeps comments made on an earlier text, marked as such, once the version changes', async () => {
    const onBlog = (await comment(reviewer.client, { platform: 'blog', text: 'Typo in line two' })).json.comment;
    const onLinkedIn = (await comment(reviewer.client, { platform: 'linkedin', text: 'Nice' })).json.comment;
    await edit(writer.client, 'blog', 'The blog text, with the typo fixed.');
    const now = await comments(reviewer.client);
    const find = (id: string) => now.json.comments.find((c: { id: string }) => c.id === id);
    expect(find(onBlog.id)).toMatchObject({ text: 'Typo in line two', onEarlierVersion: true });
    expect(find(onLinkedIn.id)).toMatchObject({ onEarlierVersion: false });
    const fresh = (await comment(reviewer.client, { platform: 'blog', text: 'Better now' })).json.comment;
    expect(fresh.onEarlierVersion).toBe(false);
  });

  it("answers 404 for another workspace's article and to someone outside this one, changing nothing", async () => {
    const made = (await comment(writer.client, { platform: 'blog', text: 'Team eyes only' })).json.comment;
    const before = await app.items();
    const stranger = otherOwner.client;
    for (const res of [
      await comments(stranger),
      await comment(stranger, { platform: 'blog', text: 'intrusion' }),
      await stranger.call(`/api/articles/${articleId}/comments/${made.id}`, { method: 'DELETE' }),
      await activity(stranger),
    ]) {
      expect(res.status).toBe(404);
      expect(res.text).not.toContain('Team eyes only');
      expect(res.text).not.toContain('Team piece');
    }
    stranger.workspace = teamId;
    try {
      const res = await comments(stranger);
      expect(res.status).toBe(404);
      expect(res.json.code).toBe('workspace_not_found');
    } finally {
      stranger.workspace = undefined;
    }
    expect(await app.items()).toEqual(before);
  });

  it('gives a personal workspace the thread too: its user alone leaves notes', async () => {
    const own = (await otherOwner.client.call('/api/articles', { body: { title: 'Solo', topic: 'Notes' } })).json
      .article._id as string;
    await localJobsIdle();
    const made = await comment(otherOwner.client, { platform: 'linkedin', text: 'Note to self' }, own);
    expect(made.status).toBe(201);
    expect(made.json.comment.authorName).toBe('Oscar Other');
    expect((await comments(otherOwner.client, own)).json.comments).toHaveLength(1);
  });
});

describe('activity', () => {
  const entries = async (client: WorkspaceClient) => {
    const all: { name: string; actor: string | null; at: string; until?: string; platform?: string }[] = [];
    let cursor: string | null = null;
    do {
      const res = await activity(client, `?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status, JSON.stringify(res.json)).toBe(200);
      expect(res.json.entries.length).toBeLessThanOrEqual(2);
      all.push(...res.json.entries);
      cursor = res.json.nextCursor;
    } while (cursor);
    return all;
  };

  it('names who created and drafted the article, newest first', async () => {
    const all = await entries(reviewer.client);
    const created = all.find((e) => e.name === 'ArticleCreated');
    expect(created).toMatchObject({ actor: 'Olive Owner' });
    expect(all.at(-1)).toEqual(created);
    // The drafting was the creator's request: its event, and so its entry, names them.
    expect(all.some((e) => e.name === 'ArticleDrafted' && e.actor === 'Olive Owner')).toBe(true);
    const times = all.map((e) => e.at);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it("keeps a burst of one person's edits as one entry, and a later edit or another person's as new ones", async () => {
    const count = async () => (await entries(owner.client)).filter((e) => e.name === 'ArticleEdited').length;
    const before = await count();
    await edit(editor.client, 'linkedin', 'First pass');
    await edit(editor.client, 'linkedin', 'Second pass');
    await edit(editor.client, 'linkedin', 'Third pass');
    let all = await entries(owner.client);
    expect(all.filter((e) => e.name === 'ArticleEdited')).toHaveLength(before + 1);
    expect(all[0]).toMatchObject({ name: 'ArticleEdited', actor: 'Eddie Editor', platform: 'linkedin' });
    expect(Date.parse(all[0]!.until!)).toBeGreaterThan(Date.parse(all[0]!.at));

    // Another person's edit starts its own entry.
    await edit(writer.client, 'linkedin', 'Writer pass');
    all = await entries(owner.client);
    expect(all[0]).toMatchObject({ name: 'ArticleEdited', actor: 'Wanda Writer' });
    expect(all[0]!.until).toBeUndefined();
    expect(await count()).toBe(before + 2);

    // The writer's next edit ten minutes after their last one is a new burst.
    const last = new Date(Date.now() - 10 * 60_000).toISOString();
    await db.send(
      new UpdateCommand({
        TableName: app.tableName,
        Key: { PK: `USER#${teamId}`, SK: `ARTICLE#${articleId}` },
        UpdateExpression: 'SET lastEdit.#at = :at',
        ExpressionAttributeNames: { '#at': 'at' },
        ExpressionAttributeValues: { ':at': last },
      }),
    );
    await edit(writer.client, 'blog', 'Writer again, later');
    expect(await count()).toBe(before + 3);
    expect((await entries(owner.client))[0]).toMatchObject({ actor: 'Wanda Writer', platform: 'blog' });
  });

  it('records who published it, written with the publish', async () => {
    const published = await editor.client.call(`/api/wordpress/publish/${articleId}`, { method: 'POST' });
    expect(published.status, JSON.stringify(published.json)).toBe(200);
    const all = await entries(reviewer.client);
    expect(all[0]).toMatchObject({ name: 'PublishSucceeded', actor: 'Eddie Editor', platform: 'blog' });
  });

  it('pages newest first, at most the size asked for, the cursor continuing where the page stopped', async () => {
    const first = await activity(owner.client, '?limit=3');
    expect(first.json.entries).toHaveLength(3);
    const second = await activity(owner.client, `?limit=3&cursor=${first.json.nextCursor}`);
    const firstIds = first.json.entries.map((e: { id: string }) => e.id);
    for (const entry of second.json.entries) expect(firstIds).not.toContain(entry.id);
    const all = await entries(owner.client);
    expect(all.slice(0, 6).map((e) => e.name)).toEqual(
      [...first.json.entries, ...second.json.entries].map((e: { name: string }) => e.name),
    );
  });
});
