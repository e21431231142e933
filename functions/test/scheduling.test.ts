import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { inject } from 'vitest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalStack } from '../src/local/stack.js';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DynamoArticleStore } from '../src/adapters/dynamo/article-store.js';
import { NOTIFY_LEASE_MS } from '../src/domain/scheduling.js';
import { approvalNotifier } from '../src/wiring/approval-notifier.js';
import { withoutOfflineDraftNote } from '@app/shared';
import { parseMime } from './fakes/mime.js';
import { FAKE_WP_EDITOR, startFakeWordPress, type FakeWordPress } from './fakes/wordpress.js';
import {
  Client,
  drafted,
  draftedForPublishing,
  imageSettled,
  registration,
  startTestApp,
  type TestApp,
} from './helpers/app.js';

let app: TestApp;
let wp: FakeWordPress;
let user: Client;
let userId: string;

const articlesDb = () =>
  DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: inject('dynamoEndpoint'),
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
    { marshallOptions: { removeUndefinedValues: true } },
  );
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const outbox = () => {
  try {
    return readdirSync(join(app.dataDir, 'outbox'))
      .filter((f) => f.endsWith('.eml'))
      .sort();
  } catch {
    return [];
  }
};
const mails = () => outbox().map((f) => readFileSync(join(app.dataDir, 'outbox', f), 'utf8'));
/** Decoded e-mails in the outbox, oldest first. */
const parsed = () => mails().map(parseMime);
/** The approve link's token, from the text part of an e-mail. */
function tokenFrom(eml: string): string {
  const mail = parseMime(eml);
  const m = /\/approve\?token=([A-Za-z0-9._%-]+)/.exec(`${mail.text ?? ''}`);
  if (!m) throw new Error('no approve link in the e-mail');
  return decodeURIComponent(m[1]!);
}

async function newArticle(title: string) {
  const id = (await user.call('/api/articles', { body: { title, topic: 'Scheduling', keyword: 'schedules' } })).json
    .article._id as string;
  await draftedForPublishing(user, id);
  return id;
}
const schedule = (id: string, platform: string, datetime: string) =>
  user.call(`/api/articles/${id}/schedule`, { method: 'PUT', body: { platform, datetime } });

beforeAll(async () => {
  wp = await startFakeWordPress();
  app = await startTestApp();
  user = new Client(app.url);
  userId = (await user.call('/api/auth/register', { body: registration({ email: 'owner@example.com' }) })).json.user
    ._id;
  await user.call('/api/wordpress/credentials', {
    body: { siteUrl: wp.url, username: FAKE_WP_EDITOR.username, appPassword: FAKE_WP_EDITOR.appPassword },
  });
});
afterAll(async () => {
  await app?.stop();
  await wp?.stop();
});

