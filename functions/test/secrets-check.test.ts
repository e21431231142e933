import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logger } from '../src/logger.js';
import { maskForReport, registerApiOrigin, SecretsCheck, secretsCheck, trackSecret } from './helpers/secrets.js';

/** The checker itself (helpers/secrets.ts) and its capture (helpers/secrets-check.ts, the setup file). */
describe('the secrets check', () => {
  const token = 'ya29.a0AfH6SMBx-leaked-token-value-1234567890';
  const password = 'correct horse battery staple';

  it('reports a secret in a log line and in a response, by kind and place, never in full', () => {
    const check = new SecretsCheck();
    check.track(token, 'Google access token');
    check.track(password, '"password" sent to POST /api/auth/login');
    check.track('p', 'a placeholder too short to be a secret');
    check.recordLog({
      where: 'log line (ERROR "Job failed") on stdout',
      text: JSON.stringify({
        level: 'ERROR',
        message: 'Job failed',
        error: { config: { headers: { Authorization: `Bearer ${token}` } } },
      }),
      test: 'some test',
    });
    check.recordResponse({
      where: 'response body of POST /api/auth/login → 200',
      text: JSON.stringify({ user: { name: 'Ada', password } }),
    });
    check.recordResponse({
      where: 'response body of GET /api/settings → 200',
      text: '[{"key":"p","value":"••••••••5678"}]',
    });

    const leaks = check.leaks();
    expect(leaks.map((l) => [l.kind, l.where, l.test])).toEqual([
      ['"password" sent to POST /api/auth/login', 'response body of POST /api/auth/login → 200', undefined],
      ['Google access token', 'log line (ERROR "Job failed") on stdout', 'some test'],
    ]);
    const report = SecretsCheck.report(leaks);
    expect(report).toContain('2 secret value(s) left the server');
    expect(report).toContain(
      `Google access token ${maskForReport(token)} in log line (ERROR "Job failed") on stdout (test: some test)`,
    );
    expect(report).toContain('Bearer [SECRET ya2…(45 chars)]');
    expect(report).not.toContain(token);
    expect(report).not.toContain(password);
    expect(report).not.toContain(token.slice(3, 20));
  });

  it('finds a secret JSON-escaped, URL-encoded, form-encoded and in base64', () => {
    const secret = 'pa "ss"/wörd 1234';
    for (const text of [
      JSON.stringify({ body: secret }),
      `https://example.com/cb?x=${encodeURIComponent(secret)}`,
      `client_secret=${new URLSearchParams({ s: secret }).toString().slice(2)}&grant_type=x`,
      `authorization: Basic ${Buffer.from(secret).toString('base64')}`,
    ]) {
      const check = new SecretsCheck();
      check.track(secret, 'a secret');
      check.recordLog({ where: 'a log line', text });
      expect(check.leaks(), text).toHaveLength(1);
    }
  });

  it('allows a secret the API issues once in that response only', () => {
    const check = new SecretsCheck();
    const signingSecret = 'whsec_0123456789abcdefghij';
    check.track(signingSecret, '"signingSecret" issued by POST /api/linkedin/zapier-webhook → 200');
    check.recordResponse({
      where: 'the issuing response',
      text: JSON.stringify({ signingSecret }),
      allow: new Set([signingSecret]),
    });
    expect(check.leaks()).toEqual([]);
    check.recordResponse({ where: 'a later response', text: JSON.stringify({ signingSecret }) });
    expect(check.leaks().map((l) => l.where)).toEqual(['a later response']);
  });

  it('sees the logger at the production level (INFO) and at DEBUG', () => {
    const before = secretsCheck().logs.length;
    logger.info('secrets-check probe', { probe: 'info' });
    logger.debug('secrets-check probe', { probe: 'debug' });
    const lines = secretsCheck().logs.slice(before);
    expect(lines.map((l) => JSON.parse(l.text).probe)).toEqual(['info', 'debug']);
    expect(lines[0]!.where).toBe('log line (INFO "secrets-check probe") on stdout');
    expect(lines[0]!.test).toBe('the secrets check > sees the logger at the production level (INFO) and at DEBUG');
  });

  it('flags a tracked secret that the logger writes', () => {
    const check = secretsCheck();
    const before = check.logs.length;
    trackSecret('GOCSPX-probe-client-secret-42', 'a probe secret');
    // (An error's request fields are dropped by the log formatter, logger.test.ts; a plain field is not.)
    logger.error('Token exchange failed', { request: { data: 'client_secret=GOCSPX-probe-client-secret-42' } });
    expect(check.leaks().map((l) => [l.kind, l.where])).toEqual([
      ['a probe secret', 'log line (ERROR "Token exchange failed") on stderr'],
    ]);
    // Logged on purpose: take it out so this file's own check passes.
    check.logs.splice(before);
    check.secrets.delete('GOCSPX-probe-client-secret-42');
  });

  describe('records our API responses with their requests', () => {
    let server: Server;
    let url: string;
    beforeAll(async () => {
      // A stand-in API: echoes the request body, or sets a session cookie.
      server = createServer((req, res) => {
        let body = '';
        req.on('data', (c: Buffer) => (body += c.toString()));
        req.on('end', () => {
          if (req.url === '/login')
            res.setHeader('set-cookie', 'session=eyJhbGciOiJIUzI1NiJ9.session-token; HttpOnly; SameSite=Lax');
          res.setHeader('content-type', 'application/json');
          res.end(
            req.url === '/echo' ? body : req.url === '/whoami' ? JSON.stringify({ cookie: req.headers.cookie }) : '{}',
          );
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      registerApiOrigin(url);
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('registers secret request fields and setting values, exempts our session cookie, and flags echoes', async () => {
      const check = secretsCheck();
      const before = check.responses.length;
      const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
        fetch(`${url}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: JSON.stringify(body),
        });
      await post('/echo', { siteUrl: 'https://blog.example.com', appPassword: 'echoed app password 1234' });
      await post('/api/settings', { key: 'My Service Key', value: 'sk-not-echoed-abcdefgh' });
      await post('/api/settings', { key: 'Notification Email', value: 'owner@example.com' });
      const login = await post('/login', { email: 'a@example.com', password: 'not echoed at all' });
      expect(login.headers.getSetCookie()).toHaveLength(1);
      await post('/whoami', {}, { cookie: 'session=eyJhbGciOiJIUzI1NiJ9.session-token' });
      await check.settled();

      expect(check.secrets.get('echoed app password 1234')).toBe('"appPassword" sent to POST /echo');
      expect(check.secrets.get('eyJhbGciOiJIUzI1NiJ9.session-token')).toBe('session token (our session cookie)');
      expect(check.secrets.get('sk-not-echoed-abcdefgh')).toBe('value of the setting "My Service Key"');
      expect(check.isSecret('https://blog.example.com')).toBe(false);
      expect(check.isSecret('owner@example.com')).toBe(false); // a public setting
      const leaks = check.leaks().map((l) => [l.kind, l.where]);
      expect(leaks).toEqual([
        ['"appPassword" sent to POST /echo', 'response body of POST /echo → 200'],
        ['session token (our session cookie)', 'response body of POST /whoami → 200'],
      ]);
      // These leaks were made on purpose: take them out so this file's own check passes.
      check.responses.splice(before);
    });
  });
});
