import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, registration, startTestApp, type TestApp } from './helpers/app.js';

/**
 * The OAuth callbacks are public addresses: their `error` parameter can be anything a link puts
 * there. It travels on to the SPA's address only when it is shaped like an OAuth error code; the
 * SPA then shows its own text for a known code and one generic text for the rest
 * (frontend/src/components/settings/messages.ts, frontend/src/components/sheets/messages.ts).
 */
let app: TestApp;
let owner: Client;
const CRAFTED = 'Your account is suspended, call +1 555 0100 now';

beforeAll(async () => {
  app = await startTestApp();
  owner = new Client(app.url);
  await owner.call('/api/auth/register', { body: registration() });
  // Saved without a live check: the sign-in addresses are only built, nothing is sent to the providers.
  expect(
    (
      await owner.call('/api/linkedin/credentials', {
        body: { clientId: 'li-client', clientSecret: 'li-secret-value' },
      })
    ).status,
  ).toBe(200);
  for (const [key, value] of [
    ['gmail_client_id', '123-app.apps.googleusercontent.com'],
    ['gmail_client_secret', 'GOCSPX-not-a-real-secret'],
  ]) {
    expect((await owner.call('/api/settings', { body: { key, value } })).status).toBeLessThan(300);
  }
});
afterAll(() => app?.stop());

/** A state our server signed for this user and flow, as the provider would bring it back. */
async function stateFrom(path: string): Promise<string> {
  const res = await owner.call(path);
  expect(res.status).toBe(200);
  return new URL(res.json.authUrl).searchParams.get('state')!;
}

async function landing(callback: string, state: string, error: string) {
  const res = await fetch(`${app.url}${callback}?${new URLSearchParams({ state, error })}`, {
    redirect: 'manual',
    headers: { cookie: owner.cookie! },
  });
  expect(res.status).toBe(302);
  return res.headers.get('location');
}

describe('a provider error that is not an OAuth error code reaches the SPA as provider_error', () => {
  const flows = [
    ['LinkedIn', '/api/linkedin/auth-url', '/api/linkedin/callback', '/settings?linkedin_error='],
    ['Gmail', '/api/email/oauth/auth', '/api/email/oauth/callback', '/settings?gmail_error='],
    ['Google Sheets', '/api/sheets/auth', '/api/sheets/callback', '/sheets-import?sheets_error='],
  ] as const;

  it.each(flows)('%s', async (_name, authPath, callback, prefix) => {
    const before = await app.items();
    expect(await landing(callback, await stateFrom(authPath), CRAFTED)).toBe(`${prefix}provider_error`);
    expect(await landing(callback, await stateFrom(authPath), 'access_denied\u202egnp.exe')).toBe(
      `${prefix}provider_error`,
    );
    // Real codes pass as they are, for the SPA to explain.
    expect(await landing(callback, await stateFrom(authPath), 'access_denied')).toBe(`${prefix}access_denied`);
    expect(await app.items()).toEqual(before);
  });

  it('LinkedIn’s own codes pass too', async () => {
    expect(
      await landing('/api/linkedin/callback', await stateFrom('/api/linkedin/auth-url'), 'user_cancelled_login'),
    ).toBe('/settings?linkedin_error=user_cancelled_login');
  });
});
