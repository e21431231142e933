/**
 * Publishing to LinkedIn with the versioned Posts and Images APIs (docs/integrations.md, LinkedIn).
 *
 *   image:  POST /rest/images?action=initializeUpload {initializeUploadRequest:{owner: author}}
 *           → PUT the bytes to value.uploadUrl (Bearer, one request)
 *           → GET /rest/images/{urn} until AVAILABLE (processing is asynchronous)
 *   post:   POST /rest/posts {author, commentary, visibility, distribution, lifecycleState,
 *           isReshareDisabledByAuthor, content?: {media: {id: imageUrn}}
 *           | {article: {source, title, description?, thumbnail?: imageUrn}}}  (an article share: a bundle's blog post)
 *           → 201, the post URN in the `x-restli-id` header
 *           → URL https://www.linkedin.com/feed/update/{urn}
 *   pages:  GET /rest/organizationAcls?q=roleAssignee&state=APPROVED
 *           names:  …&projection=(elements*(organization,role,state,organization~(localizedName)),paging)
 *           (the page's name decorated onto its role, readable with r_organization_admin)
 *
 * Every /rest call sends `LinkedIn-Version` (configuration, linkedin-version.ts) and
 * `X-Restli-Protocol-Version: 2.0.0`. The commentary is escaped for the "little" format and cut to
 * 3000 characters after escaping (linkedInCommentary, shared/src/little-text.ts, which the editor's
 * LinkedIn preview shows too). The base URL comes from config
 * (LINKEDIN_API_URL), so it is not a user-given address and needs no private-address check; the
 * upload URL LinkedIn hands out must be https (or on the API's own origin, as with the fake) since
 * it receives the access token.
 *
 * Never two posts: LinkedIn refuses a post whose text the author posted already (422,
 * `errorDetails.inputErrors[].code` DUPLICATE_POST, "Content is a duplicate of urn:li:share:…"),
 * and that post is the answer. `run.beforeCreate` is told the post exactly as it is about to be
 * sent; an attempt that may have created it (cut off, or no answer) is followed by `resend` of that
 * same post (same text, same image), which LinkedIn creates, or refuses naming the one it has.
 * (A member's own posts cannot be listed with w_member_social, so they cannot be looked up.) All
 * requests of one publish share `run.deadline`; the image status polls stop early enough to post.
 *
 * Error codes (IntegrationError.code):
 *   linkedin_token_invalid   401 anywhere (invalid, revoked or expired token): reconnect
 *   linkedin_forbidden       403: missing w_member_social / w_organization_social, not a page admin
 *   linkedin_rate_limited    429: the app's or member's daily limit
 *   linkedin_unreachable     network failure, timeout or 5xx
 *   linkedin_image_failed    LinkedIn could not process the uploaded image
 *   linkedin_duplicate       refused as a duplicate without naming the post that is there
 *   linkedin_error           anything else LinkedIn refused
 *   publish_timeout          the publish's deadline passed (IntegrationError.outcome says
 *                            whether the post may exist)
 */
import * as z from 'zod/mini';
import { lazySchema, linkedInCommentary, withFallback } from '@app/shared';
import {
  IntegrationError,
  type LinkedInPostInput,
  type LinkedInPublisher,
  type LinkedInSentPost,
  type PublishOutcome,
  type PublishRun,
} from '../../domain/integrations.js';
import { LINKEDIN_TOKEN_INVALID_MESSAGE } from './client.js';
import { LINKEDIN_API_VERSION } from './version.js';

export { LINKEDIN_API_VERSION } from './version.js';
export const LINKEDIN_POST_URL_PREFIX = 'https://www.linkedin.com/feed/update/';

/** A request with less time than this left before the deadline is not started. */
export const MIN_REQUEST_MS = 1_000;
/** Time kept for the post itself: image status polls end this long before the deadline. */
export const POST_RESERVE_MS = 5_000;

