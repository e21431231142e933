import { useLayoutEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { pageAt } from '../pages/pageTable';

const APP_NAME = 'Content Publisher';

/**
 * The page name of `pathname` ("/schedule/" → "Schedule") from the page table (pages/pageTable.ts), shown in the
 * top bar (components/TopBar.tsx) and the browser tab; null for a path without one (the welcome page, or one
 * about to be redirected): the tab then shows the product name alone.
 */
export const pageNameFor = (pathname: string): string | null => pageAt(pathname)?.title ?? null;

const documentTitleFor = (pathname: string): string => {
  const page = pageNameFor(pathname);
  return page ? `${page} · ${APP_NAME}` : APP_NAME;
};

/**
 * Keeps `document.title` on the current route's page name, so tabs and history entries say where they lead. Set in
 * the commit that shows the route (a layout effect): a redirect (a signed-out /schedule → /welcome) never leaves the
 * tab on the page it left, even for a moment after the new page is on screen.
 */
export function useRouteTitle(): void {
  const { pathname } = useLocation();
  useLayoutEffect(() => {
    document.title = documentTitleFor(pathname);
  }, [pathname]);
}
