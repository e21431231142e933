import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { activityLabel, slotApproval, type ActivityEntry, type Article } from '@app/shared';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { localJobsIdle } from '../src/adapters/local/in-process-job-queue.js';
import { approvalNotifier } from '../src/wiring/approval-notifier.js';
import { buildReviewService } from '../src/wiring/review.js';
import { parseMime } from './fakes/mime.js';
import { FAKE_WP_EDITOR, startFakeWordPress, type FakeWordPress } from './fakes/wordpress.js';
import { draftedForPublishing, imageSettled, registration, startTestApp, type TestApp } from './helpers/app.js';
import { activeAccount, invitationToken, WorkspaceClient } from './helpers/workspaces.js';

/**
 * Review by someone other than the author (docs/product.md, Workspaces, Review) over the real local stack: the
 * workspace's setting, submitting, the reviewers' e-mail and its single-purpose links, the author's own approval
 * refused, roles and stages, "Request changes" with its comment, an edit after approval returning to review,
 * Publish Now needing the approval, the slot's Waiting / Expired on a fixed clock, and the events of each.
 */
let app: TestApp;
let wp: FakeWordPress;
let admin: WorkspaceClient;
type Account = Awaited<ReturnType<typeof activeAccount>>;
let owner: Account;
let writer: Account;
let editor: Account;
let reviewer: Account;
let teamId: string;

const HOUR = 3600_000;

const mails = () => {
  const dir = join(app.dataDir, 'outbox');
  let files: string[];
  try {
    files = readdirSync(dir)
      .filter((f) => f.endsWith('.eml'))
      .sort();
  } catch {
    return [];
  }
  return files.map((f) => parseMime(readFileSync(join(dir, f), 'utf8')));
};
const reviewMails = (to: string, title: string) =>
  mails().filter((m) => m.to.includes(to) && m.subject === `Review for WordPress (blog): ${title}`);
/** The reviewer's link of one action from their newest review e-mail. */
function linkToken(to: string, title: string, action: 'Approve' | 'Request changes'): string {
  const mail = reviewMails(to, title).at(-1);
  const m = new RegExp(`${action}: \\S+/review\\?token=([A-Za-z0-9._%-]+)`).exec(`${mail?.text ?? ''}`);
  if (!m) throw new Error(`no ${action} link for ${to} in the outbox`);
  return decodeURIComponent(m[1]!);
}

