import { useLayoutEffect, useRef } from 'react';
import { useLocation, useNavigationType } from 'react-router-dom';

/** Where each history entry was scrolled to, kept over a reload of the tab (sessionStorage, as the browser does). */
const STORAGE_KEY = 'app-scroll-positions';
/** The entries kept over a reload: the latest ones. */
const STORED_ENTRIES = 50;
/** How long going back waits for the page to grow tall enough again (its chunk and data arriving). */
const RESTORE_WAIT_MS = 2000;
/** What the person does to scroll: any of it ends a restore under way, so it never fights them. */
const USER_SCROLL_EVENTS = ['wheel', 'touchstart', 'keydown', 'mousedown'] as const;

function readStored(): Map<string, number> {
  try {
    const parsed: unknown = JSON.parse(window.sessionStorage.getItem(STORAGE_KEY) ?? '[]');
    if (!Array.isArray(parsed)) return new Map();
    return new Map(
      parsed.filter(
        (entry): entry is [string, number] =>
          Array.isArray(entry) && typeof entry[0] === 'string' && Number.isFinite(entry[1]),
      ),
    );
  } catch {
    return new Map();
  }
}

let positions: Map<string, number> | undefined;
const stored = () => (positions ??= readStored());

function persist(): void {
  try {
    window.sessionStorage.setItem(STORAGE_KEY, JSON.stringify([...stored()].slice(-STORED_ENTRIES)));
  } catch {
    // Storage unavailable: positions are kept for this page's life only.
  }
}

function scrollToY(top: number): void {
  if (Math.abs(window.scrollY - top) > 1) window.scrollTo({ top, left: 0, behavior: 'instant' });
}

/** Scrolls back to `top` as soon as the page is tall enough, within RESTORE_WAIT_MS; returns how to stop trying. */
function restore(top: number): () => void {
  scrollToY(top);
  if (top <= 0) return () => undefined;
  const until = performance.now() + RESTORE_WAIT_MS;
  let frame = 0;
  const stop = () => {
    cancelAnimationFrame(frame);
    for (const type of USER_SCROLL_EVENTS) window.removeEventListener(type, stop);
  };
  const attempt = () => {
    scrollToY(top);
    if (Math.abs(window.scrollY - top) <= 1 || performance.now() > until) stop();
    else frame = requestAnimationFrame(attempt);
  };
  for (const type of USER_SCROLL_EVENTS) window.addEventListener(type, stop, { passive: true });
  frame = requestAnimationFrame(attempt);
  return stop;
}

/**
 * How the document was loaded: a reload or the browser's Back/Forward to it keeps its place; a link or an address
 * typed in the same tab ('navigate') is a new page. Without the timing entry (older browsers), as a reload.
 */
function documentRestores(): boolean {
  const entry = performance.getEntriesByType?.('navigation')[0] as PerformanceNavigationTiming | undefined;
  return entry?.type !== 'navigate';
}

/**
 * Where an entry's place is kept: its history key, which the router gives each entry it makes. The entry a document
 * was loaded into has none ('default', in every document of the tab), so its address tells it apart: a page
 * opened by address does not take the place another document's first page was scrolled to.
 */
const entryKey = ({ key, pathname, search }: { key: string; pathname: string; search: string }) =>
  key === 'default' ? `default:${pathname}${search}` : key;

/**
 * A new page opens at the top; Back and Forward (and a reload) return to where that history entry was
 * scrolled. The browser's own restoration is turned off: it acts on popstate, before the page it goes back to
 * is rendered. A change of the query alone (a modal's `?articleId=`, the calendar's `?date=`) keeps the scroll;
 * an address with a #fragment is left to the browser.
 */
export function useScrollRestoration(): void {
  const location = useLocation();
  const navigationType = useNavigationType();
  const shownPath = useRef<string | null>(null);
  // The document's first location: a POP there is the page load itself, not the router's Back or Forward.
  const loadedAt = useRef(location);

  useLayoutEffect(() => {
    const before = window.history.scrollRestoration;
    window.history.scrollRestoration = 'manual';
    window.addEventListener('pagehide', persist);
    return () => {
      window.history.scrollRestoration = before;
      window.removeEventListener('pagehide', persist);
    };
  }, []);

  useLayoutEffect(() => {
    const { pathname, hash } = location;
    const key = entryKey(location);
    const samePage = shownPath.current === pathname;
    shownPath.current = pathname;
    const pageLoad = location === loadedAt.current;
    let stopRestoring = () => undefined as void;
    if (!hash) {
      const restores = navigationType === 'POP' && (!pageLoad || documentRestores());
      if (restores) stopRestoring = restore(stored().get(key) ?? 0);
      else if (!samePage || pageLoad) scrollToY(0);
    }
    // Removed in the same commit that shows the next page: its scrolling (even a clamp) is not this entry's.
    const remember = () => void stored().set(key, window.scrollY);
    window.addEventListener('scroll', remember, { passive: true });
    return () => {
      window.removeEventListener('scroll', remember);
      stopRestoring();
    };
  }, [location, navigationType]);
}
