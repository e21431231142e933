/**
 * Outbound calls to addresses a user typed in (the WordPress site) must not reach the server's own
 * network (docs/integrations.md, WordPress): http(s) only, and in AWS no loopback, private, link-local, unique-local,
 * CGNAT or otherwise non-public address (the instance metadata service lives at 169.254.169.254).
 * `ALLOW_PRIVATE_URLS=1` lifts the address rule for local use (a WordPress in Docker on localhost).
 *
 * The connection goes to the very addresses that were checked: fetchChecked resolves the host once
 * and hands those addresses to the socket (the `lookup` option of node:http/https), so a
 * DNS-rebinding name cannot answer a public address to the check and 127.0.0.1 or 169.254.169.254
 * to the connection. TLS (SNI and the certificate check) and the Host header keep the host name.
 */
import { lookup } from 'node:dns/promises';
import * as http from 'node:http';
import * as https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { Readable, pipeline, type Transform } from 'node:stream';
import * as zlib from 'node:zlib';
import { IntegrationError } from '../../domain/integrations.js';

export interface UrlSafetyOptions {
  /** true: skip the address check (local use). The scheme rule always applies. */
  allowPrivate: boolean;
}

type Lookup = (hostname: string) => Promise<{ address: string; family: number }[]>;
interface ResolvedAddress {
  address: string;
  family: number;
}

const defaultLookup: Lookup = (hostname) => lookup(hostname, { all: true, verbatim: true });

/**
 * Resolves the URL's host and throws IntegrationError 'forbidden_url' when the scheme is not
 * http(s) or (unless allowPrivate) any address it resolves to is not a public unicast address.
 * A host that does not resolve throws IntegrationError 'unreachable'. Returns the parsed URL.
 *
 * Every address is checked, not only the first, so a name with one public and one private
 * record is refused. Callers that follow redirects must call this again for each new location.
 * A caller that then connects must connect to the checked addresses, not resolve the name again
 * (fetchChecked does).
 */
export async function assertPublicUrl(
  url: string | URL,
  options: UrlSafetyOptions,
  resolve: Lookup = defaultLookup,
): Promise<URL> {
  const parsed = parseHttpUrl(url);
  if (options.allowPrivate) return parsed;
  await resolveChecked(parsed, options, resolve);
  return parsed;
}

function parseHttpUrl(url: string | URL): URL {
  let parsed: URL;
  try {
    parsed = typeof url === 'string' ? new URL(url) : url;
  } catch {
    throw new IntegrationError('This is not a valid web address.', 'forbidden_url');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new IntegrationError('Only http:// and https:// addresses can be used.', 'forbidden_url');
  }
  return parsed;
}

/** The host's addresses, each checked unless allowPrivate: the ones the connection is to use. */
async function resolveChecked(parsed: URL, options: UrlSafetyOptions, resolve: Lookup): Promise<ResolvedAddress[]> {
  const host = bareHost(parsed);
  let addresses: ResolvedAddress[];
  const literal = isIP(host);
  if (literal) {
    addresses = [{ address: host, family: literal }];
  } else {
    try {
      addresses = (await resolve(host)).map(({ address, family }) => ({
        address,
        family: family === 6 || isIP(address) === 6 ? 6 : 4,
      }));
    } catch {
      throw new IntegrationError(
        `The host name ${host} could not be found. Check the address for typos.`,
        'unreachable',
      );
    }
    if (addresses.length === 0) {
      throw new IntegrationError(
        `The host name ${host} could not be found. Check the address for typos.`,
        'unreachable',
      );
    }
  }
  if (options.allowPrivate) return addresses;
  const blocked = addresses.find((a) => !isPublicAddress(a.address));
  if (blocked !== undefined) {
    throw new IntegrationError(
      `${host} points to a private or local network address (${blocked.address}), which this server does not connect to. Use the site's public address.`,
      'forbidden_url',
    );
  }
  return addresses;
}

