import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { IntegrationMessages } from '@app/shared';
import { listen, sendJson, type Listening } from './fakes/http-helpers.js';
import { startFakeGoogle, type FakeGoogle } from './fakes/google.js';
import { startFakeLinkedIn, type FakeLinkedIn } from './fakes/linkedin.js';
import { FAKE_WP_EDITOR, startFakeWordPress, type FakeWordPress } from './fakes/wordpress.js';
import { Client, completeOAuth, registration, startTestApp, type TestApp } from './helpers/app.js';

/**
 * A stored credential that the server reuses on its own (a blank WordPress application password,
 * a blank LinkedIn client secret, the Gmail client secret and the Google grants) only ever goes
 * to the site or with the client it was saved for. Anything else is refused before any request
 * leaves the server: a capture server (127.0.0.1 is allowed locally) must see nothing.
 */
let app: TestApp;
let wp: FakeWordPress;
let li: FakeLinkedIn;
let google: FakeGoogle;
let capture: Listening;
/** Every request the capture server received, with its Authorization header. */
const captured: { method: string; url: string; authorization?: string }[] = [];
let owner: Client;

beforeAll(async () => {
  [wp, li, google] = await Promise.all([startFakeWordPress(), startFakeLinkedIn(), startFakeGoogle()]);
  capture = await listen((req, res, _body, url) => {
    captured.push({
      method: req.method ?? '',
      url: url.pathname + url.search,
      authorization: req.headers.authorization,
    });
    sendJson(res, 401, {
      code: 'incorrect_password',
      message: 'The provided password is an invalid application password.',
      data: { status: 401 },
    });
  });
  process.env.LINKEDIN_OAUTH_URL = li.oauthUrl;
  process.env.LINKEDIN_API_URL = li.apiUrl;
  process.env.GOOGLE_OAUTH_URL = google.oauthUrl;
  process.env.GOOGLE_API_URL = google.apiUrl;
  app = await startTestApp();
  owner = new Client(app.url);
  await owner.call('/api/auth/register', { body: registration() });
});
afterAll(async () => {
  await app?.stop();
  await Promise.all([wp?.stop(), li?.stop(), google?.stop(), capture?.stop()]);
});
beforeEach(() => {
  captured.length = 0;
});

describe('WordPress: a blank application password is the saved one, for the saved site only', () => {
  const saved = () => ({ siteUrl: wp.url, username: FAKE_WP_EDITOR.username, appPassword: FAKE_WP_EDITOR.appPassword });

  beforeAll(async () => {
    const res = await owner.call('/api/wordpress/credentials', { body: saved() });
    expect(res.status).toBe(200);
  });

  it('another host with a blank password: 400 "Enter the application password for this site", and nothing is sent', async () => {
    const before = await app.items();
    const wpRequests = wp.requests.length;
    for (const path of ['/api/wordpress/test-connection', '/api/wordpress/credentials']) {
      for (const siteUrl of [capture.url, `${capture.url}/`, capture.url.replace('127.0.0.1', 'localhost')]) {
        const res = await owner.call(path, { body: { siteUrl, username: FAKE_WP_EDITOR.username, appPassword: '' } });
        expect(res.status, `${path} ${siteUrl}`).toBe(400);
        expect(res.json.message).toBe(IntegrationMessages.wordpressPasswordForSite);
      }
      const skip = await owner.call(path, {
        body: { siteUrl: capture.url, username: FAKE_WP_EDITOR.username, appPassword: '', skipPasswordUpdate: true },
      });
      if (path.endsWith('credentials')) expect(skip.json.message).toBe(IntegrationMessages.wordpressPasswordForSite);
    }
    expect(captured).toEqual([]);
    expect(wp.requests.length).toBe(wpRequests);
    expect(await app.items()).toEqual(before);
  });

  it('the same host under another scheme or path is another site', async () => {
    const wpRequests = wp.requests.length;
    for (const siteUrl of [wp.url.replace('http://', 'https://'), `${wp.url}/blog`]) {
      const res = await owner.call('/api/wordpress/test-connection', {
        body: { siteUrl, username: FAKE_WP_EDITOR.username, appPassword: '' },
      });
      expect(res.status, siteUrl).toBe(400);
      expect(res.json.message).toBe(IntegrationMessages.wordpressPasswordForSite);
    }
    expect(wp.requests.length).toBe(wpRequests);
  });

  it('the saved site, however it is spelled, keeps working with a blank password (and another login of the same account)', async () => {
    for (const siteUrl of [wp.url, `${wp.url}/`, ` ${wp.url}/wp-admin/ `, wp.url.replace('http://', 'HTTP://')]) {
      const res = await owner.call('/api/wordpress/test-connection', {
        body: { siteUrl, username: FAKE_WP_EDITOR.username, appPassword: '' },
      });
      expect(res.json, siteUrl).toMatchObject({ success: true, user: { name: FAKE_WP_EDITOR.name } });
    }
    // WordPress accepts the account's e-mail address as well as its login name.
    const edit = await owner.call('/api/wordpress/credentials', {
      body: { siteUrl: wp.url, username: FAKE_WP_EDITOR.email, appPassword: '', skipPasswordUpdate: true },
    });
    expect(edit.status).toBe(200);
    expect((await owner.call('/api/wordpress/credentials')).json).toMatchObject({
      siteUrl: wp.url,
      username: FAKE_WP_EDITOR.email,
      hasAppPassword: true,
    });
    expect(captured).toEqual([]);
  });

  it('saving another site is refused before anything is sent, even with a typed password', async () => {
    const before = await app.items();
    const res = await owner.call('/api/wordpress/credentials', {
      body: { siteUrl: capture.url, username: 'someone', appPassword: 'typed pass word 1234' },
    });
    expect(res.status).toBe(400);
    expect(res.json.message).toBe(IntegrationMessages.siteUrlLocked);
    expect(captured).toEqual([]);
    expect(await app.items()).toEqual(before);
  });

  it('a typed password may be tested anywhere: it is the caller’s own, not the saved one', async () => {
    const res = await owner.call('/api/wordpress/test-connection', {
      body: { siteUrl: capture.url, username: 'someone', appPassword: 'typed pass word 1234' },
    });
    expect(res.json.success).toBe(false);
    expect(captured.length).toBeGreaterThan(0);
    const sent = captured.map((r) => Buffer.from(r.authorization!.replace(/^Basic /, ''), 'base64').toString('utf8'));
    expect(sent.every((credentials) => credentials === 'someone:typed pass word 1234')).toBe(true);
  });
});

