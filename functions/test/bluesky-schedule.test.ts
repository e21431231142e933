/**
 * The Bluesky version's own schedule and approval, and its review by someone other than the author, over DynamoDB
 * Local: `schedule.set` with its version id sets `scheduled.bluesky` (bad names refused, the blog and LinkedIn slots
 * untouched), the local scheduler fires, the owner's approval e-mail names Bluesky and shows its text, the /approve
 * page's answer is its text and channel, and Approve publishes it to a REAL PDS (channel-servers/atproto/pds.ts),
 * read back with com.atproto.repo.getRecord. In a review workspace its reviewers get the review e-mail and link, and
 * the review page shows its text. Without a PDS (and without REQUIRE_CHANNEL_SERVERS=1) those tests skip.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import type { CalendarEntry } from '@app/shared';
import { atprotoPdsOrSkip, type ChannelServer } from './channel-servers/atproto/pds.js';
import { pdsAccount, xrpc as callXrpc, type XrpcInit } from './channel-servers/atproto/xrpc.js';
import { parseMime } from './fakes/mime.js';
import { Client, drafted, registration, startTestApp, waitUntil, type TestApp } from './helpers/app.js';
import { localJobsIdle } from '../src/adapters/local/in-process-job-queue.js';
import { trackSecret } from './helpers/secrets.js';
import { activeAccount, invitationToken, WorkspaceClient } from './helpers/workspaces.js';

let app: TestApp;
let pds: ChannelServer | undefined;
let user: WorkspaceClient;
let did = '';

const server = (ctx: TestContext): ChannelServer => {
  if (!pds) ctx.skip();
  return pds!;
};

const xrpc = (nsid: string, init: XrpcInit = {}) => callXrpc(pds!, nsid, init);

/** An account on the PDS, connected as the Bluesky of `client`'s workspace; its DID. */
async function connectBluesky(client: WorkspaceClient, name: string): Promise<string> {
  const made = await pdsAccount(pds!, name, trackSecret);
  const connected = await client.call('/api/channels/bluesky/connection', {
    method: 'PUT',
    body: { handle: made.handle, appPassword: made.appPassword, serviceUrl: pds!.url },
  });
  expect(connected.status, JSON.stringify(connected.json)).toBe(200);
  return made.did;
}

const mails = () => {
  let files: string[];
  try {
    files = readdirSync(join(app.dataDir, 'outbox'));
  } catch {
    return [];
  }
  return files
    .filter((f) => f.endsWith('.eml'))
    .sort()
    .map((f) => parseMime(readFileSync(join(app.dataDir, 'outbox', f), 'utf8')));
};

/** The newest e-mail of this subject, once it is in the outbox. */
const mailOf = (subject: string) =>
  waitUntil(
    async () =>
      mails()
        .filter((m) => m.subject === subject)
        .at(-1),
    (m) => m !== undefined,
    `the e-mail "${subject}"`,
  );

const tokenIn = (text: string | undefined, before: string, path: string) => {
  const m = new RegExp(`${before}\\S+/${path}\\?token=([A-Za-z0-9._%-]+)`).exec(text ?? '');
  expect(m, `a ${path} link in the e-mail`).not.toBeNull();
  return decodeURIComponent(m![1]!);
};

async function newArticle(client: WorkspaceClient, title: string): Promise<string> {
  const res = await client.call('/api/articles', { body: { title, topic: 'Short posts that travel', keyword: 'sky' } });
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  await drafted(client, res.json.article._id);
  return res.json.article._id as string;
}

const putBluesky = (client: WorkspaceClient, id: string, content: string) =>
  client.call(`/api/articles/${id}/versions/bluesky`, { method: 'PUT', body: { content } });
const schedule = (client: WorkspaceClient, id: string, body: Record<string, unknown>) =>
  client.call(`/api/articles/${id}/schedule`, { method: 'PUT', body });
const soon = () => new Date(Date.now() + 500).toISOString();
const later = () => new Date(Math.ceil((Date.now() + 2 * 86_400_000) / 300_000) * 300_000).toISOString();

beforeAll(async () => {
  [pds, app] = await Promise.all([atprotoPdsOrSkip(), startTestApp()]);
  user = new WorkspaceClient(app.url);
  await user.call('/api/auth/register', { body: registration({ email: 'sky-owner@example.com' }) });
}, 30 * 60_000);

afterAll(async () => {
  await app?.stop();
  await pds?.stop();
});

