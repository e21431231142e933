import { defaultTimeZone, isValidTimeZone } from '@app/shared';
import { useSession } from '../hooks/useSession';

/** docs/product.md (History): the user's own time zone, else the browser's, else UTC. */
export function resolveUserTimeZone(zone: string | null | undefined): string {
  return zone && isValidTimeZone(zone) ? zone : defaultTimeZone();
}

/** The signed-in user's time zone, for every date the app shows. */
export function useUserTimeZone(): string {
  const { user } = useSession();
  return resolveUserTimeZone(user?.timezone);
}

const formats = new Map<string, Intl.DateTimeFormat>();
function format(key: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  let f = formats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(undefined, options);
    formats.set(key, f);
  }
  return f;
}

const parse = (value: string | null | undefined): Date | null => {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
};

/**
 * Date, 24-hour time and the zone's name in the given zone, e.g. "Mar 4, 2025, 10:05 EST".
 * `hourCycle: 'h23'` rather than `hour12: false`, which some engines render as "24:05" at midnight.
 */
export function formatDateTime(value: string | null | undefined, timeZone: string): string {
  const date = parse(value);
  if (!date) return 'Unknown';
  return format(`dt|${timeZone}`, {
    timeZone,
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'short',
  }).format(date);
}

/** The calendar date in the given zone, e.g. "Mar 4, 2025". */
export function formatDate(value: string | null | undefined, timeZone: string): string {
  const date = parse(value);
  if (!date) return 'Unknown';
  return format(`d|${timeZone}`, { timeZone, year: 'numeric', month: 'short', day: 'numeric' }).format(date);
}
