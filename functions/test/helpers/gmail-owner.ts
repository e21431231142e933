import { expect } from 'vitest';
import type { FakeGoogle } from '../fakes/google.js';
import { Client, completeOAuth, registration, type TestApp } from './app.js';

/**
 * A registered owner whose approval e-mails go out through the fake Gmail: the notification address, the
 * Gmail OAuth client and a completed connection (the set-up of the scheduled-run tests).
 */
export async function ownerWithGmail(app: TestApp, google: FakeGoogle): Promise<{ owner: Client; userId: string }> {
  const owner = new Client(app.url);
  const userId = (await owner.call('/api/auth/register', { body: registration({ email: 'owner@example.com' }) })).json
    .user._id as string;
  for (const [key, value] of [
    ['notification_email', 'owner@example.com'],
    ['gmail_client_id', google.client.clientId],
    ['gmail_client_secret', google.client.clientSecret],
  ]) {
    expect((await owner.call('/api/settings', { body: { key, value } })).status).toBeLessThan(300);
  }
  const { authUrl } = (await owner.call('/api/email/oauth/auth')).json;
  expect((await completeOAuth(owner, authUrl)).location).toBe('/settings?gmail_connected=true');
  return { owner, userId };
}
