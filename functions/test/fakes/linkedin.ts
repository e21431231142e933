/**
 * A fake LinkedIn: a real HTTP server on 127.0.0.1 with the documented requests and answers
 * (docs/integrations.md, LinkedIn):
 *
 *   GET  /oauth/v2/authorization            checks client_id, redirect_uri, scopes; then 302 to
 *                                           redirect_uri?code=…&state=… at once (the member "approves");
 *                                           mode 'cancel': ?error=user_cancelled_authorize&error_description=…&state=…
 *   POST /oauth/v2/accessToken              form-encoded; 401 invalid_client, 400 invalid_grant / invalid_request,
 *                                           else {access_token (long), expires_in: 5184000, scope, token_type}
 *   GET  /v2/userinfo                       Bearer → {sub, name, given_name, family_name, picture, locale, email, email_verified}
 *   POST /rest/images?action=initializeUpload   → {value:{uploadUrl, uploadUrlExpiresAt, image:'urn:li:image:…'}}
 *   PUT  /upload/images/{id}                the uploadUrl: Bearer, raw bytes stored, 201
 *   GET  /rest/images/{urn}                 → {id, status: 'AVAILABLE' | 'WAITING_UPLOAD', owner, …}
 *   POST /rest/posts                        records the body; 201 with x-restli-id: urn:li:share:…; `content` is one
 *                                           of media, multiImage or article; an article share needs `source` (an
 *                                           http(s) URL) and `title`, may have `description` and `thumbnail` (an
 *                                           uploaded image of the author), else 422 INVALID_CONTENT; the
 *                                           same commentary from the same author again is refused:
 *                                           422 {message: "…Content is a duplicate of urn:li:share:…",
 *                                           errorDetails: {inputErrors: [{code: 'DUPLICATE_POST'}]}}
 *   GET  /rest/organizationAcls?q=roleAssignee[&role=…][&state=…]  → {elements:[{organization, role, state, roleAssignee}], paging}
 *        [&projection=(elements*(organization,role,…,organization~(localizedName)),paging)]: only the fields
 *                                           named (`*` all), `organization~` decorated with the page's fields;
 *                                           li.denyOrganizationNames: a decoration is refused 403 ACCESS_DENIED
 *   GET  /rest/organizations/{id}           → {id, localizedName, vanityName}
 *
 * /rest/* calls need `LinkedIn-Version: YYYYMM` and `X-Restli-Protocol-Version: 2.0.0`. Every Bearer
 * call checks the token and its scopes. Mode 'expire-tokens' makes every Bearer call answer
 * 401 {status, serviceErrorCode: 65601, code: 'REVOKED_ACCESS_TOKEN', message}.
 *
 *   const li = await startFakeLinkedIn();
 *   new HttpLinkedInClient({ oauthUrl: li.oauthUrl, apiUrl: li.apiUrl })   // oauthUrl = `${li.url}/oauth/v2`, apiUrl = li.url
 *   li.app ({clientId, clientSecret, redirectUris, scopes}), li.member, li.posts, li.images, li.issueToken(), li.setMode('cancel')
 *   li.holdAnswer = (request) => 'never' | ms | undefined   acts on the request at once (the post is
 *                                           made) but answers it late or never
 *
 * redirectUris: an empty list (the default) accepts any absolute http(s) URI without a fragment;
 * add URIs to require an exact match like the Developer Portal does. The token exchange always
 * requires the redirect_uri of the authorization request.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  bearer,
  formBody,
  holdAnswer,
  jsonBody,
  listen,
  redirect,
  safeHeaders,
  sendHtml,
  sendJson,
  type AnswerHold,
} from './http-helpers.js';
import { trackSecret } from '../helpers/secrets.js';

export interface FakeLinkedInApp {
  clientId: string;
  clientSecret: string;
  /** exact redirect URIs; empty = any absolute http(s) URI */
  redirectUris: string[];
  /** scopes the app's products grant */
  scopes: string[];
}

export interface FakeLinkedInMember {
  sub: string;
  name: string;
  givenName: string;
  familyName: string;
  email: string;
}

