import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GMAIL_SEND_SCOPE, GoogleOAuth } from '../../src/adapters/integrations/google.js';
import {
  base64Url,
  buildMimeMessage,
  encodeWords,
  GmailSender,
  OutboxSender,
} from '../../src/adapters/integrations/mail.js';
import { IntegrationError } from '../../src/domain/integrations.js';
import { startFakeGoogle, type FakeGoogle } from '../fakes/google.js';
import { decodeEncodedWords, parseMime } from '../fakes/mime.js';
import { authorize, closedPort, expectNoSecrets, rejection } from './helpers.js';

let google: FakeGoogle;
let oauth: GoogleOAuth;
const redirectUri = 'http://localhost:3000/api/integrations/google/callback';
const SUBJECT = 'Zur Freigabe: Grüße ✅';

beforeAll(async () => {
  google = await startFakeGoogle();
  oauth = new GoogleOAuth({ oauthUrl: google.oauthUrl });
});
afterAll(() => google.stop());
beforeEach(() => google.reset());

const clientInput = () => ({ clientId: google.client.clientId, clientSecret: google.client.clientSecret, redirectUri });

describe('GoogleOAuth', () => {
  it('authorization URL: offline access, forced consent, gmail.send, state, on GOOGLE_OAUTH_URL', async () => {
    const url = new URL(
      await oauth.authorizationUrl({ ...clientInput(), state: 'signed-state', scopes: [GMAIL_SEND_SCOPE] }),
    );
    expect(`${url.origin}${url.pathname}`).toBe(`${google.oauthUrl}/auth`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      access_type: 'offline',
      prompt: 'consent',
      include_granted_scopes: 'true',
      scope: GMAIL_SEND_SCOPE,
      state: 'signed-state',
      response_type: 'code',
      client_id: google.client.clientId,
      redirect_uri: redirectUri,
    });
    expect(url.searchParams.has('client_secret')).toBe(false);
  });

  it('without GOOGLE_OAUTH_URL the authorization URL is Google’s', async () => {
    const url = await new GoogleOAuth().authorizationUrl({ ...clientInput(), state: 's', scopes: [GMAIL_SEND_SCOPE] });
    expect(url).toMatch(/^https:\/\/accounts\.google\.com\/o\/oauth2\/v2\/auth\?/);
  });

  it('exchangeCode returns a refresh token (offline + consent) against the fake token endpoint', async () => {
    const query = await authorize(
      await oauth.authorizationUrl({ ...clientInput(), state: 'st', scopes: [GMAIL_SEND_SCOPE] }),
    );
    expect(query.get('state')).toBe('st');
    const before = Date.now();
    const tokens = await oauth.exchangeCode({ ...clientInput(), code: query.get('code')! });
    expect(tokens.refreshToken).toMatch(/^1\/\//);
    expect(tokens.accessToken).toMatch(/^ya29\./);
    expect(tokens.scope).toBe(GMAIL_SEND_SCOPE);
    expect(tokens.expiryDate).toBeGreaterThan(before + 3_500_000);
    const tokenCall = google.requests.find((r) => r.path === '/token')!;
    expect(tokenCall.body).toMatchObject({
      grant_type: 'authorization_code',
      redirect_uri: redirectUri,
      client_id: google.client.clientId,
    });
  });

  it('exchangeCode with a used code → google_invalid_grant, actionable, no secret', async () => {
    const code = (
      await authorize(await oauth.authorizationUrl({ ...clientInput(), state: 'st', scopes: [GMAIL_SEND_SCOPE] }))
    ).get('code')!;
    await oauth.exchangeCode({ ...clientInput(), code });
    const error = await rejection(oauth.exchangeCode({ ...clientInput(), code }));
    expect(error).toBeInstanceOf(IntegrationError);
    expect(error.code).toBe('google_invalid_grant');
    expect(error.message).toMatch(/Authenticate with Google again/);
    expectNoSecrets(error.message, [code, google.client.clientSecret]);
  });

  it('exchangeCode with a wrong client secret → google_invalid_client, no secret', async () => {
    const code = (
      await authorize(await oauth.authorizationUrl({ ...clientInput(), state: 'st', scopes: [GMAIL_SEND_SCOPE] }))
    ).get('code')!;
    const wrong = 'GOCSPX-wrong-secret-value';
    const error = await rejection(oauth.exchangeCode({ ...clientInput(), clientSecret: wrong, code }));
    expect(error.code).toBe('google_invalid_client');
    expectNoSecrets(error.message, [wrong, google.client.clientSecret, code]);
  });
});

