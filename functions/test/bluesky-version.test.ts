/**
 * Bluesky's own version of an article (docs/data-model.md, Articles; docs/integrations.md, Bluesky) over DynamoDB
 * Local: its edit route (`articles.updateVersion`), its review in a review workspace (an edit returns it to review),
 * its drafting (offline and with the fake OpenAI) only while Bluesky is connected, and its Publish Now, which asks
 * for ITS approval and ITS text's offline-draft note, publishing to a REAL PDS (channel-servers/atproto/pds.ts).
 * Without a PDS (and without REQUIRE_CHANNEL_SERVERS=1) the tests that need one skip with a line saying why.
 */
import { blueskyTextProblem, graphemeLength } from '@app/shared/channels/bluesky';
import { activityLabel, hasOfflineDraftNote, type ActivityEntry } from '@app/shared';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { atprotoPdsOrSkip, type ChannelServer } from './channel-servers/atproto/pds.js';
import { pdsAccount } from './channel-servers/atproto/xrpc.js';
import { startFakeOpenAi, type FakeOpenAi } from './fakes/openai.js';
import { drafted, registration, startTestApp, type TestApp } from './helpers/app.js';
import { trackSecret } from './helpers/secrets.js';
import { activeAccount, invitationToken, WorkspaceClient } from './helpers/workspaces.js';

let app: TestApp;
let pds: ChannelServer | undefined;
let openai: FakeOpenAi;
type Account = Awaited<ReturnType<typeof activeAccount>>;
let admin: WorkspaceClient;
let owner: Account;
let writer: Account;
let reviewer: Account;
let stranger: Account;
let teamId: string;

const FAMILY = '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}\u200D\u{1F466}'; // one grapheme, 11 UTF-16 units

const server = (ctx: TestContext): ChannelServer => {
  if (!pds) ctx.skip();
  return pds!;
};

/** An account on the PDS and an app password for it; connects it as the Bluesky of `client`'s workspace. */
async function connectBluesky(client: WorkspaceClient, name: string) {
  const made = await pdsAccount(pds!, name, trackSecret);
  const connected = await client.call('/api/channels/bluesky/connection', {
    method: 'PUT',
    body: { handle: made.handle, appPassword: made.appPassword, serviceUrl: pds!.url },
  });
  expect(connected.status, JSON.stringify(connected.json)).toBe(200);
}

async function join_(account: Account, role: string) {
  const res = await owner.client.call('/api/workspace/invitations', { body: { email: account.email, role } });
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  const accepted = await account.client.call('/api/invitations/accept', {
    body: { token: invitationToken(app, account.email) },
  });
  expect(accepted.status, JSON.stringify(accepted.json)).toBe(200);
  account.client.workspace = teamId;
}

async function newArticle(client: WorkspaceClient, title: string) {
  const res = await client.call('/api/articles', {
    body: { title, topic: 'Short posts that travel', keyword: 'bluesky tips' },
  });
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  return drafted(client, res.json.article._id as string);
}

const putVersion = (client: WorkspaceClient, id: string, channel: string, content: unknown) =>
  client.call(`/api/articles/${id}/versions/${channel}`, { method: 'PUT', body: { content } });
const review = (who: Account, id: string, action: 'submit' | 'approve', platform: string) =>
  who.client.call(`/api/articles/${id}/review/${action}`, { method: 'POST', body: { platform } });

beforeAll(async () => {
  openai = await startFakeOpenAi();
  process.env.OPENAI_BASE_URL = openai.url;
  delete process.env.OPENAI_API_KEY;
  [pds, app] = await Promise.all([atprotoPdsOrSkip(), startTestApp()]);
  admin = new WorkspaceClient(app.url);
  await admin.call('/api/auth/register', { body: registration({ email: 'admin@example.com' }) });
  owner = await activeAccount(app, admin, { email: 'owner@example.com', name: 'Olive', surname: 'Owner' });
  writer = await activeAccount(app, admin, { email: 'writer@example.com', name: 'Wren', surname: 'Writer' });
  reviewer = await activeAccount(app, admin, { email: 'reviewer@example.com', name: 'Rae', surname: 'Reviewer' });
  stranger = await activeAccount(app, admin, { email: 'stranger@example.com' });
  teamId = (await owner.client.call('/api/workspaces', { body: { name: 'Sky Team' } })).json.workspace.id;
  owner.client.workspace = teamId;
  await join_(writer, 'writer');
  await join_(reviewer, 'reviewer');
  const set = await owner.client.call('/api/workspace/review', {
    method: 'PUT',
    body: { mode: 'one', graceHours: 24 },
  });
  expect(set.status, JSON.stringify(set.json)).toBe(200);
}, 30 * 60_000);

