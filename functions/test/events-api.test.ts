/**
 * Events for automation over the real local app (README, Events for automation): what lands in
 * `$DATA_DIR/events.jsonl` (the envelope EventBridge rules see) and at the owner's automation webhook
 * (signed as ever) when articles are drafted, published (from the app and from an approval link),
 * fail to publish, are scheduled and approved, and when a scheduled run cannot ask for approval.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhookSignature } from '../src/adapters/integrations/webhook.js';
import { localJobsIdle } from '../src/adapters/local/in-process-job-queue.js';
import { parseEventLines } from '../src/adapters/local/jsonl-event-publisher.js';
import {
  AUTOMATION_EVENT_NAMES,
  AUTOMATION_EVENT_SCHEMAS,
  type AutomationEventName,
  type EventEnvelope,
} from '../src/domain/automation-events.js';
import { approvalNotifier } from '../src/wiring/approval-notifier.js';
import { startFakeLinkedIn, type FakeLinkedIn } from './fakes/linkedin.js';
import { parseMime } from './fakes/mime.js';
import { FAKE_WP_EDITOR, startFakeWordPress, type FakeWordPress } from './fakes/wordpress.js';
import { serve } from './publishing/helpers.js';
import {
  Client,
  completeOAuth,
  drafted,
  draftedForPublishing,
  registration,
  startTestApp,
  waitUntil,
  type TestApp,
} from './helpers/app.js';

let app: TestApp;
let wp: FakeWordPress;
let li: FakeLinkedIn;
let user: Client;
let userId: string;
let hook: Awaited<ReturnType<typeof serve>>;
let signingSecret: string;

/** Every event of the app so far, each checked against its documented schema. */
function events(): EventEnvelope[] {
  let text: string;
  try {
    text = readFileSync(join(app.dataDir, 'events.jsonl'), 'utf8');
  } catch {
    return [];
  }
  const all = parseEventLines(text);
  for (const event of all) {
    const name = event['detail-type'].replace(/\.v1$/, '') as AutomationEventName;
    expect(AUTOMATION_EVENT_NAMES).toContain(name);
    AUTOMATION_EVENT_SCHEMAS()[name].parse(event.detail);
  }
  return all;
}
const of = (detailType: string, articleId: string) =>
  events().filter((e) => e['detail-type'] === detailType && e.detail.articleId === articleId);
const eventArrives = (detailType: string, articleId: string) =>
  waitUntil(
    async () => of(detailType, articleId),
    (found) => found.length > 0,
    `${detailType} of ${articleId}`,
  ).then((found) => found[0]!);

/** What the webhook received, each signature verified with the owner's signing secret. */
function hooked(): Record<string, any>[] {
  return hook.received.map((request) => {
    expect(
      verifyWebhookSignature(
        signingSecret,
        request.headers['x-webhook-timestamp'] as string,
        request.body,
        request.headers['x-webhook-signature'] as string,
      ),
    ).toBe(true);
    return JSON.parse(request.body) as Record<string, any>;
  });
}
const hookedEvent = (detailType: string, articleId: string) =>
  hooked().filter((p) => p['detail-type'] === detailType && p.detail?.articleId === articleId);

async function newArticle(title: string) {
  const id = (await user.call('/api/articles', { body: { title, topic: 'Automation', keyword: 'events' } })).json
    .article._id as string;
  await draftedForPublishing(user, id);
  return id;
}

beforeAll(async () => {
  [wp, li] = await Promise.all([startFakeWordPress(), startFakeLinkedIn()]);
  process.env.LINKEDIN_OAUTH_URL = li.oauthUrl;
  process.env.LINKEDIN_API_URL = li.apiUrl;
  app = await startTestApp();
  user = new Client(app.url);
  userId = (await user.call('/api/auth/register', { body: registration() })).json.user._id;
  await user.call('/api/wordpress/credentials', {
    body: { siteUrl: wp.url, username: FAKE_WP_EDITOR.username, appPassword: FAKE_WP_EDITOR.appPassword },
  });
  await user.call('/api/linkedin/credentials', {
    body: { clientId: li.app.clientId, clientSecret: li.app.clientSecret },
  });
  const { authUrl } = (await user.call('/api/linkedin/auth-url')).json;
  expect((await completeOAuth(user, authUrl)).location).toBe('/settings?linkedin_connected=true');
  hook = await serve((_req, res) => res.end('ok'));
  signingSecret = (await user.call('/api/linkedin/zapier-webhook', { body: { webhookUrl: `${hook.url}/hook` } })).json
    .signingSecret;
});
afterAll(async () => {
  await app?.stop();
  await Promise.all([wp?.stop(), li?.stop(), hook?.close()]);
});