/** The outbox items (domain events) of an article, oldest first. */
async function eventsOf(articleId: string) {
  return (await app.items())
    .filter((i) => i.type === 'domain-event' && (i.detail as { articleId?: string }).articleId === articleId)
    .map((i) => ({ name: i.name as string, detail: i.detail as Record<string, unknown> }))
    .sort((a, b) => String(a.detail.occurredAt).localeCompare(String(b.detail.occurredAt)));
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

const setReview = (mode: string, graceHours = 24) =>
  owner.client.call('/api/workspace/review', { method: 'PUT', body: { mode, graceHours } });

async function newArticle(by: Account, title: string): Promise<string> {
  const res = await by.client.call('/api/articles', { body: { title, topic: 'Review', keyword: 'approval' } });
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  const id = res.json.article._id as string;
  await draftedForPublishing(by.client, id);
  return id;
}
/** The article's activity as its list shows it: each entry's label and who did it, oldest first. */
async function activityOf(id: string) {
  const res = await writer.client.call(`/api/articles/${id}/activity?limit=50`);
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  return (res.json.entries as ActivityEntry[]).map((e) => ({ what: activityLabel(e), who: e.actor })).reverse();
}
const article = async (id: string): Promise<Article> => (await owner.client.call(`/api/articles/${id}`)).json.article;
const review = (who: Account, id: string, action: 'submit' | 'approve' | 'changes', body: object = {}) =>
  who.client.call(`/api/articles/${id}/review/${action}`, { method: 'POST', body: { platform: 'blog', ...body } });

beforeAll(async () => {
  wp = await startFakeWordPress();
  app = await startTestApp();
  admin = new WorkspaceClient(app.url);
  await admin.call('/api/auth/register', { body: registration({ email: 'admin@example.com' }) });
  owner = await activeAccount(app, admin, { email: 'owner@example.com', name: 'Olive', surname: 'Owner' });
  writer = await activeAccount(app, admin, { email: 'writer@example.com', name: 'Wren', surname: 'Writer' });
  editor = await activeAccount(app, admin, { email: 'editor@example.com', name: 'Eddie', surname: 'Editor' });
  reviewer = await activeAccount(app, admin, { email: 'reviewer@example.com', name: 'Rae', surname: 'Reviewer' });
  teamId = (await owner.client.call('/api/workspaces', { body: { name: 'Acme Review' } })).json.workspace.id;
  owner.client.workspace = teamId;
  await join_(writer, 'writer');
  await join_(editor, 'editor');
  await join_(reviewer, 'reviewer');
  const wpSaved = await owner.client.call('/api/wordpress/credentials', {
    body: { siteUrl: wp.url, username: FAKE_WP_EDITOR.username, appPassword: FAKE_WP_EDITOR.appPassword },
  });
  expect(wpSaved.status).toBe(200);
});
afterAll(async () => {
  await app?.stop();
  await wp?.stop();
});

describe('the review setting', () => {
  it('is the author’s own approval by default, for every member to read; a personal workspace’s is always that', async () => {
    const res = await reviewer.client.call('/api/workspace/review');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ success: true, personal: false, settings: { mode: 'author', graceHours: 24 } });
    writer.client.workspace = undefined;
    expect((await writer.client.call('/api/workspace/review')).json).toMatchObject({
      personal: true,
      settings: { mode: 'author' },
    });
    writer.client.workspace = teamId;
  });

  it('is changed by an owner only (403 below), validated (400 for anything else) and refused in a personal workspace; a refusal changes nothing', async () => {
    const before = await app.items();
    const asEditor = await editor.client.call('/api/workspace/review', {
      method: 'PUT',
      body: { mode: 'one', graceHours: 24 },
    });
    expect(asEditor.status).toBe(403);
    for (const body of [
      { mode: 'three', graceHours: 24 },
      { mode: 'one', graceHours: 169 },
      { mode: 'one', graceHours: -1 },
      { mode: 'one', graceHours: 1.5 },
      { mode: 'one' },
    ]) {
      const res = await owner.client.call('/api/workspace/review', { method: 'PUT', body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.message).toMatch(/Review must be|grace period|required/i);
    }
    owner.client.workspace = undefined;
    const personal = await setReview('one');
    owner.client.workspace = teamId;
    expect(personal.status).toBe(400);
    expect(personal.json.message).toMatch(/personal workspace has no review/);
    expect(await app.items()).toEqual(before);

    const saved = await setReview('one', 24);
    expect(saved.status).toBe(200);
    expect(saved.json.settings).toEqual({ mode: 'one', graceHours: 24 });
    expect((await writer.client.call('/api/workspace/review')).json.settings).toEqual({ mode: 'one', graceHours: 24 });
  });
});