afterAll(async () => {
  await app?.stop();
  await pds?.stop();
  await openai?.stop();
  delete process.env.OPENAI_BASE_URL;
});

describe('the edit route of a channel’s own version (articles.updateVersion)', () => {
  it('saves the Bluesky version (a family emoji counts once), refuses 301 graphemes with Bluesky’s sentence, changes nothing then', async () => {
    const article = await newArticle(admin, 'Edit route');
    const fits = `${'a'.repeat(299)}${FAMILY}`; // 300 graphemes, 310 UTF-16 units
    const saved = await putVersion(admin, article._id, 'bluesky', fits);
    expect(saved.status, JSON.stringify(saved.json)).toBe(200);
    expect(saved.json).toMatchObject({ success: true, article: { versions: { bluesky: { content: fits } } } });
    // The blog and LinkedIn versions are as they were.
    expect(saved.json.article.blog.content).toBe(article.blog.content);
    expect(saved.json.article.linkedin.content).toBe(article.linkedin.content);

    const over = `${'a'.repeat(300)}${FAMILY}`;
    const refused = await putVersion(admin, article._id, 'bluesky', over);
    expect(refused.status).toBe(400);
    expect(refused.json.message).toBe(blueskyTextProblem(over));
    expect(refused.json.message).toMatch(/301 characters long; Bluesky allows 300\. Shorten it by 1\./);
    expect((await admin.call(`/api/articles/${article._id}`)).json.article.versions.bluesky.content).toBe(fits);

    const notText = await putVersion(admin, article._id, 'bluesky', 42);
    expect(notText.status).toBe(400);
  });

  it('answers 404 for a channel without a version of its own, an unknown one, another user’s and another workspace’s article', async () => {
    const article = await newArticle(admin, 'Not yours');
    for (const channel of ['wordpress', 'linkedin', 'ghost', 'mastodon']) {
      const res = await putVersion(admin, article._id, channel, 'Hello');
      expect(res.status, channel).toBe(404);
    }
    stranger.client.workspace = undefined;
    expect((await putVersion(stranger.client, article._id, 'bluesky', 'Mine now')).status).toBe(404);
    // The owner's team workspace does not hold their personal article.
    const mine = await newArticle(owner.client, 'In the team');
    owner.client.workspace = undefined;
    const personal = await putVersion(owner.client, mine._id, 'bluesky', 'Wrong workspace');
    owner.client.workspace = teamId;
    expect(personal.status).toBe(404);
    const after = (await admin.call(`/api/articles/${article._id}`)).json.article;
    expect(after.versions).toBeUndefined();
  });
});