describe('scheduling input', () => {
  it('refuses past, malformed and unknown-platform input and changes nothing', async () => {
    const id = await newArticle('Bad input');
    const before = await app.items();
    const past = await schedule(id, 'blog', new Date(Date.now() - 24 * 3600 * 1000).toISOString());
    expect(past.status).toBe(400);
    expect(past.json.message).toBe('Please choose a future date and time.');
    const malformed = await schedule(id, 'blog', 'tomorrow at noon');
    expect(malformed.json.message).toBe('Please select a valid date and time.');
    expect((await schedule(id, 'tiktok', new Date(Date.now() + 3600_000).toISOString())).status).toBe(400);
    expect((await schedule('nope123', 'blog', new Date(Date.now() + 3600_000).toISOString())).status).toBe(404);
    expect(await app.items()).toEqual(before);
  });

  it('schedules both platforms in parallel', async () => {
    const id = await newArticle('Both');
    const at = new Date(Date.now() + 3600_000).toISOString();
    const [a, b] = await Promise.all([schedule(id, 'blog', at), schedule(id, 'linkedin', at)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const article = (await user.call(`/api/articles/${id}`)).json.article;
    expect(article.scheduled).toEqual({ blog: at, linkedin: at });
  });
});

/** E-mails in the outbox with this subject. */
const withSubject = (subject: string) => parsed().filter((m) => m.subject === subject);
/**
 * Waits until an e-mail with this subject is in the outbox and answers when it came. The limit
 * is generous on purpose: the 1 s budget of the scheduler is measured by `npm run bench`
 * (docs/testing.md, Performance budgets), here only that it fires, once, and not early.
 */
async function mailArrives(subject: string, limitMs = 15_000): Promise<number> {
  const until = Date.now() + limitMs;
  while (withSubject(subject).length === 0) {
    if (Date.now() > until) throw new Error(`no e-mail "${subject}" within ${limitMs} ms`);
    await sleep(25);
  }
  return Date.now();
}

describe('the scheduled run', () => {
  it('fires at its time and sends one approval e-mail; a moved schedule does not fire at its old time', async () => {
    const moved = 'Approve for WordPress (blog): Fires on time';
    const id = await newArticle('Fires on time');
    const scheduledAt = Date.now();
    await schedule(id, 'blog', new Date(scheduledAt + 1200).toISOString());
    const newTime = scheduledAt + 4000;
    await schedule(id, 'blog', new Date(newTime).toISOString()); // moved
    await sleep(Math.max(0, scheduledAt + 2200 - Date.now()));
    if (Date.now() < newTime) expect(withSubject(moved)).toHaveLength(0); // nothing at the old time

    const id2 = await newArticle('On time');
    const at = Date.now() + 1000;
    await schedule(id2, 'blog', new Date(at).toISOString());
    const firedAt = await mailArrives('Approve for WordPress (blog): On time');
    expect(firedAt).toBeGreaterThanOrEqual(at); // never early
    const [mail, ...more] = withSubject('Approve for WordPress (blog): On time');
    expect(more).toHaveLength(0);
    expect(mail!.to).toBe('owner@example.com');
    expect(mail!.text).toContain('/approve?token=');
    expect(mail!.text).toContain('/schedule');

    expect(await mailArrives(moved)).toBeGreaterThanOrEqual(newTime); // at its new time, once
    await sleep(300);
    expect(withSubject(moved)).toHaveLength(1);
  });

  it('a repeated delivery e-mails once; a stale run does nothing', async () => {
    const id = await newArticle('Twice');
    const at = new Date(Date.now() + 3600_000).toISOString();
    await schedule(id, 'linkedin', at);
    const sent = outbox().length;
    const run = { userId, articleId: id, platform: 'linkedin' as const, scheduledFor: at };
    // Two deliveries at once: one sends; the other finds it in progress and ends without failing (the
    // sending delivery's own retries cover it), or, when the first one was done before it started, finds it sent.
    const both = await Promise.allSettled([
      approvalNotifier().generateAndNotify(run),
      approvalNotifier().generateAndNotify(run),
    ]);
    const outcomes = both.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).name)).sort();
    expect([
      ['in-progress', 'sent'],
      ['duplicate', 'sent'],
    ]).toContainEqual(outcomes);
    // …when the e-mail is out: the retry does nothing.
    expect(await approvalNotifier().generateAndNotify(run)).toBe('duplicate');
    expect(await approvalNotifier().generateAndNotify({ ...run, scheduledFor: new Date().toISOString() })).toBe(
      'stale',
    );
    expect(outbox().length).toBe(sent + 1);
  });

  it('a run cut off before its e-mail went out (only its lease is left) is sent by the retry once the lease has expired', async () => {
    const id = await newArticle('Cut off');
    const at = new Date(Date.now() + 3600_000).toISOString();
    await schedule(id, 'blog', at);
    const run = { userId, articleId: id, platform: 'blog' as const, scheduledFor: at };
    const store = new DynamoArticleStore(articlesDb(), app.tableName);
    // The killed run claimed the e-mail a while ago and never finished.
    const claimedAt = new Date(Date.now() - NOTIFY_LEASE_MS - 1000);
    expect(
      await store.claimNotify(
        userId,
        id,
        'blog',
        at,
        claimedAt.toISOString(),
        new Date(claimedAt.getTime() + NOTIFY_LEASE_MS).toISOString(),
      ),
    ).toBe('claimed');
    expect(await approvalNotifier().generateAndNotify(run)).toBe('sent');
    expect(withSubject('Approve for WordPress (blog): Cut off')).toHaveLength(1);
    expect(await approvalNotifier().generateAndNotify(run)).toBe('duplicate');
  });

  it('a run whose lease another delivery holds sends nothing and ends without failing (a benign duplicate)', async () => {
    const id = await newArticle('Held');
    const at = new Date(Date.now() + 3600_000).toISOString();
    await schedule(id, 'linkedin', at);
    const store = new DynamoArticleStore(articlesDb(), app.tableName);
    expect(
      await store.claimNotify(
        userId,
        id,
        'linkedin',
        at,
        new Date().toISOString(),
        new Date(Date.now() + 60_000).toISOString(),
      ),
    ).toBe('claimed');
    await expect(
      approvalNotifier().generateAndNotify({ userId, articleId: id, platform: 'linkedin', scheduledFor: at }),
    ).resolves.toBe('in-progress');
    expect(withSubject('Approve for LinkedIn: Held')).toHaveLength(0);
  });

  it('survives a restart: stored schedules are re-armed and fire', async () => {
    const id = await newArticle('After restart');
    await schedule(id, 'blog', new Date(Date.now() + 1500).toISOString());
    await app.stop(true);
    const restarted = await startLocalStack({
      port: 0,
      host: '127.0.0.1',
      dataDir: app.dataDir,
      dynamoEndpoint: inject('dynamoEndpoint'),
      tableName: app.tableName,
    });
    try {
      await mailArrives('Approve for WordPress (blog): After restart');
      expect(withSubject('Approve for WordPress (blog): After restart')).toHaveLength(1);
    } finally {
      await restarted.stop();
      app = await startTestApp(); // later tests get a fresh app
      user = new Client(app.url);
      userId = (await user.call('/api/auth/register', { body: registration({ email: 'owner@example.com' }) })).json.user
        ._id;
      await user.call('/api/wordpress/credentials', {
        body: { siteUrl: wp.url, username: FAKE_WP_EDITOR.username, appPassword: FAKE_WP_EDITOR.appPassword },
      });
    }
  });
});