export interface FakeLinkedInOrganization {
  id: string;
  name: string;
  vanityName: string;
  role:
    | 'ADMINISTRATOR'
    | 'DIRECT_SPONSORED_CONTENT_POSTER'
    | 'CONTENT_ADMIN'
    | 'ANALYST'
    | 'RECRUITING_POSTER'
    | 'LEAD_GEN_FORMS_MANAGER';
  state: 'APPROVED' | 'REQUESTED' | 'REJECTED' | 'REVOKED';
}

export interface FakeLinkedInPost {
  urn: string;
  body: any;
  linkedInVersion: string;
}

export interface FakeLinkedInImage {
  urn: string;
  owner: string;
  bytes?: Buffer;
  contentType?: string;
}

export interface RecordedLinkedInRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  /** form fields (client_secret masked) or JSON body; upload bodies as {bytes} */
  body?: unknown;
}

export type FakeLinkedInMode = 'ok' | 'cancel' | 'expire-tokens' | 'down';

export interface FakeLinkedIn {
  /** base URL: API at `${url}`, OAuth at `${url}/oauth/v2` */
  url: string;
  oauthUrl: string;
  apiUrl: string;
  app: FakeLinkedInApp;
  member: FakeLinkedInMember;
  organizations: FakeLinkedInOrganization[];
  posts: FakeLinkedInPost[];
  images: FakeLinkedInImage[];
  requests: RecordedLinkedInRequest[];
  readonly mode: FakeLinkedInMode;
  setMode(mode: FakeLinkedInMode): void;
  /** A valid access token for the member without the OAuth dance (default: all app scopes). */
  issueToken(scopes?: string[]): string;
  /** Makes one token answer 401 INVALID_ACCESS_TOKEN from now on. */
  revokeToken(token: string): void;
  /**
   * Called for each request: an AnswerHold makes the fake act on the request at once (a post is
   * made) but answer it that much later, or never. Cleared by reset().
   */
  holdAnswer?: (request: RecordedLinkedInRequest) => AnswerHold | undefined;
  /** Refuse organizationAcls calls whose projection decorates `organization~` (403), as for a token that may not read the page. Cleared by reset(). */
  denyOrganizationNames: boolean;
  reset(): void;
  stop(): Promise<void>;
}

export const FAKE_LINKEDIN_SCOPES = [
  'openid',
  'profile',
  'email',
  'w_member_social',
  'w_organization_social',
  'r_organization_admin',
  'rw_organization_admin',
];

interface Grant {
  redirectUri: string;
  scopes: string[];
  clientId: string;
  expiresAt: number;
  used: boolean;
}

interface Token {
  scopes: string[];
  expiresAt: number;
  revoked: boolean;
}

