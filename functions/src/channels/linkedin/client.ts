/**
 * LinkedIn 3-legged OAuth and OIDC userinfo (docs/integrations.md, LinkedIn). Base URLs come from config
 * (LINKEDIN_OAUTH_URL, LINKEDIN_API_URL) so tests point them at the fake.
 */
import * as z from 'zod/mini';
import { lazySchema, withFallback } from '@app/shared';
import { IntegrationError, type LinkedInClient, type LinkedInTokens } from '../../domain/integrations.js';

/** A field LinkedIn may leave out or send in another type: then it counts as missing. */
const text = lazySchema(() => withFallback(z.optional(z.string()), undefined));

/** The token endpoint's answer: the tokens, or an OAuth error. */
const TokenAnswer = lazySchema(() =>
  z.object({
    access_token: text(),
    expires_in: withFallback(z.optional(z.union([z.number(), z.string()])), undefined),
    scope: text(),
    refresh_token: text(),
    error: text(),
    error_description: text(),
  }),
);

/** /v2/userinfo (OIDC): the member id, name and e-mail; `message` on an error. */
const UserInfoAnswer = lazySchema(() => z.object({ sub: text(), name: text(), email: text(), message: text() }));

/**
 * The scopes the app asks for by default: the self-serve products only ("Sign In with LinkedIn
 * using OpenID Connect" + "Share on LinkedIn"), which every LinkedIn app can add. The member must
 * approve all requested scopes at once and LinkedIn refuses the whole consent
 * (unauthorized_scope_error) when one is not granted to the app, so the organization scopes of the
 * Community Management API are asked for only on request (LINKEDIN_PAGE_SCOPES, channels/linkedin/keys.ts).
 */
export const LINKEDIN_SCOPES: string[] = [
  /** OIDC: lets us call /v2/userinfo, whose `sub` is the member id (author urn:li:person:{sub}). */
  'openid',
  /** Name (and picture) from userinfo, to show which LinkedIn account is connected. */
  'profile',
  /** E-mail from userinfo, to tell accounts apart in Settings. */
  'email',
  /** Post, upload images as the member ("Share on LinkedIn" product). */
  'w_member_social',
];

export interface HttpLinkedInClientOptions {
  /** LINKEDIN_OAUTH_URL, default https://www.linkedin.com/oauth/v2 */
  oauthUrl: string;
  /** LINKEDIN_API_URL, default https://api.linkedin.com */
  apiUrl: string;
  /** Per request (default 10 000 ms). */
  timeoutMs?: number;
}

export const LINKEDIN_TOKEN_INVALID_MESSAGE = 'LinkedIn refused the access token. Reconnect LinkedIn in Settings.';
const BAD_CLIENT_MESSAGE =
  "LinkedIn rejected the client ID or secret. Copy both again from the app's Auth tab in the LinkedIn Developer Portal.";

export class HttpLinkedInClient implements LinkedInClient {
  private readonly oauthUrl: string;
  private readonly apiUrl: string;
  private readonly timeoutMs: number;

  constructor(options: HttpLinkedInClientOptions) {
    this.oauthUrl = options.oauthUrl.replace(/\/+$/, '');
    this.apiUrl = options.apiUrl.replace(/\/+$/, '');
    this.timeoutMs = options.timeoutMs ?? 10_000;
  }

  authorizationUrl(input: { clientId: string; redirectUri: string; state: string; scopes: string[] }): string {
    const params = new URLSearchParams({
      response_type: 'code',
      client_id: input.clientId,
      redirect_uri: input.redirectUri,
      state: input.state,
      scope: input.scopes.join(' '),
    });
    // URLSearchParams writes spaces as "+"; LinkedIn documents %20 for the space-delimited scope
    return `${this.oauthUrl}/authorization?${params.toString().replace(/\+/g, '%20')}`;
  }

