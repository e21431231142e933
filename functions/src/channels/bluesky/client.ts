/**
 * The Bluesky client over plain XRPC (HTTP + JSON, docs/integrations.md, Bluesky): sign-in with an app password
 * (com.atproto.server.createSession, refreshed with refreshSession when the access token has expired), image
 * blobs (uploadBlob), posts (createRecord of app.bsky.feed.post under a record key of the caller's, read back
 * with getRecord). The vendor's SDK is not used: its bundle alone would take three quarters of a Lambda's
 * budget, for a handful of calls (the facet rules it would bring are in text.ts).
 *
 * Every address goes through fetchChecked (adapters/integrations/url-safety.ts): the service URL is the user's,
 * so in AWS it may not reach a private address. Failures become the project's errors (domain/errors.ts) with a
 * message that says what to do; no message, error or log line carries the app password or a token.
 */
import * as z from 'zod/mini';
import { createHash } from 'node:crypto';
import { lazySchema, withFallback } from '@app/shared';
import { DomainError, InvalidError, UpstreamError, UpstreamTimeoutError, badRequest } from '../../domain/errors.js';
import { IntegrationError } from '../../domain/integrations.js';
import type { ImageProcessor } from '../../domain/ports.js';
import { fetchChecked } from '../../adapters/integrations/url-safety.js';
import type { BlueskyCredentials } from './credentials.js';
import type {
  BlueskyBlob,
  BlueskyClient,
  BlueskyConnection,
  BlueskyImage,
  BlueskyPost,
  BlueskyPostInput,
  BlueskySession,
} from './port.js';
import { detectFacets, findMentions, postTextProblem, postWebUrl, type Facet } from './text.js';

export const POST_COLLECTION = 'app.bsky.feed.post';
/** app.bsky.embed.images and app.bsky.embed.external: an image blob of at most 1,000,000 bytes. */
export const IMAGE_MAX_BYTES = 1_000_000;
const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp']);
/** An image over the limit is shrunk (the product's image processor) in at most this many tries, never below this side. */
const FIT_ATTEMPTS = 4;
const FIT_MIN_SIDE = 400;

export interface XrpcBlueskyClientOptions {
  /** true locally (a PDS on localhost), false in AWS. */
  allowPrivateUrls: boolean;
  /** Per request (default 15 000 ms). */
  timeoutMs?: number;
  /** Shrinks an image over the blob limit, and reads its aspect ratio; without it such an image is refused. */
  images?: Pick<ImageProcessor, 'inspect' | 'normalise'>;
}

const text = lazySchema(() => withFallback(z.optional(z.string()), undefined));
const SessionAnswer = lazySchema(() =>
  z.object({ did: z.string(), handle: z.string(), accessJwt: z.string(), refreshJwt: z.string() }),
);
const ErrorAnswer = lazySchema(() => withFallback(z.object({ error: text(), message: text() }), {}));
const BlobAnswer = lazySchema(() =>
  z.object({
    blob: z.object({
      $type: z.literal('blob'),
      ref: z.object({ $link: z.string() }),
      mimeType: z.string(),
      size: z.number(),
    }),
  }),
);
const RecordAnswer = lazySchema(() => z.object({ uri: z.string(), cid: z.string() }));

interface Answer {
  status: number;
  json: unknown;
  headers: Headers;
}

type Call = { method: 'GET'; query?: Record<string, string> } | { method: 'POST'; body: unknown; contentType?: string };

export class XrpcBlueskyClient implements BlueskyClient {
  private readonly allowPrivate: boolean;
  private readonly timeoutMs: number;
  private readonly images: XrpcBlueskyClientOptions['images'];
  /** Signed-in sessions by account (and app password): createSession is rate-limited, a warm Lambda reuses one. */
  private readonly sessions = new Map<string, BlueskySession>();

  constructor(options: XrpcBlueskyClientOptions) {
    this.allowPrivate = options.allowPrivateUrls;
    this.timeoutMs = options.timeoutMs ?? 15_000;
    this.images = options.images;
  }

