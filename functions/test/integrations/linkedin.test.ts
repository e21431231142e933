import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HttpLinkedInClient, LINKEDIN_SCOPES } from '../../src/channels/linkedin/client.js';
import { IntegrationError } from '../../src/domain/integrations.js';
import { startFakeLinkedIn, type FakeLinkedIn } from '../fakes/linkedin.js';
import { authorize, closedPort, expectNoSecrets, rejection } from './helpers.js';

let li: FakeLinkedIn;
let client: HttpLinkedInClient;
const redirectUri = 'http://localhost:3000/api/integrations/linkedin/callback';

beforeAll(async () => {
  li = await startFakeLinkedIn();
  client = new HttpLinkedInClient({ oauthUrl: li.oauthUrl, apiUrl: li.apiUrl });
});
afterAll(() => li.stop());
beforeEach(() => li.reset());

const credentials = () => ({ clientId: li.app.clientId, clientSecret: li.app.clientSecret, redirectUri });

/** The browser step: authorization URL → the fake's immediate redirect → the code. */
async function codeFor(scopes = LINKEDIN_SCOPES): Promise<string> {
  const query = await authorize(
    client.authorizationUrl({ clientId: li.app.clientId, redirectUri, state: 'st-1', scopes }),
  );
  expect(query.get('state')).toBe('st-1');
  return query.get('code')!;
}

describe('HttpLinkedInClient', () => {
  it('authorizationUrl carries response_type, client_id, redirect_uri, state and the space-delimited scopes', () => {
    const url = new URL(
      client.authorizationUrl({
        clientId: 'abc',
        redirectUri,
        state: 'xyz',
        scopes: ['openid', 'profile', 'w_member_social'],
      }),
    );
    expect(`${url.origin}${url.pathname}`).toBe(`${li.oauthUrl}/authorization`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: 'abc',
      redirect_uri: redirectUri,
      state: 'xyz',
      scope: 'openid profile w_member_social',
    });
    expect(url.search).toContain('scope=openid%20profile%20w_member_social');
  });

  it('the default production URL is LinkedIn’s', () => {
    const prod = new HttpLinkedInClient({
      oauthUrl: 'https://www.linkedin.com/oauth/v2/',
      apiUrl: 'https://api.linkedin.com',
    });
    expect(prod.authorizationUrl({ clientId: 'a', redirectUri, state: 's', scopes: ['openid'] })).toMatch(
      /^https:\/\/www\.linkedin\.com\/oauth\/v2\/authorization\?response_type=code&/,
    );
  });

  it('LINKEDIN_SCOPES asks only for what the self-serve products grant (sign-in and member posting)', () => {
    expect(LINKEDIN_SCOPES).toEqual(['openid', 'profile', 'email', 'w_member_social']);
  });

  it('exchangeCode turns a code into a 60-day access token', async () => {
    const tokens = await client.exchangeCode({ ...credentials(), code: await codeFor() });
    expect(tokens.accessToken.length).toBeGreaterThan(300);
    expect(tokens.expiresIn).toBe(5_184_000);
    expect(tokens.scope?.split(',')).toEqual(LINKEDIN_SCOPES);
    expect(tokens.refreshToken).toBeUndefined();
    const form = li.requests.find((r) => r.path === '/oauth/v2/accessToken')!;
    expect(form.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(form.body).toMatchObject({
      grant_type: 'authorization_code',
      client_id: li.app.clientId,
      redirect_uri: redirectUri,
    });
  });

  it('exchangeCode with a used code → IntegrationError with LinkedIn’s description', async () => {
    const code = await codeFor();
    await client.exchangeCode({ ...credentials(), code });
    const error = await rejection(client.exchangeCode({ ...credentials(), code }));
    expect(error).toBeInstanceOf(IntegrationError);
    expect(error.code).toBe('linkedin_invalid_grant');
    expect(error.message).toContain(
      'The provided authorization grant or refresh token is invalid, expired or revoked.',
    );
    expectNoSecrets(error.message, [code, li.app.clientSecret]);
  });

  it('exchangeCode with another redirect_uri than the authorization’s → IntegrationError', async () => {
    const code = await codeFor();
    const error = await rejection(
      client.exchangeCode({ ...credentials(), redirectUri: 'http://localhost:3000/other', code }),
    );
    expect(error.code).toBe('linkedin_oauth_failed');
    expect(error.message).toMatch(/redirect uri/);
  });

  it('exchangeCode with a wrong secret → linkedin_invalid_client, secret not in the message', async () => {
    const code = await codeFor();
    const wrong = 'WPL_AP1.totally-wrong-secret';
    const error = await rejection(client.exchangeCode({ ...credentials(), clientSecret: wrong, code }));
    expect(error.code).toBe('linkedin_invalid_client');
    expect(error.message).toMatch(/client ID or secret/);
    expectNoSecrets(error.message, [wrong, li.app.clientSecret, code]);
  });

  it('userInfo returns the member id, name and e-mail', async () => {
    const { accessToken } = await client.exchangeCode({ ...credentials(), code: await codeFor() });
    expect(await client.userInfo(accessToken)).toEqual({
      sub: li.member.sub,
      name: li.member.name,
      email: li.member.email,
    });
    const call = li.requests.find((r) => r.path === '/v2/userinfo')!;
    expect(call.method).toBe('GET');
  });

  it('userInfo with a revoked or unknown token → linkedin_token_invalid "Reconnect LinkedIn"', async () => {
    const token = li.issueToken();
    li.setMode('expire-tokens');
    const revoked = await rejection(client.userInfo(token));
    expect(revoked).toMatchObject({ code: 'linkedin_token_invalid', status: 401 });
    expect(revoked.message).toBe('LinkedIn refused the access token. Reconnect LinkedIn in Settings.');
    expectNoSecrets(revoked.message, [token]);
    li.setMode('ok');
    const unknown = await rejection(client.userInfo('AQnot-a-token'));
    expect(unknown.code).toBe('linkedin_token_invalid');
  });

  it('checkClient: good credentials → ok (LinkedIn only complains about the made-up code)', async () => {
    expect(await client.checkClient(credentials())).toEqual({ ok: true });
    const call = li.requests.at(-1)!;
    expect(call.body).toMatchObject({ grant_type: 'authorization_code', client_id: li.app.clientId });
  });

  it('checkClient: wrong secret or client id → not ok with a message, no secret in it', async () => {
    const wrong = 'WPL_AP1.wrong-wrong-wrong';
    const result = await client.checkClient({ ...credentials(), clientSecret: wrong });
    expect(result).toEqual({ ok: false, message: expect.stringMatching(/^LinkedIn rejected the client ID or secret/) });
    if (!result.ok) expectNoSecrets(result.message, [wrong, li.app.clientSecret]);
    expect((await client.checkClient({ ...credentials(), clientId: 'nope' })).ok).toBe(false);
  });

  it('checkClient: LinkedIn unreachable → not ok, "Could not reach LinkedIn"', async () => {
    const port = await closedPort();
    const offline = new HttpLinkedInClient({
      oauthUrl: `http://127.0.0.1:${port}/oauth/v2`,
      apiUrl: `http://127.0.0.1:${port}`,
    });
    const result = await offline.checkClient(credentials());
    expect(result).toEqual({ ok: false, message: expect.stringMatching(/^Could not reach LinkedIn/) });
    const error = await rejection(offline.userInfo('x'));
    expect(error.code).toBe('linkedin_unreachable');
  });

  it('the member cancelling consent comes back as error=user_cancelled_authorize with the state', async () => {
    li.setMode('cancel');
    const query = await authorize(
      client.authorizationUrl({ clientId: li.app.clientId, redirectUri, state: 'st-2', scopes: LINKEDIN_SCOPES }),
    );
    expect(query.get('error')).toBe('user_cancelled_authorize');
    expect(query.get('state')).toBe('st-2');
    expect(query.get('code')).toBeNull();
  });
});

