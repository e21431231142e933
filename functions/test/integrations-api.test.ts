import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeGoogle, type FakeGoogle } from './fakes/google.js';
import { startFakeLinkedIn, type FakeLinkedIn } from './fakes/linkedin.js';
import { FAKE_WP_EDITOR, startFakeWordPress, type FakeWordPress } from './fakes/wordpress.js';
import { Client, draftedForPublishing, registration, startTestApp, type TestApp } from './helpers/app.js';

let app: TestApp;
let wp: FakeWordPress;
let li: FakeLinkedIn;
let google: FakeGoogle;
let owner: Client;
let other: Client;
/** Every response body seen, for the "no secret ever leaves the server" check. */
const seen: string[] = [];

async function call(c: Client, path: string, options?: Parameters<Client['call']>[1]) {
  const res = await c.call(path, options);
  seen.push(res.text, JSON.stringify(Object.fromEntries(res.headers)));
  return res;
}

beforeAll(async () => {
  [wp, li, google] = await Promise.all([startFakeWordPress(), startFakeLinkedIn(), startFakeGoogle()]);
  process.env.LINKEDIN_OAUTH_URL = li.oauthUrl;
  process.env.LINKEDIN_API_URL = li.apiUrl;
  process.env.GOOGLE_OAUTH_URL = google.oauthUrl;
  process.env.GOOGLE_API_URL = google.apiUrl;
  app = await startTestApp();
  owner = new Client(app.url);
  await owner.call('/api/auth/register', { body: registration() });
  const admin = owner;
  other = new Client(app.url);
  const body = registration();
  await other.call('/api/auth/register', { body });
  const id = (await admin.call('/api/admin/users')).json.users.find(
    (u: { email: string }) => u.email === body.email,
  )._id;
  await admin.call(`/api/admin/users/${id}/status`, { method: 'PATCH', body: { isActive: true } });
  await other.call('/api/auth/login', { body: { email: body.email, password: body.password } });
});
afterAll(async () => {
  await app?.stop();
  await Promise.all([wp?.stop(), li?.stop(), google?.stop()]);
});

/** Follows the provider's consent redirect (the fakes consent at once) and returns our callback's answer. */
async function completeOAuth(c: Client, authUrl: string) {
  const consent = await fetch(authUrl, { redirect: 'manual' });
  expect(consent.status).toBe(302);
  const back = new URL(consent.headers.get('location')!);
  expect(back.origin).toBe(app.url);
  const res = await fetch(back, { redirect: 'manual', headers: c.cookie ? { cookie: c.cookie } : {} });
  return { status: res.status, location: res.headers.get('location') ?? '', callback: back };
}

describe('WordPress', () => {
  const good = () => ({ siteUrl: wp.url, username: FAKE_WP_EDITOR.username, appPassword: FAKE_WP_EDITOR.appPassword });

  it('tests credentials with a reason a person can act on, and saves nothing that fails', async () => {
    const before = await app.items();
    const wrong = await call(owner, '/api/wordpress/test-connection', {
      body: { ...good(), appPassword: 'nope nope nope nope' },
    });
    expect(wrong.status).toBe(200);
    expect(wrong.json.success).toBe(false);
    expect(wrong.json.error).toMatch(/application password/i);
    const save = await call(owner, '/api/wordpress/credentials', {
      body: { ...good(), appPassword: 'nope nope nope nope' },
    });
    expect(save.status).toBe(400);
    expect(save.json.message).toMatch(/^Cannot save invalid credentials: /);
    const masked = await call(owner, '/api/wordpress/credentials', {
      body: { ...good(), appPassword: '••••••••5678' },
    });
    expect(masked.status).toBe(400);
    expect(await app.items()).toEqual(before);

    const ok = await call(owner, '/api/wordpress/test-connection', { body: good() });
    expect(ok.json).toMatchObject({ success: true, user: { name: FAKE_WP_EDITOR.name } });
  });

  it('saves good credentials, never returns the password, and locks the site URL', async () => {
    const saved = await call(owner, '/api/wordpress/credentials', { body: good() });
    expect(saved.status).toBe(200);
    expect(saved.json).toMatchObject({ success: true, user: { name: FAKE_WP_EDITOR.name } });
    const status = await call(owner, '/api/wordpress/credentials');
    expect(status.json).toMatchObject({ configured: true, siteUrl: wp.url, username: 'editor', hasAppPassword: true });
    expect(
      (await call(owner, '/api/settings?mask=false')).json.some((s: { key: string }) => s.key.startsWith('wordpress_')),
    ).toBe(false);

    // Editing: a blank password keeps the saved one.
    const edit = await call(owner, '/api/wordpress/credentials', {
      body: { ...good(), appPassword: '', skipPasswordUpdate: true },
    });
    expect(edit.status).toBe(200);
    const moved = await call(owner, '/api/wordpress/credentials', { body: { ...good(), siteUrl: `${wp.url}/other` } });
    expect(moved.status).toBe(400);
    expect(moved.json.message).toMatch(/Site URL cannot be changed|Cannot save invalid credentials/);
    expect((await call(other, '/api/wordpress/credentials')).json.configured).toBe(false);
    expect(JSON.stringify(await app.items())).not.toContain(FAKE_WP_EDITOR.appPassword);
  });
});