describe('one approval by someone other than the author', () => {
  let id: string;
  const title = 'Quarterly results';

  it('a writer submits: the reviewers of the stage get the rendered post with Approve and Request changes links; ReviewRequested is written', async () => {
    id = await newArticle(writer, title);
    const res = await review(writer, id, 'submit');
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json.article.review.blog).toMatchObject({
      status: 'pending',
      stage: 1,
      mode: 'one',
      authors: [writer.id],
      approvals: [],
    });
    // Editor, owner and reviewer may approve under `one`; the author gets none.
    for (const to of [reviewer.email, editor.email, owner.email]) expect(reviewMails(to, title)).toHaveLength(1);
    expect(reviewMails(writer.email, title)).toHaveLength(0);
    const mail = reviewMails(reviewer.email, title)[0]!;
    expect(mail.text).toMatch(/Approve: \S+\/review\?token=/);
    expect(mail.text).toMatch(/Request changes: \S+\/review\?token=/);
    expect(mail.html).toContain('Request changes');
    expect(mail.html).toContain('Acme Review');
    const events = await eventsOf(id);
    expect(events.filter((e) => e.name === 'ReviewRequested').map((e) => e.detail)).toEqual([
      expect.objectContaining({
        userId: teamId,
        actorId: writer.id,
        stage: 1,
        reason: 'submitted',
        platform: 'wordpress',
      }),
    ]);
  });

  it('refuses the author’s own approval (403) and a role that cannot approve; both change nothing', async () => {
    const before = await app.items();
    const own = await review(writer, id, 'approve');
    expect(own.status).toBe(403);
    expect(own.json.code).toBe('own_approval');
    expect(own.json.message).toMatch(/someone else must approve it/);
    // A second writer (not an author) still cannot approve: writers do not review.
    const other = await activeAccount(app, admin, { email: 'writer2@example.com' });
    await join_(other, 'writer');
    const before2 = await app.items();
    const role = await review(other, id, 'approve');
    expect(role.status).toBe(403);
    expect(role.json.code).toBe('role_cannot_approve');
    expect(await app.items()).toEqual(before2);
    expect(before.length).toBeLessThan(before2.length); // only the new member was added between the two
  });

  it('"Request changes" needs a comment (400, nothing changed); with one it is stored on the review and ChangesRequested is written', async () => {
    const before = await app.items();
    for (const body of [{}, { comment: '' }, { comment: '   ' }]) {
      const res = await review(reviewer, id, 'changes', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.message).toMatch(/comment is required/);
    }
    expect(await app.items()).toEqual(before);
    const res = await review(reviewer, id, 'changes', { comment: 'Add the Q3 numbers.' });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json.article.review.blog).toMatchObject({
      status: 'changes',
      changes: { by: reviewer.id, comment: 'Add the Q3 numbers.', at: expect.any(String) },
    });
    const changes = (await eventsOf(id)).filter((e) => e.name === 'ChangesRequested');
    expect(changes.map((e) => e.detail)).toEqual([
      expect.objectContaining({ actorId: reviewer.id, comment: 'Add the Q3 numbers.', stage: 1 }),
    ]);
    // Sent back: nothing to approve until it is edited or submitted again.
    expect((await review(editor, id, 'approve')).status).toBe(409);
  });

  it('the change request is posted to the version’s comment thread, marked, and its author is e-mailed the comment with a link to the editor', async () => {
    const thread = await writer.client.call(`/api/articles/${id}/comments`);
    expect(thread.status).toBe(200);
    expect(thread.json.comments).toEqual([
      expect.objectContaining({
        platform: 'blog',
        authorId: reviewer.id,
        authorName: 'Rae Reviewer',
        text: 'Add the Q3 numbers.',
        changeRequest: true,
        onEarlierVersion: false,
      }),
    ]);
    const told = mails().filter((m) => m.subject === `Changes requested for WordPress (blog): ${title}`);
    expect(told.map((m) => m.to)).toEqual([writer.email]);
    const mail = told[0]!;
    expect(mail.text).toContain('Rae Reviewer requested changes');
    expect(mail.text).toContain('> Add the Q3 numbers.');
    expect(mail.text).toContain(`/create?articleId=${id}`);
    expect(mail.html).toContain('Add the Q3 numbers.');
    expect(mail.html).toContain('Open the editor');
    // Nobody else is told: the reviewer asked, the other members did not write it.
    expect(mails().filter((m) => m.subject.startsWith('Changes requested') && m.to.includes(reviewer.email))).toEqual(
      [],
    );
  });

  it('the writer’s edit returns it to review: the reviewers are asked again (ReviewRequested, edited)', async () => {
    const mailsBefore = reviewMails(reviewer.email, title).length;
    const res = await writer.client.call(`/api/articles/${id}/blog`, {
      method: 'PUT',
      body: { content: '# Quarterly results\n\nQ3 revenue grew 12%.' },
    });
    expect(res.status).toBe(200);
    expect(res.json.article.review.blog).toMatchObject({ status: 'pending', stage: 1, approvals: [] });
    await localJobsIdle(); // the reviewers' e-mail is the worker's job
    expect(reviewMails(reviewer.email, title)).toHaveLength(mailsBefore + 1);
    expect((await eventsOf(id)).filter((e) => e.name === 'ReviewRequested').map((e) => e.detail.reason)).toEqual([
      'submitted',
      'edited',
    ]);
  });

  it('Publish Now before approval is refused with what to do (409), and publishes nothing', async () => {
    const posts = wp.posts.length;
    const res = await editor.client.call(`/api/wordpress/publish/${id}`, { method: 'POST' });
    expect(res.status).toBe(409);
    expect(res.json.code).toBe('approval_required');
    expect(res.json.message).toMatch(/submit the version for review/);
    expect(wp.posts.length).toBe(posts);
  });

  it('the reviewer’s e-mailed link: reading it acts on nothing; the click approves; ArticleApproved carries the approver and stage', async () => {
    const token = linkToken(reviewer.email, title, 'Approve');
    const before = await app.items();
    const preview = await new WorkspaceClient(app.url).call('/api/review-links/preview', { body: { token } });
    expect(preview.status, JSON.stringify(preview.json)).toBe(200);
    expect(preview.json).toMatchObject({
      action: 'approve',
      title,
      platform: 'blog',
      workspaceName: 'Acme Review',
      current: true,
      content: expect.stringContaining('Q3 revenue grew 12%'),
    });
    expect(await app.items()).toEqual(before);
    // An approve link does not request changes, and a request-changes link needs its comment.
    const changesToken = linkToken(reviewer.email, title, 'Request changes');
    const noComment = await new WorkspaceClient(app.url).call('/api/review-links/confirm', {
      body: { token: changesToken },
    });
    expect(noComment.status).toBe(400);
    expect(await app.items()).toEqual(before);

    const confirm = await new WorkspaceClient(app.url).call('/api/review-links/confirm', { body: { token } });
    expect(confirm.status, JSON.stringify(confirm.json)).toBe(200);
    expect(confirm.json.message).toBe('Approved');
    expect((await article(id)).review?.blog).toMatchObject({
      status: 'approved',
      approvals: [{ by: reviewer.id, stage: 1, at: expect.any(String) }],
    });
    const approved = (await eventsOf(id)).filter((e) => e.name === 'ArticleApproved');
    expect(approved.map((e) => e.detail)).toEqual([
      expect.objectContaining({ approverId: reviewer.id, actorId: reviewer.id, stage: 1, final: true, postUrl: null }),
    ]);
    // Used: the same link again is for an earlier state.
    const again = await new WorkspaceClient(app.url).call('/api/review-links/confirm', { body: { token } });
    expect(again.status).toBe(409);
    // A forged token is refused.
    const forged = await new WorkspaceClient(app.url).call('/api/review-links/confirm', {
      body: { token: `${token.slice(0, -4)}AAAA` },
    });
    expect(forged.status).toBe(400);
  });

  it('an edit after approval clears it and asks the reviewers again', async () => {
    const mailsBefore = reviewMails(reviewer.email, title).length;
    const res = await writer.client.call(`/api/articles/${id}/blog`, {
      method: 'PUT',
      body: { content: '# Quarterly results\n\nQ3 revenue grew 13%.' },
    });
    expect(res.json.article.review.blog).toMatchObject({ status: 'pending', approvals: [] });
    await localJobsIdle();
    expect(reviewMails(reviewer.email, title)).toHaveLength(mailsBefore + 1);
    // The link e-mailed before the edit no longer applies.
    const old = reviewMails(reviewer.email, title).at(-2)!;
    const oldToken = decodeURIComponent(/Approve: \S+\/review\?token=([A-Za-z0-9._%-]+)/.exec(old.text ?? '')![1]!);
    expect(
      (await new WorkspaceClient(app.url).call('/api/review-links/confirm', { body: { token: oldToken } })).status,
    ).toBe(409);
    // An editor approves from the app, and Publish Now then goes out.
    const approved = await review(editor, id, 'approve');
    expect(approved.status, JSON.stringify(approved.json)).toBe(200);
    const publish = await editor.client.call(`/api/wordpress/publish/${id}`, { method: 'POST' });
    expect(publish.status, JSON.stringify(publish.json)).toBe(200);
  });

  it('the activity lists each review step with the member who took it', async () => {
    const review = (await activityOf(id)).filter((e) => /review|approv|changes|published/i.test(e.what));
    expect(review).toEqual([
      { what: 'Submitted the blog version for review', who: 'Wren Writer' },
      { what: 'Requested changes to the blog version', who: 'Rae Reviewer' },
      { what: 'Edited the blog version: back in review', who: 'Wren Writer' },
      { what: 'Approved the blog version', who: 'Rae Reviewer' },
      { what: 'Edited the blog version: back in review', who: 'Wren Writer' },
      { what: 'Approved the blog version', who: 'Eddie Editor' },
      { what: 'Published on WordPress', who: 'Eddie Editor' },
    ]);
  });
});

