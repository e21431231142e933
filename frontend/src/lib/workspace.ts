import { WORKSPACE_COOKIE } from '@app/shared/workspace-names';

/**
 * The current workspace (docs/product.md, Workspaces): the switcher sets it, the API client sends it as
 * X-Workspace with every call (api/client.ts), and a cookie carries it for what the browser loads by
 * itself (the images the pages show). Undefined: the personal workspace, as for a user alone, who
 * sends no header. Kept in localStorage, so a reload stays in the workspace.
 */
const STORAGE_KEY = 'workspace';
const listeners = new Set<() => void>();

function readStored(): string | undefined {
  try {
    return window.localStorage.getItem(STORAGE_KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

let current: string | undefined = typeof window === 'undefined' ? undefined : readStored();

function writeCookie(id: string | undefined): void {
  if (typeof document === 'undefined') return;
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = id
    ? `${WORKSPACE_COOKIE}=${encodeURIComponent(id)}; Path=/api; SameSite=Strict${secure}`
    : `${WORKSPACE_COOKIE}=; Path=/api; Max-Age=0; SameSite=Strict${secure}`;
}
if (current) writeCookie(current);

export const currentWorkspaceId = (): string | undefined => current;

/** Switches the workspace every later call acts in (undefined: the personal one). */
export function setCurrentWorkspaceId(id: string | undefined): void {
  if (id === current) return;
  current = id;
  try {
    if (id) window.localStorage.setItem(STORAGE_KEY, id);
    else window.localStorage.removeItem(STORAGE_KEY);
  } catch {
    // Storage unavailable (private mode): the choice lasts until the page is reloaded.
  }
  writeCookie(id);
  for (const listener of listeners) listener();
}

export function subscribeWorkspace(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
