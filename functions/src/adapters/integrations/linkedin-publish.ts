/**
 * Publishing to LinkedIn with the versioned Posts and Images APIs (INTEGRATIONS.md §2).
 *
 *   image:  POST /rest/images?action=initializeUpload {initializeUploadRequest:{owner: author}}
 *           → PUT the bytes to value.uploadUrl (Bearer, one request)
 *           → GET /rest/images/{urn} until AVAILABLE (processing is asynchronous)
 *   post:   POST /rest/posts {author, commentary, visibility, distribution, lifecycleState,
 *           isReshareDisabledByAuthor, content?: {media: {id: imageUrn}}}
 *           → 201, the post URN in the `x-restli-id` header
 *           → URL https://www.linkedin.com/feed/update/{urn}
 *   pages:  GET /rest/organizationAcls?q=roleAssignee&state=APPROVED
 *
 * Every /rest call sends `LinkedIn-Version` (default 202601, supported until January 2027) and
 * `X-Restli-Protocol-Version: 2.0.0`. The commentary is escaped for the "little" format and cut to
 * 3000 characters after escaping (little-text.ts). The base URL comes from config
 * (LINKEDIN_API_URL), so it is not a user-given address and needs no private-address check; the
 * upload URL LinkedIn hands out must be https (or on the API's own origin, as with the fake) since
 * it receives the access token.
 *
 * Error codes (IntegrationError.code):
 *   linkedin_token_invalid   401 anywhere (invalid, revoked or expired token): reconnect
 *   linkedin_forbidden       403: missing w_member_social / w_organization_social, not a page admin
 *   linkedin_rate_limited    429: the app's or member's daily limit
 *   linkedin_unreachable     network failure, timeout or 5xx
 *   linkedin_image_failed    LinkedIn could not process the uploaded image
 *   linkedin_error           anything else LinkedIn refused
 */
import { IntegrationError, type LinkedInPostInput, type LinkedInPublisher } from '../../domain/integrations.js';
import { LINKEDIN_TOKEN_INVALID_MESSAGE } from './linkedin.js';
import { fitLinkedInCommentary, LINKEDIN_COMMENTARY_MAX } from './little-text.js';

export const LINKEDIN_API_VERSION = '202601';
export const LINKEDIN_POST_URL_PREFIX = 'https://www.linkedin.com/feed/update/';

/** organizationAcls roles that may post as the page (w_organization_social), best first. */
export const LINKEDIN_POSTING_ROLES = ['ADMINISTRATOR', 'CONTENT_ADMINISTRATOR', 'CONTENT_ADMIN', 'DIRECT_SPONSORED_CONTENT_POSTER'] as const;

export interface HttpLinkedInPublisherOptions {
  /** LINKEDIN_API_URL, default https://api.linkedin.com */
  apiUrl: string;
  /** LinkedIn-Version header, YYYYMM (default 202601). */
  version?: string;
  /** Per request (default 30 000 ms). */
  timeoutMs?: number;
  /** Keep `#hashtag` clickable in the commentary (default true; see little-text.ts). */
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

interface Answer {
  status: number;
  json: Record<string, any>;
  headers: Headers;
}

type Step = 'image' | 'upload' | 'post' | 'organizations';

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

  async publish(input: LinkedInPostInput): Promise<{ urn: string; url: string }> {
    const { accessToken, author } = input;
    let imageUrn: string | undefined;
    if (input.image) imageUrn = await this.uploadImage(accessToken, author, input.image);

    const body = {
      author,
      commentary: fitLinkedInCommentary(input.commentary, LINKEDIN_COMMENTARY_MAX, { keepHashtags: this.keepHashtags }),
      visibility: 'PUBLIC',
      distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
      ...(imageUrn ? { content: { media: { id: imageUrn } } } : {}),
      lifecycleState: 'PUBLISHED',
      isReshareDisabledByAuthor: false,
    };
    const answer = await this.call(`${this.apiUrl}/rest/posts`, {
      method: 'POST',
      headers: this.headers(accessToken, true),
      body: JSON.stringify(body),
    });
    if (answer.status !== 201 && answer.status !== 200) throw toError(answer, 'post', author);
    const urn = answer.headers.get('x-restli-id') ?? (typeof answer.json.id === 'string' ? answer.json.id : '');
    if (!/^urn:li:[A-Za-z]+:.+/.test(urn)) {
      throw new IntegrationError(
        `LinkedIn accepted the post (HTTP ${answer.status}) but did not say which post it created. Check your LinkedIn feed before publishing again.`,
        'linkedin_error',
        answer.status,
      );
    }
    return { urn, url: `${LINKEDIN_POST_URL_PREFIX}${urn}` };
  }

