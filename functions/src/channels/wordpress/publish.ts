/**
 * Publishing to WordPress over the REST API with an application password (docs/integrations.md, WordPress).
 *
 *   1. featured image: POST /wp/v2/media with the raw bytes, Content-Type and
 *      `Content-Disposition: attachment; filename="…"` (plus Content-MD5) → attachment id
 *   2. POST /wp/v2/posts {title, content, status: 'publish', featured_media, slug}, or
 *      POST /wp/v2/posts/{existingPostId} with the same fields when republishing; a post that is
 *      gone (404 rest_post_invalid_id) is created anew
 *   3. WordPress core IGNORES a featured image it could not set (create_item()/update_item() drop
 *      handle_featured_media()'s error), so the answer's featured_media is compared with the
 *      uploaded id and a mismatch is an error.
 *
 * Never two posts: a new post gets a slug unique to its article, and `run.beforeCreate` is told
 * that slug before the post is sent. An attempt that may have created the post (cut off, or no
 * answer) is followed by one with `findBySlug`: GET /wp/v2/posts?slug=…&status=any&context=edit
 * (any status: an editor's plugin may hold posts for review) finds it, and it is updated instead.
 * All requests of one publish share `run.deadline`.
 *
 * Every request goes through fetchChecked() (http(s) only; no private addresses in AWS) in the
 * site's API style (/wp-json/… or /?rest_route=…). Errors become IntegrationError with a message a
 * person can act on; no message contains the application password.
 *
 * Error codes (IntegrationError.code):
 *   wordpress_credentials      401/403 authentication: wrong/revoked application password, unknown
 *                              user, application passwords off, Authorization header dropped
 *   wordpress_permission       the user's role may not publish, upload or edit (contributors)
 *   wordpress_upload           the featured image upload was refused
 *   wordpress_featured_media   WordPress did not keep the featured image
 *   wordpress_unreachable      network failure, timeout or a 5xx answer (the article is kept)
 *   wordpress_redirect         the site redirects the API elsewhere
 *   wordpress_forbidden_url    the stored address is not allowed (scheme, private address)
 *   wordpress_not_found        no REST route (permalinks or a plugin changed)
 *   wordpress_error            anything else WordPress refused
 *   publish_timeout            the publish's deadline passed (IntegrationError.outcome says
 *                              whether the post may exist)
 */
import { createHash } from 'node:crypto';
import { httpUrlOrNull } from '@app/shared';
import {
  IntegrationError,
  type PublishOutcome,
  type PublishRun,
  type WordPressPostInput,
  type WordPressPublisher,
  type WordPressSite,
} from '../../domain/integrations.js';
import { fetchChecked } from '../../adapters/integrations/url-safety.js';
import { basicAuthHeader, normaliseSiteUrl, wordpressApiUrl } from './client.js';
import { isObject, isWpError, parseWpJson, plainWpMessage } from './answers.js';

export interface HttpWordPressPublisherOptions {
  /** true locally (ALLOW_PRIVATE_URLS=1 or the embedded server), false in AWS. */
  allowPrivateUrls: boolean;
  /** Per request, including the upload (default 30 000 ms). */
  timeoutMs?: number;
}

export type WordPressPublishErrorCode =
  | 'wordpress_credentials'
  | 'wordpress_permission'
  | 'wordpress_upload'
  | 'wordpress_featured_media'
  | 'wordpress_unreachable'
  | 'wordpress_redirect'
  | 'wordpress_forbidden_url'
  | 'wordpress_not_found'
  | 'wordpress_error'
  | 'publish_timeout';

const KEPT = 'The article is kept; try again';
const UNREACHABLE = `WordPress is not reachable`;
/** A request with less time than this left before the deadline is not started. */
export const MIN_REQUEST_MS = 1_000;
/** Said when the post may have been created although the answer did not say so. */
const LOOKS_FIRST = 'Publishing again looks for this post on WordPress first, so it is never published twice.';

const EXTENSION_BY_TYPE: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/jpg': 'jpg',
  'image/pjpeg': 'jpg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/avif': 'avif',
};

