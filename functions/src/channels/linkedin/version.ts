/**
 * The LinkedIn-Version every /rest call sends (docs/integrations.md, LinkedIn). LinkedIn supports a
 * version for about a year after its month, then refuses calls that send it, so the version is
 * configuration (LINKEDIN_API_VERSION, set by the stack from the `linkedinApiVersion` context value)
 * with this default, and an old one is warned about in the log (docs/operations.md, LinkedIn version).
 */
export const LINKEDIN_API_VERSION = '202601';

/** A version older than this many months (from the first day of its month) is warned about. */
export const LINKEDIN_VERSION_WARN_MONTHS = 10;

const VERSION = /^(\d{4})(0[1-9]|1[0-2])$/;

/** The version as YYYYMM (a month LinkedIn names versions by); a clear error for anything else. */
export function parseLinkedInVersion(value: string, name = 'LINKEDIN_API_VERSION'): string {
  const text = value.trim();
  if (!VERSION.test(text))
    throw new Error(`${name} must be a LinkedIn API version as YYYYMM (e.g. 202601), not "${value}"`);
  return text;
}

/**
 * The log warning for a version older than LINKEDIN_VERSION_WARN_MONTHS at `now`, or undefined while
 * it is newer (or not a version at all, which parseLinkedInVersion refuses where it is set).
 */
export function linkedInVersionWarning(version: string, now: Date): string | undefined {
  const match = VERSION.exec(version.trim());
  if (!match) return undefined;
  const warnFrom = Date.UTC(Number(match[1]), Number(match[2]) - 1 + LINKEDIN_VERSION_WARN_MONTHS, 1);
  if (now.getTime() < warnFrom) return undefined;
  return (
    `LinkedIn-Version ${version} is more than ${LINKEDIN_VERSION_WARN_MONTHS} months old: LinkedIn stops accepting a ` +
    'version about a year after its month, and then every LinkedIn post fails. Set a newer one (the linkedinApiVersion ' +
    'context value; docs/operations.md, LinkedIn version).'
  );
}
