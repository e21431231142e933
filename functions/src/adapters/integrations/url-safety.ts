/**
 * Outbound calls to addresses a user typed in (the WordPress site) must not reach the server's own
 * network (DESIGN.md §4): http(s) only, and in AWS no loopback, private, link-local, unique-local,
 * CGNAT or otherwise non-public address (the instance metadata service lives at 169.254.169.254).
 * `ALLOW_PRIVATE_URLS=1` lifts the address rule for local use (a WordPress in Docker on localhost).
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { IntegrationError } from '../../domain/integrations.js';

export interface UrlSafetyOptions {
  /** true: skip the address check (local use). The scheme rule always applies. */
  allowPrivate: boolean;
}

type Lookup = (hostname: string) => Promise<{ address: string; family: number }[]>;

const defaultLookup: Lookup = (hostname) => lookup(hostname, { all: true, verbatim: true });

/**
 * Resolves the URL's host and throws IntegrationError 'forbidden_url' when the scheme is not
 * http(s) or (unless allowPrivate) any address it resolves to is not a public unicast address.
 * A host that does not resolve throws IntegrationError 'unreachable'. Returns the parsed URL.
 *
 * Every address is checked, not only the first, so a name with one public and one private
 * record is refused. Callers that follow redirects must call this again for each new location.
 */
export async function assertPublicUrl(
  url: string | URL,
  options: UrlSafetyOptions,
  resolve: Lookup = defaultLookup,
): Promise<URL> {
  let parsed: URL;
  try {
    parsed = typeof url === 'string' ? new URL(url) : url;
  } catch {
    throw new IntegrationError('This is not a valid web address.', 'forbidden_url');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new IntegrationError('Only http:// and https:// addresses can be used.', 'forbidden_url');
  }
  if (options.allowPrivate) return parsed;

  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: string[];
  if (isIP(host)) {
    addresses = [host];
  } else {
    try {
      addresses = (await resolve(host)).map((a) => a.address);
    } catch {
      throw new IntegrationError(`The host name ${host} could not be found. Check the address for typos.`, 'unreachable');
    }
    if (addresses.length === 0) {
      throw new IntegrationError(`The host name ${host} could not be found. Check the address for typos.`, 'unreachable');
    }
  }
  const blocked = addresses.find((a) => !isPublicAddress(a));
  if (blocked !== undefined) {
    throw new IntegrationError(
      `${host} points to a private or local network address (${blocked}), which this server does not connect to. Use the site's public address.`,
      'forbidden_url',
    );
  }
  return parsed;
}

/** true for a public unicast IPv4/IPv6 address; false for anything special-purpose or unparseable. */
export function isPublicAddress(address: string): boolean {
  const kind = isIP(address);
  if (kind === 4) return isPublicV4(parseV4(address)!);
  if (kind === 6) {
    const words = parseV6(address);
    return words !== undefined && isPublicV6(words);
  }
  return false;
}

function parseV4(address: string): number[] | undefined {
  const parts = address.split('.').map(Number);
  if (parts.length !== 4 || parts.some((p) => !Number.isInteger(p) || p < 0 || p > 255)) return undefined;
  return parts;
}

function isPublicV4([a, b, c]: number[]): boolean {
  if (a === 0) return false; // 0.0.0.0/8 "this network" (0.0.0.0 reaches the local host)
  if (a === 10) return false; // 10/8 private
  if (a === 100 && b >= 64 && b <= 127) return false; // 100.64/10 CGNAT shared space
  if (a === 127) return false; // loopback
  if (a === 169 && b === 254) return false; // link-local (cloud metadata endpoints)
  if (a === 172 && b >= 16 && b <= 31) return false; // 172.16/12 private
  if (a === 192 && b === 0 && c === 0) return false; // 192.0.0/24 IETF protocol assignments
  if (a === 192 && b === 0 && c === 2) return false; // TEST-NET-1
  if (a === 192 && b === 168) return false; // 192.168/16 private
  if (a === 198 && (b === 18 || b === 19)) return false; // 198.18/15 benchmarking
  if (a === 198 && b === 51 && c === 100) return false; // TEST-NET-2
  if (a === 203 && b === 0 && c === 113) return false; // TEST-NET-3
  if (a >= 224) return false; // multicast, reserved, broadcast
  return true;
}