describe('the Bluesky version’s own schedule', () => {
  it('is set at its own path; the blog and LinkedIn slots stay; a name that is no version is refused and changes nothing', async () => {
    const id = await newArticle(user, 'Its own slot');
    const at = later();
    const set = await schedule(user, id, { platform: 'bluesky', datetime: at });
    expect(set.status, JSON.stringify(set.json)).toBe(200);
    expect(set.json.scheduledFor).toBe(at);
    expect(set.json.article.scheduled).toEqual({ blog: null, linkedin: null, bluesky: at });

    for (const platform of ['wordpress', 'ghost', 'mastodon', 'Bluesky', '../x', 7]) {
      const refused = await schedule(user, id, { platform, datetime: later() });
      expect(refused.status, String(platform)).toBe(400);
      expect(refused.json.message).toBe('Platform must be blog or linkedin');
    }
    const past = await schedule(user, id, { platform: 'bluesky', datetime: '2020-01-01T10:00:00.000Z' });
    expect(past.status).toBe(400);
    expect(past.json.message).toBe('Please choose a future date and time.');
    // The social posts ride with the blog version's approval only.
    const bundled = await schedule(user, id, { platform: 'bluesky', datetime: later(), bundle: true });
    expect(bundled.status).toBe(400);
    expect((await user.call(`/api/articles/${id}`)).json.article.scheduled).toEqual({
      blog: null,
      linkedin: null,
      bluesky: at,
    });

    // The blog-first bundle carries the social posts: the Bluesky slot gives way as LinkedIn's does.
    const blog = await schedule(user, id, { platform: 'blog', datetime: later(), bundle: true });
    expect(blog.status, JSON.stringify(blog.json)).toBe(200);
    expect(blog.json.article.scheduled.bluesky).toBeNull();
  });

  it('another user’s article: 404, nothing scheduled', async () => {
    const id = await newArticle(user, 'Not theirs');
    const other = (await activeAccount(app, user, { email: 'sky-other@example.com' })).client;
    const res = await other.call(`/api/articles/${id}/schedule`, {
      method: 'PUT',
      body: { platform: 'bluesky', datetime: later() },
    });
    expect(res.status).toBe(404);
    expect((await user.call(`/api/articles/${id}`)).json.article.scheduled.bluesky ?? null).toBeNull();
  });

  it('its slot is on the calendar as the Bluesky version’s entry, follows a reschedule, and leaves with the bundle', async () => {
    const id = await newArticle(user, 'Sky on the calendar');
    const at = later();
    expect((await schedule(user, id, { platform: 'bluesky', datetime: at })).status).toBe(200);
    const from = new Date(Date.parse(at) - 86_400_000).toISOString();
    const to = new Date(Date.parse(at) + 3 * 86_400_000).toISOString();
    const entriesOf = async () =>
      (
        (await user.call(`/api/calendar?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`)).json
          .entries as CalendarEntry[]
      ).filter((e) => e.articleId === id);
    expect(await entriesOf()).toEqual([
      {
        articleId: id,
        platform: 'bluesky',
        version: 'bluesky',
        at,
        kind: 'scheduled',
        status: 'scheduled',
        title: 'Sky on the calendar',
        url: null,
        channel: 'bluesky',
      },
    ]);

    // Moved (as a drag on the calendar sends it): the entry moves with its slot.
    const moved = new Date(Date.parse(at) + 86_400_000).toISOString();
    expect((await schedule(user, id, { platform: 'bluesky', datetime: moved })).status).toBe(200);
    expect((await entriesOf()).map((e) => [e.articleId, e.at])).toEqual([[id, moved]]);

    // The blog-first bundle takes the Bluesky slot away, and its entry with it.
    expect((await schedule(user, id, { platform: 'blog', datetime: at, bundle: true })).status).toBe(200);
    expect((await entriesOf()).map((e) => e.platform)).toEqual(['blog']);
  });

  it('the scheduled run e-mails the owner to approve the Bluesky text; Approve posts it to the PDS once', async (ctx) => {
    server(ctx);
    did = await connectBluesky(user, 'skyowner');
    const id = await newArticle(user, 'Sky on schedule');
    const text = 'Short posts travel far. #sky';
    expect((await putBluesky(user, id, text)).status).toBe(200);
    const set = await schedule(user, id, { platform: 'bluesky', datetime: soon() });
    expect(set.status, JSON.stringify(set.json)).toBe(200);

    const mail = (await mailOf('Approve for Bluesky: Sky on schedule'))!;
    expect(mail.text).toContain('"Sky on schedule" is ready for Bluesky');
    expect(mail.text).toContain('What will be published on Bluesky:');
    expect(mail.text).toContain(text);
    expect(mail.html).toContain('Publish “Sky on schedule” to Bluesky?');
    // Its channel's own preview (channels/bluesky/email-preview.ts): the account, hashtags in Bluesky's blue.
    expect(mail.html).toContain('Your Bluesky account');
    expect(mail.html).toContain('Short posts travel far. <span style="color:#1083fe">#sky</span>');
    const token = tokenIn(mail.text, 'Review and approve: ', 'approve');

    const anonymous = new Client(app.url);
    const preview = await anonymous.call('/api/approvals/preview', { body: { token } });
    expect(preview.status, JSON.stringify(preview.json)).toBe(200);
    expect(preview.json).toMatchObject({
      platform: 'bluesky',
      content: text,
      current: true,
      published: false,
      channels: [{ channel: 'bluesky', label: 'Bluesky', published: false, postUrl: null }],
    });

    const done = await anonymous.call('/api/approvals/confirm', { body: { token } });
    expect(done.status, JSON.stringify(done.json)).toBe(200);
    expect(done.json.platform).toBe('bluesky');
    const url: string = done.json.postUrl;
    expect(url).toMatch(new RegExp(`^https://bsky\\.app/profile/${did}/post/[a-z2-7]{13}$`));
    const record = await xrpc('com.atproto.repo.getRecord', {
      query: { repo: did, collection: 'app.bsky.feed.post', rkey: url.split('/').pop()! },
    });
    expect(record.status).toBe(200);
    expect(record.json.value.text).toBe(text);

    const article = (await user.call(`/api/articles/${id}`)).json.article;
    expect(article.posts.bluesky.url).toBe(url);
    expect(article.blog.publishedToWordPress).toBe(false);
    // Once: the same link again publishes nothing more; scheduling it again is refused as published.
    expect((await anonymous.call('/api/approvals/confirm', { body: { token } })).status).toBe(409);
    const again = await schedule(user, id, { platform: 'bluesky', datetime: later() });
    expect(again.status).toBe(409);
    expect(again.json.message).toBe('Bluesky is already published for this article, so it cannot be scheduled again.');
    const list = await xrpc('com.atproto.repo.listRecords', {
      query: { repo: did, collection: 'app.bsky.feed.post', limit: '100' },
    });
    expect(list.json.records.filter((r: any) => r.value.text === text)).toHaveLength(1);
  });
});

