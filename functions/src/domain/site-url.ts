import { IntegrationError } from './integrations.js';

/**
 * The site address as it is stored: trimmed, https:// when no scheme was typed, http(s) only,
 * no query/fragment/credentials, no trailing slash, and no /wp-json…, /wp-admin… or
 * /wp-login.php suffix (people paste those); the host lower-cased and a default port dropped
 * (URL does both). Throws IntegrationError 'forbidden_url'.
 *
 * The domain compares addresses in this form before a saved application password is used
 * (channels/wordpress/service.ts), and the WordPress adapter stores it, so both mean the same site.
 */
export function normaliseSiteUrl(input: string): string {
  let text = input.trim();
  if (!text)
    throw new IntegrationError('Enter the address of the WordPress site, e.g. https://example.com.', 'forbidden_url');
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    if (/^[a-z][a-z0-9+.-]*:(?!\d)/i.test(text)) {
      throw new IntegrationError('Only http:// and https:// addresses can be used.', 'forbidden_url');
    }
    text = `https://${text}`;
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new IntegrationError(
      `“${input.trim()}” is not a valid web address. Enter it like https://example.com.`,
      'forbidden_url',
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new IntegrationError('Only http:// and https:// addresses can be used.', 'forbidden_url');
  }
  if (!url.hostname) {
    throw new IntegrationError('Enter the address of the WordPress site, e.g. https://example.com.', 'forbidden_url');
  }
  let path = url.pathname;
  path = path.replace(/\/(wp-json|wp-admin)(\/.*)?$/i, '').replace(/\/(wp-login\.php|index\.php)$/i, '');
  path = path.replace(/\/+$/, '');
  return `${url.protocol}//${url.host}${path}`;
}

/** Whether two addresses name the same site once normalised; an address that is not valid names none. */
export function sameSiteUrl(a: string, b: string): boolean {
  try {
    return normaliseSiteUrl(a) === normaliseSiteUrl(b);
  } catch {
    return false;
  }
}