/** Eight 16-bit words, or undefined. Accepts "::", embedded dotted IPv4 and zone ids. */
function parseV6(address: string): number[] | undefined {
  let text = address.replace(/%.*$/, '').toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const v4 = parseV4(dotted[1]!);
    if (!v4) return undefined;
    const hex = (n: number) => n.toString(16);
    text = text.slice(0, -dotted[1]!.length) + `${hex((v4[0]! << 8) | v4[1]!)}:${hex((v4[2]! << 8) | v4[3]!)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const toWords = (s: string) => (s === '' ? [] : s.split(':').map((w) => (/^[0-9a-f]{1,4}$/.test(w) ? parseInt(w, 16) : NaN)));
  const head = toWords(halves[0]!);
  const rest = halves.length === 2 ? toWords(halves[1]!) : [];
  if ([...head, ...rest].some(Number.isNaN)) return undefined;
  if (halves.length === 1) return head.length === 8 ? head : undefined;
  if (head.length + rest.length > 7) return undefined;
  return [...head, ...new Array<number>(8 - head.length - rest.length).fill(0), ...rest];
}

function embeddedV4(hi: number, lo: number): number[] {
  return [hi >> 8, hi & 0xff, lo >> 8, lo & 0xff];
}

function isPublicV6(w: number[]): boolean {
  const [w0, w1, w2, w3, w4, w5, w6, w7] = w as [number, number, number, number, number, number, number, number];
  const zeroTo = (n: number) => w.slice(0, n).every((x) => x === 0);
  if (zeroTo(8)) return false; // :: unspecified
  if (zeroTo(7) && w7 === 1) return false; // ::1 loopback
  if (zeroTo(5) && w5 === 0xffff) return isPublicV4(embeddedV4(w6, w7)); // ::ffff:a.b.c.d IPv4-mapped
  if (zeroTo(6)) return isPublicV4(embeddedV4(w6, w7)); // ::a.b.c.d IPv4-compatible (deprecated)
  if (w0 === 0x64 && w1 === 0xff9b && w2 === 0 && w3 === 0 && w4 === 0 && w5 === 0) {
    return isPublicV4(embeddedV4(w6, w7)); // 64:ff9b::/96 NAT64
  }
  if (w0 === 0x2002) return isPublicV4(embeddedV4(w1, w2)); // 6to4 carries an IPv4 address
  if ((w0 & 0xfe00) === 0xfc00) return false; // fc00::/7 unique-local
  if ((w0 & 0xffc0) === 0xfe80) return false; // fe80::/10 link-local
  if ((w0 & 0xffc0) === 0xfec0) return false; // fec0::/10 site-local (deprecated)
  if ((w0 & 0xff00) === 0xff00) return false; // multicast
  if (w0 === 0x100 && w1 === 0 && w2 === 0 && w3 === 0) return false; // 100::/64 discard
  if (w0 === 0x2001 && w1 === 0x0db8) return false; // documentation
  if (w0 === 0x2001 && w1 < 0x200) return false; // 2001::/23 IETF protocol assignments (Teredo, ORCHID…)
  if ((w0 & 0xe000) !== 0x2000) return false; // outside 2000::/3 global unicast
  return true;
}

export interface CheckedFetchOptions extends UrlSafetyOptions {
  /** Whole-chain timeout in ms (default 10 000). */
  timeoutMs?: number;
  /** At most this many redirects are followed (default 5). */
  maxRedirects?: number;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * fetch() for user-given URLs: checks every hop with assertPublicUrl and follows redirects by hand
 * (fetch's own redirect handling would skip the address check), GET and HEAD only; other methods
 * get the 3xx answer back. A redirect is followed only to the same site: same host, or the host
 * with/without a leading "www.", never from https to http; headers (Authorization) are kept.
 * Anything else throws IntegrationError 'redirect_elsewhere' naming the new address.
 * Network failures throw IntegrationError 'unreachable' (see describeNetworkError).
 */
export async function fetchChecked(
  url: string,
  init: RequestInit,
  options: CheckedFetchOptions,
): Promise<{ response: Response; url: string }> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const signal = AbortSignal.timeout(timeoutMs);
  const method = (init.method ?? 'GET').toUpperCase();
  let current = await assertPublicUrl(url, options);
  for (let hop = 0; ; hop++) {
    let response: Response;
    try {
      response = await fetch(current, { ...init, redirect: 'manual', signal });
    } catch (error) {
      throw new IntegrationError(describeNetworkError(error, current, timeoutMs), 'unreachable');
    }
    const location = response.headers.get('location');
    if (!REDIRECTS.has(response.status) || !location || (method !== 'GET' && method !== 'HEAD')) {
      return { response, url: current.toString() };
    }
    await response.body?.cancel().catch(() => undefined);
    let next: URL;
    try {
      next = new URL(location, current);
    } catch {
      throw new IntegrationError(`The site redirected to an invalid address (${location}).`, 'redirect_elsewhere');
    }
    if (hop >= (options.maxRedirects ?? 5)) {
      throw new IntegrationError(`The site redirected too many times (last to ${origin(next)}).`, 'redirect_elsewhere');
    }
    if (!sameSite(current, next)) {
      throw new IntegrationError(
        `The site redirects to ${origin(next)}${next.pathname.replace(/\/wp-json\/.*$/, '')}. Enter that address instead.`,
        'redirect_elsewhere',
      );
    }
    current = await assertPublicUrl(next, options);
  }
}

function origin(url: URL): string {
  return `${url.protocol}//${url.host}`;
}