/**
 * How often `call` reads the team workspace's record (its PROFILE item), counting every read command the app's
 * document client sends meanwhile (the local server runs the handlers in this process).
 */
async function workspaceRecordReads(call: () => Promise<unknown>): Promise<number> {
  await localJobsIdle(); // a background job's reads are not the request's
  const send = vi.spyOn(DynamoDBDocumentClient.prototype, 'send');
  try {
    await call();
    const isRecord = (key: unknown) => {
      const { PK, SK } = (key ?? {}) as { PK?: string; SK?: string };
      return PK === `USER#${teamId}` && SK === 'PROFILE';
    };
    const keysRead = send.mock.calls.flatMap(([command]) => {
      const input = command.input as Record<string, any>;
      const name = command.constructor.name;
      if (name === 'GetCommand') return [input.Key];
      if (name === 'BatchGetCommand') return Object.values(input.RequestItems).flatMap((r: any) => r.Keys);
      if (name === 'TransactGetCommand') return input.TransactItems.map((t: any) => t.Get?.Key);
      return [];
    });
    expect(send.mock.calls.length).toBeGreaterThan(0); // the spy sees the app's calls
    return keysRead.filter(isRecord).length;
  } finally {
    send.mockRestore();
  }
}

/** How often `call` reads the article's item before its first write (the publish's claim). */
async function articleReadsBeforeClaim(articleId: string, call: () => Promise<unknown>): Promise<number> {
  await localJobsIdle();
  const send = vi.spyOn(DynamoDBDocumentClient.prototype, 'send');
  try {
    await call();
    const commands = send.mock.calls.map(([command]) => command as { constructor: { name: string }; input: any });
    const firstWrite = commands.findIndex((c) =>
      ['UpdateCommand', 'PutCommand', 'TransactWriteCommand'].includes(c.constructor.name),
    );
    expect(firstWrite).toBeGreaterThan(0);
    return commands
      .slice(0, firstWrite)
      .filter((c) => c.constructor.name === 'GetCommand' && c.input.Key?.SK === `ARTICLE#${articleId}`).length;
  } finally {
    send.mockRestore();
  }
}