describe('ArticleDrafted', () => {
  it('a new article’s drafts: one event in events.jsonl and at the webhook, signed', async () => {
    const id = await newArticle('Drafted for automation');
    const event = await eventArrives('ArticleDrafted.v1', id);
    expect(event).toMatchObject({
      version: '0',
      id: event.detail.eventId,
      source: 'content-publisher',
      region: 'us-east-1',
      resources: [],
      detail: {
        version: 1,
        userId,
        articleId: id,
        title: 'Drafted for automation',
        platforms: ['wordpress', 'linkedin'],
        actorId: userId, // the member who created it asked for the drafting
      },
    });
    expect(event.time).toBe(event.detail.occurredAt);
    expect(of('ArticleDrafted.v1', id)).toHaveLength(1);
    const delivered = await waitUntil(
      async () => hookedEvent('ArticleDrafted.v1', id),
      (d) => d.length > 0,
      'the webhook’s ArticleDrafted',
    );
    expect(delivered).toEqual([{ event: 'ArticleDrafted.v1', ...event }]);
  });
});

describe('PublishSucceeded and PublishFailed', () => {
  it('Publish now to WordPress: PublishSucceeded with the post URL, trigger manual', async () => {
    const id = await newArticle('WordPress event');
    const res = await user.call(`/api/wordpress/publish/${id}`, { method: 'POST' });
    expect(res.status).toBe(200);
    await localJobsIdle(); // the events are delivered from the outbox after the change
    const [event] = of('PublishSucceeded.v1', id);
    expect(event!.detail).toMatchObject({
      userId,
      articleId: id,
      platform: 'wordpress',
      trigger: 'manual',
      scheduledFor: null,
      postUrl: res.json.post.link,
    });
    const article = (await user.call(`/api/articles/${id}`)).json.article;
    expect((event!.detail as { publishedAt: string }).publishedAt).toBe(article.blog.lastPublished);
    // Delivered before the answer (the publish waits for its webhook within its deadline).
    expect(hookedEvent('PublishSucceeded.v1', id)).toHaveLength(1);
  });

  it('WordPress down: the same 502 as ever, and PublishFailed with the lastError code', async () => {
    const id = await newArticle('WordPress down event');
    wp.setMode('down');
    let res;
    try {
      res = await user.call(`/api/wordpress/publish/${id}`, { method: 'POST' });
    } finally {
      wp.setMode('pretty');
    }
    expect(res.status).toBe(502);
    const article = (await user.call(`/api/articles/${id}`)).json.article;
    await localJobsIdle(); // the events are delivered from the outbox after the change
    const [event] = of('PublishFailed.v1', id);
    expect(event!.detail).toMatchObject({
      platform: 'wordpress',
      trigger: 'manual',
      error: { code: res.json.code, message: article.lastError.message },
    });
    expect(article.lastError.code).toBe(res.json.code);
    expect(of('PublishSucceeded.v1', id)).toEqual([]);
    expect(hookedEvent('PublishFailed.v1', id)).toHaveLength(1);
  });

  it('LinkedIn: PublishSucceeded, and the webhook still gets its linkedin.published payload beside the event', async () => {
    const id = await newArticle('LinkedIn event');
    const res = await user.call(`/api/linkedin/publish/${id}`, { method: 'POST' });
    expect(res.status).toBe(200);
    await localJobsIdle(); // the events are delivered from the outbox after the change
    const [event] = of('PublishSucceeded.v1', id);
    expect(event!.detail).toMatchObject({ platform: 'linkedin', trigger: 'manual', postUrl: res.json.post.url });
    const payloads = hooked().filter(
      (p) => (p.articleId === id || p.detail?.articleId === id) && p.event !== 'ArticleDrafted.v1',
    );
    expect(payloads.map((p) => p.event).sort()).toEqual(['PublishSucceeded.v1', 'linkedin.published']);
    expect(payloads.find((p) => p.event === 'linkedin.published')).toMatchObject({
      articleId: id,
      postUrl: res.json.post.url,
    });
  });
});

/** The approve link's token, from the last approval e-mail of this article's title. */
function approvalToken(title: string): string {
  const dir = join(app.dataDir, 'outbox');
  const mail = readdirSync(dir)
    .filter((f) => f.endsWith('.eml'))
    .sort()
    .map((f) => parseMime(readFileSync(join(dir, f), 'utf8')))
    .filter((m) => m.subject?.endsWith(`: ${title}`))
    .at(-1);
  const m = /\/approve\?token=([A-Za-z0-9._%-]+)/.exec(mail?.text ?? '');
  if (!m) throw new Error(`no approval e-mail for ${title}`);
  return decodeURIComponent(m[1]!);
}