  /** Signs in (com.atproto.server.createSession) and keeps the session for the next calls. */
  async createSession(credentials: BlueskyCredentials): Promise<BlueskySession> {
    const answer = await this.xrpc(credentials, 'com.atproto.server.createSession', {
      method: 'POST',
      body: { identifier: credentials.handle, password: credentials.appPassword },
    });
    if (answer.status !== 200) throw signInError(answer, credentials);
    const session = parseOr(SessionAnswer(), answer.json, credentials);
    this.sessions.set(sessionKey(credentials), session);
    return session;
  }

  /** New tokens for a session (com.atproto.server.refreshSession); the refresh token is spent. */
  async refreshSession(credentials: BlueskyCredentials, session: BlueskySession): Promise<BlueskySession> {
    const answer = await this.xrpc(
      credentials,
      'com.atproto.server.refreshSession',
      { method: 'POST', body: undefined },
      session.refreshJwt,
    );
    if (answer.status !== 200) throw xrpcError(answer, credentials, 'renew the sign-in');
    const renewed = parseOr(SessionAnswer(), answer.json, credentials);
    this.sessions.set(sessionKey(credentials), renewed);
    return renewed;
  }

  /** A session kept elsewhere (between invocations), used until its tokens run out. */
  restoreSession(credentials: BlueskyCredentials, session: BlueskySession): void {
    this.sessions.set(sessionKey(credentials), session);
  }

  /** The session the next call uses, if any (to be kept elsewhere). */
  currentSession(credentials: BlueskyCredentials): BlueskySession | undefined {
    return this.sessions.get(sessionKey(credentials));
  }

  async testConnection(credentials: BlueskyCredentials): Promise<BlueskyConnection> {
    try {
      const session = await this.createSession(credentials);
      const answer = await this.authed(credentials, (s) =>
        this.xrpc(credentials, 'com.atproto.server.getSession', { method: 'GET' }, s.accessJwt),
      );
      if (answer.status !== 200) throw xrpcError(answer, credentials, 'read the account');
      return { ok: true, did: session.did, handle: session.handle };
    } catch (error) {
      if (error instanceof DomainError) return { ok: false, code: error.code ?? error.kind, message: error.message };
      throw error;
    }
  }

  async uploadImage(
    credentials: BlueskyCredentials,
    image: Pick<BlueskyImage, 'bytes' | 'contentType'>,
  ): Promise<BlueskyBlob> {
    const fitted = await this.fit(image);
    const answer = await this.authed(credentials, (s) =>
      this.xrpc(
        credentials,
        'com.atproto.repo.uploadBlob',
        { method: 'POST', body: fitted.bytes, contentType: fitted.contentType },
        s.accessJwt,
      ),
    );
    if (answer.status === 413 || ErrorAnswer().parse(answer.json).error === 'BlobTooLarge')
      throw badRequest(tooBigMessage(fitted.bytes.length), 'bluesky_image_too_large');
    if (answer.status !== 200) throw xrpcError(answer, credentials, 'upload the image');
    return parseOr(BlobAnswer(), answer.json, credentials).blob;
  }

  async findPost(credentials: BlueskyCredentials, rkey: string): Promise<Omit<BlueskyPost, 'existed'> | undefined> {
    const session = await this.session(credentials);
    const answer = await this.xrpc(credentials, 'com.atproto.repo.getRecord', {
      method: 'GET',
      query: { repo: session.did, collection: POST_COLLECTION, rkey },
    });
    if (answer.status === 200) {
      const record = parseOr(RecordAnswer(), answer.json, credentials);
      return { uri: record.uri, cid: record.cid, url: postWebUrl(session.did, rkey) };
    }
    const { error, message } = ErrorAnswer().parse(answer.json);
    if (
      (answer.status === 400 || answer.status === 404) &&
      (error === 'RecordNotFound' || /could not locate/i.test(message ?? ''))
    )
      return undefined;
    throw xrpcError(answer, credentials, 'look for the post');
  }