describe('Publish Now where review is required', () => {
  it('reads the article once: its approval is checked on the article the publish reads', async () => {
    expect((await setReview('one', 24)).status).toBe(200);
    const id = await newArticle(writer, 'Checked once');
    expect((await review(writer, id, 'submit')).status).toBe(200);
    expect((await review(reviewer, id, 'approve')).status).toBe(200);
    const publish = () => editor.client.call(`/api/wordpress/publish/${id}`, { method: 'POST' });
    expect(await articleReadsBeforeClaim(id, async () => expect((await publish()).status).toBe(200))).toBe(1);
  });
});

describe('the workspace record', () => {
  it('is read once by an edit and by a Publish Now in a team workspace: the request’s own read carries the review setting', async () => {
    expect((await setReview('one', 24)).status).toBe(200);
    const id = await newArticle(writer, 'Read once');
    expect((await review(writer, id, 'submit')).status).toBe(200);
    // The author edits the version in review (it stays in review): the setting decides what the edit does.
    const edit = () =>
      writer.client.call(`/api/articles/${id}/blog`, { method: 'PUT', body: { content: '# Read once\n\nShorter.' } });
    expect(await workspaceRecordReads(async () => expect((await edit()).status).toBe(200))).toBe(1);
    expect((await review(reviewer, id, 'approve')).status).toBe(200);
    const publish = () => editor.client.call(`/api/wordpress/publish/${id}`, { method: 'POST' });
    expect(await workspaceRecordReads(async () => expect((await publish()).status).toBe(200))).toBe(1);
    // The setting read with it is the one in force: an owner's change applies to the next request.
    expect((await setReview('author', 24)).status).toBe(200);
    const other = await newArticle(writer, 'Read once, author');
    const free = await editor.client.call(`/api/wordpress/publish/${other}`, { method: 'POST' });
    expect(free.status, JSON.stringify(free.json)).toBe(200);
    expect((await setReview('one', 24)).status).toBe(200);
  });
});