describe('approval links', () => {
  it('publishes only after confirmation, only once; tampered or expired tokens publish nothing', async () => {
    const id = await newArticle('Approve me');
    const at = new Date(Date.now() + 3600_000).toISOString();
    await schedule(id, 'blog', at);
    await approvalNotifier().generateAndNotify({ userId, articleId: id, platform: 'blog', scheduledFor: at });
    const token = tokenFrom(mails().at(-1)!);
    const anonymous = new Client(app.url); // the e-mail may be opened anywhere

    const posts = wp.posts.length;
    const preview = await anonymous.call('/api/approvals/preview', { body: { token } });
    expect(preview.json).toMatchObject({
      success: true,
      title: 'Approve me',
      platform: 'blog',
      current: true,
      published: false,
    });
    expect(wp.posts.length).toBe(posts); // looking never publishes

    const tampered = await anonymous.call('/api/approvals/confirm', {
      body: { token: token.slice(0, -2) + (token.endsWith('A') ? 'BB' : 'AA') },
    });
    expect(tampered.status).toBe(400);
    const expired = await new SignJWT({ purpose: 'approve', aid: id, p: 'blog', at })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(userId)
      .setIssuedAt(Math.floor(Date.now() / 1000) - 3600)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(new TextEncoder().encode(process.env.SESSION_SECRET!));
    expect((await anonymous.call('/api/approvals/confirm', { body: { token: expired } })).status).toBe(400);
    expect(wp.posts.length).toBe(posts);

    const confirmed = await anonymous.call('/api/approvals/confirm', { body: { token } });
    expect(confirmed.status).toBe(200);
    expect(confirmed.json).toMatchObject({ success: true, platform: 'blog' });
    expect(wp.posts.length).toBe(posts + 1);
    const again = await anonymous.call('/api/approvals/confirm', { body: { token } });
    expect(again.status).toBe(409);
    expect(wp.posts.length).toBe(posts + 1);
    expect((await user.call(`/api/articles/${id}`)).json.article.blog.publishedToWordPress).toBe(true);
  });

  it('the scheduled run of an offline draft: its link is refused while the note is in the text, and publishes once it is removed', async () => {
    const id = (
      await user.call('/api/articles', { body: { title: 'Noted approval', topic: 'Offline notes', keyword: 'notes' } })
    ).json.article._id as string;
    const drafts = await drafted(user, id); // offline drafts, with their note
    const at = new Date(Date.now() + 3600_000).toISOString();
    await schedule(id, 'blog', at);
    await approvalNotifier().generateAndNotify({ userId, articleId: id, platform: 'blog', scheduledFor: at });
    const token = tokenFrom(mails().at(-1)!);
    // The e-mail says so before anyone clicks: the text needs an edit first.
    const mail = parsed().at(-1)!;
    const needsEdit =
      'This text needs an edit before it can go out: line 1 of the blog text is still the offline-draft note.';
    expect(mail.text).toContain(needsEdit);
    expect(mail.html).toContain(needsEdit);
    const anonymous = new Client(app.url);
    const posts = wp.posts.length;

    const refused = await anonymous.call('/api/approvals/confirm', { body: { token } });
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({
      code: 'offline_draft_note',
      message:
        'Remove the offline-draft note before publishing: line 1 of the blog text is still the note "Offline draft — …".',
    });
    expect(wp.posts.length).toBe(posts);
    const article = (await user.call(`/api/articles/${id}`)).json.article;
    expect(article.blog.publishedToWordPress).toBe(false);
    expect(article.scheduled.blog).toBe(at); // still scheduled: the same link works after the edit

    const edited = withoutOfflineDraftNote(drafts.blog.content);
    await user.call(`/api/articles/${id}/blog`, { method: 'PUT', body: { content: edited } });
    const confirmed = await anonymous.call('/api/approvals/confirm', { body: { token } });
    expect(confirmed.status).toBe(200);
    expect(wp.posts.length).toBe(posts + 1);
    expect(wp.posts.at(-1)!.content).not.toMatch(/offline draft/i);
  });

  it('an approval for an older schedule publishes nothing', async () => {
    const id = await newArticle('Moved after mail');
    const at = new Date(Date.now() + 3600_000).toISOString();
    await schedule(id, 'blog', at);
    await approvalNotifier().generateAndNotify({ userId, articleId: id, platform: 'blog', scheduledFor: at });
    const token = tokenFrom(mails().at(-1)!);
    await schedule(id, 'blog', new Date(Date.now() + 7200_000).toISOString());
    const res = await new Client(app.url).call('/api/approvals/confirm', { body: { token } });
    expect(res.status).toBe(409);
  });

  it("the page's preview, signed out: the whole text, the owner's zone and the platform's image by the link's token", async () => {
    const id = await newArticle('Preview in full');
    await user.call(`/api/image/generate/${id}`, { body: { description: 'a lighthouse' } });
    await imageSettled(user, id);
    const at = new Date(Date.now() + 3600_000).toISOString();
    await schedule(id, 'linkedin', at);
    await approvalNotifier().generateAndNotify({ userId, articleId: id, platform: 'linkedin', scheduledFor: at });
    const token = tokenFrom(mails().at(-1)!);
    const article = (await user.call(`/api/articles/${id}`)).json.article;
    expect(article.linkedin.content.length).toBeGreaterThan(0);

    const preview = await new Client(app.url).call('/api/approvals/preview', { body: { token } });
    expect(preview.json).toMatchObject({
      platform: 'linkedin',
      content: article.linkedin.content,
      timeZone: 'Europe/London',
      image: { generatedAt: article.image.generatedAt, description: 'a lighthouse' },
      linkedIn: { mode: 'personal', connected: false, memberName: null, pageName: null },
    });
    expect(preview.json).not.toHaveProperty('preview');

    // The image route sends the token alone on to the file the owner's image route sends the owner to: the
    // store's signed URL of the LinkedIn crop (the same URL all hour, domain/images.ts).
    const location = async (path: string, cookie?: string) => {
      const res = await fetch(`${app.url}${path}`, { redirect: 'manual', headers: cookie ? { cookie } : {} });
      return { status: res.status, location: res.headers.get('location'), text: await res.text() };
    };
    const image = await location(`/api/approvals/image?token=${encodeURIComponent(token)}`);
    expect(image.status).toBe(302);
    const owners = await location(`/api/image/preview/${id}?platform=linkedin`, user.cookie);
    expect(owners.status).toBe(302);
    expect(image.location).toBe(owners.location);
    expect(image.location).toContain(`/articles/${id}/`);
    expect(image.location).toMatch(/-linkedin\.\w+\?/);
    const forged = await location(`/api/approvals/image?token=${encodeURIComponent(token.slice(0, -2) + 'xx')}`);
    expect(forged.status).toBe(400);
    expect(forged.location).toBeNull();
    expect(forged.text).toContain('This approval link is not valid or has expired.');
  });
});