  async administeredOrganizations(accessToken: string): Promise<{ urn: string; role: string }[]> {
    const best = new Map<string, string>();
    const rank = (role: string) => (LINKEDIN_POSTING_ROLES as readonly string[]).indexOf(role);
    const count = 100;
    for (let start = 0, page = 0; page < 20; page++) {
      const query = new URLSearchParams({ q: 'roleAssignee', state: 'APPROVED', start: String(start), count: String(count) });
      const answer = await this.call(`${this.apiUrl}/rest/organizationAcls?${query}`, { headers: this.headers(accessToken, false) });
      if (answer.status !== 200) throw toError(answer, 'organizations');
      const elements: unknown[] = Array.isArray(answer.json.elements) ? answer.json.elements : [];
      for (const element of elements) {
        if (!element || typeof element !== 'object') continue;
        const { organization, role, state } = element as Record<string, unknown>;
        if (typeof organization !== 'string' || typeof role !== 'string') continue;
        if (state !== undefined && state !== 'APPROVED') continue;
        if (rank(role) < 0) continue;
        const current = best.get(organization);
        if (current === undefined || rank(role) < rank(current)) best.set(organization, role);
      }
      const total = typeof answer.json.paging?.total === 'number' ? answer.json.paging.total : undefined;
      start += elements.length;
      if (elements.length === 0 || total === undefined || start >= total) break;
    }
    return [...best]
      .map(([urn, role]) => ({ urn, role }))
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
  private async uploadImage(accessToken: string, owner: string, image: { bytes: Buffer; contentType: string }): Promise<string> {
    const init = await this.call(`${this.apiUrl}/rest/images?action=initializeUpload`, {
      method: 'POST',
      headers: this.headers(accessToken, true),
      body: JSON.stringify({ initializeUploadRequest: { owner } }),
    });
    if (init.status !== 200 && init.status !== 201) throw toError(init, 'image', owner);
    const uploadUrl: unknown = init.json.value?.uploadUrl;
    const imageUrn: unknown = init.json.value?.image;
    if (typeof uploadUrl !== 'string' || typeof imageUrn !== 'string' || !this.trustedUploadUrl(uploadUrl)) {
      throw new IntegrationError('LinkedIn did not return a usable image upload address. Try again later.', 'linkedin_error', init.status);
    }

    const put = await this.call(uploadUrl, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${accessToken}`, 'Content-Type': image.contentType || 'application/octet-stream' },
      body: new Uint8Array(image.bytes),
    });
    if (put.status < 200 || put.status >= 300) throw toError(put, 'upload', owner);

    await this.waitForImage(accessToken, imageUrn);
    return imageUrn;
  }

  /** Polls the image until AVAILABLE; a status it may not read means waiting the grace period. */
  private async waitForImage(accessToken: string, imageUrn: string): Promise<void> {
    const deadline = Date.now() + this.imageReadyTimeoutMs;
    for (;;) {
      const answer = await this.call(`${this.apiUrl}/rest/images/${encodeURIComponent(imageUrn)}`, { headers: this.headers(accessToken, false) });
      if (answer.status === 401) throw toError(answer, 'image');
      if (answer.status !== 200) {
        await sleep(this.imageGraceMs);
        return;
      }
      const status = answer.json.status;
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

  private async call(url: string, init: RequestInit): Promise<Answer> {
    let response: Response;
    try {
      response = await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(this.timeoutMs) });
    } catch (error) {
      const name = (error as { name?: string })?.name;
      throw new IntegrationError(
        name === 'TimeoutError' || name === 'AbortError'
          ? 'LinkedIn did not answer in time. The post is kept; try again later.'
          : 'LinkedIn is not reachable right now. The post is kept; try again later.',
        'linkedin_unreachable',
      );
    }
    let json: Record<string, any> = {};
    try {
      const text = await response.text();
      const value: unknown = text ? JSON.parse(text) : {};
      if (value && typeof value === 'object' && !Array.isArray(value)) json = value as Record<string, any>;
    } catch {
      // not JSON (an HTML error page): status decides
    }
    return { status: response.status, json, headers: response.headers };
  }
}

function toError(answer: Answer, step: Step, author?: string): IntegrationError {
  const { status, json } = answer;
  const detail = typeof json.message === 'string' && json.message ? json.message.replace(/[.\s]+$/, '') : '';
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
      'LinkedIn\'s daily request limit for this app or member is reached (it resets at midnight UTC). The post is kept; try again later.',
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
  const what =
    step === 'image' ? 'the image upload' : step === 'upload' ? 'the image' : step === 'organizations' ? 'the list of your pages' : 'the post';
  return new IntegrationError(
    `LinkedIn refused ${what} (HTTP ${status}${detail ? `: ${detail}` : ''}). The post is kept; try again, or edit it if the problem persists.`,
    'linkedin_error',
    status,
  );
}

const sleep = (ms: number) => (ms > 0 ? new Promise<void>((resolve) => setTimeout(resolve, ms)) : Promise.resolve());