describe('an edit of a version in review', () => {
  it('is one write with the review it resets: no later write can fail and leave the new text with the old approval', async () => {
    expect((await setReview('one', 24)).status).toBe(200);
    const title = 'One write';
    const id = await newArticle(writer, title);
    expect((await review(writer, id, 'submit')).status).toBe(200);
    expect((await review(reviewer, id, 'approve')).status).toBe(200);
    await localJobsIdle();
    const mailsBefore = reviewMails(reviewer.email, title).length;
    const text = '# One write\n\nThe new text.';
    // The request's first transaction goes through; any further one fails as a crash between two writes would.
    const send = DynamoDBDocumentClient.prototype.send;
    const transactions: unknown[] = [];
    const failing = vi.spyOn(DynamoDBDocumentClient.prototype, 'send').mockImplementation(function (
      this: DynamoDBDocumentClient,
      command: { constructor: { name: string } },
      ...rest: unknown[]
    ) {
      if (command.constructor.name === 'TransactWriteCommand' && transactions.push(command) > 1)
        return Promise.reject(new Error('the table is gone'));
      return (send as (...args: unknown[]) => Promise<unknown>).call(this, command, ...rest);
    } as never);
    let res: Awaited<ReturnType<typeof writer.client.call>>;
    try {
      res = await writer.client.call(`/api/articles/${id}/blog`, { method: 'PUT', body: { content: text } });
    } finally {
      failing.mockRestore();
    }
    const after = await article(id);
    expect(after.blog.content === text && after.review?.blog?.status === 'approved').toBe(false);
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(transactions).toHaveLength(1);
    expect(after.blog.content).toBe(text);
    expect(after.review?.blog).toMatchObject({ status: 'pending', stage: 1, approvals: [], authors: [writer.id] });
    expect(res.json.article.review.blog).toEqual(after.review?.blog);
    expect((await eventsOf(id)).filter((e) => e.name === 'ReviewRequested').map((e) => e.detail)).toEqual([
      expect.objectContaining({ reason: 'submitted' }),
      expect.objectContaining({ reason: 'edited', actorId: writer.id, stage: 1, platform: 'wordpress' }),
    ]);
    await localJobsIdle(); // the reviewers' e-mail is the worker's job
    expect(reviewMails(reviewer.email, title)).toHaveLength(mailsBefore + 1);
  });
});

describe('GPT edit', () => {
  it('saves the version, so an approved one returns to review', async () => {
    const id = await newArticle(writer, 'Edited by GPT');
    expect((await review(writer, id, 'submit')).status).toBe(200);
    expect((await review(reviewer, id, 'approve')).status).toBe(200);
    const res = await writer.client.call('/api/gpt-edit', {
      body: { articleId: id, contentType: 'blog', editRequest: 'Make it shorter' },
    });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json.article.review.blog).toMatchObject({ status: 'pending', approvals: [] });
    expect((await eventsOf(id)).filter((e) => e.name === 'ReviewRequested').map((e) => e.detail.reason)).toEqual([
      'submitted',
      'edited',
    ]);
  });
});

