import { lazy, Suspense, useEffect } from 'react';
import { Navigate, Route, Routes } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { Messages } from '@app/shared';
import { setUnauthorizedHandler } from './api/client';
import { rememberTimeZone } from './api/startCalls';
import { useRouteTitle } from './hooks/useRouteTitle';
import { useScrollRestoration } from './hooks/useScrollRestoration';
import { SESSION_QUERY_KEY, setSessionUser, useSession } from './hooks/useSession';
import { toast } from './lib/toast';
import { CodeLoadBoundary } from './components/CodeLoadBoundary';
import { PageSpinner } from './components/Spinner';
import Welcome from './pages/Welcome';
import { PAGES, signedInPageUnder } from './pages/pageTable';

// Everything behind the login is loaded on demand so the welcome page's JavaScript stays small
// (docs/testing.md, Performance budgets); each page is its own chunk (charts load only with /dashboard).
const loadShell = () => import('./components/Shell');
const Shell = lazy(loadShell);
const PAGE_ROUTES = PAGES.map((page) => ({ ...page, Page: lazy(page.load) }));
const PUBLIC_PAGES = PAGE_ROUTES.filter((page) => page.access === 'public');
const SHELL_PAGES = PAGE_ROUTES.filter((page) => page.access !== 'public');

/**
 * A page behind the login opened directly (a bookmark, a reload): its code and the shell's are
 * fetched while the session check runs instead of after it (Lighthouse, docs/testing.md). At other
 * paths nothing is fetched, so the welcome page loads only its own code.
 */
export function preloadPage(pathname: string): void {
  const page = signedInPageUnder(pathname);
  if (!page) return;
  void loadShell();
  void page.load();
}
// Pages for role admin only: anyone else is sent to /dashboard.
const AdminOnly = lazy(() => import('./components/AdminOnly'));

/**
 * A page's route (a function, not a component: <Routes> reads its <Route> children as they are). A page whose
 * sub-paths lead back to it is nested: its index is the page, anything under it redirects to it.
 */
function pageRoute({ path, access, subPathsLeadHere, Page }: (typeof PAGE_ROUTES)[number]) {
  // Its code could not be fetched: said in the page's place (the top bar and its menu stay), with Reload. Keyed by
  // the page: the next page's boundary is its own, not this one with its failure kept.
  const element = (
    <CodeLoadBoundary key={path} what="This page">
      {access === 'admin' ? (
        <AdminOnly>
          <Page />
        </AdminOnly>
      ) : (
        <Page />
      )}
    </CodeLoadBoundary>
  );
  if (!subPathsLeadHere) return <Route key={path} path={path} element={element} />;
  return (
    <Route key={path} path={path}>
      <Route index element={element} />
      <Route path="*" element={<Navigate to={path} replace />} />
    </Route>
  );
}

/** When a call answers 401 the session has ended (deactivated, logged out elsewhere). */
function useSessionExpiry() {
  const queryClient = useQueryClient();
  useEffect(
    () =>
      setUnauthorizedHandler(() => {
        if (!queryClient.getQueryData(SESSION_QUERY_KEY)) return;
        setSessionUser(queryClient, null);
        toast.info(Messages.sessionExpired, { toastId: 'session-expired' });
      }),
    [queryClient],
  );
}

/**
 * Whether this browser's last session was signed in, in localStorage for public/boot.js: it shows the
 * welcome page prerendered into index.html only when not, so a signed-in user never sees it flash.
 */
export const SIGNED_IN_MARK = 'app-signed-in';

function useSignedInMark(signedIn: boolean, isPending: boolean) {
  useEffect(() => {
    if (isPending) return;
    try {
      if (signedIn) window.localStorage.setItem(SIGNED_IN_MARK, '1');
      else {
        window.localStorage.removeItem(SIGNED_IN_MARK);
        rememberTimeZone(null);
      }
    } catch {
      // Storage unavailable (private mode): the welcome page is shown first, as to anyone signed out.
    }
  }, [signedIn, isPending]);
}

interface AppProps {
  /**
   * The welcome page prerendered into index.html is on screen (public/boot.js showed it): the app
   * renders it too while the session check runs, taking its place without a blank frame.
   */
  welcomeShown?: boolean;
}

export default function App({ welcomeShown = false }: AppProps) {
  const { user, isPending } = useSession();
  useSessionExpiry();
  useRouteTitle();
  useScrollRestoration();
  useSignedInMark(Boolean(user), isPending);

  // docs/product.md (Welcome): nothing is displayed while the session check is pending, unless the
  // prerendered welcome page is already on screen.
  if (isPending && !welcomeShown) return null;

  if (!user) {
    return (
      <Suspense fallback={null}>
        <Routes>
          <Route path="/welcome" element={<Welcome />} />
          {PUBLIC_PAGES.map(pageRoute)}
          <Route path="*" element={<Navigate to="/welcome" replace />} />
        </Routes>
      </Suspense>
    );
  }

  return (
    <CodeLoadBoundary what="The app">
      <Suspense fallback={<PageSpinner />}>
        <Routes>
          {PUBLIC_PAGES.map(pageRoute)}
          <Route element={<Shell />}>
            {SHELL_PAGES.map(pageRoute)}
            <Route path="*" element={<Navigate to="/dashboard" replace />} />
          </Route>
        </Routes>
      </Suspense>
    </CodeLoadBoundary>
  );
}
