import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  basicAuthHeader,
  HttpWordPressClient,
  normaliseSiteUrl,
  wordpressApiUrl,
} from '../../src/channels/wordpress/client.js';
import type { WordPressCheck } from '../../src/domain/integrations.js';
import { FAKE_WP_EDITOR, startFakeWordPress, type FakeWordPress } from '../fakes/wordpress.js';
import { closedPort, expectNoSecrets } from './helpers.js';

let wp: FakeWordPress;
const local = new HttpWordPressClient({ allowPrivateUrls: true, timeoutMs: 5_000 });
const editor = () => ({ siteUrl: wp.url, username: FAKE_WP_EDITOR.username, appPassword: FAKE_WP_EDITOR.appPassword });

beforeAll(async () => {
  wp = await startFakeWordPress();
});
afterAll(() => wp.stop());
beforeEach(() => wp.reset());

function failure(result: WordPressCheck) {
  if (result.ok) throw new Error('expected a failed check');
  return result;
}

/** A server answering every request with `handler`. */
async function serve(
  handler: Parameters<typeof createServer>[1],
): Promise<{ url: string; server: Server; close(): Promise<void> }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('HttpWordPressClient.check against the fake WordPress', () => {
  it('accepts the application password on a pretty-permalink site and reads roles with context=edit', async () => {
    const result = await local.check(editor());
    expect(result).toEqual({
      ok: true,
      siteUrl: wp.url,
      apiStyle: 'pretty',
      user: { id: FAKE_WP_EDITOR.id, name: FAKE_WP_EDITOR.name, roles: ['editor'] },
    });
    expect(wp.requests).toHaveLength(1);
    expect(wp.requests[0]).toMatchObject({ method: 'GET', route: '/wp/v2/users/me', style: 'pretty', user: 'editor' });
    expect(wp.requests[0]!.path).toContain('context=edit');
  });

  it('falls back to ?rest_route= when /wp-json/ is not routed (no pretty permalinks)', async () => {
    wp.setMode('query-only');
    const result = await local.check(editor());
    expect(result).toMatchObject({ ok: true, apiStyle: 'query', siteUrl: wp.url, user: { id: 2, roles: ['editor'] } });
    expect(wp.requests.map((r) => r.style ?? 'html-404')).toEqual(['html-404', 'query']);
    expect(wp.requests[1]!.path).toBe('/?rest_route=/wp/v2/users/me&context=edit');
  });

  it('normalises the typed address and stores it without /wp-admin or a trailing slash', async () => {
    const result = await local.check({ ...editor(), siteUrl: `  ${wp.url}/wp-admin/  ` });
    expect(result).toMatchObject({ ok: true, siteUrl: wp.url });
  });

  it('accepts the e-mail address as user name and the password without its grouping spaces', async () => {
    const result = await local.check({
      siteUrl: wp.url,
      username: FAKE_WP_EDITOR.email,
      appPassword: FAKE_WP_EDITOR.appPassword.replace(/\s/g, ''),
    });
    expect(result.ok).toBe(true);
  });

  it('wrong application password → wrong_password, with advice and without the password', async () => {
    const secret = 'zzzz yyyy xxxx wwww vvvv uuuu';
    const result = failure(await local.check({ ...editor(), appPassword: secret }));
    expect(result.code).toBe('wrong_password');
    expect(result.message).toBe(
      'WordPress refused the application password for this user. Create a new one under Users → Profile → Application Passwords.',
    );
    expectNoSecrets(result.message, [secret, secret.replace(/\s/g, ''), basicAuthHeader('editor', secret)]);
  });

  it('unknown user → invalid_username (login and e-mail forms)', async () => {
    const byLogin = failure(await local.check({ ...editor(), username: 'nobody' }));
    expect(byLogin.code).toBe('invalid_username');
    expect(byLogin.message).toContain('“nobody”');
    const byEmail = failure(await local.check({ ...editor(), username: 'nobody@example.com' }));
    expect(byEmail.code).toBe('invalid_username');
    expectNoSecrets(byEmail.message, [FAKE_WP_EDITOR.appPassword]);
  });

  it('application passwords disabled → app_passwords_disabled, mentioning HTTPS and WP_ENVIRONMENT_TYPE', async () => {
    wp.setMode('app-passwords-disabled');
    const result = failure(await local.check(editor()));
    expect(result.code).toBe('app_passwords_disabled');
    expect(result.message).toMatch(/HTTPS/);
    expect(result.message).toMatch(/WP_ENVIRONMENT_TYPE/);
    expect(result.message).toMatch(/security plugins/);
  });

  it('application passwords disabled for the user → app_passwords_disabled', async () => {
    wp.users[0]!.appPasswordsAllowed = false;
    try {
      const result = failure(await local.check(editor()));
      expect(result.code).toBe('app_passwords_disabled');
      expect(result.message).toMatch(/this user account/);
    } finally {
      delete wp.users[0]!.appPasswordsAllowed;
    }
  });

  it('401 rest_not_logged_in (WordPress 6.x: a mistyped password, an unknown user or a stripped header alike) → check the username and the application password first, the header only as the remaining cause', async () => {
    wp.setMode('strip-auth');
    const result = failure(await local.check(editor()));
    expect(result.code).toBe('wrong_password');
    expect(result.message).toMatch(
      new RegExp(
        `^WordPress did not accept the username “${FAKE_WP_EDITOR.username}” with this application password\\. Check the username`,
      ),
    );
    expect(result.message).toContain('Users → Profile → Application Passwords');
    expect(result.message).toMatch(/If both are right, the web server may be dropping the Authorization header/);
    expect(result.message).toMatch(/CGIPassAuth/);
    // Nothing in the answer proves the header never arrived: it is not claimed.
    expect(result.message).not.toMatch(/without credentials|dropped the Authorization/);
    expect(wp.requests[0]!.hadAuthorization).toBe(true);
  });

  it('a site that answers HTML for everything → not_wordpress (both routes tried)', async () => {
    const seen: string[] = [];
    const site = await serve((req, res) => {
      seen.push(req.url ?? '');
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end('<!doctype html><html><body><h1>My static site</h1></body></html>');
    });
    try {
      const result = failure(await local.check({ ...editor(), siteUrl: site.url }));
      expect(result.code).toBe('not_wordpress');
      expect(result.message).toContain(site.url);
      expect(seen).toEqual(['/wp-json/wp/v2/users/me?context=edit', '/?rest_route=/wp/v2/users/me&context=edit']);
    } finally {
      await site.close();
    }
  });

  it('a closed port → unreachable', async () => {
    const port = await closedPort();
    const result = failure(await local.check({ ...editor(), siteUrl: `http://127.0.0.1:${port}` }));
    expect(result.code).toBe('unreachable');
    expect(result.message).toMatch(/refused the connection/);
  });

  it('a site that does not answer in time → unreachable', async () => {
    const site = await serve(() => undefined); // never answers
    try {
      const quick = new HttpWordPressClient({ allowPrivateUrls: true, timeoutMs: 300 });
      const result = failure(await quick.check({ ...editor(), siteUrl: site.url }));
      expect(result.code).toBe('unreachable');
      expect(result.message).toMatch(/did not answer within/);
    } finally {
      await site.close();
    }
  });

  it('a WordPress that is down (500 error page) → http_error, closed connection → unreachable', async () => {
    wp.setMode('down');
    expect(failure(await local.check(editor())).code).toBe('http_error');
    wp.setMode('down', { close: true });
    expect(failure(await local.check(editor())).code).toBe('unreachable');
  });

  it('refuses 127.0.0.1 when private addresses are not allowed (AWS), without sending anything', async () => {
    const aws = new HttpWordPressClient({ allowPrivateUrls: false });
    const result = failure(await aws.check(editor()));
    expect(result.code).toBe('forbidden_url');
    expect(result.message).toMatch(/private or local network address/);
    expect(wp.requests).toHaveLength(0);
  });

  it('refuses localhost and non-http schemes', async () => {
    const aws = new HttpWordPressClient({ allowPrivateUrls: false });
    const port = new URL(wp.url).port;
    expect(failure(await aws.check({ ...editor(), siteUrl: `http://localhost:${port}` })).code).toBe('forbidden_url');
    expect(failure(await aws.check({ ...editor(), siteUrl: 'http://[::1]/' })).code).toBe('forbidden_url');
    expect(failure(await local.check({ ...editor(), siteUrl: 'ftp://example.com' })).code).toBe('forbidden_url');
    expect(failure(await local.check({ ...editor(), siteUrl: 'file:///etc/passwd' })).code).toBe('forbidden_url');
    expect(wp.requests).toHaveLength(0);
  });

  it('follows a same-site redirect and stores the address it ends at', async () => {
    const site = await serve((req, res) => {
      if (req.url?.startsWith('/old/')) {
        res.writeHead(301, { Location: req.url.replace('/old/', '/new/') });
        return res.end();
      }
      if (
        req.url?.startsWith('/new/wp-json/wp/v2/users/me') &&
        req.headers.authorization === basicAuthHeader('editor', 'pw')
      ) {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        return res.end(JSON.stringify({ id: 7, name: 'Moved Blog', roles: ['author'] }));
      }
      res.writeHead(404, { 'Content-Type': 'text/html' });
      res.end('not found');
    });
    try {
      const result = await local.check({ siteUrl: `${site.url}/old`, username: 'editor', appPassword: 'pw' });
      expect(result).toEqual({
        ok: true,
        siteUrl: `${site.url}/new`,
        apiStyle: 'pretty',
        user: { id: 7, name: 'Moved Blog', roles: ['author'] },
      });
    } finally {
      await site.close();
    }
  });

  it('does not follow a redirect to another site (the credentials stay home)', async () => {
    let leaked = false;
    const other = await serve((req, res) => {
      if (req.headers.authorization) leaked = true;
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{"id":1}');
    });
    const site = await serve((req, res) => {
      res.writeHead(302, { Location: `${other.url}${req.url}` });
      res.end();
    });
    try {
      const result = failure(await local.check({ siteUrl: site.url, username: 'editor', appPassword: 'pw' }));
      expect(result.code).toBe('http_error');
      expect(result.message).toContain(`redirects to ${other.url}`);
      expect(leaked).toBe(false);
    } finally {
      await site.close();
      await other.close();
    }
  });

  it('other WordPress errors → http_error carrying the plain-text WordPress message', async () => {
    const site = await serve((_req, res) => {
      res.writeHead(403, { 'Content-Type': 'application/json' });
      res.end(
        JSON.stringify({
          code: 'rest_cannot_access',
          message: '<strong>Error:</strong> Only authenticated users can access the REST API.',
          data: { status: 403 },
        }),
      );
    });
    try {
      const result = failure(await local.check({ siteUrl: site.url, username: 'editor', appPassword: 'pw' }));
      expect(result).toEqual({
        ok: false,
        code: 'http_error',
        message: 'WordPress answered HTTP 403: Error: Only authenticated users can access the REST API.',
      });
    } finally {
      await site.close();
    }
  });

  it('empty user name or password fail before any request', async () => {
    expect(failure(await local.check({ ...editor(), username: ' ' })).code).toBe('invalid_username');
    expect(failure(await local.check({ ...editor(), appPassword: '' })).code).toBe('wrong_password');
    expect(wp.requests).toHaveLength(0);
  });
});