describe('LinkedIn', () => {
  it('needs saved credentials before authenticating', async () => {
    const res = await call(owner, '/api/linkedin/auth-url');
    expect(res.status).toBe(400);
    expect(res.json.message).toBe('Please save LinkedIn credentials first');
  });

  it('tests and saves the app credentials', async () => {
    const bad = await call(owner, '/api/linkedin/test-connection', {
      body: { clientId: li.app.clientId, clientSecret: 'wrong-secret' },
    });
    expect(bad.json.success).toBe(false);
    expect(bad.json.error).toBeTruthy();
    const good = await call(owner, '/api/linkedin/test-connection', {
      body: { clientId: li.app.clientId, clientSecret: li.app.clientSecret },
    });
    expect(good.json.success).toBe(true);
    const saved = await call(owner, '/api/linkedin/credentials', {
      body: { clientId: li.app.clientId, clientSecret: li.app.clientSecret },
    });
    expect(saved.json).toEqual({ success: true, message: 'LinkedIn credentials saved' });
    const status = await call(owner, '/api/linkedin/status');
    expect(status.json).toMatchObject({ clientId: li.app.clientId, hasClientSecret: true, connected: false });
  });

  it('connects nothing when the state is forged or belongs to someone else', async () => {
    const before = await app.items();
    const forged = await fetch(`${app.url}/api/linkedin/callback?code=abc&state=forged`, { redirect: 'manual' });
    expect(forged.status).toBe(302);
    expect(forged.headers.get('location')).toBe('/settings?linkedin_error=invalid_state');

    const { authUrl } = (await call(owner, '/api/linkedin/auth-url')).json;
    const stolen = await completeOAuth(other, authUrl);
    expect(stolen.location).toBe('/settings?linkedin_error=invalid_state');
    expect(await app.items()).toEqual(before);
  });

  it('connects through the OAuth flow: token stored, redirect carries linkedin_connected=true', async () => {
    const res = await call(
      owner,
      `/api/linkedin/auth-url?redirectUri=${encodeURIComponent(`${app.url}/api/linkedin/callback`)}`,
    );
    expect(res.json.success).toBe(true);
    const url = new URL(res.json.authUrl);
    expect(url.searchParams.get('client_id')).toBe(li.app.clientId);
    // By default only the self-serve products' scopes: the organization ones would make LinkedIn refuse most apps.
    expect(url.searchParams.get('scope')).toBe('openid profile email w_member_social');
    const done = await completeOAuth(owner, res.json.authUrl);
    expect(done).toMatchObject({ status: 302, location: '/settings?linkedin_connected=true' });
    const status = (await call(owner, '/api/linkedin/status')).json;
    expect(status).toMatchObject({
      connected: true,
      memberName: li.member.name,
      expiringSoon: false,
      expired: false,
      canPostAsPage: false,
    });
    expect(Date.parse(status.expiresAt) - Date.now()).toBeGreaterThan(59 * 24 * 3600 * 1000);
    const test = await call(owner, '/api/linkedin/test-connection', { body: { clientId: li.app.clientId } });
    expect(test.json).toMatchObject({ success: true, message: `Connected to LinkedIn as ${li.member.name}` });
  });

  describe('page posting (Community Management API scopes) is opt-in', () => {
    const SELF_SERVE = ['openid', 'profile', 'email', 'w_member_social'];
    const ORG_SCOPES = ['w_organization_social', 'r_organization_admin'];
    let allScopes: string[];
    beforeAll(() => {
      allScopes = [...li.app.scopes];
    });
    afterEach(() => {
      li.app.scopes = [...allScopes];
    });

    const connect = async (query = '') => {
      const res = await call(owner, `/api/linkedin/auth-url${query}`);
      expect(res.status).toBe(200);
      return {
        scopes: new URL(res.json.authUrl).searchParams.get('scope')!.split(' '),
        done: await completeOAuth(owner, res.json.authUrl),
      };
    };
    const status = async () => (await call(owner, '/api/linkedin/status')).json;
    const storedScopes = async () => (await app.items()).find((i) => i.SK === 'SETTING#linkedin_scopes');
    const ownerId = async () => (await owner.call('/api/auth/me')).json.user._id as string;

    async function companyArticle(title: string) {
      const id = (await owner.call('/api/articles', { body: { title, topic: 'LinkedIn pages', keyword: 'pages' } }))
        .json.article._id as string;
      await draftedForPublishing(owner, id);
      expect((await owner.call(`/api/articles/${id}`)).json.article.linkedin.content.trim()).not.toBe('');
      expect(
        (await call(owner, `/api/linkedin/article/${id}/posting-mode`, { body: { mode: 'company' } })).status,
      ).toBe(200);
      return id;
    }

    it('an app with only the self-serve products connects, and may post as the member only', async () => {
      li.app.scopes = [...SELF_SERVE];
      const { scopes, done } = await connect();
      expect(scopes).toEqual(SELF_SERVE);
      expect(done.location).toBe('/settings?linkedin_connected=true');
      expect(await status()).toMatchObject({ connected: true, canPostAsPage: false });
      // The granted scopes are kept beside the token, out of the API Keys list.
      expect(await storedScopes()).toBeDefined();
      expect(
        (await call(owner, '/api/settings?mask=false')).json.some((s: { key: string }) =>
          s.key.startsWith('linkedin_'),
        ),
      ).toBe(false);
    });

    it('pages=true for an app without the Community Management API: LinkedIn refuses the consent, nothing changes', async () => {
      li.app.scopes = [...SELF_SERVE];
      const before = await app.items();
      const res = await call(owner, '/api/linkedin/auth-url?pages=true');
      expect(new URL(res.json.authUrl).searchParams.get('scope')!.split(' ')).toEqual([...SELF_SERVE, ...ORG_SCOPES]);
      const done = await completeOAuth(owner, res.json.authUrl);
      expect(done.location).toBe('/settings?linkedin_error=unauthorized_scope_error');
      expect(await app.items()).toEqual(before);
      expect((await status()).canPostAsPage).toBe(false);
    });

    it('pages=true for an app with the Community Management API: granted, and the status says page posting is available', async () => {
      const { scopes, done } = await connect(
        `?pages=true&redirectUri=${encodeURIComponent(`${app.url}/api/linkedin/callback`)}`,
      );
      expect(scopes).toEqual([...SELF_SERVE, ...ORG_SCOPES]);
      expect(done.location).toBe('/settings?linkedin_connected=true');
      expect(await status()).toMatchObject({ connected: true, canPostAsPage: true });
      // pages=false is the default.
      expect((await connect('?pages=false')).scopes).toEqual(SELF_SERVE);
      expect((await status()).canPostAsPage).toBe(false);
    });

    it("connecting with page access keeps the page's name for the preview card; without it, none", async () => {
      expect((await connect('?pages=true')).done.location).toBe('/settings?linkedin_connected=true');
      // The page publishing posts as: the first the member administers, named by LinkedIn's decorated roles.
      expect(await status()).toMatchObject({ connected: true, canPostAsPage: true, pageName: 'Example GmbH' });
      expect(li.requests.some((r) => r.path.includes('organization~(localizedName)'))).toBe(true);
      expect((await app.items()).find((i) => i.SK === 'SETTING#linkedin_page_name')).toBeDefined();
      // Out of the API Keys list, like the other connection settings.
      expect(
        (await call(owner, '/api/settings?mask=false')).json.some(
          (s: { key: string }) => s.key === 'linkedin_page_name',
        ),
      ).toBe(false);

      // Reconnecting without page access forgets it.
      expect((await connect()).done.location).toBe('/settings?linkedin_connected=true');
      expect(await status()).toMatchObject({ canPostAsPage: false, pageName: null });
    });

    it('LinkedIn refusing the page name: connecting still works, no name (the card shows its placeholder), publishing as the page still works', async () => {
      li.denyOrganizationNames = true;
      try {
        expect((await connect('?pages=true')).done.location).toBe('/settings?linkedin_connected=true');
        expect(await status()).toMatchObject({ connected: true, canPostAsPage: true, pageName: null });
        const id = await companyArticle('Page post, name refused');
        const res = await call(owner, `/api/linkedin/publish/${id}`, { method: 'POST' });
        expect(res.status).toBe(200);
        expect(li.posts.at(-1)!.body.author).toBe(`urn:li:organization:${li.organizations[0]!.id}`);
      } finally {
        li.denyOrganizationNames = false;
      }
    });

    it('refuses a pages value other than true or false with a clear message', async () => {
      for (const value of ['yes', '1', '']) {
        const res = await call(owner, `/api/linkedin/auth-url?pages=${value}`);
        expect(res.status).toBe(400);
        expect(res.json.message).toBe('pages must be true or false');
      }
    });

    it('company mode without page access: 400 with what to do, before any call to LinkedIn; with it, posts as the page', async () => {
      expect((await connect()).done.location).toBe('/settings?linkedin_connected=true');
      const id = await companyArticle('Page post without page access');
      const before = await app.items();
      const requests = li.requests.length;
      const posts = li.posts.length;
      const res = await call(owner, `/api/linkedin/publish/${id}`, { method: 'POST' });
      expect(res.status).toBe(400);
      expect(res.json.message).toBe(
        "Posting as a LinkedIn Page needs page access: in Settings → LinkedIn, tick 'Also post to LinkedIn Pages I administer' and authenticate again (your LinkedIn app needs the Community Management API product).",
      );
      expect(li.requests.length).toBe(requests);
      expect(li.posts.length).toBe(posts);
      const article = (await owner.call(`/api/articles/${id}`)).json.article;
      expect(article.linkedin.publishedToLinkedIn).toBe(false);
      expect(article.lastError).toMatchObject({ code: 'linkedin_page_access_needed' });
      // Only the failure is recorded: on the article (and the article lists' version and change time move), and as
      // its PublishFailed event, written with it (the outbox, adapters/dynamo/event-outbox.ts), as for every failed
      // publish, with the event's entry in the article's activity (domain/activity.ts).
      const after = await app.items();
      const added = after.filter((i) => !before.some((b) => b.PK === i.PK && b.SK === i.SK));
      expect(added).toEqual([
        expect.objectContaining({ type: 'activity', name: 'PublishFailed', articleId: id, platform: 'linkedin' }),
        expect.objectContaining({
          type: 'domain-event',
          name: 'PublishFailed',
          detail: expect.objectContaining({
            articleId: id,
            error: expect.objectContaining({ code: 'linkedin_page_access_needed' }),
          }),
        }),
      ]);
      const strip = (items: Record<string, unknown>[]) =>
        items
          .filter((i) => !added.includes(i))
          .map(({ articlesVersion: _v, articlesChangedAt: _c, ...i }) =>
            i.SK === `ARTICLE#${id}` ? { ...i, lastError: undefined, updatedAt: undefined } : i,
          );
      expect(strip(after)).toEqual(strip(before));

      expect((await connect('?pages=true')).done.location).toBe('/settings?linkedin_connected=true');
      const ok = await call(owner, `/api/linkedin/publish/${id}`, { method: 'POST' });
      expect(ok.status).toBe(200);
      expect(li.posts.at(-1)!.body.author).toBe(`urn:li:organization:${li.organizations[0]!.id}`);
    });

    it('a connection made before the granted scopes were kept: not known, company mode tries as before', async () => {
      // Such connections asked for the organization scopes too; only the record of them is missing.
      expect((await connect('?pages=true')).done.location).toBe('/settings?linkedin_connected=true');
      const { settingService } = await import('../src/wiring/settings.js');
      await settingService().remove(await ownerId(), 'linkedin_scopes');
      expect(await storedScopes()).toBeUndefined();
      expect(await status()).toMatchObject({ connected: true, canPostAsPage: null });
      const id = await companyArticle('Page post, scopes unknown');
      const res = await call(owner, `/api/linkedin/publish/${id}`, { method: 'POST' });
      expect(res.status).toBe(200);
      expect(li.posts.at(-1)!.body.author).toBe(`urn:li:organization:${li.organizations[0]!.id}`);
    });
  });

  it('refuses a redirect URI that is not our callback', async () => {
    const res = await call(owner, '/api/linkedin/auth-url?redirectUri=https%3A%2F%2Fevil.example%2Fcb');
    expect(res.status).toBe(400);
  });

  it('keeps an automation webhook with a signing secret shown once', async () => {
    const set = await call(owner, '/api/linkedin/zapier-webhook', {
      body: { webhookUrl: 'https://hooks.example.com/abc' },
    });
    expect(set.json.signingSecret).toMatch(/^whsec_/);
    const get = await call(owner, '/api/linkedin/zapier-webhook');
    // The URL works like a password (whoever has it can post to the hook): only its origin is shown.
    expect(get.json).toEqual({
      success: true,
      webhookUrl: 'https://hooks.example.com/••••••••',
      hasSigningSecret: true,
    });
    expect(get.text).not.toContain('/abc');
    const masked = await call(owner, '/api/linkedin/zapier-webhook', { body: { webhookUrl: get.json.webhookUrl } });
    expect(masked.status).toBe(400);
    expect(masked.json.message).toMatch(/^This is the saved address, hidden/);
    const again = await call(owner, '/api/linkedin/zapier-webhook', {
      body: { webhookUrl: 'https://hooks.example.com/def' },
    });
    expect(again.json.signingSecret).toBeUndefined();
    seen.splice(seen.indexOf(set.text), 1); // shown once on purpose
  });
});