function bareHost(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
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

type V4 = [number, number, number, number];

function parseV4(address: string): V4 | undefined {
  const parts = address.split('.').map(Number);
  if (parts.length !== 4 || parts.some((p) => !Number.isInteger(p) || p < 0 || p > 255)) return undefined;
  return parts as V4;
}

function isPublicV4([a, b, c]: V4): boolean {
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
  const toWords = (s: string) =>
    s === '' ? [] : s.split(':').map((w) => (/^[0-9a-f]{1,4}$/.test(w) ? parseInt(w, 16) : NaN));
  const head = toWords(halves[0]!);
  const rest = halves.length === 2 ? toWords(halves[1]!) : [];
  if ([...head, ...rest].some(Number.isNaN)) return undefined;
  if (halves.length === 1) return head.length === 8 ? head : undefined;
  if (head.length + rest.length > 7) return undefined;
  return [...head, ...new Array<number>(8 - head.length - rest.length).fill(0), ...rest];
}

function embeddedV4(hi: number, lo: number): V4 {
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
 *
 * Each hop's host is resolved once; the connection goes to exactly those (checked) addresses.
 * `resolve` replaces the DNS lookup (tests).
 */
export async function fetchChecked(
  url: string,
  init: RequestInit,
  options: CheckedFetchOptions,
  resolve: Lookup = defaultLookup,
): Promise<{ response: Response; url: string }> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const signal = AbortSignal.timeout(timeoutMs);
  const method = (init.method ?? 'GET').toUpperCase();
  let current = parseHttpUrl(url);
  let addresses = await resolveChecked(current, options, resolve);
  for (let hop = 0; ; hop++) {
    let response: Response;
    try {
      response = await fetchPinned(current, addresses, { ...init, redirect: 'manual', signal });
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
    current = parseHttpUrl(next);
    addresses = await resolveChecked(current, options, resolve);
  }
}

/** A `lookup` for net/tls that answers the given addresses and never asks DNS. */
function pinnedLookup(addresses: readonly ResolvedAddress[]): LookupFunction {
  return (_hostname, lookupOptions, callback) => {
    const wanted =
      lookupOptions?.family === 4 || lookupOptions?.family === 6
        ? addresses.filter((a) => a.family === lookupOptions.family)
        : addresses;
    if (wanted.length === 0) {
      const error = Object.assign(new Error(`No IPv${lookupOptions.family} address for ${_hostname}`), {
        code: 'ENOTFOUND',
        hostname: _hostname,
      });
      callback(error, '', 0);
    } else if (lookupOptions?.all) {
      (callback as unknown as (err: null, list: ResolvedAddress[]) => void)(
        null,
        wanted.map((a) => ({ ...a })),
      );
    } else {
      callback(null, wanted[0]!.address, wanted[0]!.family);
    }
  };
}

/** Statuses whose answer has no body (fetch's "null body status"). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * One request without redirects, like fetch(url, { redirect: 'manual' }), over node:http/https
 * with the socket's address lookup pinned to `addresses` (the host name still goes into the Host
 * header, TLS SNI and the certificate check). The answer is a standard Response whose body is
 * decoded as fetch does (gzip, deflate, br); failures reject like fetch ('fetch failed' with the
 * socket error as cause; AbortError/TimeoutError when the signal fires).
 */
async function fetchPinned(url: URL, addresses: readonly ResolvedAddress[], init: RequestInit): Promise<Response> {
  // Request normalises headers and the body (string, bytes, Blob, FormData, URLSearchParams, …) as fetch would.
  const request = new Request(url, init);
  const signal = init.signal ?? undefined;
  const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  headers['accept'] ??= '*/*';
  headers['accept-language'] ??= '*';
  headers['user-agent'] ??= 'node';
  headers['accept-encoding'] ??= 'gzip, deflate, br';
  if (body) headers['content-length'] = String(body.length);
  const method = request.method;
  const client = url.protocol === 'https:' ? https : http;
  signal?.throwIfAborted();

  return new Promise<Response>((resolvePromise, reject) => {
    const req = client.request(
      {
        protocol: url.protocol,
        hostname: bareHost(url),
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method,
        headers,
        // A fresh connection per request: a pooled socket may have been opened for another lookup.
        agent: false,
        lookup: pinnedLookup(addresses),
        ...(signal ? { signal } : {}),
      },
      (res) => {
        try {
          const status = res.statusCode ?? 0;
          const responseHeaders = new Headers();
          for (let i = 0; i + 1 < res.rawHeaders.length; i += 2)
            responseHeaders.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
          if (method === 'HEAD' || NULL_BODY.has(status)) {
            res.resume();
            resolvePromise(
              new Response(null, { status, statusText: res.statusMessage ?? '', headers: responseHeaders }),
            );
            return;
          }
          const decoders = contentDecoders(res.headers['content-encoding']);
          const stream: Readable = decoders.length
            ? (pipeline([res, ...decoders], () => undefined) as unknown as Readable)
            : res;
          const webBody = Readable.toWeb(stream) as unknown as ReadableStream<Uint8Array>;
          resolvePromise(
            new Response(webBody, { status, statusText: res.statusMessage ?? '', headers: responseHeaders }),
          );
        } catch (error) {
          res.destroy();
          reject(new TypeError('fetch failed', { cause: error }));
        }
      },
    );
    req.on('error', (error: Error) => {
      if (signal?.aborted) reject(signal.reason ?? error);
      else reject(new TypeError('fetch failed', { cause: error }));
    });
    req.end(body);
  });
}

/** Decoders for a Content-Encoding list, applied last-first; an unknown coding leaves the body as it is (as fetch does). */
function contentDecoders(header: string | undefined): Transform[] {
  const codings = (header ?? '')
    .toLowerCase()
    .split(',')
    .map((c) => c.trim())
    .filter((c) => c && c !== 'identity');
  const lenient = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH };
  const decoders: Transform[] = [];
  for (const coding of codings.reverse()) {
    if (coding === 'gzip' || coding === 'x-gzip') decoders.push(zlib.createGunzip(lenient));
    else if (coding === 'deflate') decoders.push(zlib.createInflate(lenient));
    else if (coding === 'br')
      decoders.push(
        zlib.createBrotliDecompress({
          flush: zlib.constants.BROTLI_OPERATION_FLUSH,
          finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH,
        }),
      );
    else return [];
  }
  return decoders;
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
  if (
    err?.name === 'TimeoutError' ||
    err?.name === 'AbortError' ||
    err?.cause?.name === 'TimeoutError' ||
    code === 'UND_ERR_CONNECT_TIMEOUT'
  ) {
    return `${host} did not answer within ${Math.round(timeoutMs / 1000)} seconds. Check the address and that the site is online.`;
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return `The host name ${url.hostname} could not be found. Check the address for typos.`;
  }
  if (code === 'ECONNREFUSED') return `${host} refused the connection. Check the address and that the site is online.`;
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET')
    return `${host} closed the connection without answering. Try again later.`;
  if (/CERT|SSL|TLS|SELF_SIGNED/i.test(code)) {
    return `The HTTPS certificate of ${host} is not valid (${code}). Fix the certificate or use the address the certificate is issued for.`;
  }
  return `Could not connect to ${host}${code ? ` (${code})` : ''}. Check the address and that the site is online.`;
}
