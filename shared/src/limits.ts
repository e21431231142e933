/** Business constants shared by front end and functions (docs/product.md). */
export const PASSWORD_MIN_LENGTH = 6;
export const PASSWORD_MAX_LENGTH = 256;
export const NAME_MAX_LENGTH = 100;
export const EMAIL_MAX_LENGTH = 254;
export const MAX_BODY_BYTES = 1024 * 1024;
export const LINKEDIN_MAX_CHARS = 3000;
export const SCHEDULE_REFRESH_MS = 15_000;
export const TOAST_AUTO_CLOSE_MS = 5000;
export const TOAST_SETTINGS_AUTO_CLOSE_MS = 3000;

/** Time zones offered on registration (docs/product.md, Welcome); the browser's own zone is offered too. */
export const TIMEZONE_CHOICES = [
  'UTC',
  'America/New_York',
  'America/Los_Angeles',
  'Europe/London',
  'Europe/Paris',
  'Asia/Dubai',
  'Asia/Kolkata',
  'Asia/Tokyo',
] as const;

/**
 * Zones checked already: building a DateTimeFormat to check one costs ~0.1-1 ms, and the SPA asks on every render
 * that shows a date (lib/userTime.ts), ~30 ms before the dashboard's first paint on a phone. Bounded, since the
 * server checks zones that requests name.
 */
const checkedZones = new Map<string, boolean>();
const CHECKED_ZONES_KEPT = 1000;

export function isValidTimeZone(zone: string): boolean {
  const known = checkedZones.get(zone);
  if (known !== undefined) return known;
  let valid: boolean;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    valid = true;
  } catch {
    valid = false;
  }
  if (checkedZones.size < CHECKED_ZONES_KEPT) checkedZones.set(zone, valid);
  return valid;
}

/** The browser's zone when it is a real IANA zone, else UTC (docs/product.md, History). */
export function defaultTimeZone(): string {
  try {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    return zone && isValidTimeZone(zone) ? zone : 'UTC';
  } catch {
    return 'UTC';
  }
}

/**
 * A scheduled time as the approval e-mail and page show it: in the owner's zone and naming it, e.g. "Tuesday,
 * 26 November 2030 at 09:00 GMT+9 (Asia/Tokyo)" — the reader may be travelling, or read it on a device set to
 * another zone. A zone not known falls back to UTC, named too (the server has no zone of its own to offer, and
 * the page must not show the browser's).
 */
export function approvalTimeText(instant: Date, timeZone: string): string {
  const zone = approvalTimeZone(timeZone);
  const local = new Intl.DateTimeFormat('en-GB', {
    timeZone: zone,
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'short',
  }).format(instant);
  // "… 09:00 CET (Europe/Paris)"; a zone whose short name is its id (UTC) is named once.
  return local.endsWith(` ${zone}`) ? local : `${local} (${zone})`;
}

/** The zone approvalTimeText uses: the stored one when it is known, else UTC. */
export const approvalTimeZone = (timeZone: string): string =>
  timeZone && isValidTimeZone(timeZone) ? timeZone : 'UTC';