/** organizationAcls roles that may post as the page (w_organization_social), best first. */
export const LINKEDIN_POSTING_ROLES = [
  'ADMINISTRATOR',
  'CONTENT_ADMINISTRATOR',
  'CONTENT_ADMIN',
  'DIRECT_SPONSORED_CONTENT_POSTER',
] as const;

export interface HttpLinkedInPublisherOptions {
  /** LINKEDIN_API_URL, default https://api.linkedin.com */
  apiUrl: string;
  /** LinkedIn-Version header, YYYYMM (default LINKEDIN_API_VERSION; LINKEDIN_API_VERSION in the environment). */
  version?: string;
  /** Per request (default 30 000 ms). */
  timeoutMs?: number;
  /** Keep `#hashtag` clickable in the commentary (default true; see shared/src/little-text.ts). */
  keepHashtags?: boolean;
  /** How long to wait for an uploaded image to become AVAILABLE (default 15 000 ms). */
  imageReadyTimeoutMs?: number;
  /** Pause between image status checks (default 1 000 ms). */
  imagePollMs?: number;
  /**
   * When the image status cannot be read (a member token with only w_member_social may not read
   * it), wait this long before posting instead (default 3 000 ms).
   */
  imageGraceMs?: number;
}

/** A field LinkedIn may leave out or send in another type: then it counts as missing. */
const text = lazySchema(() => withFallback(z.optional(z.string()), undefined));

/**
 * An answer LinkedIn refused with: `message`, and `errorDetails` (searched for "duplicate" as a
 * whole, toError) whose `inputErrors[].code` DUPLICATE_POST says the author posted this already.
 */
const ErrorAnswer = lazySchema(() => z.object({ message: text(), errorDetails: z.optional(z.unknown()) }));
const InputErrors = lazySchema(() =>
  withFallback(z.object({ inputErrors: withFallback(z.array(withFallback(z.object({ code: text() }), {})), []) }), {
    inputErrors: [],
  }),
);

/** POST /rest/posts: the post's URN is the `x-restli-id` header, else `id` of the body. */
const CreatedPost = lazySchema(() => z.object({ id: text() }));
const PostUrn = lazySchema(() => z.string().check(z.regex(/^urn:li:[A-Za-z]+:.+/)));

/** POST /rest/images?action=initializeUpload: where to PUT the bytes, and the image's URN. */
const InitializeUploadAnswer = lazySchema(() =>
  z.object({ value: withFallback(z.object({ uploadUrl: text(), image: text() }), {}) }),
);

/** GET /rest/images/{urn}: `status` AVAILABLE, PROCESSING, PROCESSING_FAILED, … */
const ImageAnswer = lazySchema(() => z.object({ status: text() }));

/**
 * One role of the member on a page; an element that is not one (or has a state of another type) is skipped.
 * `organization~` is the page itself when the projection decorates it (its name, when asked for).
 */
const OrganizationAcl = lazySchema(() =>
  z.object({
    organization: z.string(),
    role: z.string(),
    state: z.optional(z.string()),
    'organization~': withFallback(z.optional(z.object({ localizedName: text() })), undefined),
  }),
);

/** Rest.li projection for the roles with each page's localized name (sent unencoded, as LinkedIn documents it). */
const ACLS_WITH_NAMES_PROJECTION = '(elements*(organization,role,state,organization~(localizedName)),paging)';
/** GET /rest/organizationAcls: one page of roles (`paging.total` is the count of all pages' elements). */
const OrganizationAclsAnswer = lazySchema(() =>
  z.object({
    elements: withFallback(z.array(withFallback(z.nullable(OrganizationAcl()), null)), []),
    paging: withFallback(z.object({ total: withFallback(z.optional(z.number()), undefined) }), {}),
  }),
);

interface Answer {
  status: number;
  /** The body when it is a JSON object, else `{}`: read it with one of the schemas above. */
  json: Record<string, unknown>;
  headers: Headers;
}

type Step = 'image' | 'upload' | 'post' | 'organizations';
type Deadline = number | undefined;