describe('HttpLinkedInClient with answers of unexpected shape (checked with zod)', () => {
  /** A LinkedIn that answers every request with `status` and `body`. */
  async function odd(status: number, body: string) {
    const server = createServer((_req, res) => res.writeHead(status, { 'content-type': 'application/json' }).end(body));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const base = `http://127.0.0.1:${port}`;
    return {
      client: new HttpLinkedInClient({ oauthUrl: `${base}/oauth/v2`, apiUrl: base }),
      close: () => new Promise((r) => server.close(r)),
    };
  }

  it('a token answer whose fields have other types is a failed sign-in, not a crash', async () => {
    const li2 = await odd(
      400,
      JSON.stringify({ access_token: 42, error: ['invalid_grant'], error_description: { text: 'x' } }),
    );
    try {
      const error = await rejection(
        li2.client.exchangeCode({ clientId: 'c', clientSecret: 's', code: 'x', redirectUri }),
      );
      expect(error).toBeInstanceOf(IntegrationError);
      expect(error).toMatchObject({
        code: 'linkedin_oauth_failed',
        message: 'LinkedIn did not complete the sign-in (HTTP 400). Connect LinkedIn again.',
      });
    } finally {
      await li2.close();
    }
  });

  it('a token answer with the token but odd optional fields keeps the token and drops the rest', async () => {
    const li2 = await odd(
      200,
      JSON.stringify({ access_token: 'AQtoken', expires_in: '5184000', scope: 7, refresh_token: null }),
    );
    try {
      expect(await li2.client.exchangeCode({ clientId: 'c', clientSecret: 's', code: 'x', redirectUri })).toEqual({
        accessToken: 'AQtoken',
        expiresIn: 5184000,
      });
    } finally {
      await li2.close();
    }
  });

  it('a userinfo answer without a string sub → linkedin_error; a non-JSON answer too', async () => {
    for (const body of [JSON.stringify({ sub: 123, name: 'A' }), '<html>oops</html>']) {
      const li2 = await odd(200, body);
      try {
        const error = await rejection(li2.client.userInfo('AQtoken'));
        expect(error).toMatchObject({
          code: 'linkedin_error',
          message: 'LinkedIn could not return the member profile (HTTP 200). Try again later.',
        });
      } finally {
        await li2.close();
      }
    }
  });
});
