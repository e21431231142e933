/**
 * A fake WordPress site: a real HTTP server on 127.0.0.1 answering the REST API as core does
 * (docs/integrations.md, WordPress; checked against wordpress-develop's user.php, rest-api.php and the posts and
 * attachments controllers):
 *
 *   GET  /wp-json/wp/v2/users/me[?context=edit]   current user; `roles`, `email`, `capabilities` only with context=edit
 *   POST /wp-json/wp/v2/media                     raw body upload, core's check order, 201 {id, source_url, media_details}
 *   GET  /wp-json/wp/v2/media/{id}
 *   POST /wp-json/wp/v2/posts                     201 post object (title, content, status, date_gmt, featured_media, slug)
 *   GET  /wp-json/wp/v2/posts[?slug=…][&status=…][&context=edit]   the posts collection: `status` defaults to
 *                                                 publish, other statuses ('any': all but trash) and
 *                                                 context=edit need edit_posts (rest_forbidden_status /
 *                                                 rest_forbidden_context); `slug` is a comma list
 *   GET|POST|PUT|PATCH /wp-json/wp/v2/posts/{id}  read / update
 *   GET  /wp-json/                                the API index
 * and the same routes as `/?rest_route=/wp/v2/…`. Uploaded files are served under /wp-content/uploads/.
 *
 * Application-password auth (HTTP Basic) as in core's wp_authenticate_application_password():
 * login name first, then e-mail; every non-alphanumeric character of the password is dropped
 * before comparing (so grouping spaces do not matter); errors are 401 {code, message, data:{status}}
 * and apply to every REST request that carries bad credentials.
 *
 * Modes: 'pretty' (default), 'query-only' (no pretty permalinks: /wp-json/* is the theme's 404
 * HTML page), 'app-passwords-disabled' (site-wide, e.g. plain http), 'strip-auth' (the web server
 * drops the Authorization header: requests arrive anonymous), 'down' (500 error page, or with
 * {close: true} the connection is closed without an answer).
 *
 * Faithful to core, not to the docs' summary: an unknown `featured_media` id does NOT fail the
 * request. create_item()/update_item() ignore handle_featured_media()'s WP_Error, so the post is
 * saved and the answer shows `featured_media: 0` (create) or the previous value (update). Pass
 * `{invalidFeaturedMedia: 'error'}` for a 400 rest_invalid_featured_media (nothing saved).
 * date_gmt: core replaces any UTC offset by +00:00 (rest_parse_date with force_utc); the fake too.
 * The site's timezone is UTC, so `date` equals `date_gmt`. Scheduled ('future') posts turn
 * 'publish' on the first request after their time, like WP-cron on a page load.
 *
 *   const wp = await startFakeWordPress();
 *   wp.url, wp.users[0] (FAKE_WP_EDITOR), wp.posts, wp.media, wp.requests, wp.setMode('query-only'), wp.stop()
 *   wp.onRest = (request) => …   runs before each REST request (e.g. delete an attachment mid-publish)
 *   wp.postLink = 'javascript:…'  answered as every post's `link`
 *   wp.holdAnswer = (request) => 'never' | ms | undefined   acts on the request at once but answers it
 *                                 late or never (a site still busy, or an answer lost)
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { holdAnswer, listen, safeHeaders, sendHtml, sendJson, type AnswerHold } from './http-helpers.js';
import { trackSecret } from '../helpers/secrets.js';

export interface FakeWpUser {
  id: number;
  /** login name */
  username: string;
  email: string;
  name: string;
  roles: string[];
  /** As WordPress shows it once, in groups of four ("abcd EFGH 1234 …"). */
  appPassword: string;
  /** false: application_passwords_disabled_for_user (a filter or security plugin). */
  appPasswordsAllowed?: boolean;
}

export interface FakeWpMedia {
  id: number;
  filename: string;
  mimeType: string;
  bytes: Buffer;
  sourceUrl: string;
  width?: number;
  height?: number;
  author: number;
  dateGmt: string;
}