describe('publishing now', () => {
  it('replaces a later schedule of that platform: its run e-mails nothing; the other platform keeps its time', async () => {
    const id = await newArticle('Published early');
    const later = new Date(Date.now() + 3600_000).toISOString();
    await schedule(id, 'blog', later);
    await schedule(id, 'linkedin', later);
    const published = await user.call(`/api/wordpress/publish/${id}`, { method: 'POST' });
    expect(published.status).toBe(200);
    const article = (await user.call(`/api/articles/${id}`)).json.article;
    expect(article.scheduled).toEqual({ blog: null, linkedin: later });
    expect(article.blog.publishedToWordPress).toBe(true);
    const sent = outbox().length;
    expect(
      await approvalNotifier().generateAndNotify({ userId, articleId: id, platform: 'blog', scheduledFor: later }),
    ).toBe('stale');
    expect(outbox().length).toBe(sent);
  });
});

describe('a published platform', () => {
  it('is not scheduled again: 409 with the reason, nothing changed; the unpublished platform still can be', async () => {
    const id = await newArticle('Already live');
    expect((await user.call(`/api/wordpress/publish/${id}`, { method: 'POST' })).status).toBe(200);
    const before = (await user.call(`/api/articles/${id}`)).json.article;
    const at = new Date(Date.now() + 3600_000).toISOString();

    const refused = await schedule(id, 'blog', at);
    expect(refused.status).toBe(409);
    expect(refused.json.message).toBe(
      'WordPress (blog) is already published for this article, so it cannot be scheduled again.',
    );
    expect((await user.call(`/api/articles/${id}`)).json.article).toEqual(before);

    expect((await schedule(id, 'linkedin', at)).status).toBe(200);
    expect((await user.call(`/api/articles/${id}`)).json.article.scheduled).toEqual({ blog: null, linkedin: at });
  });
});

