/**
 * Ghost's Admin API (docs/integrations.md, Ghost), behind GhostChannelClient: the domain sees this interface
 * and the project's errors (domain/errors.ts), never Ghost's answers.
 *
 *   testConnection  GET /ghost/api/admin/site/ (public: is this a Ghost site, which version), then an
 *                   authenticated GET /ghost/api/admin/posts/?limit=1 (is the key valid)
 *   uploadImage     POST /ghost/api/admin/images/upload/ (multipart `file`, `purpose`, `ref`) → its URL
 *   publishPost     looks for the post by its slug first (an earlier attempt may have made it), else
 *                   POST /ghost/api/admin/posts/?source=html {title, html, slug, status: published,
 *                   feature_image, tags}
 *   findPost        GET /ghost/api/admin/posts/slug/{slug}/ (any status)
 *
 * Every request carries a fresh token (token.ts) and goes through fetchChecked (http(s) only; no private
 * addresses in AWS, where the owner's address could point inside our network). Error codes:
 *   ghost_site_url        the address is not allowed or redirects elsewhere (InvalidError)
 *   ghost_not_ghost       no Ghost Admin API answers there (InvalidError)
 *   ghost_wrong_key       Ghost refused the Admin API key (InvalidError when testing the connection; UpstreamError
 *                         when a publish meets it: the saved key was revoked)
 *   ghost_refused         Ghost refused the request (its own message follows)
 *   ghost_unreachable     network failure or a 5xx answer (UpstreamError)
 *   ghost_timeout         no answer in time (UpstreamTimeoutError)
 * No message contains the key or a token.
 */
import { IntegrationError } from '../../domain/integrations.js';
import { DomainError, InvalidError, UpstreamError, UpstreamTimeoutError } from '../../domain/errors.js';
import { fetchChecked } from '../../adapters/integrations/url-safety.js';
import { safeUploadFilename } from '../wordpress/publish.js';
import { normaliseGhostUrl, type GhostCredentials } from './credentials.js';
import { adminToken } from './token.js';

export interface GhostSite {
  /** The site's address as Ghost states it (no trailing slash). */
  url: string;
  title: string;
  /** Ghost's major.minor, e.g. "6.65". */
  version: string;
}

export interface GhostImageInput {
  bytes: Buffer;
  filename: string;
  contentType: string;
}

export interface GhostPostInput {
  title: string;
  /** HTML (Ghost converts it to its editor's format, ?source=html). */
  html: string;
  /** Unique to the article, so that a retry finds the post an earlier attempt made (findPost). */
  slug: string;
  /** An image already on the site (uploadImage's URL). */
  featureImage?: string;
  /** The article's keyword: the post's first (primary) tag. */
  keyword?: string;
  tags?: readonly string[];
}

export interface GhostPost {
  id: string;
  slug: string;
  /** Where readers see it. */
  url: string;
  status: string;
  title: string;
  featureImage: string | null;
  tags: string[];
}

/** The Ghost channel's calls; the adapter below talks to a real site. */
export interface GhostChannelClient {
  testConnection(credentials: GhostCredentials): Promise<GhostSite>;
  uploadImage(credentials: GhostCredentials, image: GhostImageInput): Promise<{ url: string }>;
  /** Publishes, or answers the post an earlier attempt made with the same slug (`created` false): never two posts. */
  publishPost(credentials: GhostCredentials, post: GhostPostInput): Promise<GhostPost & { created: boolean }>;
  findPost(credentials: GhostCredentials, slug: string): Promise<GhostPost | undefined>;
}

export interface HttpGhostClientOptions {
  /** true locally (ALLOW_PRIVATE_URLS=1 or the embedded server), false in AWS. */
  allowPrivateUrls: boolean;
  /** Per request (default 15 000 ms; uploads get twice that). */
  timeoutMs?: number;
}

/** The Admin API version the calls are written for (Ghost answers in that shape). */
const ACCEPT_VERSION = 'v6.0';
/** Ghost's longest tag name and slug. */
const TAG_MAX = 191;
const GHOST_SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const KEY_HELP =
  'Create a custom integration in Ghost Admin → Settings → Integrations and paste its Admin API key (id:secret).';

interface Answer {
  status: number;
  json: unknown;
}

export class HttpGhostClient implements GhostChannelClient {
  private readonly allowPrivate: boolean;
  private readonly timeoutMs: number;

  constructor(options: HttpGhostClientOptions) {
    this.allowPrivate = options.allowPrivateUrls;
    this.timeoutMs = options.timeoutMs ?? 15_000;
  }