export interface FakeWpPost {
  id: number;
  title: string;
  content: string;
  excerpt: string;
  status: string;
  /** "YYYY-MM-DDTHH:MM:SS" (UTC, no zone suffix, as WordPress writes it) */
  dateGmt: string;
  modifiedGmt: string;
  featuredMedia: number;
  author: number;
  slug: string;
}

export type FakeWordPressMode = 'pretty' | 'query-only' | 'app-passwords-disabled' | 'strip-auth' | 'down';

export interface RecordedWpRequest {
  method: string;
  /** path and query as sent */
  path: string;
  /** REST route (e.g. /wp/v2/users/me) and how it was addressed, when it was a REST request */
  route?: string;
  style?: 'pretty' | 'query';
  /** request headers without authorization/cookie */
  headers: Record<string, string>;
  /** whether an Authorization header arrived (before 'strip-auth' drops it) */
  hadAuthorization: boolean;
  /** login of the authenticated user, if any */
  user?: string;
  /** parsed JSON/form body, or for uploads the byte count */
  body?: unknown;
}

export interface FakeWordPressOptions {
  mode?: FakeWordPressMode;
  users?: FakeWpUser[];
  /** 'ignore' (core's behaviour, default) or 'error' (400 rest_invalid_featured_media). */
  invalidFeaturedMedia?: 'ignore' | 'error';
}

export interface FakeWordPress {
  /** The site URL (home), e.g. http://127.0.0.1:51234 */
  url: string;
  users: FakeWpUser[];
  posts: FakeWpPost[];
  media: FakeWpMedia[];
  requests: RecordedWpRequest[];
  readonly mode: FakeWordPressMode;
  setMode(mode: FakeWordPressMode, options?: { close?: boolean }): void;
  /**
   * Called before each REST request is handled (route and style are set), e.g. to simulate a
   * plugin deleting an attachment between the upload and the post. Cleared by reset().
   */
  onRest?: (request: RecordedWpRequest) => void;
  /**
   * Answered as every post's `link` instead of its permalink, e.g. `javascript:alert(1)` (a plugin
   * filtering post_link can answer anything). Cleared by reset().
   */
  postLink?: string;
  /**
   * Called for each REST request (route and style are set): an AnswerHold makes the fake act on
   * the request at once (the post is saved) but answer it that much later, or never. Cleared by reset().
   */
  holdAnswer?: (request: RecordedWpRequest) => AnswerHold | undefined;
  /** Back to the start mode with no posts, media or requests. */
  reset(): void;
  stop(): Promise<void>;
}

export const FAKE_WP_EDITOR: FakeWpUser = {
  id: 2,
  username: 'editor',
  email: 'editor@example.com',
  name: 'Eva Editor',
  roles: ['editor'],
  appPassword: 'abcd EFGH 1234 ijkl MNOP 5678',
};

export const FAKE_WP_CONTRIBUTOR: FakeWpUser = {
  id: 3,
  username: 'writer',
  email: 'writer@example.com',
  name: 'Will Writer',
  roles: ['contributor'],
  appPassword: 'Wxyz 9876 QRst 5432 uvWX 1098',
};

const CAN_UPLOAD = ['administrator', 'editor', 'author'];
const CAN_PUBLISH = ['administrator', 'editor', 'author'];
const CAN_CREATE = ['administrator', 'editor', 'author', 'contributor'];
const EDITS_OTHERS = ['administrator', 'editor'];
const STATUSES = ['publish', 'future', 'draft', 'pending', 'private'];
const MIME_BY_EXT: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  pdf: 'application/pdf',
};

interface WpErr {
  code: string;
  message: string;
  status: number;
  params?: Record<string, string>;
}

const err = (code: string, message: string, status: number): WpErr => ({ code, message, status });

