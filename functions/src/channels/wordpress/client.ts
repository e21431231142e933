/**
 * WordPress REST API client with Application Passwords (docs/integrations.md, WordPress).
 *
 * check() answers "can we publish as this user on this site?" without changing anything:
 * GET users/me?context=edit with HTTP Basic auth, first as /wp-json/… and, when the site has no
 * pretty permalinks (404 or a non-JSON answer), as /?rest_route=…. Every failure becomes one of the
 * port's codes with a sentence a person can act on; no message ever contains the password.
 */
import {
  IntegrationError,
  type WordPressCheck,
  type WordPressCheckFailure,
  type WordPressClient,
  type WordPressCredentials,
} from '../../domain/integrations.js';
import { normaliseSiteUrl } from '../../domain/site-url.js';
import { fetchChecked } from '../../adapters/integrations/url-safety.js';
import { isObject, isWpError, parseWpJson, plainWpMessage, type WpError } from './answers.js';

export type WordPressApiStyle = 'pretty' | 'query';

export interface HttpWordPressClientOptions {
  /** true locally (ALLOW_PRIVATE_URLS=1 or the embedded server), false in AWS. */
  allowPrivateUrls: boolean;
  /** Per check attempt (default 10 000 ms). */
  timeoutMs?: number;
}

/** The stored form of a site address (kept here too for the adapters and their tests). */
export { normaliseSiteUrl };

const USERS_ME = '/wp/v2/users/me';

/**
 * The URL of a REST route on a site in either style:
 *   pretty: https://example.com/wp-json/wp/v2/posts?context=edit
 *   query:  https://example.com/?rest_route=/wp/v2/posts&context=edit
 * `route` starts with "/" and may carry its own "?query"; `query` adds parameters.
 */
export function wordpressApiUrl(
  siteUrl: string,
  apiStyle: WordPressApiStyle,
  route: string,
  query: Record<string, string | number | undefined> = {},
): string {
  const site = siteUrl.replace(/\/+$/, '');
  const [routePath, routeQuery = ''] = route.split('?', 2) as [string, string?];
  const path = routePath.startsWith('/') ? routePath : `/${routePath}`;
  const params = new URLSearchParams(routeQuery);
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, String(value));
  const extra = params.toString();
  if (apiStyle === 'pretty') return `${site}/wp-json${encodeURI(path)}${extra ? `?${extra}` : ''}`;
  return `${site}/?rest_route=${encodeURI(path)}${extra ? `&${extra}` : ''}`;
}

/** `Basic base64(username:password)`, UTF-8. */
export function basicAuthHeader(username: string, appPassword: string): string {
  return `Basic ${Buffer.from(`${username}:${appPassword}`, 'utf8').toString('base64')}`;
}

interface Attempt {
  style: WordPressApiStyle;
  status: number;
  /** Parsed JSON body, or undefined for a non-JSON answer. */
  json: unknown;
  /** Final URL after same-site redirects. */
  url: string;
}

export class HttpWordPressClient implements WordPressClient {
  private readonly allowPrivate: boolean;
  private readonly timeoutMs: number;

  constructor(options: HttpWordPressClientOptions) {
    this.allowPrivate = options.allowPrivateUrls;
    this.timeoutMs = options.timeoutMs ?? 10_000;
  }

  async check(credentials: WordPressCredentials): Promise<WordPressCheck> {
    let site: string;
    try {
      site = normaliseSiteUrl(credentials.siteUrl);
    } catch (error) {
      return fail('forbidden_url', (error as Error).message);
    }
    const username = credentials.username.trim();
    const password = credentials.appPassword.trim();
    if (!username) return fail('invalid_username', 'Enter the WordPress user name or e-mail address.');
    if (!password)
      return fail('wrong_password', 'Enter an application password (Users → Profile → Application Passwords).');
    const headers = { Authorization: basicAuthHeader(username, password), Accept: 'application/json' };

    let pretty: Attempt;
    try {
      pretty = await this.get(site, 'pretty', headers);
    } catch (error) {
      return fromThrown(error);
    }
    let result = pretty;
    if (pretty.status === 404 || !isObject(pretty.json)) {
      try {
        const query = await this.get(site, 'query', headers);
        // keep the pretty answer when only it was WordPress JSON (e.g. a 404 rest_no_route)
        if (isWpUser(query.json) || isWpError(query.json) || !isWpError(pretty.json)) result = query;
      } catch (error) {
        if (!isWpError(pretty.json)) return fromThrown(error);
      }
    }

    if (result.status >= 200 && result.status < 300 && isWpUser(result.json)) {
      const user = result.json;
      const roles = Array.isArray(user.roles)
        ? user.roles.filter((r): r is string => typeof r === 'string')
        : undefined;
      return {
        ok: true,
        siteUrl: siteFromApiUrl(result.url, result.style) ?? site,
        apiStyle: result.style,
        user: {
          id: user.id,
          name: typeof user.name === 'string' && user.name ? user.name : username,
          ...(roles ? { roles } : {}),
        },
      };
    }
    if (isWpError(result.json)) return fromWpError(result.status, result.json, username);
    if (pretty.status >= 500 && result.status >= 500) {
      return fail(
        'http_error',
        `The site answered HTTP ${result.status} (a server error) instead of WordPress data. Try again later or ask the site's host.`,
      );
    }
    if ((result.status === 401 || result.status === 403) && (pretty.status === 401 || pretty.status === 403)) {
      return fail(
        'http_error',
        `The web server refused the request (HTTP ${result.status}) before WordPress answered. A password protection, firewall or security plugin in front of the site blocks the REST API.`,
      );
    }
    return fail(
      'not_wordpress',
      `No WordPress REST API answered at ${site} (tried ${site}/wp-json/ and ${site}/?rest_route=/). Check the address, and that no plugin disables the REST API.`,
    );
  }