describe('GmailSender', () => {
  const sender = (refreshToken: string, over: Partial<ConstructorParameters<typeof GmailSender>[0]> = {}) =>
    new GmailSender({
      clientId: google.client.clientId,
      clientSecret: google.client.clientSecret,
      refreshToken,
      apiUrl: google.apiUrl,
      oauthUrl: google.oauthUrl,
      ...over,
    });

  it('sends a UTF-8 message that Gmail decodes to the same To, subject and bodies', async () => {
    const { refreshToken } = google.issueTokens([GMAIL_SEND_SCOPE]);
    const mail = sender(refreshToken, { from: 'Redaktion Süd <owner@example.com>' });
    expect(mail.kind).toBe('gmail');
    const result = await mail.send({
      to: 'Anna Müller <anna@example.com>',
      subject: SUBJECT,
      text: 'Bitte prüfen: https://app.example/articles/1',
      html: '<p>Bitte <b>prüfen</b> ✅</p>',
    });
    expect(google.sentMessages).toHaveLength(1);
    const sent = google.sentMessages[0]!;
    expect(result).toEqual({ id: sent.id });
    expect(sent.subject).toBe(SUBJECT);
    expect(sent.to).toBe('Anna Müller <anna@example.com>');
    expect(sent.from).toBe('Redaktion Süd <owner@example.com>');
    expect(sent.text).toBe('Bitte prüfen: https://app.example/articles/1');
    expect(sent.html).toBe('<p>Bitte <b>prüfen</b> ✅</p>');
    expect(sent.mime.crlf).toBe(true);
    // the library refreshed the access token with the saved refresh token first
    const paths = google.requests.map((r) => `${r.method} ${r.path}`);
    expect(paths).toEqual(['POST /token', 'POST /gmail/v1/users/me/messages/send']);
    expect(google.requests[0]!.body).toMatchObject({ grant_type: 'refresh_token', refresh_token: '***' });
  });

  it('reuses the access token for a second message', async () => {
    const { refreshToken } = google.issueTokens([GMAIL_SEND_SCOPE]);
    const mail = sender(refreshToken);
    await mail.send({ to: 'a@example.com', subject: 'One', text: '1', html: '<p>1</p>' });
    await mail.send({ to: 'b@example.com', subject: 'Two', text: '2', html: '<p>2</p>' });
    expect(google.requests.filter((r) => r.path === '/token')).toHaveLength(1);
    expect(google.sentMessages.map((m) => m.to)).toEqual(['a@example.com', 'b@example.com']);
    expect(google.sentMessages[0]!.from).toBeUndefined(); // Gmail fills in the account's address
  });

  it('a revoked refresh token → IntegrationError "Authenticate with Google again", no secret', async () => {
    const { refreshToken } = google.issueTokens([GMAIL_SEND_SCOPE]);
    google.setMode('revoked');
    const error = await rejection(
      sender(refreshToken).send({ to: 'a@example.com', subject: SUBJECT, text: 't', html: '<p>t</p>' }),
    );
    expect(error).toBeInstanceOf(IntegrationError);
    expect(error.code).toBe('google_invalid_grant');
    expect(error.message).toBe('Google refused the saved refresh token. Authenticate with Google again in Settings.');
    expectNoSecrets(error.message, [refreshToken, google.client.clientSecret]);
    expect(google.sentMessages).toHaveLength(0);
  });

  it('a token without the send scope → google_insufficient_scope', async () => {
    const { refreshToken } = google.issueTokens(['https://www.googleapis.com/auth/drive.metadata.readonly']);
    const error = await rejection(
      sender(refreshToken).send({ to: 'a@example.com', subject: 's', text: 't', html: 'h' }),
    );
    expect(error.code).toBe('google_insufficient_scope');
    expect(error.message).toMatch(/Authenticate with Google again/);
  });

  it('a wrong client secret → google_invalid_client, no secret', async () => {
    const { refreshToken } = google.issueTokens([GMAIL_SEND_SCOPE]);
    const wrong = 'GOCSPX-not-the-secret';
    const error = await rejection(
      sender(refreshToken, { clientSecret: wrong }).send({ to: 'a@example.com', subject: 's', text: 't', html: 'h' }),
    );
    expect(error.code).toBe('google_invalid_client');
    expectNoSecrets(error.message, [wrong, refreshToken, google.client.clientSecret]);
  });

  it('a Google that never answers ends the send within its budget (gmail_timeout), so the approval e-mail job ends before the worker', async () => {
    const silent = createServer(() => undefined); // takes every request and never answers
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', () => resolve()));
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    try {
      const { refreshToken } = google.issueTokens([GMAIL_SEND_SCOPE]);
      const started = Date.now();
      const error = await rejection(
        sender(refreshToken, { oauthUrl: url, apiUrl: url, budgetMs: 500 }).send({
          to: 'a@example.com',
          subject: 'S',
          text: 't',
          html: '<p>t</p>',
        }),
      );
      expect(error).toBeInstanceOf(IntegrationError);
      expect((error as IntegrationError).code).toBe('gmail_timeout');
      expect(error.message).toBe('Gmail did not answer within 1 second. Try again later.');
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it('Google unreachable → google_unreachable', async () => {
    const port = await closedPort();
    const error = await rejection(
      sender('1//x', { apiUrl: `http://127.0.0.1:${port}`, oauthUrl: `http://127.0.0.1:${port}` }).send({
        to: 'a@example.com',
        subject: 's',
        text: 't',
        html: 'h',
      }),
    );
    expect(error.code).toBe('google_unreachable');
    expectNoSecrets(error.message, ['1//x', google.client.clientSecret]);
  }, 20_000);
});

describe('OutboxSender', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'outbox-test-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('writes one parseable .eml per message into a directory it creates', async () => {
    const outbox = new OutboxSender(join(dir, 'nested', 'outbox'));
    expect(outbox.kind).toBe('outbox');
    const first = await outbox.send({ to: 'anna@example.com', subject: SUBJECT, text: 'Hallo', html: '<p>Hallo</p>' });
    const second = await outbox.send({ to: 'ben@example.com', subject: 'Second', text: 'x', html: '<p>x</p>' });
    expect(first.id).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.\d{3}Z-[0-9a-f]{8}\.eml$/);
    expect(second.id).not.toBe(first.id);
    expect((await readdir(join(dir, 'nested', 'outbox'))).sort()).toEqual([first.id, second.id].sort());
    const raw = await readFile(join(dir, 'nested', 'outbox', first.id), 'utf8');
    expect(raw).toMatch(/^Subject: =\?utf-8\?B\?/m);
    const mail = parseMime(raw);
    expect(mail.subject).toBe(SUBJECT);
    expect(mail.to).toBe('anna@example.com');
    expect(mail.from).toBe('Content Publisher <no-reply@localhost>');
    expect(mail.text).toBe('Hallo');
    expect(mail.html).toBe('<p>Hallo</p>');
    expect(mail.crlf).toBe(true);
  });

  it('never shows a half-written .eml to whoever watches the folder', async () => {
    const folder = join(dir, 'watched');
    const outbox = new OutboxSender(folder);
    const html = `<p>${'x'.repeat(24 * 1024 * 1024)}</p>`; // written in many chunks
    const seen: string[] = [];
    let done = false;
    const sending = outbox
      .send({ to: 'anna@example.com', subject: 'Big', text: 't', html })
      .finally(() => (done = true));
    while (!done) {
      const names = await readdir(folder).catch(() => [] as string[]);
      for (const name of names.filter((n) => n.endsWith('.eml'))) seen.push(await readFile(join(folder, name), 'utf8'));
      await new Promise((r) => setImmediate(r));
    }
    const { id } = await sending;
    const complete = await readFile(join(folder, id), 'utf8');
    for (const content of seen) expect(content.length).toBe(complete.length);
    expect(await readdir(folder)).toEqual([id]);
  });

  it('accepts an options object with a default From', async () => {
    const outbox = new OutboxSender({ directory: join(dir, 'o2'), from: 'App <app@example.com>' });
    const { id } = await outbox.send({ to: 'x@example.com', subject: 's', text: 't', html: 'h' });
    expect(parseMime(await readFile(join(dir, 'o2', id), 'utf8')).from).toBe('App <app@example.com>');
  });
});