describe('LinkedIn: a blank client secret is the saved one, for the saved Client ID only', () => {
  beforeAll(async () => {
    const res = await owner.call('/api/linkedin/credentials', {
      body: { clientId: li.app.clientId, clientSecret: li.app.clientSecret },
    });
    expect(res.status).toBe(200);
  });

  it('another Client ID with a blank secret: 400 before any call to LinkedIn, nothing saved', async () => {
    const before = await app.items();
    const liRequests = li.requests.length;
    for (const path of ['/api/linkedin/test-connection', '/api/linkedin/credentials']) {
      const res = await owner.call(path, { body: { clientId: 'another-app-id', clientSecret: '' } });
      expect(res.status, path).toBe(400);
      expect(res.json.message).toBe(IntegrationMessages.linkedinSecretForClient);
    }
    expect(li.requests.length).toBe(liRequests);
    expect(await app.items()).toEqual(before);
  });

  it('the saved Client ID with a blank secret goes to LinkedIn (the configured host, not one from the request)', async () => {
    const liRequests = li.requests.length;
    const res = await owner.call('/api/linkedin/test-connection', {
      body: { clientId: li.app.clientId, clientSecret: '' },
    });
    expect(res.json.success).toBe(true);
    expect(li.requests.length).toBeGreaterThan(liRequests);
    // A redirect URI of the caller's choosing is refused, so no sign-in is steered elsewhere.
    const steered = await owner.call(`/api/linkedin/auth-url?redirectUri=${encodeURIComponent(`${capture.url}/cb`)}`);
    expect(steered.status).toBe(400);
    expect(captured).toEqual([]);
  });
});

describe('Gmail: the client secret and the Google sign-ins belong to the saved Client ID', () => {
  const save = (key: string, value: string) => owner.call('/api/settings', { body: { key, value } });
  const emailStatus = async () => (await owner.call('/api/email/settings')).json;
  const sheetsStatus = async () => (await owner.call('/api/sheets/status')).json;

  async function connectBoth() {
    expect((await save('gmail_client_id', google.client.clientId)).status).toBeLessThan(300);
    expect((await save('gmail_client_secret', google.client.clientSecret)).status).toBeLessThan(300);
    expect((await completeOAuth(owner, (await owner.call('/api/email/oauth/auth')).json.authUrl)).location).toBe(
      '/settings?gmail_connected=true',
    );
    expect((await completeOAuth(owner, (await owner.call('/api/sheets/auth')).json.authUrl)).location).toBe(
      '/sheets-import?sheets_connected=true',
    );
    expect(await emailStatus()).toMatchObject({ gmailClientId: google.client.clientId, authenticated: true });
    expect(await sheetsStatus()).toMatchObject({ authenticated: true });
  }

  it('saving the same Client ID again keeps the secret and the sign-ins', async () => {
    await connectBoth();
    expect((await save('gmail_client_id', google.client.clientId)).status).toBeLessThan(300);
    expect(await emailStatus()).toMatchObject({ authenticated: true, gmailClientSecret: expect.stringMatching(/^•+/) });
    expect(await sheetsStatus()).toMatchObject({ authenticated: true });
  });

  it('saving another Client ID removes the saved secret and both sign-ins: nothing goes to Google with the new client', async () => {
    const googleRequests = google.requests.length;
    expect((await save('gmail_client_id', 'another-client.apps.googleusercontent.com')).status).toBeLessThan(300);
    expect(await emailStatus()).toMatchObject({
      gmailClientId: 'another-client.apps.googleusercontent.com',
      gmailClientSecret: '',
      gmailRefreshToken: '',
      authenticated: false,
    });
    const auth = await owner.call('/api/email/oauth/auth');
    expect(auth.status).toBe(400);
    expect(auth.json.message).toBe(IntegrationMessages.gmailCredentialsRequired);
    expect((await owner.call('/api/email/test', { body: { to: 'owner@example.com', method: 'gmail' } })).status).toBe(
      400,
    );
    // The Sheets import falls back to no client of the user's: its grant (of the old client) is gone too.
    expect(await sheetsStatus()).toMatchObject({ authenticated: false });
    expect(google.requests.length).toBe(googleRequests);
    const keys = (await app.items()).map((i) => String(i.SK));
    for (const gone of ['gmail_client_secret', 'gmail_refresh_token', 'google_sheets_refresh_token']) {
      expect(
        keys.some((k) => k.includes(gone)),
        gone,
      ).toBe(false);
    }
  });

  it('deleting the Client ID removes its secret and sign-ins too', async () => {
    await connectBoth();
    expect((await owner.call('/api/settings/gmail_client_id', { method: 'DELETE' })).status).toBe(200);
    expect(await emailStatus()).toMatchObject({ gmailClientId: '', gmailClientSecret: '', authenticated: false });
    expect(await sheetsStatus()).toMatchObject({ authenticated: false });
  });
});