  private async get(site: string, style: WordPressApiStyle, headers: Record<string, string>): Promise<Attempt> {
    const { response, url } = await fetchChecked(
      wordpressApiUrl(site, style, USERS_ME, { context: 'edit' }),
      { headers },
      { allowPrivate: this.allowPrivate, timeoutMs: this.timeoutMs },
    );
    const json = await readJson(response);
    return { style, status: response.status, json, url };
  }
}

function fail(code: WordPressCheckFailure, message: string): WordPressCheck {
  return { ok: false, code, message };
}

function fromThrown(error: unknown): WordPressCheck {
  if (error instanceof IntegrationError) {
    if (error.code === 'forbidden_url') return fail('forbidden_url', error.message);
    if (error.code === 'unreachable') return fail('unreachable', error.message);
    return fail('http_error', error.message);
  }
  return fail('unreachable', 'The site could not be reached. Check the address and that the site is online.');
}

function fromWpError(status: number, error: WpError, username: string): WordPressCheck {
  switch (error.code) {
    case 'incorrect_password':
      return fail(
        'wrong_password',
        'WordPress refused the application password for this user. Create a new one under Users → Profile → Application Passwords.',
      );
    case 'invalid_username':
    case 'invalid_email':
      return fail(
        'invalid_username',
        `WordPress does not know the user “${username}”. Enter the login name or e-mail address of the account the application password belongs to.`,
      );
    case 'application_passwords_disabled':
      return fail(
        'app_passwords_disabled',
        'Application passwords are turned off on this site. WordPress offers them only over HTTPS (or when WP_ENVIRONMENT_TYPE is "local"), and security plugins can switch them off. Use the site\'s https:// address or ask the administrator to allow application passwords.',
      );
    case 'application_passwords_disabled_for_user':
      return fail(
        'app_passwords_disabled',
        'Application passwords are turned off for this user account (by the administrator or a security plugin). Ask the administrator to allow them for this user.',
      );
    // WordPress 6.x answers a mistyped application password, an unknown user and an Authorization header the web
    // server stripped all alike, so the likely causes come first and the header is named only as the remaining one:
    // nothing in this answer proves that the header did not arrive.
    case 'rest_not_logged_in':
      return fail(
        'wrong_password',
        `WordPress did not accept the username “${username}” with this application password. Check the username (the login name or e-mail address) and the application password; a new one can be made under Users → Profile → Application Passwords. If both are right, the web server may be dropping the Authorization header before WordPress sees it: ask the host to pass it through (Apache: "CGIPassAuth On" or a SetEnvIf Authorization rule in .htaccess).`,
      );
    default:
      return fail('http_error', `WordPress answered HTTP ${status}: ${plainWpMessage(error.message) || error.code}`);
  }
}

/** JSON body or undefined. Tolerates a BOM, and PHP notices printed before JSON sent as JSON. */
async function readJson(response: Response): Promise<unknown> {
  let text: string;
  try {
    text = await response.text();
  } catch {
    return undefined;
  }
  return parseWpJson(text, /json/i.test(response.headers.get('content-type') ?? ''));
}

function isWpUser(value: unknown): value is { id: number; name?: unknown; roles?: unknown } {
  return isObject(value) && typeof value.id === 'number';
}

/** The site URL behind a (possibly redirected) users/me URL, or undefined. */
function siteFromApiUrl(apiUrl: string, style: WordPressApiStyle): string | undefined {
  try {
    const url = new URL(apiUrl);
    if (style === 'pretty') {
      const at = url.pathname.lastIndexOf(`/wp-json${USERS_ME}`);
      if (at < 0) return undefined;
      return `${url.protocol}//${url.host}${url.pathname.slice(0, at)}`;
    }
    if (!url.searchParams.has('rest_route')) return undefined;
    return `${url.protocol}//${url.host}${url.pathname.replace(/\/index\.php$/i, '').replace(/\/+$/, '')}`;
  } catch {
    return undefined;
  }
}