export class HttpLinkedInPublisher implements LinkedInPublisher {
  private readonly apiUrl: string;
  private readonly version: string;
  private readonly timeoutMs: number;
  private readonly keepHashtags: boolean;
  private readonly imageReadyTimeoutMs: number;
  private readonly imagePollMs: number;
  private readonly imageGraceMs: number;

  constructor(options: HttpLinkedInPublisherOptions) {
    this.apiUrl = options.apiUrl.replace(/\/+$/, '');
    this.version = options.version ?? LINKEDIN_API_VERSION;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.keepHashtags = options.keepHashtags ?? true;
    this.imageReadyTimeoutMs = options.imageReadyTimeoutMs ?? 15_000;
    this.imagePollMs = options.imagePollMs ?? 1_000;
    this.imageGraceMs = options.imageGraceMs ?? 3_000;
  }

  async publish(
    input: LinkedInPostInput,
    run: PublishRun<LinkedInSentPost> = {},
  ): Promise<{ urn: string; url: string }> {
    const { accessToken, author } = input;
    let imageUrn: string | undefined;
    if (input.image) imageUrn = await this.uploadImage(accessToken, author, input.image, run.deadline);
    const post: LinkedInSentPost = {
      author,
      commentary: linkedInCommentary(input.commentary, { keepHashtags: this.keepHashtags }),
      ...(imageUrn ? { imageUrn } : {}),
      ...(input.article ? { article: input.article } : {}),
    };
    return this.send(accessToken, post, run, false);
  }

  async resend(
    accessToken: string,
    post: LinkedInSentPost,
    run: PublishRun<LinkedInSentPost> = {},
  ): Promise<{ urn: string; url: string }> {
    return this.send(accessToken, post, run, true);
  }

  /** POST /rest/posts; a duplicate of a post that is there answers that post. */
  private async send(
    accessToken: string,
    post: LinkedInSentPost,
    run: PublishRun<LinkedInSentPost>,
    again: boolean,
  ): Promise<{ urn: string; url: string }> {
    const body = {
      author: post.author,
      commentary: post.commentary,
      visibility: 'PUBLIC',
      distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
      ...postContent(post),
      lifecycleState: 'PUBLISHED',
      isReshareDisabledByAuthor: false,
    };
    await run.beforeCreate?.(post);
    const answer = await this.call(
      `${this.apiUrl}/rest/posts`,
      { method: 'POST', headers: this.headers(accessToken, true), body: JSON.stringify(body) },
      run.deadline,
      again ? 'create-again' : 'create',
    );
    const duplicateOf = duplicateUrn(answer);
    if (duplicateOf) return { urn: duplicateOf, url: `${LINKEDIN_POST_URL_PREFIX}${duplicateOf}` };
    if (answer.status !== 201 && answer.status !== 200) {
      const error = toError(answer, 'post', post.author);
      // A server error may come after the post was made. A refusal of the content says that no post
      // with this content was made, this time or before; a refused token or a limit says nothing
      // about an earlier attempt of the same post.
      const outcome: PublishOutcome | undefined =
        answer.status >= 500
          ? 'unknown'
          : !again || answer.status === 400 || answer.status === 422
            ? 'not-created'
            : undefined;
      throw outcome
        ? new IntegrationError(
            outcome === 'unknown' ? `${error.message} ${SENT_AGAIN}` : error.message,
            error.code,
            error.status,
            outcome,
          )
        : error;
    }
    const urn = PostUrn().safeParse(answer.headers.get('x-restli-id') ?? CreatedPost().parse(answer.json).id);
    if (!urn.success) {
      throw new IntegrationError(
        `LinkedIn accepted the post (HTTP ${answer.status}) but did not say which post it created. Check your LinkedIn feed, or publish again to record it: the same post is sent again, which LinkedIn does not take twice.`,
        'linkedin_error',
        answer.status,
        'unknown',
      );
    }
    return { urn: urn.data, url: `${LINKEDIN_POST_URL_PREFIX}${urn.data}` };
  }

