import { isIP } from 'node:net';
import { LOOPBACK } from './ports.js';

/** The address `npm start` listens on: HOST when set, else 127.0.0.1 (this machine only). */
export function listenHost(env: NodeJS.ProcessEnv = process.env): string {
  return env.HOST?.trim() || LOOPBACK;
}

export function isLoopback(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || (isIP(h) === 4 && h.startsWith('127.')) || h === '::ffff:127.0.0.1';
}

const isWildcard = (host: string) => ['0.0.0.0', '::', '[::]'].includes(host);

/** The URL to open for a server on `host`: localhost unless it listens on one other address only. */
export function localUrl(host: string, port: number): string {
  if (isLoopback(host) || isWildcard(host)) return `http://localhost:${port}`;
  return `http://${isIP(host) === 6 ? `[${host}]` : host}:${port}`;
}

/** The one start-up line when HOST opens the app to other machines; undefined on loopback. */
export function exposureWarning(host: string, port: number): string | undefined {
  if (isLoopback(host)) return undefined;
  return (
    `WARNING: HOST=${host}: the app is reachable from other machines on port ${port}. Anyone who can reach it can ` +
    'register and sign in, and passwords and session cookies cross the network unencrypted (plain HTTP). ' +
    'DynamoDB Local and the S3 store stay on 127.0.0.1. Unset HOST to keep the app on this machine.'
  );
}

/**
 * Whether a request's Host header names this server. With DNS rebinding, a page of an attacker's site gets
 * its name resolved to this machine and its requests arrive with that name (evil.example:3000) as Host, as
 * same-origin calls the browser lets it read. So a name passes only when it is the public URL's host;
 * `localhost` and IP address literals pass too, since no page of another site can be served under them.
 */
export function hostAllowed(host: string | undefined, publicUrl: string): boolean {
  if (!host || !/^[A-Za-z0-9.\-:[\]]+$/.test(host)) return false;
  let url: URL;
  try {
    url = new URL(`http://${host}`);
  } catch {
    return false;
  }
  if (url.host === new URL(publicUrl).host) return true;
  const name = url.hostname.replace(/^\[|\]$/g, '');
  return name === 'localhost' || isIP(name) !== 0;
}