describe('two stages: an editor or reviewer, then an owner', () => {
  it('advances in order: the owner only after the first stage, each stage its own ArticleApproved', async () => {
    expect((await setReview('two', 24)).status).toBe(200);
    const title = 'Two stage launch';
    const id = await newArticle(writer, title);
    expect((await review(writer, id, 'submit')).status).toBe(200);
    // Stage 1 goes to the editor and the reviewer, not the owner.
    expect(reviewMails(owner.email, title)).toHaveLength(0);
    expect(reviewMails(editor.email, title)).toHaveLength(1);
    const early = await review(owner, id, 'approve');
    expect(early.status).toBe(403);
    expect(early.json.message).toMatch(/first stage is approved by an editor or reviewer/);

    const first = await review(reviewer, id, 'approve');
    expect(first.status).toBe(200);
    expect(first.json.message).toMatch(/owner is asked next/);
    expect(first.json.article.review.blog).toMatchObject({ status: 'pending', stage: 2 });
    expect(reviewMails(owner.email, title)).toHaveLength(1);
    // The second stage is the owner's: the editor cannot.
    expect((await review(editor, id, 'approve')).json.code).toBe('role_cannot_approve');
    const second = await review(owner, id, 'approve');
    expect(second.status).toBe(200);
    expect(second.json.article.review.blog).toMatchObject({ status: 'approved' });
    const approvals = (await eventsOf(id)).filter((e) => e.name === 'ArticleApproved').map((e) => e.detail);
    expect(approvals).toEqual([
      expect.objectContaining({ approverId: reviewer.id, stage: 1, final: false }),
      expect.objectContaining({ approverId: owner.id, stage: 2, final: true }),
    ]);
    // The first stage's approval and the second stage's request are one write, at one instant: in either order.
    const steps = (await activityOf(id)).filter((e) => /review|approv/i.test(e.what));
    expect(steps).toHaveLength(4);
    expect(steps[0]).toEqual({ what: 'Submitted the blog version for review', who: 'Wren Writer' });
    expect(steps.slice(1, 3)).toEqual(
      expect.arrayContaining([
        { what: 'Approved the blog version (stage 1 of 2)', who: 'Rae Reviewer' },
        { what: 'Asked for the final approval of the blog version (stage 2 of 2)', who: 'Rae Reviewer' },
      ]),
    );
    expect(steps[3]).toEqual({ what: 'Approved the blog version (stage 2 of 2)', who: 'Olive Owner' });
    expect((await setReview('one', 24)).status).toBe(200);
  });
});

describe('the version’s image', () => {
  it('is in the reviewers’ e-mail inline, and the review page’s preview reads it by the link’s token alone', async () => {
    const title = 'Lighthouse season';
    const id = await newArticle(writer, title);
    const generated = await writer.client.call(`/api/image/generate/${id}`, { body: { description: 'a lighthouse' } });
    expect(generated.status, JSON.stringify(generated.json)).toBeLessThan(300);
    await imageSettled(writer.client, id);
    expect((await review(writer, id, 'submit')).status).toBe(200);
    const mail = reviewMails(reviewer.email, title).at(-1)!;
    expect(mail.html).toContain('src="cid:article-image"');
    expect(mail.html).toContain('alt="a lighthouse"');
    expect(mail.parts.find((p) => p.contentType.startsWith('image/'))?.headers['content-id']).toBe('<article-image>');

    const token = linkToken(reviewer.email, title, 'Approve');
    const signedOut = new WorkspaceClient(app.url);
    const preview = await signedOut.call('/api/review-links/preview', { body: { token } });
    expect(preview.json.image).toEqual({ generatedAt: expect.any(String), description: 'a lighthouse' });
    const image = await fetch(`${app.url}/api/review-links/image?token=${encodeURIComponent(token)}`, {
      redirect: 'manual',
    });
    expect(image.status).toBe(302);
    expect(image.headers.get('location')).toContain(`/articles/${id}/`);
    expect(image.headers.get('location')).toMatch(/-blog\.\w+\?/);
    // One character of the signature changed: not its last ones, whose low bits base64url leaves out (a token ending
    // in "x" and a character of the same high bits was still the valid one after `…xx`, now and then).
    const at = token.length - 5;
    const forgedToken = `${token.slice(0, at)}${token[at] === 'A' ? 'B' : 'A'}${token.slice(at + 1)}`;
    const forged = await fetch(`${app.url}/api/review-links/image?token=${encodeURIComponent(forgedToken)}`, {
      redirect: 'manual',
    });
    expect(forged.status).toBe(400);
    expect(forged.headers.get('location')).toBeNull();
  });
});