  async administeredOrganizations(
    accessToken: string,
    run: Pick<PublishRun<never>, 'deadline'> = {},
    options: { names?: boolean } = {},
  ): Promise<{ urn: string; role: string; name?: string }[]> {
    const best = new Map<string, string>();
    const names = new Map<string, string>();
    const rank = (role: string) => (LINKEDIN_POSTING_ROLES as readonly string[]).indexOf(role);
    const count = 100;
    for (let start = 0, page = 0; page < 20; page++) {
      const query = new URLSearchParams({
        q: 'roleAssignee',
        state: 'APPROVED',
        start: String(start),
        count: String(count),
      });
      const projection = options.names ? `&projection=${ACLS_WITH_NAMES_PROJECTION}` : '';
      const answer = await this.call(
        `${this.apiUrl}/rest/organizationAcls?${query}${projection}`,
        { headers: this.headers(accessToken, false) },
        run.deadline,
        'other',
      );
      if (answer.status !== 200) throw toError(answer, 'organizations');
      const { elements, paging } = OrganizationAclsAnswer().parse(answer.json);
      for (const element of elements) {
        if (!element) continue;
        const { organization, role, state } = element;
        if (state !== undefined && state !== 'APPROVED') continue;
        if (rank(role) < 0) continue;
        const name = element['organization~']?.localizedName?.trim();
        if (name) names.set(organization, name);
        const current = best.get(organization);
        if (current === undefined || rank(role) < rank(current)) best.set(organization, role);
      }
      const total = paging.total;
      start += elements.length;
      if (elements.length === 0 || total === undefined || start >= total) break;
    }
    return [...best]
      .map(([urn, role]) => ({ urn, role, ...(names.has(urn) ? { name: names.get(urn)! } : {}) }))
      .sort((a, b) => rank(a.role) - rank(b.role));
  }

  private headers(accessToken: string, json: boolean): Record<string, string> {
    return {
      Authorization: `Bearer ${accessToken}`,
      'LinkedIn-Version': this.version,
      'X-Restli-Protocol-Version': '2.0.0',
      Accept: 'application/json',
      ...(json ? { 'Content-Type': 'application/json' } : {}),
    };
  }

  /** The three Images API steps; returns the image URN. */
  private async uploadImage(
    accessToken: string,
    owner: string,
    image: { bytes: Buffer; contentType: string },
    deadline: Deadline,
  ): Promise<string> {
    const init = await this.call(
      `${this.apiUrl}/rest/images?action=initializeUpload`,
      {
        method: 'POST',
        headers: this.headers(accessToken, true),
        body: JSON.stringify({ initializeUploadRequest: { owner } }),
      },
      deadline,
      'other',
    );
    if (init.status !== 200 && init.status !== 201) throw toError(init, 'image', owner);
    const { uploadUrl, image: imageUrn } = InitializeUploadAnswer().parse(init.json).value;
    if (uploadUrl === undefined || imageUrn === undefined || !this.trustedUploadUrl(uploadUrl)) {
      throw new IntegrationError(
        'LinkedIn did not return a usable image upload address. Try again later.',
        'linkedin_error',
        init.status,
      );
    }

    const put = await this.call(
      uploadUrl,
      {
        method: 'PUT',
        headers: {
          Authorization: `Bearer ${accessToken}`,
          'Content-Type': image.contentType || 'application/octet-stream',
        },
        body: new Uint8Array(image.bytes),
      },
      deadline,
      'other',
    );
    if (put.status < 200 || put.status >= 300) throw toError(put, 'upload', owner);

    await this.waitForImage(accessToken, imageUrn, deadline);
    return imageUrn;
  }