/**
 * A filename WordPress accepts in `Content-Disposition: attachment; filename="…"`: ASCII letters,
 * digits, ".", "-" and "_" only (accents folded, everything else → "-"), at most 80 characters,
 * with the extension that matches the content type (WordPress picks the MIME type by extension).
 */
export function safeUploadFilename(filename: string, contentType: string): string {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  const wanted = EXTENSION_BY_TYPE[type];
  const folded = filename
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/^.*[\\/]/, '');
  const match = /^(.*?)(?:\.([A-Za-z0-9]{1,5}))?$/.exec(folded)!;
  let stem = (match[1] ?? '')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/[-.]{2,}/g, '-')
    .replace(/^[-._]+|[-._]+$/g, '');
  let ext = (match[2] ?? '').toLowerCase();
  if (wanted && !(ext === wanted || (wanted === 'jpg' && (ext === 'jpeg' || ext === 'jpe')))) ext = wanted;
  if (!ext) ext = 'bin';
  stem = stem.slice(0, 80 - ext.length - 1).replace(/[-._]+$/, '') || 'featured-image';
  return `${stem}.${ext}`;
}

interface WpAnswer {
  status: number;
  json: unknown;
  location?: string | null;
}

type Step = 'media' | 'post';
/** What a request does, for its timeout message and what a failure leaves behind. */
type Request = 'lookup' | 'media' | 'update' | 'create';

export class HttpWordPressPublisher implements WordPressPublisher {
  private readonly allowPrivate: boolean;
  private readonly timeoutMs: number;

  constructor(options: HttpWordPressPublisherOptions) {
    this.allowPrivate = options.allowPrivateUrls;
    this.timeoutMs = options.timeoutMs ?? 30_000;
  }