describe('approval links end with the sessions', () => {
  /** An active account of its own (password `correct horse`), signed in, with one link e-mailed for a drafted article. */
  async function accountWithLink(email: string) {
    const member = new Client(app.url);
    const body = registration({ email });
    await member.call('/api/auth/register', { body });
    const users = (await user.call('/api/admin/users')).json;
    const memberId = (Array.isArray(users) ? users : users.users).find((u: { email: string }) => u.email === email)
      ._id as string;
    await user.call(`/api/admin/users/${memberId}/status`, { method: 'PATCH', body: { isActive: true } });
    await member.call('/api/auth/login', { body: { email, password: body.password } });
    const link = async () => {
      const id = (
        await member.call('/api/articles', { body: { title: 'Link owner', topic: 'Scheduling', keyword: 'links' } })
      ).json.article._id as string;
      await drafted(member, id);
      const at = new Date(Date.now() + 3600_000).toISOString();
      await member.call(`/api/articles/${id}/schedule`, { method: 'PUT', body: { platform: 'blog', datetime: at } });
      await approvalNotifier().generateAndNotify({
        userId: memberId,
        articleId: id,
        platform: 'blog',
        scheduledFor: at,
      });
      return tokenFrom(mails().at(-1)!);
    };
    return { member, body, link };
  }
  const refused = async (token: string) => {
    const before = await app.items();
    for (const call of ['preview', 'confirm']) {
      const res = await new Client(app.url).call(`/api/approvals/${call}`, { body: { token } });
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({
        code: 'approval_revoked',
        message: expect.stringMatching(/password was changed/),
      });
    }
    expect(await app.items()).toEqual(before);
  };

  it('"Log out everywhere" ends the links e-mailed before it', async () => {
    const { member, link } = await accountWithLink('links-logout@example.com');
    const token = await link();
    expect((await new Client(app.url).call('/api/approvals/preview', { body: { token } })).status).toBe(200);
    expect((await member.call('/api/auth/logout-everywhere', { method: 'POST' })).status).toBeLessThan(300);
    await refused(token);
  });

  it('a password change ends the links e-mailed before it', async () => {
    const { member, body, link } = await accountWithLink('links-password@example.com');
    const token = await link();
    const changed = await member.call('/api/auth/password', {
      body: { currentPassword: body.password, newPassword: 'a brand new passphrase' },
    });
    expect(changed.status).toBe(200);
    await refused(token);
    const fresh = await link();
    expect((await new Client(app.url).call('/api/approvals/preview', { body: { token: fresh } })).status).toBe(200);
  });
});