export async function startFakeWordPress(options: FakeWordPressOptions = {}): Promise<FakeWordPress> {
  const startMode = options.mode ?? 'pretty';
  let mode: FakeWordPressMode = startMode;
  let closeWhenDown = false;
  const featuredMediaErrors = options.invalidFeaturedMedia === 'error';
  const users = options.users ?? [{ ...FAKE_WP_EDITOR }, { ...FAKE_WP_CONTRIBUTOR }];
  for (const u of users) {
    trackSecret(u.appPassword, 'WordPress application password (fake)');
    trackSecret(u.appPassword.replace(/[^a-z\d]/gi, ''), 'WordPress application password without spaces (fake)');
  }
  const posts: FakeWpPost[] = [];
  const media: FakeWpMedia[] = [];
  const requests: RecordedWpRequest[] = [];
  let nextId = 100;
  let site = '';

  const apiUrl = (route: string) =>
    mode === 'query-only' ? `${site}/?rest_route=${route}` : `${site}/wp-json${route}`;

  function authenticate(req: IncomingMessage): { user?: FakeWpUser; error?: WpErr } {
    if (mode === 'strip-auth') return {};
    const match = /^Basic\s+(.+)$/i.exec(req.headers.authorization ?? '');
    if (!match) return {};
    trackSecret(match[1], 'WordPress Basic credentials (sent to the fake)');
    const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return {}; // PHP sets no PHP_AUTH_PW: core does not try application passwords
    const login = decoded.slice(0, colon);
    const password = decoded.slice(colon + 1);
    const isEmail = /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(login);
    let user = users.find((u) => u.username.toLowerCase() === login.toLowerCase());
    if (!user && isEmail) user = users.find((u) => u.email.toLowerCase() === login.toLowerCase());
    if (!user) {
      return isEmail
        ? {
            error: err(
              'invalid_email',
              '<strong>Error:</strong> Unknown email address. Check again or try your username.',
              401,
            ),
          }
        : { error: err('invalid_username', '<strong>Error:</strong> The provided username is not registered.', 401) };
    }
    if (mode === 'app-passwords-disabled')
      return { error: err('application_passwords_disabled', 'Application passwords are not available.', 401) };
    if (user.appPasswordsAllowed === false) {
      return {
        error: err(
          'application_passwords_disabled_for_user',
          'Application passwords are not available for your account. Please contact the site administrator for assistance.',
          401,
        ),
      };
    }
    const strip = (s: string) => s.replace(/[^a-z\d]/gi, '');
    if (strip(password) !== strip(user.appPassword)) {
      return { error: err('incorrect_password', 'The provided password is an invalid application password.', 401) };
    }
    return { user };
  }

  /** 401 when nobody is logged in, 403 otherwise (rest_authorization_required_code). */
  const denied = (user: FakeWpUser | undefined, code: string, message: string) => err(code, message, user ? 403 : 401);
  const hasRole = (user: FakeWpUser | undefined, roles: string[]) =>
    !!user && user.roles.some((r) => roles.includes(r));
  const mayEdit = (user: FakeWpUser | undefined, post: FakeWpPost) =>
    !!user && (hasRole(user, EDITS_OTHERS) || (post.author === user.id && hasRole(user, CAN_CREATE)));

  function publishDue() {
    const now = Date.now();
    for (const post of posts) {
      if (post.status === 'future' && Date.parse(`${post.dateGmt}Z`) <= now) post.status = 'publish';
    }
  }

  function link(post: FakeWpPost): string {
    if (fake.postLink !== undefined) return fake.postLink;
    if (post.status !== 'publish' || mode === 'query-only') return `${site}/?p=${post.id}`;
    const [y, m, d] = post.dateGmt.slice(0, 10).split('-');
    return `${site}/${y}/${m}/${d}/${post.slug}/`;
  }

  function postJson(post: FakeWpPost, edit: boolean) {
    return {
      id: post.id,
      date: post.dateGmt,
      date_gmt: post.dateGmt,
      guid: { rendered: `${site}/?p=${post.id}`, ...(edit ? { raw: `${site}/?p=${post.id}` } : {}) },
      modified: post.modifiedGmt,
      modified_gmt: post.modifiedGmt,
      slug: post.slug,
      status: post.status,
      type: 'post',
      link: link(post),
      title: { rendered: post.title, ...(edit ? { raw: post.title } : {}) },
      content: { rendered: post.content, protected: false, ...(edit ? { raw: post.content, block_version: 0 } : {}) },
      excerpt: { rendered: post.excerpt, protected: false, ...(edit ? { raw: post.excerpt } : {}) },
      author: post.author,
      featured_media: post.featuredMedia,
      comment_status: 'open',
      ping_status: 'open',
      sticky: false,
      template: '',
      format: 'standard',
      meta: [],
      categories: [1],
      tags: [],
      _links: { self: [{ href: apiUrl(`/wp/v2/posts/${post.id}`) }] },
    };
  }

  function mediaJson(item: FakeWpMedia) {
    const file = item.sourceUrl.replace(`${site}/wp-content/uploads/`, '');
    return {
      id: item.id,
      date: item.dateGmt,
      date_gmt: item.dateGmt,
      guid: { rendered: item.sourceUrl },
      slug: item.filename.replace(/\.[^.]+$/, '').toLowerCase(),
      status: 'inherit',
      type: 'attachment',
      link: `${site}/?attachment_id=${item.id}`,
      title: { rendered: item.filename.replace(/\.[^.]+$/, '') },
      author: item.author,
      media_type: item.mimeType.startsWith('image/') ? 'image' : 'file',
      mime_type: item.mimeType,
      source_url: item.sourceUrl,
      media_details: {
        ...(item.width !== undefined ? { width: item.width, height: item.height } : {}),
        file,
        filesize: item.bytes.length,
        sizes: {},
      },
    };
  }

  function userJson(user: FakeWpUser, edit: boolean) {
    const slug = user.username.toLowerCase().replace(/[^a-z0-9-]/g, '-');
    const [first = '', ...rest] = user.name.split(' ');
    return {
      id: user.id,
      name: user.name,
      url: '',
      description: '',
      link: `${site}/author/${slug}/`,
      slug,
      avatar_urls: {
        24: 'https://secure.gravatar.com/avatar/0?s=24',
        48: 'https://secure.gravatar.com/avatar/0?s=48',
        96: 'https://secure.gravatar.com/avatar/0?s=96',
      },
      meta: [],
      ...(edit
        ? {
            username: user.username,
            first_name: first,
            last_name: rest.join(' '),
            email: user.email,
            locale: 'en_US',
            nickname: user.username,
            registered_date: '2024-01-01T00:00:00+00:00',
            roles: user.roles,
            capabilities: Object.fromEntries(
              [...user.roles, ...(hasRole(user, CAN_PUBLISH) ? ['publish_posts', 'upload_files'] : [])].map((c) => [
                c,
                true,
              ]),
            ),
            extra_capabilities: Object.fromEntries(user.roles.map((r) => [r, true])),
          }
        : {}),
    };
  }

  function uniqueSlug(title: string, id: number): string {
    const base =
      title
        .normalize('NFKD')
        .replace(/[\u0300-\u036f]/g, '')
        .toLowerCase()
        .replace(/<[^>]*>/g, '')
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-+|-+$/g, '') || String(id);
    let slug = base;
    for (let n = 2; posts.some((p) => p.slug === slug && p.id !== id); n++) slug = `${base}-${n}`;
    return slug;
  }

  /** rest_parse_date with force_utc: any offset is replaced by +00:00. undefined = invalid. */
  function parseGmt(value: unknown): string | undefined {
    if (typeof value !== 'string') return undefined;
    const m = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}:\d{2}:\d{2})(\.\d+)?(Z|z|[+-]\d{2}(:?\d{2})?)?$/.exec(value);
    if (!m) return undefined;
    const iso = `${m[1]}T${m[2]}`;
    return Number.isNaN(Date.parse(`${iso}Z`)) ? undefined : iso;
  }

  const nowGmt = () => new Date().toISOString().slice(0, 19);

  /** Applies request fields to a post (create when `existing` is undefined). */
  function savePost(user: FakeWpUser, body: Record<string, unknown>, existing?: FakeWpPost): FakeWpPost | WpErr {
    const invalid = (param: string, why: string): WpErr => ({
      code: 'rest_invalid_param',
      message: `Invalid parameter(s): ${param}`,
      status: 400,
      params: { [param]: why },
    });
    const text = (v: unknown): string | undefined =>
      typeof v === 'string'
        ? v
        : typeof v === 'object' && v !== null && typeof (v as { raw?: unknown }).raw === 'string'
          ? (v as { raw: string }).raw
          : undefined;

    let status = existing?.status ?? 'draft';
    if (body.status !== undefined) {
      if (typeof body.status !== 'string' || !STATUSES.includes(body.status)) {
        return invalid('status', `status is not one of ${STATUSES.join(', ')}.`);
      }
      if (
        body.status !== existing?.status &&
        ['publish', 'future', 'private'].includes(body.status) &&
        !hasRole(user, CAN_PUBLISH)
      ) {
        return err(
          'rest_cannot_publish',
          body.status === 'private'
            ? 'Sorry, you are not allowed to create private posts in this post type.'
            : 'Sorry, you are not allowed to publish posts in this post type.',
          403,
        );
      }
      status = body.status;
    }
    let dateGmt = existing?.dateGmt ?? nowGmt();
    const dateInput = body.date ?? body.date_gmt;
    if (dateInput !== undefined && dateInput !== null) {
      const parsed = parseGmt(dateInput);
      if (!parsed) return invalid(body.date !== undefined ? 'date' : 'date_gmt', 'Invalid date.');
      dateGmt = parsed;
    }
    let featured = existing?.featuredMedia ?? 0;
    if (body.featured_media !== undefined) {
      const id =
        typeof body.featured_media === 'string' && /^\d+$/.test(body.featured_media)
          ? Number(body.featured_media)
          : body.featured_media;
      if (typeof id !== 'number' || !Number.isInteger(id))
        return invalid('featured_media', 'featured_media is not of type integer.');
      if (id === 0) featured = 0;
      else if (media.some((m) => m.id === id)) featured = id;
      else if (featuredMediaErrors) return err('rest_invalid_featured_media', 'Invalid featured media ID.', 400);
      // else: core ignores the failed set_post_thumbnail() and keeps the previous value
    }
    // wp_insert_post(): scheduling follows date_gmt, with a 60 s margin
    const ahead = Date.parse(`${dateGmt}Z`) - Date.now();
    if (status === 'publish' && ahead >= 60_000) status = 'future';
    else if (status === 'future' && ahead < 60_000) status = 'publish';

    const id = existing?.id ?? nextId++;
    const title = text(body.title) ?? existing?.title ?? '';
    const post: FakeWpPost = {
      id,
      title,
      content: text(body.content) ?? existing?.content ?? '',
      excerpt: text(body.excerpt) ?? existing?.excerpt ?? '',
      status,
      dateGmt,
      modifiedGmt: nowGmt(),
      featuredMedia: featured,
      author: existing?.author ?? user.id,
      slug:
        typeof body.slug === 'string' && body.slug
          ? uniqueSlug(body.slug, id)
          : (existing?.slug ?? uniqueSlug(title, id)),
    };
    if (existing) Object.assign(existing, post);
    else posts.push(post);
    return existing ?? post;
  }

  function upload(req: IncomingMessage, raw: Buffer, user: FakeWpUser): FakeWpMedia | WpErr {
    // WP_REST_Attachments_Controller::upload_from_data(), in core's order
    if (raw.length === 0) return err('rest_upload_no_data', 'No data supplied.', 400);
    if (!req.headers['content-type']) return err('rest_upload_no_content_type', 'No Content-Type supplied.', 400);
    const disposition = req.headers['content-disposition'];
    if (!disposition) return err('rest_upload_no_content_disposition', 'No Content-Disposition supplied.', 400);
    const filename = filenameFromDisposition(disposition);
    if (!filename) {
      return err(
        'rest_upload_invalid_disposition',
        'Invalid Content-Disposition supplied. Content-Disposition needs to be formatted as `attachment; filename="image.png"` or similar.',
        400,
      );
    }
    const md5 = req.headers['content-md5'];
    if (typeof md5 === 'string' && md5.trim() !== createHash('md5').update(raw).digest('hex')) {
      return err('rest_upload_hash_mismatch', 'Content hash did not match expected.', 412);
    }
    const ext = /\.([a-z0-9]+)$/i.exec(filename)?.[1]?.toLowerCase() ?? '';
    const mimeType = MIME_BY_EXT[ext];
    const size = mimeType?.startsWith('image/') ? imageSize(raw) : undefined;
    if (!mimeType || (mimeType.startsWith('image/') && mimeType !== 'image/webp' && !size)) {
      // wp_handle_sideload(): unknown extension, or an "image" getimagesize() cannot read
      return err('rest_upload_sideload_error', 'Sorry, you are not allowed to upload this file type.', 500);
    }
    let safeName = filename.replace(/[^A-Za-z0-9._-]+/g, '-');
    const stem = safeName.replace(/\.[^.]+$/, '');
    for (let n = 1; media.some((m) => m.filename === safeName); n++) safeName = `${stem}-${n}.${ext}`;
    const now = new Date();
    const folder = `${now.getUTCFullYear()}/${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
    const item: FakeWpMedia = {
      id: nextId++,
      filename: safeName,
      mimeType,
      bytes: raw,
      sourceUrl: `${site}/wp-content/uploads/${folder}/${safeName}`,
      ...(size ?? {}),
      author: user.id,
      dateGmt: nowGmt(),
    };
    media.push(item);
    return item;
  }

  function rest(
    req: IncomingMessage,
    res: ServerResponse,
    route: string,
    url: URL,
    raw: Buffer,
    record: RecordedWpRequest,
  ) {
    fake.onRest?.(record);
    const hold = fake.holdAnswer?.(record);
    if (hold !== undefined) holdAnswer(res, hold);
    const auth = authenticate(req);
    if (auth.user) record.user = auth.user.username;
    const reply = (status: number, body: unknown, headers: Record<string, string> = {}) =>
      sendJson(res, status, body, headers);
    const fail = (e: WpErr) =>
      reply(e.status, {
        code: e.code,
        message: e.message,
        data: { status: e.status, ...(e.params ? { params: e.params } : {}) },
      });
    if (auth.error) return fail(auth.error);
    const user = auth.user;
    const method = (
      url.searchParams.get('_method') ??
      (req.headers['x-http-method-override'] as string | undefined) ??
      req.method ??
      'GET'
    ).toUpperCase();
    const edit = url.searchParams.get('context') === 'edit';
    publishDue();

    let body: Record<string, unknown> = {};
    if (method !== 'GET' && route !== '/wp/v2/media') {
      const type = req.headers['content-type'] ?? '';
      if (/json/i.test(type) && raw.length) {
        try {
          body = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
        } catch {
          return fail(err('rest_invalid_json', 'Invalid JSON body passed.', 400));
        }
      } else if (raw.length) {
        body = Object.fromEntries(new URLSearchParams(raw.toString('utf8')));
      }
      record.body = body;
    }

    if (route === '/' || route === '') {
      return reply(200, {
        name: 'Fake WordPress',
        description: 'Just another WordPress site',
        url: site,
        home: site,
        namespaces: ['oembed/1.0', 'wp/v2'],
        authentication: {
          'application-passwords': { endpoints: { authorization: `${site}/wp-admin/authorize-application.php` } },
        },
        routes: {},
      });
    }
    if (route === '/wp/v2/users/me' && method === 'GET') {
      if (!user) return fail(err('rest_not_logged_in', 'You are not currently logged in.', 401));
      return reply(200, userJson(user, edit));
    }
    if (route === '/wp/v2/media' && method === 'POST') {
      record.body = { bytes: raw.length };
      if (!hasRole(user, CAN_UPLOAD))
        return fail(denied(user, 'rest_cannot_create', 'Sorry, you are not allowed to upload media on this site.'));
      const result = upload(req, raw, user!);
      if ('code' in result) return fail(result);
      return reply(201, mediaJson(result), { Location: apiUrl(`/wp/v2/media/${result.id}`) });
    }
    const mediaMatch = /^\/wp\/v2\/media\/(\d+)$/.exec(route);
    if (mediaMatch && method === 'GET') {
      const item = media.find((m) => m.id === Number(mediaMatch[1]));
      if (!item) return fail(err('rest_post_invalid_id', 'Invalid post ID.', 404));
      return reply(200, mediaJson(item));
    }
    if (route === '/wp/v2/posts' && method === 'POST') {
      if (!hasRole(user, CAN_CREATE))
        return fail(denied(user, 'rest_cannot_create', 'Sorry, you are not allowed to create posts as this user.'));
      if (body.id) return fail(err('rest_post_exists', 'Cannot create existing post.', 400));
      const result = savePost(user!, body);
      if ('code' in result) return fail(result);
      return reply(201, postJson(result, true), { Location: apiUrl(`/wp/v2/posts/${result.id}`) });
    }
    if (route === '/wp/v2/posts' && method === 'GET') {
      // get_items_permissions_check() and sanitize_post_statuses(): edit context and any status
      // but the default (publish) need edit_posts.
      if (edit && !hasRole(user, CAN_CREATE))
        return fail(
          denied(user, 'rest_forbidden_context', 'Sorry, you are not allowed to edit posts in this post type.'),
        );
      const statuses = (url.searchParams.get('status') ?? 'publish')
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean);
      for (const status of statuses) {
        if (status === 'publish') continue;
        if (!hasRole(user, CAN_CREATE)) return fail(denied(user, 'rest_forbidden_status', 'Status is forbidden.'));
        if (status !== 'any' && !STATUSES.includes(status)) {
          return fail({
            code: 'rest_invalid_param',
            message: 'Invalid parameter(s): status',
            status: 400,
            params: { status: `status[0] is not one of ${STATUSES.join(', ')}, and any.` },
          });
        }
      }
      const slugs = url.searchParams
        .get('slug')
        ?.split(',')
        .map((v) => v.trim())
        .filter(Boolean);
      const perPage = Number(url.searchParams.get('per_page') ?? 10);
      const found = posts
        .filter((p) => statuses.includes('any') || statuses.includes(p.status))
        .filter((p) => !slugs || slugs.includes(p.slug))
        // check_read_permission(): a post that is not public only for those who may edit it
        .filter((p) => p.status === 'publish' || mayEdit(user, p))
        .sort((a, b) => b.dateGmt.localeCompare(a.dateGmt) || b.id - a.id);
      return reply(
        200,
        found.slice(0, perPage).map((p) => postJson(p, edit)),
        { 'X-WP-Total': String(found.length), 'X-WP-TotalPages': String(Math.ceil(found.length / perPage)) },
      );
    }
    const postMatch = /^\/wp\/v2\/posts\/(\d+)$/.exec(route);
    if (postMatch) {
      const post = posts.find((p) => p.id === Number(postMatch[1]));
      if (!post) return fail(err('rest_post_invalid_id', 'Invalid post ID.', 404));
      const canEdit = mayEdit(user, post);
      if (method === 'GET') {
        if (edit && !canEdit)
          return fail(denied(user, 'rest_forbidden_context', 'Sorry, you are not allowed to edit this post.'));
        if (post.status !== 'publish' && !canEdit)
          return fail(denied(user, 'rest_forbidden', 'Sorry, you are not allowed to do that.'));
        return reply(200, postJson(post, edit));
      }
      if (method === 'POST' || method === 'PUT' || method === 'PATCH') {
        if (!canEdit) return fail(denied(user, 'rest_cannot_edit', 'Sorry, you are not allowed to edit this post.'));
        const result = savePost(user!, body, post);
        if ('code' in result) return fail(result);
        return reply(200, postJson(result, true));
      }
    }
    return fail(err('rest_no_route', 'No route was found matching the URL and request method.', 404));
  }

  const server = await listen((req, res, raw, url) => {
    const record: RecordedWpRequest = {
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      headers: safeHeaders(req),
      hadAuthorization: !!req.headers.authorization,
    };
    requests.push(record);
    if (mode === 'down') {
      if (closeWhenDown) {
        req.socket.destroy();
        return;
      }
      return sendHtml(
        res,
        500,
        '<!DOCTYPE html><html><body><p>There has been a critical error on this website.</p></body></html>',
      );
    }
    if (url.pathname === '/wp-json' || url.pathname.startsWith('/wp-json/')) {
      if (mode === 'query-only')
        return sendHtml(res, 404, themePage('Page not found', 'It looks like nothing was found at this location.'));
      record.route = url.pathname.slice('/wp-json'.length) || '/';
      record.style = 'pretty';
      return rest(req, res, record.route, url, raw, record);
    }
    const restRoute = url.searchParams.get('rest_route');
    if (restRoute !== null && (url.pathname === '/' || url.pathname === '/index.php')) {
      record.route = restRoute || '/';
      record.style = 'query';
      return rest(req, res, record.route, url, raw, record);
    }
    if (url.pathname.startsWith('/wp-content/uploads/')) {
      const item = media.find((m) => m.sourceUrl === `${site}${url.pathname}`);
      if (!item) return sendHtml(res, 404, themePage('Page not found', 'Nothing here.'));
      res.writeHead(200, { 'Content-Type': item.mimeType, 'Content-Length': item.bytes.length });
      return res.end(item.bytes);
    }
    if (url.pathname === '/') {
      const api = mode === 'query-only' ? `${site}/?rest_route=/` : `${site}/wp-json/`;
      return sendHtml(res, 200, themePage('Fake WordPress', 'Just another WordPress site', api), {
        Link: `<${api}>; rel="https://api.w.org/"`,
      });
    }
    return sendHtml(res, 404, themePage('Page not found', 'It looks like nothing was found at this location.'));
  });
  site = server.url;

  const fake: FakeWordPress = {
    url: site,
    users,
    posts,
    media,
    requests,
    get mode() {
      return mode;
    },
    setMode(next, opts = {}) {
      mode = next;
      closeWhenDown = !!opts.close;
    },
    reset() {
      mode = startMode;
      closeWhenDown = false;
      delete fake.onRest;
      delete fake.postLink;
      delete fake.holdAnswer;
      posts.length = 0;
      media.length = 0;
      requests.length = 0;
    },
    stop: server.stop,
  };
  return fake;
}

function themePage(title: string, text: string, api?: string): string {
  return `<!DOCTYPE html><html lang="en-US"><head><meta charset="UTF-8"><title>${title} – Fake WordPress</title>${
    api ? `<link rel="https://api.w.org/" href="${api}">` : ''
  }</head><body class="wp-theme"><main><h1>${title}</h1><p>${text}</p></main></body></html>`;
}

/** WP_REST_Attachments_Controller::get_filename_from_disposition(): `filename=` after a ";", quotes removed. */
function filenameFromDisposition(header: string): string | undefined {
  let filename: string | undefined;
  for (const raw of header.split(/,(?=\s*\w+\s*;)/)) {
    const value = raw.trim();
    if (!value.includes(';')) continue;
    const attributes: Record<string, string> = {};
    for (const part of value.slice(value.indexOf(';') + 1).split(';')) {
      const eq = part.indexOf('=');
      if (eq < 0) continue;
      attributes[part.slice(0, eq).trim()] = part.slice(eq + 1).trim();
    }
    const name = attributes.filename?.trim();
    if (!name) continue;
    filename = name.startsWith('"') && name.endsWith('"') && name.length >= 2 ? name.slice(1, -1) : name;
  }
  return filename || undefined;
}

/** Width and height of a PNG, GIF or JPEG, like getimagesize(); undefined if unreadable. */
export function imageSize(bytes: Buffer): { width: number; height: number } | undefined {
  if (bytes.length >= 24 && bytes.readUInt32BE(0) === 0x89504e47 && bytes.toString('ascii', 12, 16) === 'IHDR') {
    return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  }
  if (bytes.length >= 10 && bytes.toString('ascii', 0, 3) === 'GIF') {
    return { width: bytes.readUInt16LE(6), height: bytes.readUInt16LE(8) };
  }
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8) {
    let i = 2;
    while (i + 9 < bytes.length) {
      if (bytes[i] !== 0xff) {
        i++;
        continue;
      }
      const marker = bytes[i + 1]!;
      if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
        i += 2;
        continue;
      }
      const length = bytes.readUInt16BE(i + 2);
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return { height: bytes.readUInt16BE(i + 5), width: bytes.readUInt16BE(i + 7) };
      }
      i += 2 + length;
    }
  }
  return undefined;
}