  async publish(
    site: WordPressSite,
    post: WordPressPostInput,
    run: PublishRun<{ slug: string }> = {},
  ): Promise<{ postId: number; link: string; mediaId?: number }> {
    const { deadline } = run;
    let siteUrl: string;
    try {
      siteUrl = normaliseSiteUrl(site.siteUrl);
    } catch (error) {
      throw new IntegrationError((error as Error).message, 'wordpress_forbidden_url');
    }
    const auth = basicAuthHeader(site.username.trim(), site.appPassword.trim());
    const api = (route: string, query?: Record<string, string>) =>
      wordpressApiUrl(siteUrl, site.apiStyle, route, query);

    let existingPostId = post.existingPostId;
    if (existingPostId === undefined && post.findBySlug && post.slug) {
      existingPostId = await this.findBySlug(
        api('/wp/v2/posts', { slug: post.slug, status: 'any', context: 'edit' }),
        auth,
        post.slug,
        siteUrl,
        deadline,
      );
    }

    let mediaId: number | undefined;
    if (post.featuredImage) {
      const { bytes, contentType } = post.featuredImage;
      const filename = safeUploadFilename(post.featuredImage.filename, contentType);
      const answer = await this.send(
        api('/wp/v2/media'),
        {
          method: 'POST',
          headers: {
            Authorization: auth,
            Accept: 'application/json',
            'Content-Type': contentType,
            'Content-Disposition': `attachment; filename="${filename}"`,
            'Content-MD5': createHash('md5').update(bytes).digest('hex'),
          },
          body: new Uint8Array(bytes),
        },
        deadline,
        'media',
      );
      const media = answer.json;
      if (answer.status !== 200 && answer.status !== 201) throw toError(answer, 'media', siteUrl);
      if (!isObject(media) || typeof media.id !== 'number') {
        throw new IntegrationError(
          `WordPress answered the image upload without an attachment id (HTTP ${answer.status}). Check that no plugin rewrites REST API answers. ${KEPT}.`,
          'wordpress_upload',
          answer.status,
        );
      }
      mediaId = media.id;
    }

    const fields = {
      title: post.title,
      content: post.html,
      status: 'publish',
      ...(mediaId !== undefined ? { featured_media: mediaId } : {}),
    };
    const json = (body: unknown): RequestInit => ({
      method: 'POST',
      headers: { Authorization: auth, Accept: 'application/json', 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });

    let answer: WpAnswer | undefined;
    let request: Request = 'update';
    if (existingPostId !== undefined) {
      answer = await this.send(api(`/wp/v2/posts/${existingPostId}`), json(fields), deadline, 'update');
      // deleted (or emptied from the trash) since the last publish: publish it again as a new post
      if (answer.status === 404 && isWpError(answer.json) && answer.json.code === 'rest_post_invalid_id')
        answer = undefined;
    }
    if (!answer) {
      request = 'create';
      if (post.slug) await run.beforeCreate?.({ slug: post.slug });
      answer = await this.send(
        api('/wp/v2/posts'),
        json({ ...fields, ...(post.slug ? { slug: post.slug } : {}) }),
        deadline,
        'create',
      );
    }
    // Only a refusal says that no post was created; a server error may come after it was saved.
    const created: PublishOutcome | undefined = request === 'create' ? 'unknown' : undefined;
    if (answer.status !== 200 && answer.status !== 201) {
      const error = toError(answer, 'post', siteUrl);
      if (request !== 'create') throw error;
      throw answer.status >= 500 ? withOutcome(error, 'unknown') : withOutcome(error, 'not-created');
    }
    const saved = answer.json;
    if (!isObject(saved) || typeof saved.id !== 'number') {
      throw new IntegrationError(
        `WordPress answered without a post id (HTTP ${answer.status}). Check that no plugin rewrites REST API answers.${created ? ` ${LOOKS_FIRST}` : ' Look for the post in the WordPress admin before trying again.'}`,
        'wordpress_error',
        answer.status,
        created,
      );
    }
    if (mediaId !== undefined && saved.featured_media !== mediaId) {
      throw new IntegrationError(
        `WordPress published the post but did not keep the featured image (attachment ${mediaId}). The theme may not support featured images, or a plugin removed the upload. Check the post in the WordPress admin and set the image there, or publish again${created ? ' (the same post is updated)' : ''}.`,
        'wordpress_featured_media',
        undefined,
        created,
      );
    }
    // A `link` that is not http(s) (a plugin's filter can answer `javascript:…`) counts as none.
    const link = httpUrlOrNull(saved.link) ?? `${siteUrl}/?p=${saved.id}`;
    return { postId: saved.id, link, ...(mediaId !== undefined ? { mediaId } : {}) };
  }

  /** The id of the post an earlier attempt created with `slug`, if WordPress has it. */
  private async findBySlug(
    url: string,
    auth: string,
    slug: string,
    siteUrl: string,
    deadline: number | undefined,
  ): Promise<number | undefined> {
    const answer = await this.send(
      url,
      { headers: { Authorization: auth, Accept: 'application/json' } },
      deadline,
      'lookup',
    );
    if (answer.status !== 200) {
      const error = toError(answer, 'post', siteUrl);
      throw new IntegrationError(
        `The last publish may have created the post, but WordPress could not be asked for it: ${error.message}`,
        error.code,
        error.status,
      );
    }
    const found = Array.isArray(answer.json)
      ? answer.json.find((p) => isObject(p) && p.slug === slug && typeof p.id === 'number')
      : undefined;
    return found ? (found.id as number) : undefined;
  }

  /**
   * One request, with what is left of the deadline (at most the request timeout). A request that
   * could not finish in time is not started; one the deadline cut off is a publish_timeout.
   */
  private async send(
    url: string,
    init: RequestInit,
    deadline: number | undefined,
    request: Request,
  ): Promise<WpAnswer> {
    const left = deadline === undefined ? Infinity : deadline - Date.now();
    if (left < MIN_REQUEST_MS) throw deadlineError(request, false);
    const timeoutMs = Math.min(this.timeoutMs, left);
    const cutOff = (error: unknown) => {
      if (deadline !== undefined && timeoutMs === left && Date.now() >= deadline - 50)
        return deadlineError(request, true);
      const thrown = fromThrown(error);
      // The create request went out and no answer came back: the post may exist.
      return request === 'create' ? withOutcome(thrown, 'unknown') : thrown;
    };
    let response: Response;
    try {
      ({ response } = await fetchChecked(url, init, { allowPrivate: this.allowPrivate, timeoutMs }));
    } catch (error) {
      throw cutOff(error);
    }
    let json: unknown;
    try {
      json = parseWpJson(await response.text(), true);
    } catch (error) {
      throw cutOff(error);
    }
    return { status: response.status, json, location: response.headers.get('location') };
  }
}

/** The deadline of the publish passed before (`sent` false) or while `request` was under way. */
function deadlineError(request: Request, sent: boolean): IntegrationError {
  if (request === 'create' && sent) {
    return new IntegrationError(
      `WordPress did not answer in time, so the post may or may not be online. Try again in a minute: publishing looks for this post on WordPress first, so it is never published twice.`,
      'publish_timeout',
      undefined,
      'unknown',
    );
  }
  if (request === 'update') {
    return new IntegrationError(
      `WordPress did not answer in time while updating the post. ${KEPT}: the same post is updated.`,
      'publish_timeout',
    );
  }
  return new IntegrationError(
    `WordPress did not answer in time, so publishing stopped before the post was sent: nothing was published. ${KEPT}.`,
    'publish_timeout',
  );
}

/** The same error, saying what it left on WordPress (and, when the post may exist, that a retry is safe). */
function withOutcome(error: IntegrationError, outcome: PublishOutcome): IntegrationError {
  const message = outcome === 'unknown' ? `${error.message.replace(/\s*$/, '')} ${LOOKS_FIRST}` : error.message;
  return new IntegrationError(message, error.code, error.status, outcome);
}

function fromThrown(error: unknown): IntegrationError {
  if (error instanceof IntegrationError) {
    if (error.code === 'forbidden_url') return new IntegrationError(error.message, 'wordpress_forbidden_url');
    if (error.code === 'redirect_elsewhere') return new IntegrationError(error.message, 'wordpress_redirect');
    if (error.code === 'unreachable')
      return new IntegrationError(`${UNREACHABLE}: ${error.message} ${KEPT} later.`, 'wordpress_unreachable');
    return error;
  }
  const name = (error as { name?: string })?.name;
  const why =
    name === 'TimeoutError' || name === 'AbortError' ? 'it did not answer in time.' : 'the connection failed.';
  return new IntegrationError(`${UNREACHABLE}: ${why} ${KEPT} later.`, 'wordpress_unreachable');
}

const CREDENTIAL_CODES = new Set([
  'incorrect_password',
  'invalid_username',
  'invalid_email',
  'application_passwords_disabled',
  'application_passwords_disabled_for_user',
  'rest_not_logged_in',
]);

/** An IntegrationError for a non-2xx answer of the media or post step. */
function toError(answer: WpAnswer, step: Step, siteUrl: string): IntegrationError {
  const { status } = answer;
  const wp = isWpError(answer.json) ? answer.json : undefined;
  const code = wp?.code ?? '';
  const detail = wp ? (plainWpMessage(wp.message) || code).replace(/[.\s]+$/, '') : '';
  const what = step === 'media' ? 'the featured image' : 'the post';

  if (status >= 300 && status < 400) {
    const to = answer.location ? ` to ${answer.location.replace(/\/wp-json\/.*$|\/?\?rest_route=.*$/, '')}` : '';
    return new IntegrationError(
      `The WordPress site redirects its API${to}. Enter the final address of the site in Settings (WordPress Integration) and check the connection again.`,
      'wordpress_redirect',
      status,
    );
  }

  if (CREDENTIAL_CODES.has(code) || (status === 401 && !code.startsWith('rest_upload'))) {
    const refused = `WordPress refused the credentials (HTTP ${status}${code ? ` ${code}` : ''}).`;
    const renew =
      'Create a new application password under Users → Profile → Application Passwords and update it in Settings (WordPress Integration).';
    // A wrong or revoked password, an unknown user and a header stripped by the web server answer alike
    // (WordPress 6.x: 401 rest_not_logged_in): the likely cause first, the header only as the remaining one.
    if (code === 'rest_not_logged_in' || (status === 401 && !CREDENTIAL_CODES.has(code))) {
      return new IntegrationError(
        `${refused} Check the username and the application password in Settings (WordPress Integration): a mistyped or revoked password answers this way; a new one can be made under Users → Profile → Application Passwords. If both are right, the web server may be dropping the Authorization header before WordPress sees it (Apache: "CGIPassAuth On"). ${KEPT}.`,
        'wordpress_credentials',
        status,
      );
    }
    const disabled =
      code === 'application_passwords_disabled' || code === 'application_passwords_disabled_for_user'
        ? ' Application passwords are turned off for this site or user.'
        : '';
    return new IntegrationError(`${refused}${disabled} ${renew} ${KEPT}.`, 'wordpress_credentials', status);
  }

  if (
    code === 'rest_cannot_create' ||
    code === 'rest_cannot_publish' ||
    code === 'rest_cannot_edit' ||
    code === 'rest_cannot_edit_others' ||
    code === 'rest_cannot_assign_term'
  ) {
    const action =
      step === 'media'
        ? 'upload the featured image, so its role cannot publish from here (Contributors can neither upload media nor publish)'
        : code === 'rest_cannot_edit' || code === 'rest_cannot_edit_others'
          ? 'edit this post (it may belong to another user)'
          : 'publish posts (Contributors can only submit drafts for review)';
    return new IntegrationError(
      `The WordPress user is not allowed to ${action}: ${detail}. Use an application password of an Author, Editor or Administrator, or ask the site's administrator to change the user's role. ${KEPT}.`,
      'wordpress_permission',
      status,
    );
  }

  if (code === 'rest_invalid_featured_media') {
    return new IntegrationError(
      `WordPress did not accept the uploaded image as featured image (${detail}). The theme may not support featured images. ${KEPT}.`,
      'wordpress_featured_media',
      status,
    );
  }

  if (
    step === 'media' &&
    (code.startsWith('rest_upload') || status === 413 || status === 415 || (code && status < 500))
  ) {
    const hint =
      status === 413 || code === 'rest_upload_file_too_big'
        ? ' The image is larger than the site allows (upload_max_filesize or the web server limit).'
        : code === 'rest_upload_sideload_error'
          ? ' The site does not accept this file type, or could not store the file (check the uploads folder permissions).'
          : code === 'rest_upload_limited_space'
            ? ' The site has no upload space left.'
            : '';
    return new IntegrationError(
      `WordPress refused ${what} upload (HTTP ${status}${detail ? `: ${detail}` : ''}).${hint} ${KEPT}.`,
      'wordpress_upload',
      status,
    );
  }

  if (status >= 500) {
    return new IntegrationError(
      `${UNREACHABLE}: the site answered HTTP ${status}${detail ? ` (${detail})` : ' (a server error)'}. ${KEPT} later.`,
      'wordpress_unreachable',
      status,
    );
  }

  if (status === 403) {
    return new IntegrationError(
      `WordPress refused the credentials or the request (HTTP 403${detail ? `: ${detail}` : ''}). A security plugin or firewall may block the REST API. Check the application password in Settings (WordPress Integration). ${KEPT}.`,
      'wordpress_credentials',
      status,
    );
  }

  if (status === 404) {
    return new IntegrationError(
      `The WordPress REST API did not find the route for ${what} at ${siteUrl}${detail ? ` (${detail})` : ''}. The permalink settings or a plugin may have changed: check the connection in Settings (WordPress Integration).`,
      'wordpress_not_found',
      status,
    );
  }

  return new IntegrationError(
    `WordPress refused ${what} (HTTP ${status}${detail ? `: ${detail}` : ''}). ${KEPT}.`,
    'wordpress_error',
    status,
  );
}
