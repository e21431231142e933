import { lazy, Suspense, useEffect } from 'react';
import { Navigate, Route, Routes } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { Messages } from '@app/shared';
import { setUnauthorizedHandler } from './api/client';
import { useRouteTitle } from './hooks/useRouteTitle';
import { SESSION_QUERY_KEY, setSessionUser, useSession } from './hooks/useSession';
import { toast } from './lib/toast';
import { PageSpinner } from './components/Spinner';
import Welcome from './pages/Welcome';

// Everything behind the login is loaded on demand so the welcome page's JavaScript stays small
// (docs/testing.md, Performance budgets); each page is its own chunk (charts load only with /dashboard).
const Shell = lazy(() => import('./components/Shell'));
const Dashboard = lazy(() => import('./pages/Dashboard'));
const Create = lazy(() => import('./pages/Create'));
const Schedule = lazy(() => import('./pages/Schedule'));
const History = lazy(() => import('./pages/History'));
const Settings = lazy(() => import('./pages/Settings'));
const SheetsImport = lazy(() => import('./pages/SheetsImport'));
const Admin = lazy(() => import('./pages/Admin'));
// /admin: role admin only, anyone else is sent to /dashboard.
const AdminOnly = lazy(() => import('./components/AdminOnly'));
// The e-mailed approve link: public, signed in or not (its token authorizes).
const Approve = lazy(() => import('./pages/Approve'));

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

export default function App() {
  const { user, isPending } = useSession();
  useSessionExpiry();
  useRouteTitle();

  // docs/product.md (Welcome): nothing is displayed while the session check is pending.
  if (isPending) return null;

  if (!user) {
    return (
      <Suspense fallback={null}>
        <Routes>
          <Route path="/welcome" element={<Welcome />} />
          <Route path="/approve" element={<Approve />} />
          <Route path="*" element={<Navigate to="/welcome" replace />} />
        </Routes>
      </Suspense>
    );
  }

  return (
    <Suspense fallback={<PageSpinner />}>
      <Routes>
        <Route path="/approve" element={<Approve />} />
        <Route element={<Shell />}>
          <Route path="/dashboard" element={<Dashboard />} />
          <Route path="/create">
            <Route index element={<Create />} />
            <Route path="*" element={<Navigate to="/create" replace />} />
          </Route>
          <Route path="/schedule" element={<Schedule />} />
          <Route path="/history" element={<History />} />
          <Route path="/settings" element={<Settings />} />
          <Route path="/sheets-import" element={<SheetsImport />} />
          <Route
            path="/admin"
            element={
              <AdminOnly>
                <Admin />
              </AdminOnly>
            }
          />
          <Route path="*" element={<Navigate to="/dashboard" replace />} />
        </Route>
      </Routes>
    </Suspense>
  );
}
