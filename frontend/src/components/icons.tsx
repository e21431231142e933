import type { ReactElement } from 'react';

const paths = {
  dashboard: 'M3 3h6v8H3zM11 3h6v5h-6zM11 10h6v7h-6zM3 13h6v4H3z',
  create: 'M10 4v12M4 10h12',
  schedule: 'M4 5h12v11H4zM4 8.5h12M7.5 3v3.5M12.5 3v3.5',
  calendar: 'M3.5 4.5h13v12h-13zM3.5 8h13M7.5 3v3M12.5 3v3M6.5 11h1M9.5 11h1M12.5 11h1M6.5 13.8h1M9.5 13.8h1',
  history: 'M3.5 10a6.5 6.5 0 1 0 2-4.7M3.5 3.5v3h3M10 6.5V10l2.5 1.5',
  settings:
    'M10 12.5a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5zM16 10.9v-1.8l-1.8-.4-.5-1.2 1-1.6-1.3-1.3-1.6 1-1.2-.5-.4-1.8H9.1l-.4 1.8-1.2.5-1.6-1-1.3 1.3 1 1.6-.5 1.2-1.8.4v1.8l1.8.4.5 1.2-1 1.6 1.3 1.3 1.6-1 1.2.5.4 1.8h1.8l.4-1.8 1.2-.5 1.6 1 1.3-1.3-1-1.6.5-1.2z',
  admin: 'M10 2.5l6 2.5v4.5c0 3.8-2.6 6.6-6 8-3.4-1.4-6-4.2-6-8V5zM7.5 10l1.8 1.8 3.2-3.3',
  menu: 'M3.5 6h13M3.5 10h13M3.5 14h13',
  close: 'M5 5l10 10M15 5L5 15',
  chevronDown: 'M6 8l4 4 4-4',
  logout: 'M8 4H4.5v12H8M12.5 6.5L16 10l-3.5 3.5M16 10H8',
  lock: 'M5.5 9h9v7.5h-9zM7.5 9V6.5a2.5 2.5 0 0 1 5 0V9',
} as const;

export type IconName = keyof typeof paths;

export function Icon({ name, size = 18 }: { name: IconName; size?: number }): ReactElement {
  return (
    <svg
      className="icon"
      viewBox="0 0 20 20"
      width={size}
      height={size}
      fill="none"
      stroke="currentColor"
      strokeWidth="1.6"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d={paths[name]} />
    </svg>
  );
}
