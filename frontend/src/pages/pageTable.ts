import type { ComponentType } from 'react';
// A type only: the icons' drawings stay in the shell's chunk (components/SideNav.tsx draws them).
import type { IconName } from '../components/icons';
import type { RouteId } from '@app/shared/api';

/**
 * How a page is reached. `public`: outside the shell, open signed in or not (its link carries its own
 * authorization). `signed-in`: inside the shell, behind the login. `admin`: inside the shell, role admin only;
 * anyone else is sent to /dashboard (components/AdminOnly.tsx).
 */
export type PageAccess = 'public' | 'signed-in' | 'admin';

export interface PageEntry {
  /** The route's path, also the target of its navigation link. */
  readonly path: `/${string}`;
  /** The page name in the top bar (components/TopBar.tsx) and the browser tab (hooks/useRouteTitle.ts). */
  readonly title: string;
  readonly access: PageAccess;
  /**
   * The page's own chunk, fetched on demand (App.tsx) so the welcome page's JavaScript stays small
   * (docs/testing.md, Performance budgets).
   */
  readonly load: () => Promise<{ default: ComponentType }>;
  /** Its link in the side navigation (components/SideNav.tsx), in table order; absent when it has none. */
  readonly nav?: { readonly label: string; readonly icon: IconName };
  /**
   * The call the page is for: its navigation link is shown only to a role that may make it in the current
   * workspace (shared/src/api/roles.ts); absent: every member.
   */
  readonly navNeeds?: RouteId;
  /** Any sub-path (/create/anything) leads back to the page itself instead of to /dashboard. */
  readonly subPathsLeadHere?: boolean;
}

/**
 * Every page of the SPA but the welcome page (which the entry chunk carries and which has no page name of its own):
 * App.tsx makes its routes from it, components/SideNav.tsx its links, hooks/useRouteTitle.ts its names. Adding a
 * page is adding an entry here. This module is in the entry chunk: it must import no page, only point at each.
 */
export const PAGES: readonly PageEntry[] = [
  {
    path: '/dashboard',
    title: 'Dashboard',
    access: 'signed-in',
    load: () => import('./Dashboard'),
    nav: { label: 'Dashboard', icon: 'dashboard' },
  },
  {
    path: '/create',
    title: 'Create Article',
    access: 'signed-in',
    load: () => import('./Create'),
    nav: { label: 'Create', icon: 'create' },
    navNeeds: 'articles.create',
    subPathsLeadHere: true,
  },
  {
    path: '/schedule',
    title: 'Schedule',
    access: 'signed-in',
    load: () => import('./Schedule'),
    nav: { label: 'Schedule', icon: 'schedule' },
  },
  {
    path: '/calendar',
    title: 'Calendar',
    access: 'signed-in',
    load: () => import('./Calendar'),
    nav: { label: 'Calendar', icon: 'calendar' },
  },
  {
    path: '/history',
    title: 'History',
    access: 'signed-in',
    load: () => import('./History'),
    nav: { label: 'History', icon: 'history' },
  },
  {
    path: '/settings',
    title: 'Settings',
    access: 'signed-in',
    load: () => import('./Settings'),
    nav: { label: 'Settings', icon: 'settings' },
  },
  { path: '/sheets-import', title: 'Sheets Import', access: 'signed-in', load: () => import('./SheetsImport') },
  {
    path: '/admin',
    title: 'Admin',
    access: 'admin',
    load: () => import('./Admin'),
    nav: { label: 'Admin', icon: 'admin' },
  },
  // Team workspaces, members and invitations (the user menu's Workspaces).
  { path: '/workspaces', title: 'Workspaces', access: 'signed-in', load: () => import('./Workspaces') },
  // The e-mailed invitation link: accept it signed in, or register through it.
  { path: '/invite', title: 'Invitation', access: 'public', load: () => import('./Invite') },
  // The e-mailed approve link: its token authorizes, signed in or not.
  { path: '/approve', title: 'Approval', access: 'public', load: () => import('./Approve') },
  // A reviewer's e-mailed link (Approve or Request changes): its token authorizes, signed in or not.
  { path: '/review', title: 'Review', access: 'public', load: () => import('./Review') },
];

const withoutTrailingSlashes = (pathname: string) => pathname.replace(/\/+$/, '') || '/';

/** The page at exactly `pathname` ("/schedule/" → Schedule), or undefined (the welcome page, a path about to be redirected). */
export const pageAt = (pathname: string): PageEntry | undefined =>
  PAGES.find((page) => page.path === withoutTrailingSlashes(pathname));

/** The page behind the login whose path `pathname` is or lies under ("/settings/integrations" → Settings). */
export const signedInPageUnder = (pathname: string): PageEntry | undefined =>
  PAGES.find((page) => page.access !== 'public' && (pathname === page.path || pathname.startsWith(`${page.path}/`)));

export interface NavEntry {
  readonly path: PageEntry['path'];
  readonly label: string;
  readonly icon: IconName;
}

/**
 * The side navigation's links in table order; the admin-only ones only for an admin, and those for a call only when
 * `may` make it (the current workspace role's; every link without it).
 */
export const navEntries = (showAdmin: boolean, may: (id: RouteId) => boolean = () => true): NavEntry[] =>
  PAGES.flatMap((page) =>
    page.nav && (showAdmin || page.access !== 'admin') && (!page.navNeeds || may(page.navNeeds))
      ? [{ path: page.path, ...page.nav }]
      : [],
  );