export async function startFakeLinkedIn(
  options: {
    app?: Partial<FakeLinkedInApp>;
    member?: Partial<FakeLinkedInMember>;
    organizations?: FakeLinkedInOrganization[];
  } = {},
): Promise<FakeLinkedIn> {
  const app: FakeLinkedInApp = {
    clientId: '86fakeclientid',
    clientSecret: 'WPL_AP1.fakeLinkedInSecret.0123456789',
    redirectUris: [],
    scopes: [...FAKE_LINKEDIN_SCOPES],
    ...options.app,
  };
  trackSecret(app.clientSecret, 'LinkedIn client secret (fake)');
  const member: FakeLinkedInMember = {
    sub: 'Ab1Cd2Ef3G',
    name: 'Lena Linked',
    givenName: 'Lena',
    familyName: 'Linked',
    email: 'lena@example.com',
    ...options.member,
  };
  const organizations = options.organizations ?? [
    { id: '2414183', name: 'Example GmbH', vanityName: 'example-gmbh', role: 'ADMINISTRATOR', state: 'APPROVED' },
    { id: '5550001', name: 'Friends Club', vanityName: 'friends-club', role: 'ANALYST', state: 'APPROVED' },
  ];
  let mode: FakeLinkedInMode = 'ok';
  const codes = new Map<string, Grant>();
  const tokens = new Map<string, Token>();
  const posts: FakeLinkedInPost[] = [];
  const images: FakeLinkedInImage[] = [];
  const requests: RecordedLinkedInRequest[] = [];
  let base = '';

  const issueToken = (scopes: string[] = app.scopes) => {
    const token = `AQ${randomBytes(260).toString('base64url')}`; // ~350 characters, like LinkedIn's ~500
    trackSecret(token, 'LinkedIn access token (issued by the fake)');
    tokens.set(token, { scopes, expiresAt: Date.now() + 5_184_000_000, revoked: false });
    return token;
  };

  const apiError = (res: ServerResponse, status: number, code: string, message: string, serviceErrorCode?: number) =>
    sendJson(res, status, { status, ...(serviceErrorCode !== undefined ? { serviceErrorCode } : {}), code, message });

  /** The token's grant, or undefined after answering 401. */
  function authorize(req: IncomingMessage, res: ServerResponse): Token | undefined {
    const token = bearer(req);
    if (mode === 'expire-tokens' && token) {
      apiError(res, 401, 'REVOKED_ACCESS_TOKEN', 'The token used in the request has been revoked by the user', 65601);
      return undefined;
    }
    const grant = token ? tokens.get(token) : undefined;
    if (!grant || grant.revoked) {
      apiError(res, 401, 'INVALID_ACCESS_TOKEN', 'Invalid access token', 65600);
      return undefined;
    }
    if (grant.expiresAt <= Date.now()) {
      apiError(res, 401, 'EXPIRED_ACCESS_TOKEN', 'The token used in the request has expired', 65602);
      return undefined;
    }
    return grant;
  }

  function versioned(req: IncomingMessage, res: ServerResponse): string | undefined {
    const version = req.headers['linkedin-version'];
    if (typeof version !== 'string' || !/^\d{6}(\.\d{2})?$/.test(version)) {
      apiError(
        res,
        400,
        'VERSION_MISSING',
        'A version must be present. Please specify a version by adding the LinkedIn-Version header.',
      );
      return undefined;
    }
    if (req.headers['x-restli-protocol-version'] !== '2.0.0') {
      apiError(res, 400, 'INVALID_PROTOCOL_VERSION', 'X-Restli-Protocol-Version 2.0.0 is required for this request.');
      return undefined;
    }
    return version;
  }

  /** May this grant act as `author`? person → w_member_social; organization → w_organization_social + an approved posting role. */
  function mayAct(grant: Token, author: unknown): string | undefined {
    if (author === `urn:li:person:${member.sub}`) {
      return grant.scopes.includes('w_member_social') ? undefined : 'w_member_social';
    }
    const orgId = typeof author === 'string' ? /^urn:li:organization:(\d+)$/.exec(author)?.[1] : undefined;
    const org = organizations.find((o) => o.id === orgId);
    if (
      !org ||
      org.state !== 'APPROVED' ||
      !['ADMINISTRATOR', 'DIRECT_SPONSORED_CONTENT_POSTER', 'CONTENT_ADMIN'].includes(org.role)
    ) {
      return 'author';
    }
    return grant.scopes.includes('w_organization_social') ? undefined : 'w_organization_social';
  }

  const server = await listen((req, res, raw, url) => {
    const method = req.method ?? 'GET';
    const record: RecordedLinkedInRequest = { method, path: req.url ?? '/', headers: safeHeaders(req) };
    requests.push(record);
    const hold = fake.holdAnswer?.(record);
    if (hold !== undefined) holdAnswer(res, hold);
    if (mode === 'down') return sendHtml(res, 503, '<html><body>Service Unavailable</body></html>');
    const path = url.pathname;

    // ---- OAuth ----
    if (path === '/oauth/v2/authorization' && method === 'GET') {
      const q = url.searchParams;
      const clientId = q.get('client_id');
      const redirectUri = q.get('redirect_uri') ?? '';
      if (clientId !== app.clientId)
        return sendHtml(
          res,
          400,
          '<html><body><h1>Bummer, something went wrong.</h1><p>Invalid client_id</p></body></html>',
        );
      if (!validRedirect(redirectUri, app.redirectUris)) {
        return sendHtml(
          res,
          400,
          '<html><body><h1>Bummer, something went wrong.</h1><p>The redirect_uri does not match the registered value</p></body></html>',
        );
      }
      const target = new URL(redirectUri);
      const state = q.get('state');
      const answer = (params: Record<string, string>) => {
        for (const [k, v] of Object.entries(params)) target.searchParams.set(k, v);
        if (state !== null) target.searchParams.set('state', state);
        return redirect(res, target.toString());
      };
      if (q.get('response_type') !== 'code') {
        return answer({ error: 'invalid_request', error_description: 'The response_type parameter must be code' });
      }
      const scopes = (q.get('scope') ?? '').split(/[\s,]+/).filter(Boolean);
      const unknown = scopes.find((s) => !app.scopes.includes(s));
      if (scopes.length === 0 || unknown) {
        return answer({
          error: 'unauthorized_scope_error',
          error_description: `Scope "${unknown ?? ''}" is not authorized for your application`,
        });
      }
      if (mode === 'cancel') {
        return answer({ error: 'user_cancelled_authorize', error_description: 'The user cancelled the authorization' });
      }
      const code = `AQT${randomBytes(48).toString('base64url')}`;
      trackSecret(code, 'LinkedIn authorization code (issued by the fake)');
      codes.set(code, { redirectUri, scopes, clientId, expiresAt: Date.now() + 30 * 60_000, used: false });
      return answer({ code });
    }
    if (path === '/oauth/v2/accessToken' && method === 'POST') {
      const form = formBody(req, raw);
      record.body = {
        ...form,
        ...(form.client_secret ? { client_secret: '***' } : {}),
        ...(form.code ? { code: '***' } : {}),
      };
      if (form.client_id !== app.clientId || form.client_secret !== app.clientSecret) {
        return sendJson(res, 401, { error: 'invalid_client', error_description: 'Client authentication failed' });
      }
      if (form.grant_type !== 'authorization_code') {
        return sendJson(res, 400, {
          error: 'unsupported_grant_type',
          error_description: 'The provided grant_type is not supported',
        });
      }
      if (!form.redirect_uri) {
        return sendJson(res, 400, {
          error: 'invalid_request',
          error_description: 'A required parameter "redirect_uri" is missing',
        });
      }
      const grant = form.code ? codes.get(form.code) : undefined;
      if (!grant || grant.used || grant.expiresAt <= Date.now()) {
        return sendJson(res, 400, {
          error: 'invalid_grant',
          error_description: 'The provided authorization grant or refresh token is invalid, expired or revoked.',
        });
      }
      if (grant.redirectUri !== form.redirect_uri || grant.clientId !== form.client_id) {
        return sendJson(res, 400, {
          error: 'invalid_request',
          error_description:
            'Unable to retrieve access token: appid/redirect uri/code verifier does not match authorization code. Or authorization code expired. Or external member binding exists',
        });
      }
      grant.used = true;
      const accessToken = issueToken(grant.scopes);
      return sendJson(res, 200, {
        access_token: accessToken,
        expires_in: 5_184_000,
        scope: grant.scopes.join(','),
        token_type: 'Bearer',
      });
    }

    // ---- API ----
    if (path === '/v2/userinfo' && method === 'GET') {
      const grant = authorize(req, res);
      if (!grant) return;
      if (!grant.scopes.includes('openid'))
        return apiError(res, 403, 'ACCESS_DENIED', 'Not enough permissions to access: userinfo.GET.NO_VERSION', 100);
      return sendJson(res, 200, {
        sub: member.sub,
        ...(grant.scopes.includes('profile')
          ? {
              name: member.name,
              given_name: member.givenName,
              family_name: member.familyName,
              picture: `${base}/media/${member.sub}.jpg`,
              locale: { country: 'DE', language: 'de' },
            }
          : {}),
        ...(grant.scopes.includes('email') ? { email: member.email, email_verified: true } : {}),
      });
    }
    if (path === '/rest/images' && method === 'POST' && url.searchParams.get('action') === 'initializeUpload') {
      const grant = authorize(req, res);
      if (!grant) return;
      if (!versioned(req, res)) return;
      const body = jsonBody(raw);
      record.body = body;
      const owner = body?.initializeUploadRequest?.owner;
      if (typeof owner !== 'string') {
        return apiError(
          res,
          422,
          'FIELD_REQUIRED',
          '/initializeUploadRequest/owner :: field is required but not found and has no default value',
        );
      }
      const missing = mayAct(grant, owner);
      if (missing)
        return apiError(
          res,
          403,
          'ACCESS_DENIED',
          `Not enough permissions to access: images.action.NO_VERSION (${missing})`,
          100,
        );
      const id = `D4E${randomBytes(9).toString('hex')}`;
      const image: FakeLinkedInImage = { urn: `urn:li:image:${id}`, owner };
      images.push(image);
      return sendJson(res, 200, {
        value: {
          uploadUrlExpiresAt: Date.now() + 86_400_000,
          uploadUrl: `${base}/upload/images/${id}?ca=vector_feedshare&cn=uploads`,
          image: image.urn,
        },
      });
    }
    const uploadMatch = /^\/upload\/images\/([A-Za-z0-9]+)$/.exec(path);
    if (uploadMatch && (method === 'PUT' || method === 'POST')) {
      const grant = authorize(req, res);
      if (!grant) return;
      const image = images.find((i) => i.urn === `urn:li:image:${uploadMatch[1]}`);
      if (!image) return apiError(res, 404, 'NOT_FOUND', 'Upload URL not found');
      record.body = { bytes: raw.length };
      if (raw.length === 0) return apiError(res, 400, 'EMPTY_UPLOAD', 'The upload body is empty');
      image.bytes = raw;
      image.contentType = req.headers['content-type'] ?? 'application/octet-stream';
      res.writeHead(201, { 'Content-Length': 0 });
      return res.end();
    }
    const imageMatch = /^\/rest\/images\/(.+)$/.exec(path);
    if (imageMatch && method === 'GET') {
      const grant = authorize(req, res);
      if (!grant) return;
      if (!versioned(req, res)) return;
      const image = images.find((i) => i.urn === decodeURIComponent(imageMatch[1]!));
      if (!image) return apiError(res, 404, 'NOT_FOUND', 'Image not found');
      return sendJson(res, 200, {
        id: image.urn,
        owner: image.owner,
        status: image.bytes ? 'AVAILABLE' : 'WAITING_UPLOAD',
        ...(image.bytes ? { downloadUrl: `${base}/media/${encodeURIComponent(image.urn)}` } : {}),
      });
    }
    if (path === '/rest/posts' && method === 'POST') {
      const grant = authorize(req, res);
      if (!grant) return;
      const version = versioned(req, res);
      if (!version) return;
      const body = jsonBody(raw);
      record.body = body;
      if (!body || typeof body !== 'object')
        return apiError(res, 400, 'INVALID_JSON', 'Request body is not valid JSON');
      for (const field of ['author', 'commentary', 'visibility', 'distribution', 'lifecycleState']) {
        if (body[field] === undefined) {
          return apiError(
            res,
            422,
            'FIELD_REQUIRED',
            `/${field} :: field is required but not found and has no default value`,
          );
        }
      }
      const missing = mayAct(grant, body.author);
      if (missing)
        return apiError(
          res,
          403,
          'ACCESS_DENIED',
          `Not enough permissions to access: partnerApiPostsExternal.CREATE.${version} (${missing})`,
          100,
        );
      const contentProblem = articleShareProblem(body.content);
      if (contentProblem) return apiError(res, 422, 'INVALID_CONTENT', contentProblem);
      const thumbnail = body.content?.article?.thumbnail;
      if (thumbnail !== undefined) {
        const image = images.find((i) => i.urn === thumbnail);
        if (!image || !image.bytes)
          return apiError(
            res,
            400,
            'INVALID_CONTENT',
            `/content/article/thumbnail :: ${String(thumbnail)} is not an uploaded image`,
          );
        if (image.owner !== body.author)
          return apiError(
            res,
            400,
            'INVALID_CONTENT',
            `/content/article/thumbnail :: ${String(thumbnail)} is owned by ${image.owner}, not the author`,
          );
      }
      const mediaIds: unknown[] = [
        ...(body.content?.media?.id ? [body.content.media.id] : []),
        ...(Array.isArray(body.content?.multiImage?.images)
          ? body.content.multiImage.images.map((i: { id?: unknown }) => i?.id)
          : []),
      ];
      for (const id of mediaIds) {
        const image = images.find((i) => i.urn === id);
        if (!image || !image.bytes)
          return apiError(res, 400, 'INVALID_CONTENT', `/content/media/id :: ${String(id)} is not an uploaded image`);
        if (image.owner !== body.author)
          return apiError(
            res,
            400,
            'INVALID_CONTENT',
            `/content/media/id :: ${String(id)} is owned by ${image.owner}, not the author`,
          );
      }
      const same = posts.find((p) => p.body.author === body.author && p.body.commentary === body.commentary);
      if (same) {
        return sendJson(res, 422, {
          errorDetailType: 'com.linkedin.common.error.BadRequest',
          message: `com.linkedin.content.common.exception.BadRequestResponseException: Content is a duplicate of ${same.urn}`,
          errorDetails: {
            inputErrors: [{ description: 'Duplicate post is detected', input: {}, code: 'DUPLICATE_POST' }],
          },
          status: 422,
        });
      }
      const urn = `urn:li:share:${7_300_000_000_000_000_000n + BigInt(posts.length + 1) * 7919n}`;
      posts.push({ urn, body, linkedInVersion: version });
      res.writeHead(201, { 'x-restli-id': urn, 'Content-Length': 0 });
      return res.end();
    }
    if (path === '/rest/organizationAcls' && method === 'GET') {
      const grant = authorize(req, res);
      if (!grant) return;
      if (!versioned(req, res)) return;
      if (url.searchParams.get('q') !== 'roleAssignee')
        return apiError(res, 400, 'ILLEGAL_ARGUMENT', 'Invalid finder: q must be roleAssignee');
      if (
        !grant.scopes.some((s) =>
          ['r_organization_admin', 'rw_organization_admin', 'r_organization_social', 'w_organization_social'].includes(
            s,
          ),
        )
      ) {
        return apiError(
          res,
          403,
          'ACCESS_DENIED',
          'Not enough permissions to access: organizationAcls.FINDER-roleAssignee',
          100,
        );
      }
      const role = url.searchParams.get('role');
      const state = url.searchParams.get('state');
      const projectionParam = url.searchParams.get('projection');
      const projection = projectionParam === null ? undefined : parseProjection(projectionParam);
      if (projection === null) return apiError(res, 400, 'ILLEGAL_ARGUMENT', `Invalid projection: ${projectionParam}`);
      const elementFields = projection?.get('elements');
      if (fake.denyOrganizationNames && elementFields?.has('organization~'))
        return apiError(res, 403, 'ACCESS_DENIED', 'Not enough permissions to access: organizations.BATCH_GET', 100);
      const elements = organizations
        .filter((o) => (!role || o.role === role) && (!state || o.state === state))
        .map((o) => ({
          roleAssignee: `urn:li:person:${member.sub}`,
          state: o.state,
          role: o.role,
          organization: `urn:li:organization:${o.id}`,
          created: { actor: `urn:li:person:${member.sub}`, time: 1_700_000_000_000 },
          lastModified: { actor: `urn:li:person:${member.sub}`, time: 1_700_000_000_000 },
          'organization~': { id: Number(o.id), localizedName: o.name, vanityName: o.vanityName },
        }));
      const body = {
        paging: { start: 0, count: 10, links: [], total: elements.length },
        elements: elements.map(({ 'organization~': _page, ...element }) => element),
      };
      if (!projection) return sendJson(res, 200, body);
      return sendJson(res, 200, {
        ...(projection.has('paging') ? { paging: body.paging } : {}),
        ...(elementFields ? { elements: elements.map((element) => project(element, elementFields)) } : {}),
      });
    }
    const orgMatch = /^\/rest\/organizations\/(\d+)$/.exec(path);
    if (orgMatch && method === 'GET') {
      const grant = authorize(req, res);
      if (!grant) return;
      if (!versioned(req, res)) return;
      const org = organizations.find((o) => o.id === orgMatch[1]);
      if (!org) return apiError(res, 404, 'NOT_FOUND', 'Organization not found');
      return sendJson(res, 200, { id: Number(org.id), localizedName: org.name, vanityName: org.vanityName });
    }
    return apiError(res, 404, 'RESOURCE_NOT_FOUND', `No virtual resource found for ${method} ${path}`);
  });
  base = server.url;

  const fake: FakeLinkedIn = {
    url: base,
    oauthUrl: `${base}/oauth/v2`,
    apiUrl: base,
    app,
    member,
    organizations,
    posts,
    images,
    requests,
    get mode() {
      return mode;
    },
    setMode(next) {
      mode = next;
    },
    issueToken,
    revokeToken(token) {
      const t = tokens.get(token);
      if (t) t.revoked = true;
    },
    denyOrganizationNames: false,
    reset() {
      mode = 'ok';
      delete fake.holdAnswer;
      fake.denyOrganizationNames = false;
      posts.length = 0;
      images.length = 0;
      requests.length = 0;
    },
    stop: server.stop,
  };
  return fake;
}