describe('at the slot', () => {
  const schedule = (id: string, at: number) =>
    editor.client.call(`/api/articles/${id}/schedule`, {
      method: 'PUT',
      body: { platform: 'blog', datetime: new Date(at).toISOString() },
    });

  it('a version not approved by its slot waits (its reviewers asked by the run), then expires past the grace period and its author is told', async () => {
    const title = 'Not approved in time';
    const id = await newArticle(writer, title);
    const slot = Date.now() + HOUR;
    expect((await schedule(id, slot)).status).toBe(200);
    const scheduledFor = new Date(slot).toISOString();
    const run = { userId: teamId, articleId: id, platform: 'blog' as const, scheduledFor };
    const settings = { mode: 'one' as const, graceHours: 24 };
    expect(slotApproval(await article(id), 'blog', settings, new Date(slot))).toBe('waiting');

    // The run at the slot (no approval e-mail to the owner): review starts, the reviewers are e-mailed.
    expect(await approvalNotifier().generateAndNotify(run)).toBe('review-waiting');
    expect(mails().filter((m) => m.subject.startsWith('Approve for'))).toHaveLength(0);
    expect(reviewMails(reviewer.email, title)).toHaveLength(1);
    const started = await article(id);
    expect(started.review?.blog).toMatchObject({ status: 'pending', authors: [writer.id] });
    expect((await eventsOf(id)).filter((e) => e.name === 'ReviewRequested').map((e) => e.detail)).toEqual([
      expect.objectContaining({ actorId: null, reason: 'scheduled', scheduledFor }),
    ]);

    // Within the grace period it still waits; past it, the expiry check finds it Expired and e-mails the author.
    expect(slotApproval(started, 'blog', settings, new Date(slot + 23 * HOUR))).toBe('waiting');
    expect(slotApproval(started, 'blog', settings, new Date(slot + 24 * HOUR))).toBe('expired');
    const late = buildReviewService(() => new Date(slot + 24 * HOUR + 1000));
    expect(await late.scheduledRun(run, settings, true)).toBe('expired');
    const expired = mails().filter((m) => m.subject === `Expired: ${title} (WordPress (blog))`);
    expect(expired.map((m) => m.to)).toEqual([writer.email]);
    expect(expired[0]!.text).toMatch(/was not approved in time/);
    // Told once per slot.
    expect(await late.scheduledRun(run, settings, true)).toBe('expired');
    expect(mails().filter((m) => m.subject === `Expired: ${title} (WordPress (blog))`)).toHaveLength(1);
    // Approving now publishes nothing: the slot is gone.
    const posts = wp.posts.length;
    const approved = await late.approve(teamId, reviewer.id, 'reviewer', id, 'blog');
    expect(approved.published).toBeNull();
    expect(wp.posts.length).toBe(posts);
  });

  it('approved later within the grace period, it publishes at the approval', async () => {
    const title = 'Approved late';
    const id = await newArticle(writer, title);
    const slot = Date.now() + HOUR;
    await schedule(id, slot);
    const run = {
      userId: teamId,
      articleId: id,
      platform: 'blog' as const,
      scheduledFor: new Date(slot).toISOString(),
    };
    expect(await approvalNotifier().generateAndNotify(run)).toBe('review-waiting');
    const posts = wp.posts.length;
    const within = buildReviewService(() => new Date(slot + 2 * HOUR));
    const { published } = await within.approve(teamId, reviewer.id, 'reviewer', id, 'blog');
    expect(published).toMatchObject({ platform: 'blog', postUrl: expect.stringContaining('http') });
    expect(wp.posts.length).toBe(posts + 1);
    expect((await article(id)).blog.publishedToWordPress).toBe(true);
    const published_ = (await eventsOf(id)).filter((e) => e.name === 'PublishSucceeded');
    expect(published_.map((e) => e.detail)).toEqual([expect.objectContaining({ trigger: 'approval' })]);
    // The expiry check afterwards finds it published and does nothing.
    expect(await within.scheduledRun(run, { mode: 'one', graceHours: 24 }, true)).toBe('stale');
    expect(wp.posts.length).toBe(posts + 1);
  });

  it('approved before its slot, the run at the slot publishes it', async () => {
    const title = 'Approved early';
    const id = await newArticle(writer, title);
    const slot = Date.now() + HOUR;
    await schedule(id, slot);
    expect((await review(writer, id, 'submit')).status).toBe(200);
    expect((await review(reviewer, id, 'approve')).status).toBe(200);
    const posts = wp.posts.length;
    const atSlot = buildReviewService(() => new Date(slot + 1000));
    const run = {
      userId: teamId,
      articleId: id,
      platform: 'blog' as const,
      scheduledFor: new Date(slot).toISOString(),
    };
    expect(await atSlot.scheduledRun(run, { mode: 'one', graceHours: 24 }, false)).toBe('published');
    expect(wp.posts.length).toBe(posts + 1);
    expect(slotApproval(await article(id), 'blog', { mode: 'one', graceHours: 24 }, new Date(slot + 1000))).toBeNull();
  });
});
