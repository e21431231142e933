/**
 * Ports for the integrations (WordPress, LinkedIn, Google/Gmail) and mail. Adapters in
 * src/adapters/integrations talk to the real services; tests point them at fakes (real HTTP servers).
 */

export interface WordPressCredentials {
  siteUrl: string;
  username: string;
  appPassword: string;
}

export type WordPressCheckFailure =
  | 'wrong_password'
  | 'invalid_username'
  | 'app_passwords_disabled'
  | 'not_wordpress'
  | 'unreachable'
  | 'forbidden_url'
  | 'http_error';

export type WordPressCheck =
  | {
      ok: true;
      /** The site URL as it will be stored: scheme + host + path, no trailing slash. */
      siteUrl: string;
      /** 'pretty' = /wp-json/…; 'query' = ?rest_route=… (sites without pretty permalinks). */
      apiStyle: 'pretty' | 'query';
      user: { id: number; name: string; roles?: string[] };
    }
  | { ok: false; code: WordPressCheckFailure; message: string };

export interface WordPressClient {
  /** GET users/me?context=edit with Basic application-password auth, falling back to ?rest_route=. */
  check(credentials: WordPressCredentials): Promise<WordPressCheck>;
}

export interface LinkedInTokens {
  accessToken: string;
  /** Seconds. */
  expiresIn: number;
  scope?: string;
  refreshToken?: string;
}

export interface LinkedInClient {
  authorizationUrl(input: { clientId: string; redirectUri: string; state: string; scopes: string[] }): string;
  exchangeCode(input: {
    clientId: string;
    clientSecret: string;
    code: string;
    redirectUri: string;
  }): Promise<LinkedInTokens>;
  /** OIDC userinfo: `sub` is the member id (author urn:li:person:{sub}). */
  userInfo(accessToken: string): Promise<{ sub: string; name?: string; email?: string }>;
  /** Checks client id/secret without a member: LinkedIn answers invalid_client only for bad credentials. */
  checkClient(input: {
    clientId: string;
    clientSecret: string;
    redirectUri: string;
  }): Promise<{ ok: true } | { ok: false; message: string }>;
}

export interface GoogleOAuthClient {
  authorizationUrl(input: {
    clientId: string;
    clientSecret: string;
    redirectUri: string;
    state: string;
    scopes: string[];
  }): Promise<string>;
  exchangeCode(input: {
    clientId: string;
    clientSecret: string;
    redirectUri: string;
    code: string;
  }): Promise<{ refreshToken?: string; accessToken?: string; expiryDate?: number; scope?: string }>;
}

export interface MailMessage {
  to: string;
  subject: string;
  html: string;
  text: string;
  from?: string;
  /** Images the HTML shows with `<img src="cid:…">`. */
  inline?: { cid: string; filename: string; contentType: string; content: Buffer }[];
}

export interface MailSender {
  readonly kind: 'gmail' | 'outbox';
  send(message: MailMessage): Promise<{ id: string }>;
}

/**
 * What a failed publish left on the platform, as far as the adapter knows: 'unknown' when the
 * request that creates the post was sent and no answer said it failed (a timeout, a dropped
 * connection, a 5xx), so the post may exist; 'not-created' when the platform refused that request.
 * Absent: the failure came before any such request.
 */
export type PublishOutcome = 'unknown' | 'not-created';

/** A failure talking to an integration, with a message a person can act on. */
export class IntegrationError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly status?: number,
    readonly outcome?: PublishOutcome,
  ) {
    super(message);
    this.name = 'IntegrationError';
  }
}

/* ---- Publishing (issue: WordPress and LinkedIn publish) ---- */

export interface WordPressSite extends WordPressCredentials {
  apiStyle: 'pretty' | 'query';
}