describe('the Bluesky version in a review workspace', () => {
  it('is submitted and approved on its own, and an edit after approval returns it to review (with its activity)', async () => {
    const article = await newArticle(writer.client, 'Reviewed post');
    expect((await putVersion(writer.client, article._id, 'bluesky', 'First words #sky')).status).toBe(200);
    expect((await review(writer, article._id, 'submit', 'bluesky')).status).toBe(200);
    const approved = await review(reviewer, article._id, 'approve', 'bluesky');
    expect(approved.status, JSON.stringify(approved.json)).toBe(200);
    expect(approved.json.article.review.bluesky).toMatchObject({ status: 'approved' });
    // The blog version's review is its own: not started.
    expect(approved.json.article.review.blog).toBeNull();

    const edited = await putVersion(writer.client, article._id, 'bluesky', 'Second words #sky');
    expect(edited.status).toBe(200);
    expect(edited.json.article.review.bluesky).toMatchObject({ status: 'pending', stage: 1, approvals: [] });
    const entries = (await writer.client.call(`/api/articles/${article._id}/activity?limit=50`)).json
      .entries as ActivityEntry[];
    expect(entries.map((e) => [e.name, e.platform])).toEqual(
      expect.arrayContaining([
        ['ArticleEdited', 'bluesky'],
        ['ReviewRequested', 'bluesky'],
        ['ArticleApproved', 'bluesky'],
      ]),
    );
    expect(entries.map((e) => activityLabel(e, () => 'the Bluesky version'))).toContain(
      'Edited the Bluesky version: back in review',
    );
  });

  it('Publish Now asks for ITS approval and ITS text’s offline-draft note, not the blog version’s', async (ctx) => {
    server(ctx);
    await connectBluesky(owner.client, 'teamsky');
    // Drafted offline: the blog version keeps its offline-draft note and is never approved here.
    const article = await newArticle(writer.client, 'Publish on its own');
    expect(hasOfflineDraftNote(article.blog.content)).toBe(true);
    expect(hasOfflineDraftNote(article.versions.bluesky.content)).toBe(true);
    const publish = () => owner.client.call(`/api/channels/bluesky/publish/${article._id}`, { method: 'POST' });

    const unapproved = await publish();
    expect(unapproved.status).toBe(409);
    expect(unapproved.json.code).toBe('approval_required');

    // Approved with its note still in: refused for the note, nothing published.
    expect((await review(writer, article._id, 'submit', 'bluesky')).status).toBe(200);
    expect((await review(reviewer, article._id, 'approve', 'bluesky')).status).toBe(200);
    const noted = await publish();
    expect(noted.status).toBe(400);
    expect(noted.json.code).toBe('offline_draft_note');
    expect(noted.json.message).toMatch(/Bluesky text/);

    // Edited: back in review, so refused again until approved.
    expect((await putVersion(writer.client, article._id, 'bluesky', 'Ready to go out #sky')).status).toBe(200);
    expect((await publish()).json.code).toBe('approval_required');
    expect((await review(writer, article._id, 'submit', 'bluesky')).status).toBe(200);
    expect((await review(reviewer, article._id, 'approve', 'bluesky')).status).toBe(200);
    const published = await publish();
    expect(published.status, JSON.stringify(published.json)).toBe(200);
    expect(published.json.article.posts.bluesky.url).toMatch(/^https?:\/\//);
    expect(hasOfflineDraftNote(published.json.article.blog.content)).toBe(true);
  });
});

describe('drafting the Bluesky version', () => {
  it('offline: only once Bluesky is connected, within 300 graphemes, with the offline-draft note and a hashtag', async (ctx) => {
    const solo = await activeAccount(app, admin, { email: 'solo@example.com' });
    const before = await newArticle(solo.client, 'Before connecting');
    expect(before.generation.status).toBe('done');
    expect(before.versions).toBeUndefined();

    server(ctx);
    await connectBluesky(solo.client, 'solosky');
    const after = await newArticle(solo.client, 'After connecting');
    const text: string = after.versions.bluesky.content;
    expect(hasOfflineDraftNote(text)).toBe(true);
    expect(text).toContain('After connecting');
    expect(text).toMatch(/#\w+/);
    expect(graphemeLength(text)).toBeLessThanOrEqual(300);
    // The earlier article keeps none until its owner writes one.
    expect((await solo.client.call(`/api/articles/${before._id}`)).json.article.versions).toBeUndefined();
  });

  it('with OpenAI: a Bluesky prompt, its long answer shortened at a word boundary to 300 graphemes; its AI edit', async (ctx) => {
    const ai = await activeAccount(app, admin, { email: 'ai@example.com' });
    const key = await ai.client.call('/api/settings', {
      body: { key: 'openai_api_key', value: openai.apiKey, description: 'OpenAI' },
    });
    expect(key.status).toBe(201);
    openai.reset();
    const unconnected = await newArticle(ai.client, 'AI before connecting');
    expect(unconnected.versions).toBeUndefined();
    expect(openai.requests.filter((r) => r.path === '/v1/responses')).toHaveLength(2);

    server(ctx);
    await connectBluesky(ai.client, 'aisky');
    openai.reset();
    const article = await newArticle(ai.client, 'AI after connecting');
    const calls = openai.requests.filter((r) => r.path === '/v1/responses');
    expect(calls).toHaveLength(3);
    expect(calls.some((r) => /Bluesky post/.test(JSON.stringify(r.body)))).toBe(true);
    const text: string = article.versions.bluesky.content;
    // The fake answers far more than 300 characters: the draft is cut, not refused.
    expect(text).toMatch(/^Fake answer from /);
    expect(graphemeLength(text)).toBeLessThanOrEqual(300);
    expect(text).toMatch(/…$|[.!?]$/);
    expect(article.generation.status).toBe('done');

    // The AI edit of the Bluesky version: a Bluesky edit prompt, its answer fitted, saved as the version.
    openai.reset();
    const edit = await ai.client.call('/api/gpt-edit', {
      body: { articleId: article._id, contentType: 'bluesky', editRequest: 'Make it punchier' },
    });
    expect(edit.status, JSON.stringify(edit.json)).toBe(200);
    expect(JSON.stringify(openai.requests.map((r) => r.body))).toMatch(/current text of a Bluesky post/);
    expect(graphemeLength(edit.json.editedContent)).toBeLessThanOrEqual(300);
    expect(edit.json.article.versions.bluesky.content).toBe(edit.json.editedContent);
    expect(edit.json.article.blog.content).toBe(article.blog.content);
    const unknown = await ai.client.call('/api/gpt-edit', {
      body: { articleId: article._id, contentType: 'mastodon', editRequest: 'Make it punchier' },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.json.message).toBe('contentType must be blog or linkedin');
  });
});
