/**
 * The calls a page opened directly (a bookmark, a reload) needs, started by main.tsx with the app's first
 * module instead of after the session check and the page's first render: on a throttled phone the dashboard's
 * call waited for both (a round trip and ~0.4 s of rendering) and then queued behind the page's own chunks
 * (docs/testing.md, Performance budgets: Lighthouse on the dashboard). This module is in the entry chunk.
 */
import type { ApiResponses } from '@app/shared/api';
import { request } from './client';
import { currentWorkspaceId } from '../lib/workspace';
import { signedInPageUnder } from '../pages/pageTable';

type DashboardAnswer = ApiResponses['dashboard.get'];

/**
 * The time zone the dashboard last asked in (the user's, lib/userTime.ts), kept while signed in (App.tsx removes it
 * when signed out): the dashboard's call names it, and the user's zone is known only once the session check answers.
 */
export const LAST_TIME_ZONE = 'app-time-zone';

/** Keeps (or, with null, forgets) the zone the dashboard asked in. */
export function rememberTimeZone(timeZone: string | null): void {
  try {
    if (timeZone) window.localStorage.setItem(LAST_TIME_ZONE, timeZone);
    else window.localStorage.removeItem(LAST_TIME_ZONE);
  } catch {
    // Storage unavailable (private mode): the dashboard asks once the session check has answered.
  }
}

/** The dashboard's call started with the app, until the page takes it. */
let started:
  { timeZone: string; workspace: string | undefined; at: number; answer: Promise<DashboardAnswer> } | undefined;

/**
 * An early answer older than this is not the page's: the page opened directly takes it within a second or two; one
 * left untaken (another page shown first: a sign-in, a redirect) would show figures from before the user's own changes.
 */
export const STARTED_CALL_MAX_AGE_MS = 10_000;

const fetchDashboard = (timeZone: string) => request('dashboard.get', { query: { timeZone } });

/**
 * For the dashboard opened in a browser whose last session was signed in: its call, in the zone that session's pages
 * showed, started before the page's code is fetched (App.tsx, preloadPage) and beside the session check.
 */
export function startPageCalls(pathname: string): void {
  if (signedInPageUnder(pathname)?.path !== '/dashboard') return;
  let timeZone: string | null = null;
  try {
    timeZone = window.localStorage.getItem(LAST_TIME_ZONE);
  } catch {
    // Storage unavailable (private mode): the page asks once the session check has answered.
  }
  if (!timeZone) return;
  const answer = fetchDashboard(timeZone);
  // The page reports a failure when it takes the call; until then a rejection is not unhandled.
  answer.catch(() => undefined);
  started = { timeZone, workspace: currentWorkspaceId(), at: Date.now(), answer };
}

/**
 * GET /api/dashboard for the page (pages/Dashboard.tsx): the call started with the app when it asked the same (zone
 * and workspace) less than STARTED_CALL_MAX_AGE_MS ago, else a new one. Taken once either way: a later visit asks anew.
 */
export function dashboardCall(timeZone: string): Promise<DashboardAnswer> {
  const early = started;
  started = undefined;
  if (
    early &&
    early.timeZone === timeZone &&
    early.workspace === currentWorkspaceId() &&
    Date.now() - early.at < STARTED_CALL_MAX_AGE_MS
  )
    return early.answer;
  return fetchDashboard(timeZone);
}

/** A new session (signed in, out, another user): a call started for the previous one is not its answer. */
export function dropStartedCalls(): void {
  started = undefined;
}
