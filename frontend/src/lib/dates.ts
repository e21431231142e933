let lastUpdatedFormat: Intl.DateTimeFormat | null = null;

/**
 * "Last updated" of a settings entry (docs/product.md, Settings): the browser's time zone, 24-hour clock, short
 * month, day, hour, minute and the zone's name, e.g. "Mar 4, 14:05 CET". Missing or invalid → Unknown.
 */
export function formatLastUpdated(value: string | null | undefined): string {
  if (!value) return 'Unknown';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return 'Unknown';
  lastUpdatedFormat ??= new Intl.DateTimeFormat(undefined, {
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hour12: false,
    timeZoneName: 'short',
  });
  return lastUpdatedFormat.format(date);
}
