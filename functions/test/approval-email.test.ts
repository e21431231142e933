import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvalTimeText } from '@app/shared';
import { handler as worker } from '../src/lambda/worker.js';
import { startFakeGoogle, type FakeGoogle } from './fakes/google.js';
import { Client, completeOAuth, drafted, registration, startTestApp, type TestApp } from './helpers/app.js';

let app: TestApp;
let google: FakeGoogle;
/** The first account, the admin, who activates the others. */
let admin: { owner: Client; userId: string };

beforeAll(async () => {
  google = await startFakeGoogle();
  process.env.GOOGLE_OAUTH_URL = google.oauthUrl;
  process.env.GOOGLE_API_URL = google.apiUrl;
  app = await startTestApp();
  admin = await ownerIn('Asia/Tokyo');
});
afterAll(async () => {
  await app?.stop();
  await google?.stop();
  delete process.env.GOOGLE_OAUTH_URL;
  delete process.env.GOOGLE_API_URL;
});

/** A user registered in `timezone`, active, who sends approval e-mails through (fake) Gmail. */
async function ownerIn(timezone: string) {
  const owner = new Client(app.url);
  const body = registration({ email: `owner-${timezone.replace(/\W/g, '-').toLowerCase()}@example.com`, timezone });
  const registered = await owner.call('/api/auth/register', { body });
  expect(registered.status, registered.text).toBe(201);
  if (!admin) return connectGmail(owner, registered.json.user._id as string, body.email);
  // Later accounts wait for the admin's approval.
  const users = (await admin.owner.call('/api/admin/users')).json;
  const userId = (Array.isArray(users) ? users : users.users).find((u: { email: string }) => u.email === body.email)
    ._id as string;
  const activated = await admin.owner.call(`/api/admin/users/${userId}/status`, {
    method: 'PATCH',
    body: { isActive: true },
  });
  expect(activated.status).toBe(200);
  expect((await owner.call('/api/auth/login', { body: { email: body.email, password: body.password } })).status).toBe(
    200,
  );
  return connectGmail(owner, userId, body.email);
}

async function connectGmail(owner: Client, userId: string, email: string) {
  for (const [key, value] of [
    ['notification_email', email],
    ['gmail_client_id', google.client.clientId],
    ['gmail_client_secret', google.client.clientSecret],
  ]) {
    expect((await owner.call('/api/settings', { body: { key, value } })).status).toBeLessThan(300);
  }
  const { authUrl } = (await owner.call('/api/email/oauth/auth')).json;
  expect((await completeOAuth(owner, authUrl)).location).toBe('/settings?gmail_connected=true');
  return { owner, userId };
}

/** Schedules a drafted article's blog post at `at`, runs the scheduled job as the worker does: the e-mail sent. */
async function approvalEmailFor(account: { owner: Client; userId: string }, title: string, at: string) {
  const { owner, userId } = account;
  const id = (await owner.call('/api/articles', { body: { title, topic: 'Zones', keyword: 'time zones' } })).json
    .article._id as string;
  await drafted(owner, id);
  const scheduled = await owner.call(`/api/articles/${id}/schedule`, {
    method: 'PUT',
    body: { platform: 'blog', datetime: at },
  });
  expect(scheduled.status).toBe(200);
  await worker({ type: 'generate-and-notify', userId, articleId: id, platform: 'blog', scheduledFor: at });
  const mail = google.sentMessages.find((m) => m.subject === `Approve for WordPress (blog): ${title}`);
  expect(mail).toBeDefined();
  return mail!;
}

describe('the approval e-mail names the time zone of its time', () => {
  it('in the owner’s zone, with its offset and IANA name (Asia/Tokyo)', async () => {
    // Midnight UTC on Tuesday 26 November 2097 is 09:00 in Tokyo.
    const mail = await approvalEmailFor(admin, 'Tokyo morning', '2097-11-26T00:00:00.000Z');
    const when = 'Tuesday, 26 November 2097 at 09:00 GMT+9 (Asia/Tokyo)';
    expect(mail.text).toContain(`is ready for WordPress (blog) (scheduled ${when}).`);
    expect(mail.html).toContain(`scheduled ${when}.`);
  });

  it('with the zone’s daylight saving name when it applies (Europe/Paris in July)', async () => {
    const mail = await approvalEmailFor(await ownerIn('Europe/Paris'), 'Paris summer', '2097-07-02T08:00:00.000Z');
    const when = 'Tuesday, 2 July 2097 at 10:00 CEST (Europe/Paris)';
    expect(mail.text).toContain(`(scheduled ${when}).`);
    expect(mail.html).toContain(`scheduled ${when}.`);
  });
});

describe('approvalTimeText', () => {
  const instant = new Date('2030-11-26T00:00:00.000Z');

  it('says UTC once for a UTC owner', () => {
    expect(approvalTimeText(instant, 'UTC')).toBe('Tuesday, 26 November 2030 at 00:00 UTC');
  });

  it('falls back to UTC, named, when the stored zone is not a known one', () => {
    expect(approvalTimeText(instant, 'Mars/Olympus')).toBe('Tuesday, 26 November 2030 at 00:00 UTC');
    expect(approvalTimeText(instant, '')).toBe('Tuesday, 26 November 2030 at 00:00 UTC');
  });
});