  /**
   * Polls the image until AVAILABLE; a status it may not read means waiting the grace period. Both
   * end POST_RESERVE_MS before the publish's deadline: then the post is sent (LinkedIn says if the
   * image is not ready).
   */
  private async waitForImage(accessToken: string, imageUrn: string, publishDeadline: Deadline): Promise<void> {
    const postBy = publishDeadline === undefined ? Infinity : publishDeadline - POST_RESERVE_MS;
    const deadline = Math.min(Date.now() + this.imageReadyTimeoutMs, postBy);
    for (;;) {
      if (Date.now() + MIN_REQUEST_MS > postBy) return;
      let answer: Answer;
      try {
        // A status that does not come before it is time to post is not waited for.
        answer = await this.call(
          `${this.apiUrl}/rest/images/${encodeURIComponent(imageUrn)}`,
          { headers: this.headers(accessToken, false) },
          postBy,
          'other',
        );
      } catch (error) {
        if (error instanceof IntegrationError && error.code === 'publish_timeout') return;
        throw error;
      }
      if (answer.status === 401) throw toError(answer, 'image');
      if (answer.status !== 200) {
        await sleep(Math.min(this.imageGraceMs, postBy - Date.now()));
        return;
      }
      const { status } = ImageAnswer().parse(answer.json);
      if (status === 'AVAILABLE') return;
      if (status === 'PROCESSING_FAILED') {
        throw new IntegrationError(
          'LinkedIn could not process the image (use a JPG, PNG or GIF under 36 million pixels). The post is kept; try again or remove the image.',
          'linkedin_image_failed',
        );
      }
      if (Date.now() + this.imagePollMs > deadline) return; // post anyway: LinkedIn says if it is not ready
      await sleep(this.imagePollMs);
    }
  }

  private trustedUploadUrl(url: string): boolean {
    try {
      const target = new URL(url);
      return target.protocol === 'https:' || target.origin === new URL(this.apiUrl).origin;
    } catch {
      return false;
    }
  }

  /**
   * One request, with what is left of the deadline (at most the request timeout). A request that
   * could not finish in time is not started; one the deadline cut off is a publish_timeout. A
   * `create` request that got no answer may have made the post (outcome 'unknown').
   */
  private async call(
    url: string,
    init: RequestInit,
    deadline: Deadline,
    request: 'create' | 'create-again' | 'other',
  ): Promise<Answer> {
    const left = deadline === undefined ? Infinity : deadline - Date.now();
    // Not sent: nothing was posted now (when sending again, an earlier attempt may have posted).
    if (left < MIN_REQUEST_MS) throw deadlineError(request === 'create-again');
    const timeoutMs = Math.min(this.timeoutMs, left);
    const sent = request !== 'other';
    let response: Response;
    let raw: string;
    try {
      response = await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(timeoutMs) });
      raw = await response.text();
    } catch (error) {
      if (deadline !== undefined && timeoutMs === left && Date.now() >= deadline - 50) throw deadlineError(sent);
      const name = (error as { name?: string })?.name;
      throw new IntegrationError(
        `${
          name === 'TimeoutError' || name === 'AbortError'
            ? 'LinkedIn did not answer in time. The post is kept; try again later.'
            : 'LinkedIn is not reachable right now. The post is kept; try again later.'
        }${sent ? ` ${SENT_AGAIN}` : ''}`,
        'linkedin_unreachable',
        undefined,
        sent ? 'unknown' : undefined,
      );
    }
    let json: Record<string, unknown> = {};
    try {
      const value: unknown = raw ? JSON.parse(raw) : {};
      if (value && typeof value === 'object' && !Array.isArray(value)) json = value as Record<string, unknown>;
    } catch {
      // not JSON (an HTML error page): status decides
    }
    return { status: response.status, json, headers: response.headers };
  }
}

/** The post's `content`: an article share (its image as the thumbnail), else the image as media, else none. */
function postContent(post: LinkedInSentPost): { content?: Record<string, unknown> } {
  if (post.article) {
    const { source, title, description } = post.article;
    return {
      content: {
        article: {
          source,
          title,
          ...(description ? { description } : {}),
          ...(post.imageUrn ? { thumbnail: post.imageUrn } : {}),
        },
      },
    };
  }
  return post.imageUrn ? { content: { media: { id: post.imageUrn } } } : {};
}

/** Said when the post may have been made although the answer did not say so. */
const SENT_AGAIN =
  'Publishing again sends this same post, which LinkedIn does not take twice, so it is never posted twice.';