describe('the Bluesky version reviewed by someone other than its author', () => {
  it('its reviewers get the review e-mail with its text; the review link shows it and approves it', async () => {
    const admin = user;
    const owner = await activeAccount(app, admin, { email: 'sky-team-owner@example.com' });
    const writer = await activeAccount(app, admin, { email: 'sky-writer@example.com' });
    const reviewer = await activeAccount(app, admin, { email: 'sky-reviewer@example.com', name: 'Rae' });
    const teamId = (await owner.client.call('/api/workspaces', { body: { name: 'Sky Review' } })).json.workspace.id;
    owner.client.workspace = teamId;
    for (const [account, role] of [
      [writer, 'writer'],
      [reviewer, 'reviewer'],
    ] as const) {
      expect(
        (await owner.client.call('/api/workspace/invitations', { body: { email: account.email, role } })).status,
      ).toBe(201);
      const accepted = await account.client.call('/api/invitations/accept', {
        body: { token: invitationToken(app, account.email) },
      });
      expect(accepted.status).toBe(200);
      account.client.workspace = teamId;
    }
    expect(
      (await owner.client.call('/api/workspace/review', { method: 'PUT', body: { mode: 'one', graceHours: 24 } }))
        .status,
    ).toBe(200);

    const id = await newArticle(writer.client, 'Reviewed sky post');
    const text = 'Reviewed before it flies. #sky';
    expect((await putBluesky(writer.client, id, text)).status).toBe(200);
    const submitted = await writer.client.call(`/api/articles/${id}/review/submit`, {
      method: 'POST',
      body: { platform: 'bluesky' },
    });
    expect(submitted.status, JSON.stringify(submitted.json)).toBe(200);
    await localJobsIdle();

    const mail = (await mailOf('Review for Bluesky: Reviewed sky post'))!;
    expect(mail.to).toContain('sky-reviewer@example.com');
    expect(
      mails().filter((m) => m.subject === 'Review for Bluesky: Reviewed sky post' && m.to.includes('sky-writer')),
    ).toEqual([]);
    expect(mail.text).toContain(text);
    expect(mail.text).toContain('What will be published on Bluesky:');

    const approve = tokenIn(mail.text, 'Approve: ', 'review');
    const anonymous = new Client(app.url);
    const preview = await anonymous.call('/api/review-links/preview', { body: { token: approve } });
    expect(preview.status, JSON.stringify(preview.json)).toBe(200);
    expect(preview.json).toMatchObject({ platform: 'bluesky', content: text, action: 'approve', current: true });
    const confirmed = await anonymous.call('/api/review-links/confirm', { body: { token: approve } });
    expect(confirmed.status, JSON.stringify(confirmed.json)).toBe(200);
    const article = (await writer.client.call(`/api/articles/${id}`)).json.article;
    expect(article.review.bluesky).toMatchObject({ status: 'approved' });
    expect(article.review.blog ?? null).toBeNull();

    // Request changes by link: the authors are e-mailed, naming Bluesky.
    expect((await putBluesky(writer.client, id, `${text} Again.`)).status).toBe(200);
    expect(
      (await writer.client.call(`/api/articles/${id}/review/submit`, { method: 'POST', body: { platform: 'bluesky' } }))
        .status,
    ).toBe(200);
    await localJobsIdle();
    const second = await waitUntil(
      async () => mails().filter((m) => m.subject === 'Review for Bluesky: Reviewed sky post'),
      (all) => all.length >= 2,
      'the second review e-mail',
    );
    const changes = tokenIn(second.at(-1)!.text, 'Request changes: ', 'review');
    const asked = await anonymous.call('/api/review-links/confirm', {
      body: { token: changes, comment: 'Shorter, please' },
    });
    expect(asked.status, JSON.stringify(asked.json)).toBe(200);
    const told = (await mailOf('Changes requested for Bluesky: Reviewed sky post'))!;
    expect(told.to).toContain('sky-writer@example.com');
    expect(told.text).toContain('Shorter, please');
  });
});