  async testConnection(credentials: GhostCredentials): Promise<GhostSite> {
    const site = normaliseGhostUrl(credentials.siteUrl);
    const about = await this.send(site, '/site/', { auth: false, credentials });
    const info = isObject(about.json) && isObject(about.json.site) ? about.json.site : undefined;
    if (about.status !== 200 || !info || typeof info.version !== 'string') {
      if (about.status >= 500) throw unreachable(site, `it answered HTTP ${about.status}`);
      throw new InvalidError(
        `No Ghost site answered at ${site} (nothing at ${site}/ghost/api/admin/site/). Enter the address readers visit, e.g. https://example.com, without /ghost.`,
        'ghost_not_ghost',
      );
    }
    const check = await this.send(site, '/posts/?limit=1&fields=id', { credentials });
    if (check.status === 401 || check.status === 403)
      throw new InvalidError(
        `Ghost refused the Admin API key (${ghostMessage(check.json)}). ${KEY_HELP}`,
        'ghost_wrong_key',
      );
    if (check.status !== 200) throw this.refusal(check, site, 'checking the key');
    return {
      url: typeof info.url === 'string' ? info.url.replace(/\/+$/, '') : site,
      title: typeof info.title === 'string' ? info.title : '',
      version: info.version,
    };
  }

  async uploadImage(credentials: GhostCredentials, image: GhostImageInput): Promise<{ url: string }> {
    const site = normaliseGhostUrl(credentials.siteUrl);
    // Ghost refuses a file whose extension does not match its type: the name gets the right one
    const filename = safeUploadFilename(image.filename, image.contentType);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(image.bytes)], { type: image.contentType }), filename);
    form.append('purpose', 'image');
    form.append('ref', filename);
    const answer = await this.send(site, '/images/upload/', {
      credentials,
      init: { method: 'POST', body: form },
      timeoutMs: this.timeoutMs * 2,
    });
    const url = firstOf(answer.json, 'images')?.url;
    if (answer.status !== 201 && answer.status !== 200) throw this.refusal(answer, site, 'uploading the image');
    if (typeof url !== 'string')
      throw new UpstreamError(`Ghost answered the image upload without its address.`, 'ghost_refused');
    return { url };
  }

  async publishPost(credentials: GhostCredentials, post: GhostPostInput): Promise<GhostPost & { created: boolean }> {
    const site = normaliseGhostUrl(credentials.siteUrl);
    // Ghost would rewrite any other slug (lower case, hyphens, at most 191), and findPost would then miss the post
    if (!GHOST_SLUG.test(post.slug) || post.slug.length > TAG_MAX)
      throw new InvalidError(
        `The post's slug "${post.slug.slice(0, 80)}" is not one Ghost keeps as it is: lower-case letters, digits and single hyphens.`,
        'ghost_slug',
      );
    const earlier = await this.findPost(credentials, post.slug);
    if (earlier) return { ...earlier, created: false };
    const body = {
      posts: [
        {
          title: post.title,
          html: post.html,
          slug: post.slug,
          status: 'published',
          ...(post.featureImage ? { feature_image: post.featureImage } : {}),
          tags: postTags(post.keyword, post.tags).map((name) => ({ name })),
        },
      ],
    };
    const answer = await this.send(site, '/posts/?source=html', {
      credentials,
      init: { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } },
      creates: true,
    });
    if (answer.status !== 201 && answer.status !== 200) throw this.refusal(answer, site, 'publishing the post');
    const saved = toPost(firstOf(answer.json, 'posts'));
    if (!saved)
      throw new UpstreamError(
        `Ghost answered without the post (HTTP ${answer.status}). Look for it in Ghost Admin → Posts; publishing again finds it instead of making a second one.`,
        'ghost_refused',
      );
    return { ...saved, created: true };
  }

  async findPost(credentials: GhostCredentials, slug: string): Promise<GhostPost | undefined> {
    const site = normaliseGhostUrl(credentials.siteUrl);
    const answer = await this.send(site, `/posts/slug/${encodeURIComponent(slug)}/`, { credentials });
    if (answer.status === 404) return undefined;
    if (answer.status !== 200) throw this.refusal(answer, site, 'looking for the post');
    return toPost(firstOf(answer.json, 'posts'));
  }

  /** One Admin API call with a fresh token; network failures and timeouts become the project's errors. */
  private async send(
    site: string,
    route: string,
    options: {
      credentials: GhostCredentials;
      auth?: boolean;
      init?: RequestInit;
      timeoutMs?: number;
      /** The request creates the post: a lost answer may hide a post that exists. */
      creates?: boolean;
    },
  ): Promise<Answer> {
    const headers = new Headers(options.init?.headers);
    headers.set('accept', 'application/json');
    headers.set('accept-version', ACCEPT_VERSION);
    if (options.auth !== false) headers.set('authorization', `Ghost ${await adminToken(options.credentials.adminKey)}`);
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    try {
      const { response } = await fetchChecked(
        `${site}/ghost/api/admin${route}`,
        { ...options.init, headers },
        { allowPrivate: this.allowPrivate, timeoutMs },
      );
      const text = await response.text();
      // a redirect of a POST is answered, not followed: the site lives at another address
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location)
        throw new InvalidError(
          `The site redirects to ${new URL(location, site).origin}. Enter that address instead.`,
          'ghost_site_url',
        );
      return { status: response.status, json: parseJson(text) };
    } catch (error) {
      throw fromThrown(error, site, timeoutMs, options.creates === true);
    }
  }

  private refusal(answer: Answer, site: string, doing: string): DomainError {
    if (answer.status === 401 || answer.status === 403)
      return new UpstreamError(
        `Ghost refused the saved Admin API key while ${doing} (${ghostMessage(answer.json)}): the integration may have been deleted or its key regenerated. ${KEY_HELP}`,
        'ghost_wrong_key',
      );
    if (answer.status === 404 && !isGhostError(answer.json))
      return new InvalidError(
        `No Ghost Admin API answered at ${site}. Check the site's address in the Ghost settings.`,
        'ghost_not_ghost',
      );
    if (answer.status >= 500) return unreachable(site, `it answered HTTP ${answer.status} while ${doing}`);
    return new UpstreamError(`Ghost refused ${doing}: ${ghostMessage(answer.json)}`, 'ghost_refused');
  }
}