/** The deadline of the publish passed before the post was sent, or while it was. */
function deadlineError(sent: boolean): IntegrationError {
  return sent
    ? new IntegrationError(
        'LinkedIn did not answer in time, so the post may or may not be on LinkedIn. Try again in a minute: publishing sends this same post again, which LinkedIn does not take twice, so it is never posted twice.',
        'publish_timeout',
        undefined,
        'unknown',
      )
    : new IntegrationError(
        'LinkedIn did not answer in time, so publishing stopped before the post was sent: nothing was posted. The post is kept; try again.',
        'publish_timeout',
      );
}

/**
 * The post a 422 DUPLICATE_POST names ("Content is a duplicate of urn:li:share:…"): the author
 * posted this content already.
 */
function duplicateUrn(answer: Answer): string | undefined {
  if (answer.status !== 422) return undefined;
  const { message = '', errorDetails } = ErrorAnswer().parse(answer.json);
  const duplicate = InputErrors()
    .parse(errorDetails)
    .inputErrors.some((e) => e.code === 'DUPLICATE_POST');
  if (!duplicate && !/duplicate/i.test(message)) return undefined;
  return /\b(urn:li:(?:share|ugcPost|activity):\d+)/.exec(message)?.[1];
}

function toError(answer: Answer, step: Step, author?: string): IntegrationError {
  const { status } = answer;
  const json = ErrorAnswer().parse(answer.json);
  const detail = json.message ? json.message.replace(/[.\s]+$/, '') : '';
  if (status === 401) return new IntegrationError(LINKEDIN_TOKEN_INVALID_MESSAGE, 'linkedin_token_invalid', 401);
  if (status === 403) {
    const organization = author?.startsWith('urn:li:organization:');
    const message =
      step === 'organizations'
        ? 'LinkedIn did not allow reading the pages you administer: the connection lacks the r_organization_admin permission. Make sure the LinkedIn app has the Community Management API, then reconnect LinkedIn in Settings.'
        : organization
          ? `LinkedIn did not allow posting as the page ${author}${detail ? ` (${detail})` : ''}. You must be an administrator or content admin of the page, and the connection needs the w_organization_social permission: check your role on the page and reconnect LinkedIn in Settings, or post to your personal profile.`
          : `LinkedIn did not allow posting as you${detail ? ` (${detail})` : ''}. The connection needs the w_member_social permission: make sure the LinkedIn app has the "Share on LinkedIn" product, then reconnect LinkedIn in Settings.`;
    return new IntegrationError(message, 'linkedin_forbidden', 403);
  }
  if (status === 429) {
    return new IntegrationError(
      "LinkedIn's daily request limit for this app or member is reached (it resets at midnight UTC). The post is kept; try again later.",
      'linkedin_rate_limited',
      429,
    );
  }
  if (status >= 500) {
    return new IntegrationError(
      `LinkedIn is not available right now (HTTP ${status}${detail ? `: ${detail}` : ''}). The post is kept; try again later.`,
      'linkedin_unreachable',
      status,
    );
  }
  if (status === 422 && /duplicate/i.test(`${json.message ?? ''} ${JSON.stringify(json.errorDetails ?? '')}`)) {
    return new IntegrationError(
      'LinkedIn refused the post as a copy of one already on LinkedIn, without saying which. Check your LinkedIn feed: the post is there.',
      'linkedin_duplicate',
      422,
    );
  }
  const what =
    step === 'image'
      ? 'the image upload'
      : step === 'upload'
        ? 'the image'
        : step === 'organizations'
          ? 'the list of your pages'
          : 'the post';
  return new IntegrationError(
    `LinkedIn refused ${what} (HTTP ${status}${detail ? `: ${detail}` : ''}). The post is kept; try again, or edit it if the problem persists.`,
    'linkedin_error',
    status,
  );
}

const sleep = (ms: number) => (ms > 0 ? new Promise<void>((resolve) => setTimeout(resolve, ms)) : Promise.resolve());