  async publishPost(credentials: BlueskyCredentials, post: BlueskyPostInput): Promise<BlueskyPost> {
    const problem = postTextProblem(post.text);
    if (problem) throw badRequest(problem, 'bluesky_text_too_long');
    // A link card's thumbnail has no alt text (the card's title describes it); a shown image must have one.
    if (post.image && !post.link && !post.image.alt.trim())
      throw badRequest(
        'Describe the image in its alt text: Bluesky reads it out to people who cannot see it.',
        'bluesky_alt_missing',
      );
    if (post.link && !isHttpUrl(post.link.url))
      throw badRequest(`The link ${post.link.url} is not a web address (http:// or https://).`, 'bluesky_link_invalid');

    // An earlier attempt may have made the post already (its answer was lost): then that is the post.
    const earlier = await this.findPost(credentials, post.rkey);
    if (earlier) return { ...earlier, existed: true };
    const session = await this.session(credentials);

    const facets = detectFacets(post.text, await this.resolveMentions(credentials, post.text));
    const record: Record<string, unknown> = {
      $type: POST_COLLECTION,
      text: post.text,
      createdAt: post.createdAt ?? new Date().toISOString(),
      ...(facets.length > 0 ? { facets: facets satisfies Facet[] } : {}),
    };
    if (post.link) {
      const thumb = post.image ? await this.uploadImage(credentials, post.image) : undefined;
      record.embed = {
        $type: 'app.bsky.embed.external',
        external: {
          uri: post.link.url,
          title: post.link.title,
          description: post.link.description,
          ...(thumb ? { thumb } : {}),
        },
      };
    } else if (post.image) {
      const [blob, aspectRatio] = await Promise.all([
        this.uploadImage(credentials, post.image),
        this.aspectRatio(post.image.bytes),
      ]);
      record.embed = {
        $type: 'app.bsky.embed.images',
        images: [{ image: blob, alt: post.image.alt.trim(), ...(aspectRatio ? { aspectRatio } : {}) }],
      };
    }

    let answer: Answer;
    try {
      answer = await this.authed(credentials, (s) =>
        this.xrpc(
          credentials,
          'com.atproto.repo.createRecord',
          { method: 'POST', body: { repo: s.did, collection: POST_COLLECTION, rkey: post.rkey, record } },
          s.accessJwt,
        ),
      );
    } catch (error) {
      // No answer (a timeout, a dropped connection): the post may have been made all the same.
      const made = await this.findPost(credentials, post.rkey).catch(() => undefined);
      if (made) return { ...made, existed: false };
      throw error;
    }
    if (answer.status === 200) {
      const created = parseOr(RecordAnswer(), answer.json, credentials);
      return { uri: created.uri, cid: created.cid, url: postWebUrl(session.did, post.rkey), existed: false };
    }
    // Refused because the key is taken (another attempt at the same time made it) or a server error after
    // writing: the post under the key is the one.
    const there = await this.findPost(credentials, post.rkey).catch(() => undefined);
    if (there) return { ...there, existed: true };
    throw xrpcError(answer, credentials, 'publish the post');
  }

  /** The DIDs of the accounts the text mentions (com.atproto.identity.resolveHandle); unknown ones are left out. */
  private async resolveMentions(credentials: BlueskyCredentials, text: string): Promise<Map<string, string>> {
    const handles = [...new Set(findMentions(text).map((m) => m.handle))].slice(0, 20);
    const dids = new Map<string, string>();
    await Promise.all(
      handles.map(async (handle) => {
        const answer = await this.xrpc(credentials, 'com.atproto.identity.resolveHandle', {
          method: 'GET',
          query: { handle },
        }).catch(() => undefined);
        const did = (answer?.json as { did?: unknown } | undefined)?.did;
        if (answer?.status === 200 && typeof did === 'string') dids.set(handle, did);
      }),
    );
    return dids;
  }