  async exchangeCode(input: {
    clientId: string;
    clientSecret: string;
    code: string;
    redirectUri: string;
  }): Promise<LinkedInTokens> {
    const { status, json: body } = await this.tokenRequest({
      grant_type: 'authorization_code',
      code: input.code,
      client_id: input.clientId,
      client_secret: input.clientSecret,
      redirect_uri: input.redirectUri,
    });
    const json = TokenAnswer().parse(body);
    if (status >= 200 && status < 300 && json.access_token) {
      return {
        accessToken: json.access_token,
        expiresIn: typeof json.expires_in === 'number' ? json.expires_in : Number(json.expires_in) || 0,
        ...(json.scope !== undefined ? { scope: json.scope } : {}),
        ...(json.refresh_token ? { refreshToken: json.refresh_token } : {}),
      };
    }
    const error = json.error ?? '';
    const description = json.error_description ?? '';
    if (error === 'invalid_client' || status === 401) {
      throw new IntegrationError(BAD_CLIENT_MESSAGE, 'linkedin_invalid_client', status);
    }
    throw new IntegrationError(
      `LinkedIn did not complete the sign-in${description ? `: ${description}` : error ? ` (${error})` : ` (HTTP ${status})`}. Connect LinkedIn again.`,
      error === 'invalid_grant' ? 'linkedin_invalid_grant' : 'linkedin_oauth_failed',
      status,
    );
  }

  async userInfo(accessToken: string): Promise<{ sub: string; name?: string; email?: string }> {
    let response: Response;
    try {
      response = await fetch(`${this.apiUrl}/v2/userinfo`, {
        headers: { Authorization: `Bearer ${accessToken}`, Accept: 'application/json' },
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      throw new IntegrationError(unreachableMessage(error), 'linkedin_unreachable');
    }
    const json = UserInfoAnswer().parse(await readJson(response));
    if (response.status === 401)
      throw new IntegrationError(LINKEDIN_TOKEN_INVALID_MESSAGE, 'linkedin_token_invalid', 401);
    if (!response.ok || json.sub === undefined) {
      const detail = json.message ?? `HTTP ${response.status}`;
      throw new IntegrationError(
        response.status === 403
          ? `LinkedIn did not allow reading the member profile (${detail}). Make sure the app has the "Sign In with LinkedIn using OpenID Connect" product, then reconnect LinkedIn.`
          : `LinkedIn could not return the member profile (${detail}). Try again later.`,
        'linkedin_error',
        response.status,
      );
    }
    return {
      sub: json.sub,
      ...(json.name !== undefined ? { name: json.name } : {}),
      ...(json.email !== undefined ? { email: json.email } : {}),
    };
  }

  async checkClient(input: {
    clientId: string;
    clientSecret: string;
    redirectUri: string;
  }): Promise<{ ok: true } | { ok: false; message: string }> {
    let result: { status: number; json: Record<string, unknown> };
    try {
      // A made-up code: LinkedIn checks the client first, so only bad credentials give invalid_client.
      result = await this.tokenRequest({
        grant_type: 'authorization_code',
        code: 'credential-check-not-a-real-code',
        client_id: input.clientId,
        client_secret: input.clientSecret,
        redirect_uri: input.redirectUri,
      });
    } catch (error) {
      return {
        ok: false,
        message: error instanceof IntegrationError ? error.message : 'Could not reach LinkedIn. Try again later.',
      };
    }
    const { status } = result;
    if (TokenAnswer().parse(result.json).error === 'invalid_client' || status === 401)
      return { ok: false, message: BAD_CLIENT_MESSAGE };
    if (status >= 500)
      return {
        ok: false,
        message: `LinkedIn could not check the credentials right now (HTTP ${status}). Try again later.`,
      };
    return { ok: true };
  }

  private async tokenRequest(form: Record<string, string>): Promise<{ status: number; json: Record<string, unknown> }> {
    let response: Response;
    try {
      response = await fetch(`${this.oauthUrl}/accessToken`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
        body: new URLSearchParams(form).toString(),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      throw new IntegrationError(unreachableMessage(error), 'linkedin_unreachable');
    }
    return { status: response.status, json: await readJson(response) };
  }
}

async function readJson(response: Response): Promise<Record<string, unknown>> {
  try {
    const value: unknown = JSON.parse(await response.text());
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

function unreachableMessage(error: unknown): string {
  const name = (error as { name?: string })?.name;
  if (name === 'TimeoutError' || name === 'AbortError')
    return 'Could not reach LinkedIn: it did not answer in time. Try again later.';
  return "Could not reach LinkedIn. Check the server's internet connection and try again later.";
}