describe('wordpressApiUrl and normaliseSiteUrl', () => {
  it('builds both API styles', () => {
    expect(wordpressApiUrl('https://example.com', 'pretty', '/wp/v2/posts')).toBe(
      'https://example.com/wp-json/wp/v2/posts',
    );
    expect(wordpressApiUrl('https://example.com/blog/', 'query', '/wp/v2/posts')).toBe(
      'https://example.com/blog/?rest_route=/wp/v2/posts',
    );
    expect(wordpressApiUrl('https://example.com', 'pretty', '/wp/v2/posts/5', { context: 'edit' })).toBe(
      'https://example.com/wp-json/wp/v2/posts/5?context=edit',
    );
    expect(wordpressApiUrl('https://example.com', 'query', '/wp/v2/users/me?context=edit')).toBe(
      'https://example.com/?rest_route=/wp/v2/users/me&context=edit',
    );
  });

  it('normalises what people paste', () => {
    expect(normaliseSiteUrl('example.com')).toBe('https://example.com');
    expect(normaliseSiteUrl(' HTTP://Example.COM/blog/wp-json/wp/v2/ ')).toBe('http://example.com/blog');
    expect(normaliseSiteUrl('https://example.com/wp-admin/post-new.php?x=1#top')).toBe('https://example.com');
    expect(normaliseSiteUrl('https://example.com/wp-login.php')).toBe('https://example.com');
    expect(normaliseSiteUrl('localhost:8080/')).toBe('https://localhost:8080');
    expect(() => normaliseSiteUrl('ftp://example.com')).toThrow(/Only http/);
    expect(() => normaliseSiteUrl('javascript:alert(1)')).toThrow(/Only http/);
    expect(() => normaliseSiteUrl('')).toThrow(/Enter the address/);
  });
});
