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
  exchangeCode(input: { clientId: string; clientSecret: string; code: string; redirectUri: string }): Promise<LinkedInTokens>;
  /** OIDC userinfo: `sub` is the member id (author urn:li:person:{sub}). */
  userInfo(accessToken: string): Promise<{ sub: string; name?: string; email?: string }>;
  /** Checks client id/secret without a member: LinkedIn answers invalid_client only for bad credentials. */
  checkClient(input: { clientId: string; clientSecret: string; redirectUri: string }): Promise<{ ok: true } | { ok: false; message: string }>;
}

export interface GoogleOAuthClient {
  authorizationUrl(input: { clientId: string; clientSecret: string; redirectUri: string; state: string; scopes: string[] }): Promise<string>;
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

/** A failure talking to an integration, with a message a person can act on. */
export class IntegrationError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly status?: number,
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
  title: string;
  /** HTML (the app renders its Markdown before calling). */
  html: string;
  /** Uploaded as media and set as featured image when given. */
  featuredImage?: { bytes: Buffer; contentType: string; filename: string };
  /** Update this post instead of creating one (republishing after an edit). */
  existingPostId?: number;
}

export interface WordPressPublisher {
  /**
   * Uploads the featured image (POST /wp/v2/media with Content-Disposition), then creates or
   * updates the post with status publish and featured_media, and checks that WordPress kept the
   * featured image (core ignores a bad id silently).
   */
  publish(site: WordPressSite, post: WordPressPostInput): Promise<{ postId: number; link: string; mediaId?: number }>;
}

export interface LinkedInPostInput {
  accessToken: string;
  /** urn:li:person:{sub} or urn:li:organization:{id}. */
  author: string;
  /** Plain text; the adapter escapes LinkedIn's "little" reserved characters and keeps ≤ 3000. */
  commentary: string;
  image?: { bytes: Buffer; contentType: string };
}

export interface LinkedInPublisher {
  /** Images API (initializeUpload + PUT) then POST /rest/posts; returns the post URN from x-restli-id. */
  publish(input: LinkedInPostInput): Promise<{ urn: string; url: string }>;
  /** Organizations the member administers (organizationAcls, roleAssignee, APPROVED). */
  administeredOrganizations(accessToken: string): Promise<{ urn: string; role: string }[]>;
}

export interface WebhookDelivery {
  /** POSTs JSON signed with HMAC-SHA256; never throws (returns the outcome). */
  deliver(url: string, secret: string, payload: unknown): Promise<{ ok: boolean; status?: number; error?: string }>;
}
