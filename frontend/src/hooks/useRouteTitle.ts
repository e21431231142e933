import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';

const APP_NAME = 'Content Publisher';

/**
 * Each route's page name, shown in the top bar (components/TopBar.tsx) and the browser tab, as the side nav
 * names it (components/SideNav.tsx); the routes themselves are declared in App.tsx. A path not listed here
 * (the welcome page, or one about to be redirected) has no page name: the tab shows the product name alone.
 */
const PAGE_NAMES: Readonly<Record<string, string>> = {
  '/dashboard': 'Dashboard',
  '/create': 'Create Article',
  '/schedule': 'Schedule',
  '/calendar': 'Calendar',
  '/history': 'History',
  '/settings': 'Settings',
  '/sheets-import': 'Sheets Import',
  '/admin': 'Admin',
  '/approve': 'Approval',
};

/** The page name of `pathname` ("/schedule/" → "Schedule"), or null for a path without one. */
export const pageNameFor = (pathname: string): string | null => PAGE_NAMES[pathname.replace(/\/+$/, '') || '/'] ?? null;

const documentTitleFor = (pathname: string): string => {
  const page = pageNameFor(pathname);
  return page ? `${page} · ${APP_NAME}` : APP_NAME;
};

/** Keeps `document.title` on the current route's page name, so tabs and history entries say where they lead. */
export function useRouteTitle(): void {
  const { pathname } = useLocation();
  useEffect(() => {
    document.title = documentTitleFor(pathname);
  }, [pathname]);
}