describe('ApprovalRequested, ArticleApproved and ScheduleMissed', () => {
  it('a scheduled run asks for approval; the link used publishes (trigger approval) and approves once', async () => {
    const title = 'Scheduled event';
    const id = await newArticle(title);
    const scheduledFor = new Date(Date.now() + 500).toISOString();
    const scheduled = await user.call(`/api/articles/${id}/schedule`, {
      method: 'PUT',
      body: { platform: 'blog', datetime: scheduledFor },
    });
    expect(scheduled.status).toBe(200);
    const requested = await eventArrives('ApprovalRequested.v1', id);
    expect(requested.detail).toMatchObject({ platform: 'wordpress', scheduledFor, title });
    const expires = Date.parse((requested.detail as { approvalExpiresAt: string }).approvalExpiresAt);
    // The link's own expiry (whole seconds): 7 days from its signing, which comes before the e-mail (with its
    // previews) and the event; a loaded machine can put more than a second between them.
    const ttl = expires - Date.parse(requested.detail.occurredAt);
    expect(ttl).toBeGreaterThan(7 * 24 * 3600 * 1000 - 10_000);
    expect(ttl).toBeLessThanOrEqual(7 * 24 * 3600 * 1000);

    const token = approvalToken(title);
    const anonymous = new Client(app.url);
    expect((await anonymous.call('/api/approvals/confirm', { body: { token } })).status).toBe(200);
    await localJobsIdle(); // the events are delivered from the outbox after the change
    const published = of('PublishSucceeded.v1', id);
    expect(published.map((e) => e.detail)).toMatchObject([{ trigger: 'approval', scheduledFor }]);
    const approved = of('ArticleApproved.v1', id);
    expect(approved.map((e) => e.detail)).toMatchObject([
      { platform: 'wordpress', scheduledFor, postUrl: (published[0]!.detail as { postUrl: string }).postUrl },
    ]);
    // Used again: 409 as ever, no second approval.
    expect((await anonymous.call('/api/approvals/confirm', { body: { token } })).status).toBe(409);
    expect(of('ArticleApproved.v1', id)).toHaveLength(1);
    expect(hookedEvent('ArticleApproved.v1', id)).toHaveLength(1);

    // The approval link is a bearer token: in no event and no webhook payload.
    const file = readFileSync(join(app.dataDir, 'events.jsonl'), 'utf8');
    expect(file).not.toContain(token);
    expect(file).not.toContain('/approve?');
    expect(hook.received.map((r) => r.body).join('\n')).not.toContain(token);
  });

  it('a deactivated owner’s scheduled run: ScheduleMissed owner_inactive, not retryable', async () => {
    const member = new Client(app.url);
    const body = registration();
    await member.call('/api/auth/register', { body });
    const memberId = (await user.call('/api/admin/users')).json.users.find(
      (u: { email: string }) => u.email === body.email,
    )._id as string;
    const setActive = (isActive: boolean) =>
      user.call(`/api/admin/users/${memberId}/status`, { method: 'PATCH', body: { isActive } });
    await setActive(true);
    await member.call('/api/auth/login', { body: { email: body.email, password: body.password } });
    const id = (
      await member.call('/api/articles', { body: { title: 'Member event', topic: 'Automation', keyword: 'events' } })
    ).json.article._id as string;
    await drafted(member, id);
    const at = new Date(Date.now() + 3600_000).toISOString();
    await member.call(`/api/articles/${id}/schedule`, { method: 'PUT', body: { platform: 'linkedin', datetime: at } });
    await setActive(false);
    // The run as the scheduler delivers it at its time.
    expect(
      await approvalNotifier().generateAndNotify({
        userId: memberId,
        articleId: id,
        platform: 'linkedin',
        scheduledFor: at,
      }),
    ).toBe('inactive');
    await localJobsIdle(); // the events are delivered from the outbox after the change
    expect(of('ScheduleMissed.v1', id).map((e) => e.detail)).toMatchObject([
      {
        userId: memberId,
        platform: 'linkedin',
        scheduledFor: at,
        title: 'Member event',
        error: { code: 'owner_inactive' },
        retryable: false,
      },
    ]);
    expect(of('ApprovalRequested.v1', id)).toEqual([]);
  });
});