/**
 * A Rest.li projection such as `(elements*(organization,role,organization~(localizedName)),paging)`: each field
 * named, with the fields projected inside it (undefined: all); null when it does not parse.
 */
type Projection = Map<string, Projection | undefined>;
function parseProjection(text: string): Projection | null {
  let at = 0;
  const fields = (): Projection | null => {
    if (text[at] !== '(') return null;
    at++;
    const result: Projection = new Map();
    for (;;) {
      const name = /^[A-Za-z*][\w]*~?/.exec(text.slice(at))?.[0];
      if (!name) return null;
      at += name.length;
      if (text[at] === '*') at++; // `elements*(…)`: the fields of each element
      let inner: Projection | undefined;
      if (text[at] === '(') {
        const parsed = fields();
        if (!parsed) return null;
        inner = parsed;
      }
      result.set(name, inner);
      if (text[at] === ',') at++;
      else if (text[at] === ')') {
        at++;
        return result;
      } else return null;
    }
  };
  const projection = fields();
  return projection && at === text.length ? projection : null;
}

/** The fields of `value` a projection names (`*`: all of them, decorations only when named). */
function project(value: Record<string, unknown>, projection: Projection): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    const named = projection.has(key);
    if (!named && !(projection.has('*') && !key.endsWith('~'))) continue;
    const inner = named ? projection.get(key) : undefined;
    result[key] =
      inner && field && typeof field === 'object' ? project(field as Record<string, unknown>, inner) : field;
  }
  return result;
}