describe('a deactivated account', () => {
  it('its approval links publish nothing and its scheduled runs draft and send nothing', async () => {
    const member = new Client(app.url);
    const body = registration({ email: 'member@example.com' });
    expect((await member.call('/api/auth/register', { body })).status).toBeLessThan(300);
    const users = (await user.call('/api/admin/users')).json;
    const memberId = (Array.isArray(users) ? users : users.users).find((u: { email: string }) => u.email === body.email)
      ._id as string;
    const setActive = (isActive: boolean) =>
      user.call(`/api/admin/users/${memberId}/status`, { method: 'PATCH', body: { isActive } });
    expect((await setActive(true)).status).toBe(200);
    await member.call('/api/auth/login', { body: { email: body.email, password: body.password } });
    const id = (
      await member.call('/api/articles', { body: { title: 'Member post', topic: 'Scheduling', keyword: 'schedules' } })
    ).json.article._id as string;
    await drafted(member, id);
    const at = new Date(Date.now() + 3600_000).toISOString();
    const later = new Date(Date.now() + 7200_000).toISOString();
    await member.call(`/api/articles/${id}/schedule`, { method: 'PUT', body: { platform: 'blog', datetime: at } });
    await member.call(`/api/articles/${id}/schedule`, {
      method: 'PUT',
      body: { platform: 'linkedin', datetime: later },
    });
    expect(
      await approvalNotifier().generateAndNotify({
        userId: memberId,
        articleId: id,
        platform: 'blog',
        scheduledFor: at,
      }),
    ).toBe('sent');
    const token = tokenFrom(mails().at(-1)!);

    expect((await setActive(false)).status).toBe(200);
    const anonymous = new Client(app.url);
    const before = await app.items();
    for (const call of ['preview', 'confirm']) {
      const res = await anonymous.call(`/api/approvals/${call}`, { body: { token } });
      expect(res.status).toBe(400);
      expect(res.json.code).toBe('invalid_approval');
    }
    const sent = outbox().length;
    expect(
      await approvalNotifier().generateAndNotify({
        userId: memberId,
        articleId: id,
        platform: 'linkedin',
        scheduledFor: later,
      }),
    ).toBe('inactive');
    expect(outbox().length).toBe(sent);
    // Nothing changed but the run's ScheduleMissed, in the outbox (not for the deactivated owner's webhook), and its
    // entry in the article's activity, written with it (domain/activity.ts).
    const isEvent = (item: Record<string, unknown>) => item.type === 'domain-event' || item.type === 'activity';
    const after = await app.items();
    expect(after.filter((item) => !isEvent(item))).toEqual(before.filter((item) => !isEvent(item)));
    const known = new Set(before.filter(isEvent).map((item) => item.SK));
    expect(after.filter((item) => isEvent(item) && !known.has(item.SK))).toMatchObject([
      { type: 'activity', name: 'ScheduleMissed', articleId: id, actorId: null },
      { name: 'ScheduleMissed', toWebhook: false, detail: { articleId: id, error: { code: 'owner_inactive' } } },
    ]);
  });
});

describe('the approval e-mail', () => {
  it('shows the platform image inline and says when AI credit ran out', async () => {
    const id = await newArticle('With picture');
    await user.call(`/api/image/generate/${id}`, { body: { description: 'a lighthouse' } });
    await imageSettled(user, id);
    const at = new Date(Date.now() + 3600_000).toISOString();
    await schedule(id, 'linkedin', at);
    const { schedulerServices } = await import('../src/wiring/scheduler.js');
    await schedulerServices().articles.update(userId, id, {
      lastError: { code: 'insufficient_quota', message: 'You exceeded your current quota' },
    });
    expect(
      await approvalNotifier().generateAndNotify({ userId, articleId: id, platform: 'linkedin', scheduledFor: at }),
    ).toBe('sent');
    const mail = parsed().at(-1)!;
    expect(mail.subject).toBe('Approve for LinkedIn: With picture');
    expect(mail.html).toContain('src="cid:article-image"');
    const image = mail.parts.find((p) => p.contentType.startsWith('image/'));
    expect(image?.headers['content-id']).toBe('<article-image>');
    expect(mail.text).toContain('OpenAI credits are insufficient');
  });
});
