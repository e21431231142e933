import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeGoogle, type FakeGoogle } from './fakes/google.js';
import { startFakeLinkedIn, type FakeLinkedIn } from './fakes/linkedin.js';
import { Client, completeOAuth, registration, startTestApp, type TestApp } from './helpers/app.js';
import { activeAccount, invitationToken, WorkspaceClient } from './helpers/workspaces.js';

/**
 * docs/product.md (Workspaces): a team workspace's OAuth sign-ins (LinkedIn, Gmail, Google Sheets) store the
 * connection in the workspace where its owner started the flow, over the fake providers; a member who is no
 * longer an owner when the provider sends them back is refused and nothing is stored, with or without a session.
 */
let app: TestApp;
let li: FakeLinkedIn;
let google: FakeGoogle;
let owner: Awaited<ReturnType<typeof activeAccount>>;
let coOwner: Awaited<ReturnType<typeof activeAccount>>;
let teamId: string;

/** The same member signed in from another browser: no session at the callback (the state alone binds). */
const noSession = () => new Client('http://unused');

beforeAll(async () => {
  [li, google] = await Promise.all([startFakeLinkedIn(), startFakeGoogle()]);
  process.env.LINKEDIN_OAUTH_URL = li.oauthUrl;
  process.env.LINKEDIN_API_URL = li.apiUrl;
  process.env.GOOGLE_OAUTH_URL = google.oauthUrl;
  process.env.GOOGLE_API_URL = google.apiUrl;
  app = await startTestApp();
  const admin = new WorkspaceClient(app.url);
  await admin.call('/api/auth/register', { body: registration({ email: 'admin@example.com' }) });
  owner = await activeAccount(app, admin, { email: 'owner@example.com' });
  coOwner = await activeAccount(app, admin, { email: 'co-owner@example.com' });
  teamId = (await owner.client.call('/api/workspaces', { body: { name: 'Acme Marketing' } })).json.workspace.id;
  owner.client.workspace = teamId;
  expect(
    (await owner.client.call('/api/workspace/invitations', { body: { email: coOwner.email, role: 'owner' } })).status,
  ).toBe(201);
  const accepted = await coOwner.client.call('/api/invitations/accept', {
    body: { token: invitationToken(app, coOwner.email) },
  });
  expect(accepted.status, JSON.stringify(accepted.json)).toBe(200);
  coOwner.client.workspace = teamId;

  // The team's own app credentials, set by its owner.
  const linkedIn = await owner.client.call('/api/linkedin/credentials', {
    body: { clientId: li.app.clientId, clientSecret: li.app.clientSecret },
  });
  expect(linkedIn.status).toBe(200);
  for (const [key, value] of [
    ['gmail_client_id', google.client.clientId],
    ['gmail_client_secret', google.client.clientSecret],
  ])
    expect((await owner.client.call('/api/settings', { body: { key, value } })).status).toBeLessThan(300);
});
afterAll(async () => {
  await app?.stop();
  await Promise.all([li?.stop(), google?.stop()]);
});

const setCoOwnerRole = async (role: 'owner' | 'editor') => {
  const res = await owner.client.call(`/api/workspace/members/${coOwner.id}`, { method: 'PUT', body: { role } });
  expect(res.status, JSON.stringify(res.json)).toBe(200);
};

const FLOWS = [
  {
    name: 'LinkedIn',
    start: '/api/linkedin/auth-url',
    connected: '/settings?linkedin_connected=true',
    refused: '/settings?linkedin_error=not_owner',
    status: '/api/linkedin/status',
    isConnected: (json: { connected: boolean }) => json.connected,
  },
  {
    name: 'Gmail',
    start: '/api/email/oauth/auth',
    connected: '/settings?gmail_connected=true',
    refused: '/settings?gmail_error=not_owner',
    status: '/api/email/settings',
    isConnected: (json: { authenticated: boolean }) => json.authenticated,
  },
  {
    name: 'Google Sheets',
    start: '/api/sheets/auth',
    connected: '/sheets-import?sheets_connected=true',
    refused: '/sheets-import?sheets_error=not_owner',
    status: '/api/sheets/status',
    isConnected: (json: { authenticated: boolean }) => json.authenticated,
  },
] as const;

describe.each(FLOWS)('$name sign-in of a team workspace', (flow) => {
  it('a member who lost the owner role before the callback is refused, with or without a session; nothing is stored', async () => {
    for (const session of [false, true]) {
      const started = await coOwner.client.call(flow.start);
      expect(started.status, JSON.stringify(started.json)).toBe(200);
      await setCoOwnerRole('editor');
      try {
        const before = await app.items();
        const back = await completeOAuth(session ? coOwner.client : noSession(), started.json.authUrl);
        expect(back.location, session ? 'with a session' : 'without a session').toBe(flow.refused);
        expect(await app.items()).toEqual(before);
      } finally {
        await setCoOwnerRole('owner');
      }
    }
    expect(flow.isConnected((await owner.client.call(flow.status)).json)).toBe(false);
  });

  it('an owner connects: the connection is the workspace where the flow started, not their personal one', async () => {
    const started = await coOwner.client.call(flow.start);
    const back = await completeOAuth(coOwner.client, started.json.authUrl);
    expect(back.location).toBe(flow.connected);
    expect(flow.isConnected((await owner.client.call(flow.status)).json)).toBe(true);
    coOwner.client.workspace = undefined;
    try {
      // The co-owner's personal workspace has no connection (nor app credentials) of its own.
      expect(flow.isConnected((await coOwner.client.call(flow.status)).json)).toBe(false);
    } finally {
      coOwner.client.workspace = teamId;
    }
  });
});
