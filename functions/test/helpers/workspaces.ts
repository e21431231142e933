import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { inject } from 'vitest';
import { parseMime } from '../fakes/mime.js';
import { Client, registration, type TestApp } from './app.js';

/** A document client on the tests' DynamoDB Local, to look at or age items directly. */
export const testDb = () =>
  DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: inject('dynamoEndpoint'),
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
    { marshallOptions: { removeUndefinedValues: true } },
  );

/** The invitation e-mails in the app's outbox addressed to `email`, oldest first. */
export function invitationMails(app: TestApp, email: string) {
  let files: string[];
  try {
    files = readdirSync(join(app.dataDir, 'outbox'))
      .filter((f) => f.endsWith('.eml'))
      .sort();
  } catch {
    return [];
  }
  return files
    .map((f) => parseMime(readFileSync(join(app.dataDir, 'outbox', f), 'utf8')))
    .filter((m) => m.to.includes(email) && /invited you/.test(m.subject));
}

/** The token of the newest invitation link e-mailed to `email`. */
export function invitationToken(app: TestApp, email: string): string {
  const mail = invitationMails(app, email).at(-1);
  const m = /\/invite\?token=([A-Za-z0-9._%-]+)/.exec(`${mail?.text ?? ''}`);
  if (!m) throw new Error(`no invitation link for ${email} in the outbox`);
  return decodeURIComponent(m[1]!);
}

/** A client that sends X-Workspace on every call (as the SPA's client does once a workspace is picked). */
export class WorkspaceClient extends Client {
  workspace: string | undefined;
  override call(path: string, options: Parameters<Client['call']>[1] = {}) {
    const headers = { ...options.headers, ...(this.workspace ? { 'x-workspace': this.workspace } : {}) };
    return super.call(path, { ...options, headers });
  }
}

/** Registers an account and has the admin activate it; answers its signed-in client and id. */
export async function activeAccount(app: TestApp, admin: Client, overrides: Record<string, unknown> = {}) {
  const client = new WorkspaceClient(app.url);
  const body = registration(overrides);
  await client.call('/api/auth/register', { body });
  const id = (await admin.call('/api/admin/users')).json.users.find((u: { email: string }) => u.email === body.email)
    ._id as string;
  await admin.call(`/api/admin/users/${id}/status`, { method: 'PATCH', body: { isActive: true } });
  await client.call('/api/auth/login', { body: { email: body.email, password: body.password } });
  return { client, id, email: body.email as string, password: body.password as string };
}