export interface WordPressPostInput {
  /** HTML, as WordPress takes a title: the article's title escaped (wordpressPost's titleHtml). */
  title: string;
  /** HTML (the app renders its Markdown before calling). */
  html: string;
  /** Uploaded as media and set as featured image when given. */
  featuredImage?: { bytes: Buffer; contentType: string; filename: string };
  /** Update this post instead of creating one (republishing after an edit). */
  existingPostId?: number;
  /** The slug a new post gets; unique to the article, so the post can be found again by it. */
  slug?: string;
  /**
   * An earlier attempt may have created the post with `slug` (it was cut off, or timed out after
   * sending): look for it first and update it instead of creating a second one.
   */
  findBySlug?: boolean;
}

/** How one publish runs: the deadline of all its requests, and a hook before the post is created. */
export interface PublishRun<A> {
  /** Date.now() by which every request has ended; each gets what is left, at most its own timeout. */
  deadline?: number;
  /**
   * Called right before the request that creates the post is sent (not before an update), with
   * what a later attempt needs to find that post. The publish stops when it rejects.
   */
  beforeCreate?: (attempt: A) => Promise<void>;
}

export interface WordPressPublisher {
  /**
   * Uploads the featured image (POST /wp/v2/media with Content-Disposition), then creates or
   * updates the post with status publish and featured_media, and checks that WordPress kept the
   * featured image (core ignores a bad id silently).
   */
  publish(
    site: WordPressSite,
    post: WordPressPostInput,
    run?: PublishRun<{ slug: string }>,
  ): Promise<{ postId: number; link: string; mediaId?: number }>;
}

export interface LinkedInPostInput {
  accessToken: string;
  /** urn:li:person:{sub} or urn:li:organization:{id}. */
  author: string;
  /** Plain text; the adapter escapes LinkedIn's "little" reserved characters and keeps ≤ 3000. */
  commentary: string;
  image?: { bytes: Buffer; contentType: string };
  /** An article share (a blog-first bundle's live blog post): the image, if any, becomes its thumbnail. */
  article?: LinkedInArticleShare;
}

/** Posts API `content.article`: the shared page's address, its title and an optional summary. */
export interface LinkedInArticleShare {
  source: string;
  title: string;
  description?: string;
}

/** A post as it was sent to LinkedIn (commentary already escaped), so that it can be sent again unchanged. */
export interface LinkedInSentPost {
  author: string;
  commentary: string;
  /** The image: the post's media, or the article share's thumbnail. */
  imageUrn?: string;
  article?: LinkedInArticleShare;
}

export interface LinkedInPublisher {
  /**
   * Images API (initializeUpload + PUT) then POST /rest/posts; returns the post URN from x-restli-id.
   * A post LinkedIn refuses as a duplicate of one already there (422 DUPLICATE_POST) answers that one.
   */
  publish(input: LinkedInPostInput, run?: PublishRun<LinkedInSentPost>): Promise<{ urn: string; url: string }>;
  /**
   * Sends a post exactly as an earlier attempt sent it (that attempt may have created it): LinkedIn
   * answers a duplicate with the existing post, so there is one post either way.
   */
  resend(
    accessToken: string,
    post: LinkedInSentPost,
    run?: PublishRun<LinkedInSentPost>,
  ): Promise<{ urn: string; url: string }>;
  /**
   * Organizations the member administers (organizationAcls, roleAssignee, APPROVED), best posting role
   * first; `names` also asks for each page's localized name (absent where LinkedIn gives none).
   */
  administeredOrganizations(
    accessToken: string,
    run?: Pick<PublishRun<never>, 'deadline'>,
    options?: { names?: boolean },
  ): Promise<{ urn: string; role: string; name?: string }[]>;
}

export interface WebhookDelivery {
  /** POSTs JSON signed with HMAC-SHA256; never throws (returns the outcome). `timeoutMs` shortens its own timeout. */
  deliver(
    url: string,
    secret: string,
    payload: unknown,
    options?: { timeoutMs?: number },
  ): Promise<{ ok: boolean; status?: number; error?: string }>;
}