describe('buildMimeMessage', () => {
  const fixed = {
    date: new Date(Date.UTC(2025, 6, 1, 9, 5, 0)),
    messageId: 'abc-123@example.com',
    boundary: '=_alt_test',
  };

  it('writes RFC 5322 headers and a multipart/alternative body with CRLF line endings', () => {
    const mime = buildMimeMessage(
      {
        from: 'Redaktion <news@example.com>',
        to: 'Anna Müller <anna@example.com>',
        subject: SUBJECT,
        text: 'Grüße',
        html: '<p>Grüße</p>',
      },
      fixed,
    );
    const cut = mime.indexOf('\r\n\r\n');
    const head = mime.slice(0, cut);
    const body = mime.slice(cut + 4);
    expect(head.split('\r\n')).toEqual([
      'From: Redaktion <news@example.com>',
      `To: =?utf-8?B?${Buffer.from('Anna Müller').toString('base64')}?= <anna@example.com>`,
      `Subject: =?utf-8?B?${Buffer.from(SUBJECT).toString('base64')}?=`,
      'Date: Tue, 01 Jul 2025 09:05:00 +0000',
      'Message-ID: <abc-123@example.com>',
      'MIME-Version: 1.0',
      'Content-Type: multipart/alternative; boundary="=_alt_test"',
    ]);
    expect(mime.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    expect(body).toContain(
      '--=_alt_test\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n',
    );
    expect(body).toContain(
      '--=_alt_test\r\nContent-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n',
    );
    expect(body.trimEnd().endsWith('--=_alt_test--')).toBe(true);
    expect(body.indexOf('text/plain')).toBeLessThan(body.indexOf('text/html'));
    const parsed = parseMime(mime);
    expect(parsed).toMatchObject({
      subject: SUBJECT,
      to: 'Anna Müller <anna@example.com>',
      text: 'Grüße',
      html: '<p>Grüße</p>',
      crlf: true,
    });
  });

  it('splits long subjects into encoded-words under 76 characters without cutting a character', () => {
    const subject = `Freigabe ✅ ${'Überschrift mit Ümläuten und Emoji 🎉 '.repeat(5)}Ende`;
    const encoded = encodeWords(subject);
    for (const word of encoded.split('\r\n ')) expect(word.length).toBeLessThanOrEqual(75);
    expect(decodeEncodedWords(encoded.replace(/\r\n/g, ''))).toBe(subject);
    const mime = buildMimeMessage({ to: 'a@example.com', subject, text: 't', html: 'h' });
    expect(parseMime(mime).subject).toBe(subject);
    for (const line of mime.split('\r\n')) expect(line.length).toBeLessThanOrEqual(78);
  });

  it('refuses line breaks in addresses (header injection) and flattens them in the subject', () => {
    expect(() =>
      buildMimeMessage({ to: 'a@example.com\r\nBcc: victim@example.com', subject: 's', text: 't', html: 'h' }),
    ).toThrow(/line break/);
    const mime = buildMimeMessage({
      to: 'a@example.com',
      subject: 'Hi\r\nBcc: victim@example.com',
      text: 't',
      html: 'h',
    });
    expect(mime).not.toMatch(/^Bcc:/m);
    expect(parseMime(mime).subject).toBe('Hi Bcc: victim@example.com');
  });

  it('base64Url has no padding and no + or /', () => {
    const encoded = base64Url(
      buildMimeMessage({ to: 'a@example.com', subject: '???>>>', text: '\u00ff\u00fe'.repeat(50), html: 'h' }),
    );
    expect(encoded).toMatch(/^[A-Za-z0-9_-]+$/);
  });
});