/** The keyword first (Ghost's primary tag), then the tags; trimmed, no blank, each once whatever its case. */
export function postTags(keyword: string | undefined, tags: readonly string[] = []): string[] {
  const seen = new Set<string>();
  const names: string[] = [];
  for (const raw of [keyword ?? '', ...tags]) {
    const name = raw.trim().replace(/\s+/g, ' ').slice(0, TAG_MAX);
    if (!name || seen.has(name.toLowerCase())) continue;
    seen.add(name.toLowerCase());
    names.push(name);
  }
  return names;
}

function unreachable(site: string, why: string): UpstreamError {
  return new UpstreamError(
    `The Ghost site ${site} could not be used (${why}). Check that the site is online, then try again: the article is kept.`,
    'ghost_unreachable',
  );
}

function fromThrown(error: unknown, site: string, timeoutMs: number, creates: boolean): DomainError {
  if (error instanceof DomainError) return error;
  const maybePosted = creates
    ? ' The post may have been made: publishing again finds it instead of making a second one.'
    : '';
  if (error instanceof IntegrationError) {
    // the redirect's message names the address it was sent to: the site's, without the API's path
    if (error.code === 'forbidden_url' || error.code === 'redirect_elsewhere')
      return new InvalidError(error.message.replace(/\/ghost\/api\/admin\/\S*?(?=\.\s|\.?$)/, ''), 'ghost_site_url');
    if (/did not answer within/.test(error.message))
      return new UpstreamTimeoutError(
        `Ghost did not answer within ${Math.round(timeoutMs / 1000)} seconds.${maybePosted || ' Try again later.'}`,
        'ghost_timeout',
      );
    return new UpstreamError(`${error.message}${maybePosted}`, 'ghost_unreachable');
  }
  return unreachable(site, 'no answer');
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function firstOf(json: unknown, field: string): Record<string, unknown> | undefined {
  if (!isObject(json) || !Array.isArray(json[field])) return undefined;
  const first: unknown = json[field][0];
  return isObject(first) ? first : undefined;
}

function isGhostError(json: unknown): boolean {
  return isObject(json) && Array.isArray(json.errors);
}

/** Ghost's own words: `{ errors: [{ message, context }] }`. */
function ghostMessage(json: unknown): string {
  const first = isObject(json) && Array.isArray(json.errors) ? (json.errors[0] as unknown) : undefined;
  if (!isObject(first)) return 'no reason given';
  const parts = [first.message, first.context].filter((p): p is string => typeof p === 'string' && p.trim() !== '');
  return parts.join(' ').slice(0, 300) || 'no reason given';
}

function toPost(raw: Record<string, unknown> | undefined): GhostPost | undefined {
  if (!raw || typeof raw.id !== 'string' || typeof raw.slug !== 'string') return undefined;
  const tags = Array.isArray(raw.tags)
    ? raw.tags.flatMap((t: unknown) => (isObject(t) && typeof t.name === 'string' ? [t.name] : []))
    : [];
  return {
    id: raw.id,
    slug: raw.slug,
    url: typeof raw.url === 'string' ? raw.url : '',
    status: typeof raw.status === 'string' ? raw.status : '',
    title: typeof raw.title === 'string' ? raw.title : '',
    featureImage: typeof raw.feature_image === 'string' ? raw.feature_image : null,
    tags,
  };
}
