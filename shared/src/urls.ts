/**
 * An address from outside (a WordPress post's `link`, a post URL kept on an article) when it is an
 * absolute http(s) URL, else null: such a value is stored and put in an href only through this, so
 * a `javascript:` or `data:` "link" is neither kept nor clickable.
 */
export function httpUrlOrNull(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const url = value.trim();
  if (!/^https?:\/\/[^\s]/i.test(url)) return null;
  try {
    const { protocol } = new URL(url);
    return protocol === 'http:' || protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}
