import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';

const APP_NAME = 'Content Publisher';

/**
 * Each route's page name in the browser tab, as the side nav, top bar and pages name it (components/SideNav.tsx,
 * components/TopBar.tsx); the routes themselves are declared in App.tsx. A path not listed here (the welcome
 * page, or one about to be redirected) shows the product name alone.
 */
const ROUTE_TITLES: Readonly<Record<string, string>> = {
  '/dashboard': 'Dashboard',
  '/create': 'Create Article',
  '/schedule': 'Schedule',
  '/history': 'History',
  '/settings': 'Settings',
  '/sheets-import': 'Import Articles from Google Sheets',
  '/admin': 'Admin',
  '/approve': 'Approval',
};

const documentTitleFor = (pathname: string): string => {
  const page = ROUTE_TITLES[pathname.replace(/\/+$/, '') || '/'];
  return page ? `${page} · ${APP_NAME}` : APP_NAME;
};

/** Keeps `document.title` on the current route's page name, so tabs and history entries say where they lead. */
export function useRouteTitle(): void {
  const { pathname } = useLocation();
  useEffect(() => {
    document.title = documentTitleFor(pathname);
  }, [pathname]);
}
