import { Suspense, useEffect, useState } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { isAdmin } from '@app/shared';
import { useSession } from '../hooks/useSession';
import { useCurrentWorkspaceId } from '../hooks/useWorkspaces';
import { SideNav } from './SideNav';
import { TopBar } from './TopBar';
import { PageSpinner } from './Spinner';
import '../styles/shell.css';

const NAV_ID = 'app-sidenav';

/** docs/product.md (Shell): side navigation, top bar and the routed page. */
export default function Shell() {
  const { user } = useSession();
  const { pathname } = useLocation();
  // A switch of workspace mounts the page again: nothing of the workspace before stays on screen.
  const workspaceId = useCurrentWorkspaceId();
  // The drawer (narrow screens) is open on the page it was opened on: navigating closes it, as Escape does.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const navOpen = openOn === pathname;
  const setNavOpen = (open: boolean) => setOpenOn(open ? pathname : null);
  useEffect(() => {
    if (!navOpen) return;
    document.getElementById(NAV_ID)?.querySelector<HTMLElement>('a')?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpenOn(null);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [navOpen]);

  return (
    <div className="shell">
      <a className="skip-link" href="#main-content">
        Skip to content
      </a>
      <SideNav id={NAV_ID} showAdmin={isAdmin(user)} open={navOpen} onNavigate={() => setNavOpen(false)} />
      {navOpen && <div className="shell__scrim" aria-hidden="true" onClick={() => setNavOpen(false)} />}
      <div className="shell__body">
        <TopBar user={user} navOpen={navOpen} navId={NAV_ID} onToggleNav={() => setNavOpen(!navOpen)} />
        <main id="main-content" className="shell__main" tabIndex={-1}>
          <Suspense key={workspaceId ?? 'personal'} fallback={<PageSpinner />}>
            <Outlet />
          </Suspense>
        </main>
      </div>
    </div>
  );
}
