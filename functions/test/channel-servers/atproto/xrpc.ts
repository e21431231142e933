/**
 * Calls to a PDS as a test makes them (the API and client tests, and the browser journeys through
 * frontend/e2e/harness.ts): the accounts a person would make in Bluesky, and the records read back.
 */
import { expect } from 'vitest';

export interface XrpcInit {
  body?: unknown;
  token?: string;
  query?: Record<string, string>;
}

/** A JSON XRPC call to a PDS (GET without a body, POST with one). */
export async function xrpc(
  pds: { url: string },
  nsid: string,
  init: XrpcInit = {},
): Promise<{ status: number; json: any }> {
  const url = new URL(`/xrpc/${nsid}`, pds.url);
  for (const [key, value] of Object.entries(init.query ?? {})) url.searchParams.set(key, value);
  const response = await fetch(url, {
    method: init.body === undefined ? 'GET' : 'POST',
    headers: {
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  return { status: response.status, json: await response.json() };
}

export interface PdsAccount {
  did: string;
  handle: string;
  appPassword: string;
  accessJwt: string;
}

/**
 * An account on the PDS and an app password for it, as a person makes them in Bluesky. `track` is told each secret
 * made (the password, the session's tokens, the app password), for the tests that check none reaches a log.
 */
export async function pdsAccount(
  pds: { url: string },
  name: string,
  track: (secret: string, label: string) => void = () => {},
): Promise<PdsAccount> {
  const password = `account-password-${name}-${Math.random().toString(36).slice(2)}`;
  track(password, 'Bluesky account password');
  const created = await xrpc(pds, 'com.atproto.server.createAccount', {
    body: { handle: `${name}.test`, email: `${name}@example.com`, password },
  });
  expect(created.status).toBe(200);
  track(created.json.accessJwt, 'Bluesky access token');
  track(created.json.refreshJwt, 'Bluesky refresh token');
  const appPassword = await xrpc(pds, 'com.atproto.server.createAppPassword', {
    body: { name: 'content-publisher' },
    token: created.json.accessJwt,
  });
  expect(appPassword.status).toBe(200);
  track(appPassword.json.password, 'Bluesky app password');
  return {
    did: created.json.did,
    handle: `${name}.test`,
    appPassword: appPassword.json.password,
    accessJwt: created.json.accessJwt,
  };
}

/** The record an at:// URI names, read back from the PDS with com.atproto.repo.getRecord. */
export async function pdsRecord(pds: { url: string }, uri: string): Promise<{ status: number; json: any }> {
  const [, repo, collection, rkey] = /^at:\/\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(uri)!;
  return xrpc(pds, 'com.atproto.repo.getRecord', { query: { repo: repo!, collection: collection!, rkey: rkey! } });
}