function sameSite(from: URL, to: URL): boolean {
  if (from.protocol === 'https:' && to.protocol !== 'https:') return false;
  if (to.protocol !== 'http:' && to.protocol !== 'https:') return false;
  const bare = (u: URL) => u.hostname.replace(/^www\./, '');
  const port = (u: URL) => u.port || (u.protocol === 'https:' ? '443' : '80');
  if (bare(from) !== bare(to)) return false;
  // a scheme upgrade changes the default port; otherwise the port must stay
  return port(from) === port(to) || (!from.port && !to.port);
}

/** A sentence for a failed fetch (DNS, refused, timeout, TLS), without request details. */
export function describeNetworkError(error: unknown, url: URL, timeoutMs: number): string {
  const err = error as { name?: string; cause?: { code?: string; name?: string } };
  const code = err?.cause?.code ?? '';
  const host = url.host;
  if (err?.name === 'TimeoutError' || err?.name === 'AbortError' || err?.cause?.name === 'TimeoutError' || code === 'UND_ERR_CONNECT_TIMEOUT') {
    return `${host} did not answer within ${Math.round(timeoutMs / 1000)} seconds. Check the address and that the site is online.`;
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return `The host name ${url.hostname} could not be found. Check the address for typos.`;
  }
  if (code === 'ECONNREFUSED') return `${host} refused the connection. Check the address and that the site is online.`;
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return `${host} closed the connection without answering. Try again later.`;
  if (/CERT|SSL|TLS|SELF_SIGNED/i.test(code)) {
    return `The HTTPS certificate of ${host} is not valid (${code}). Fix the certificate or use the address the certificate is issued for.`;
  }
  return `Could not connect to ${host}${code ? ` (${code})` : ''}. Check the address and that the site is online.`;
}