  /** The image as it can be sent: within the blob limit, shrunk where the image processor can, refused otherwise. */
  private async fit(
    image: Pick<BlueskyImage, 'bytes' | 'contentType'>,
  ): Promise<{ bytes: Buffer; contentType: string }> {
    if (!IMAGE_TYPES.has(image.contentType))
      throw badRequest(
        `Bluesky takes JPEG, PNG or WebP images; this one is ${image.contentType || 'of an unknown type'}.`,
        'bluesky_image_type',
      );
    if (image.bytes.length <= IMAGE_MAX_BYTES) return image;
    const info = this.images && (await this.images.inspect(image.bytes).catch(() => undefined));
    if (this.images && info) {
      // Bytes grow with the pixels, so the side scales with the square root of the size wanted; a few tries at most.
      let side = Math.max(info.width, info.height);
      let size = image.bytes.length;
      for (let attempt = 0; attempt < FIT_ATTEMPTS && side > FIT_MIN_SIDE; attempt++) {
        side = Math.max(FIT_MIN_SIDE, Math.floor(side * Math.min(0.9, 0.95 * Math.sqrt(IMAGE_MAX_BYTES / size))));
        const smaller = await this.images.normalise(image.bytes, side).catch(() => undefined);
        if (!smaller) break;
        if (smaller.body.length <= IMAGE_MAX_BYTES) return { bytes: smaller.body, contentType: smaller.contentType };
        size = smaller.body.length;
      }
    }
    throw badRequest(tooBigMessage(image.bytes.length), 'bluesky_image_too_large');
  }

  private async aspectRatio(bytes: Buffer): Promise<{ width: number; height: number } | undefined> {
    const info = await this.images?.inspect(bytes).catch(() => undefined);
    return info ? { width: info.width, height: info.height } : undefined;
  }

  private async session(credentials: BlueskyCredentials): Promise<BlueskySession> {
    return this.sessions.get(sessionKey(credentials)) ?? (await this.createSession(credentials));
  }

  /**
   * Runs a call with the account's session. An access token the server no longer takes (expired, or revoked) is
   * renewed with the refresh token once, and when that is refused too, the account signs in again.
   */
  private async authed(credentials: BlueskyCredentials, call: (session: BlueskySession) => Promise<Answer>) {
    const session = await this.session(credentials);
    const answer = await call(session);
    if (!isTokenRefused(answer)) return answer;
    let renewed: BlueskySession;
    try {
      renewed = await this.refreshSession(credentials, session);
    } catch (error) {
      if (!(error instanceof UpstreamError)) throw error;
      renewed = await this.createSession(credentials);
    }
    return call(renewed);
  }

  private async xrpc(credentials: BlueskyCredentials, nsid: string, call: Call, token?: string): Promise<Answer> {
    const url = new URL(`/xrpc/${nsid}`, credentials.serviceUrl);
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (token) headers.Authorization = `Bearer ${token}`;
    let body: string | Uint8Array | undefined;
    if (call.method === 'GET') {
      for (const [key, value] of Object.entries(call.query ?? {})) url.searchParams.set(key, value);
    } else if (Buffer.isBuffer(call.body)) {
      headers['Content-Type'] = call.contentType ?? 'application/octet-stream';
      body = new Uint8Array(call.body);
    } else if (call.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(call.body);
    }
    let response: Response;
    try {
      ({ response } = await fetchChecked(
        url.toString(),
        { method: call.method, headers, ...(body !== undefined ? { body } : {}) },
        { allowPrivate: this.allowPrivate, timeoutMs: this.timeoutMs },
      ));
    } catch (error) {
      throw networkError(error, credentials);
    }
    const raw = await response.text().catch(() => '');
    let json: unknown;
    try {
      json = raw ? JSON.parse(raw) : {};
    } catch {
      json = undefined;
    }
    return { status: response.status, json, headers: response.headers };
  }
}