function validRedirect(uri: string, registered: string[]): boolean {
  if (registered.length > 0) return registered.includes(uri);
  try {
    const url = new URL(uri);
    return (url.protocol === 'http:' || url.protocol === 'https:') && !uri.includes('#');
  } catch {
    return false;
  }
}

/**
 * What is wrong with a post's `content` as the Posts API takes it (one kind of content; an article share's `source`
 * an http(s) address, `title` a text, `description` a text when given, `thumbnail` an image URN when given), or
 * undefined.
 */
function articleShareProblem(content: unknown): string | undefined {
  if (content === undefined) return undefined;
  if (!content || typeof content !== 'object') return '/content :: must be a record';
  const kinds = ['media', 'multiImage', 'article', 'poll', 'celebration'].filter(
    (k) => (content as Record<string, unknown>)[k] !== undefined,
  );
  if (kinds.length !== 1) return `/content :: exactly one content type is allowed, found ${kinds.join(', ') || 'none'}`;
  const article = (content as { article?: unknown }).article;
  if (article === undefined) return undefined;
  if (!article || typeof article !== 'object') return '/content/article :: must be a record';
  const { source, title, description, thumbnail } = article as Record<string, unknown>;
  if (typeof source !== 'string' || !/^https?:\/\/[^\s]+$/i.test(source))
    return `/content/article/source :: ${String(source)} is not a valid URL`;
  if (typeof title !== 'string' || !title.trim())
    return '/content/article/title :: field is required but not found and has no default value';
  if (description !== undefined && typeof description !== 'string')
    return '/content/article/description :: must be a string';
  if (thumbnail !== undefined && (typeof thumbnail !== 'string' || !/^urn:li:image:/.test(thumbnail)))
    return `/content/article/thumbnail :: ${String(thumbnail)} is not an image URN`;
  return undefined;
}