describe('Gmail', () => {
  it('refuses a test e-mail before Gmail is configured', async () => {
    const res = await call(owner, '/api/email/test', { body: { to: 'me@example.com', method: 'gmail' } });
    expect(res.status).toBe(400);
    expect((await call(owner, '/api/email/oauth/auth')).json.message).toBe('Please fill in Gmail API credentials');
  });

  it('saves the panel as separate settings, authenticates, and sends a UTF-8 test e-mail through the Gmail API', async () => {
    for (const [key, value] of [
      ['notification_email', 'owner@example.com'],
      ['gmail_client_id', google.client.clientId],
      ['gmail_client_secret', google.client.clientSecret],
    ]) {
      expect((await call(owner, '/api/settings', { body: { key, value } })).status).toBeLessThan(300);
    }
    expect(
      (await call(owner, '/api/settings', { body: { key: 'notification_email', value: 'not-an-address' } })).status,
    ).toBe(400);
    for (const legacy of ['email_host', 'email_password'])
      expect((await call(owner, `/api/settings/${legacy}`, { method: 'DELETE' })).status).toBe(404);

    const { authUrl } = (await call(owner, '/api/email/oauth/auth')).json;
    const params = new URL(authUrl).searchParams;
    expect(params.get('access_type')).toBe('offline');
    expect(params.get('prompt')).toBe('consent');
    expect(params.get('scope')).toContain('https://www.googleapis.com/auth/gmail.send');
    const done = await completeOAuth(owner, authUrl);
    expect(done.location).toBe('/settings?gmail_connected=true');
    const status = (await call(owner, '/api/email/settings')).json;
    expect(status).toMatchObject({
      authenticated: true,
      notificationEmail: 'owner@example.com',
      gmailClientId: google.client.clientId,
    });
    expect(status.gmailClientSecret).toMatch(/^•+/);

    const sent = await call(owner, '/api/email/test', {
      body: { to: 'owner@example.com', subject: 'Zur Freigabe: Grüße ✅', message: 'Hallo', method: 'gmail' },
    });
    expect(sent.json).toEqual({ success: true, message: 'Test email sent successfully! Check your inbox.' });
    const message = google.sentMessages.at(-1)!;
    expect(message.to).toBe('owner@example.com');
    expect(message.subject).toBe('Zur Freigabe: Grüße ✅');
  });

  it('a forged Gmail state stores nothing', async () => {
    const before = await app.items();
    const res = await fetch(`${app.url}/api/email/oauth/callback?code=x&state=bad`, { redirect: 'manual' });
    expect(res.headers.get('location')).toBe('/settings?gmail_error=invalid_state');
    expect(await app.items()).toEqual(before);
  });
});

describe('secrets', () => {
  it('no response contained a password, client secret or token', () => {
    const secrets = [FAKE_WP_EDITOR.appPassword, li.app.clientSecret, google.client.clientSecret];
    const all = seen.join('\n');
    for (const secret of secrets) expect(all).not.toContain(secret);
    expect(all).not.toMatch(/"access_token"|refresh_token"/);
  });
});