function sessionKey(credentials: BlueskyCredentials): string {
  const password = createHash('sha256').update(credentials.appPassword).digest('hex');
  return `${credentials.serviceUrl}\n${credentials.handle}\n${password}`;
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

/** ExpiredToken (the access token's two hours are over) or InvalidToken (revoked, or of another server). */
function isTokenRefused(answer: Answer): boolean {
  if (answer.status !== 400 && answer.status !== 401) return false;
  const { error } = ErrorAnswer().parse(answer.json);
  return error === 'ExpiredToken' || error === 'InvalidToken';
}

function tooBigMessage(bytes: number): string {
  return `The image is ${(bytes / 1_000_000).toFixed(1)} MB; Bluesky takes images of at most 1 MB (1,000,000 bytes). Choose a smaller image or save it at a lower quality.`;
}

function parseOr<T>(schema: z.ZodMiniType<T>, json: unknown, credentials: BlueskyCredentials): T {
  const result = schema.safeParse(json);
  if (result.success) return result.data;
  throw new UpstreamError(
    `${credentials.serviceUrl} did not answer as a Bluesky server does. Check the service address in the Bluesky settings (https://bsky.social for most accounts).`,
    'bluesky_bad_answer',
  );
}

function networkError(error: unknown, credentials: BlueskyCredentials): DomainError {
  if (error instanceof IntegrationError) {
    if (error.code === 'forbidden_url')
      return new InvalidError(
        `The Bluesky service address ${credentials.serviceUrl} is not allowed: ${error.message}`,
        'bluesky_service_forbidden',
      );
    if (/did not answer within/.test(error.message))
      return new UpstreamTimeoutError(`Bluesky did not answer in time: ${error.message}`, 'bluesky_timeout');
    return new UpstreamError(`Could not reach Bluesky: ${error.message}`, 'bluesky_unreachable');
  }
  return new UpstreamError('Could not reach Bluesky. Try again later.', 'bluesky_unreachable');
}

function signInError(answer: Answer, credentials: BlueskyCredentials): DomainError {
  const { error } = ErrorAnswer().parse(answer.json);
  if (answer.status === 401 || error === 'AuthenticationRequired')
    return new UpstreamError(
      `Bluesky did not accept the app password for ${credentials.handle}. Check the handle, or create a new app password in Bluesky (Settings > Privacy and security > App passwords) and enter it again.`,
      'bluesky_auth_failed',
    );
  if (error === 'AuthFactorTokenRequired')
    return new UpstreamError(
      'Bluesky asked for the code it e-mails at sign-in: that happens with the account password. Enter an app password instead (Settings > Privacy and security > App passwords).',
      'bluesky_auth_failed',
    );
  return xrpcError(answer, credentials, 'sign in');
}

/** A refusal or failure of an XRPC call, as the project's error with a message that says what to do. */
function xrpcError(answer: Answer, credentials: BlueskyCredentials, action: string): DomainError {
  const { status } = answer;
  if (answer.json === undefined)
    return new UpstreamError(
      `${credentials.serviceUrl} answered HTTP ${status}, not as a Bluesky server. Check the service address in the Bluesky settings (https://bsky.social for most accounts).`,
      'bluesky_not_a_server',
    );
  const { error, message } = ErrorAnswer().parse(answer.json);
  const detail = message ? `: ${message}` : error ? ` (${error})` : ` (HTTP ${status})`;
  if (status === 429) {
    const reset = Number(answer.headers.get('ratelimit-reset'));
    const seconds = Number.isFinite(reset) && reset > 0 ? Math.max(1, Math.ceil(reset - Date.now() / 1000)) : 300;
    return new UpstreamError(
      `Bluesky limits how often an account may ${action}. Try again in ${Math.ceil(seconds / 60)} minute(s).`,
      'bluesky_rate_limited',
      seconds,
    );
  }
  if (error === 'AccountTakedown' || error === 'AccountDeactivated')
    return new UpstreamError(
      `Bluesky says the account ${credentials.handle} is ${error === 'AccountTakedown' ? 'suspended' : 'deactivated'}; nothing can be posted with it. Reactivate it in Bluesky or connect another account.`,
      'bluesky_account_inactive',
    );
  if (isTokenRefused(answer) || status === 401)
    return new UpstreamError(
      `Bluesky ended the sign-in of ${credentials.handle}. Enter the app password again in the Bluesky settings (or create a new one in Bluesky).`,
      'bluesky_session_ended',
    );
  if (status >= 500)
    return new UpstreamError(`Bluesky could not ${action} right now${detail}. Try again later.`, 'bluesky_unavailable');
  return new UpstreamError(`Bluesky refused to ${action}${detail}.`, 'bluesky_refused');
}
