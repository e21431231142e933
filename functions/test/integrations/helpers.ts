import { createServer as createNetServer } from 'node:net';
import { expect } from 'vitest';

/** A port nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * Asserts that none of the secrets occurs in the text, without ever printing a secret:
 * the failure message names only the index of the leaked value.
 */
export function expectNoSecrets(text: string, secrets: string[]): void {
  const leaked = secrets.map((s, i) => (s && text.includes(s) ? i : -1)).filter((i) => i >= 0);
  expect(leaked, 'index of a secret that appears in the message').toEqual([]);
}

/** The rejection of `p`, which must reject. */
export async function rejection(p: Promise<unknown>): Promise<Error & { code?: string; status?: number }> {
  try {
    await p;
  } catch (error) {
    return error as Error & { code?: string };
  }
  throw new Error('expected the promise to reject');
}

/** Follows the fake's authorization redirect by hand and returns the redirect target's query. */
export async function authorize(url: string): Promise<URLSearchParams> {
  const res = await fetch(url, { redirect: 'manual' });
  const location = res.headers.get('location');
  if (res.status !== 302 || !location) throw new Error(`authorization answered ${res.status}: ${await res.text()}`);
  return new URL(location).searchParams;
}
