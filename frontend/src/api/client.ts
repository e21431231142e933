/**
 * The one fetch client of the SPA: a call names a route of the table (shared/src/api/routes.ts), which
 * gives its method and path; it answers the route's type (shared/src/api/responses.ts). JSON in and out,
 * cookies always sent, failures thrown as ApiError. Error bodies are `{error, message, code?}`
 * (ApiErrorBody); authentication screens read `error`, the others read `message` (docs/product.md,
 * Texts), so both are kept.
 */
import type { HttpMethod, JsonRouteId, RouteId, RouteInput, RouteResponse } from '@app/shared/api';
// Not from '@app/shared/api': that module graph holds the table's schemas (frontend/vite.config.ts says why).
import { routePath } from '@app/shared/api/path';
import { currentWorkspaceId, setCurrentWorkspaceId } from '../lib/workspace';

/** Each route's method and path, compiled in from the route table (frontend/vite.config.ts says why). */
declare const __API_ROUTES__: Readonly<Record<RouteId, { method: HttpMethod; path: string }>>;
// One reference: Vite pastes the constant's value wherever it is named.
const apiRoutes = __API_ROUTES__;

export const API_BASE = '/api';

export class ApiError extends Error {
  readonly status: number;
  /** The body's `error` text, if any. */
  readonly error?: string;
  /** The body's `message` text, if any. */
  readonly serverMessage?: string;
  readonly code?: string;
  readonly body: unknown;

  constructor(status: number, body: unknown) {
    const record = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
    const text = (key: string) => {
      const value = record[key];
      return typeof value === 'string' && value.trim() ? value : undefined;
    };
    const error = text('error');
    const serverMessage = text('message');
    super(serverMessage ?? error ?? `Request failed with status ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.error = error;
    this.serverMessage = serverMessage;
    this.code = text('code') ?? text('type');
    this.body = body;
  }
}

/**
 * The text to show for a failed call: the server's `error` (auth and admin calls) or `message`
 * (other calls) field, else the screen's own fallback. Network failures always get the fallback.
 */
export function errorText(err: unknown, fallback: string, field: 'error' | 'message' = 'message'): string {
  if (err instanceof ApiError) {
    const text = field === 'error' ? err.error : err.serverMessage;
    if (text) return text;
  }
  return fallback;
}

type UnauthorizedHandler = (path: string) => void;
let unauthorizedHandler: UnauthorizedHandler | null = null;

/**
 * Called when a call outside /api/auth/ answers 401: the session has ended (logged out elsewhere or
 * deactivated by an admin). Returns an unregister function.
 */
export function setUnauthorizedHandler(handler: UnauthorizedHandler): () => void {
  unauthorizedHandler = handler;
  return () => {
    if (unauthorizedHandler === handler) unauthorizedHandler = null;
  };
}

export interface RequestOptions {
  signal?: AbortSignal;
}

async function readBody(res: Response): Promise<unknown> {
  if (res.status === 204) return null;
  const text = await res.text();
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** The input argument of route K: optional when the route needs nothing (or only optional parts). */
type InputArgs<K extends RouteId> = object extends RouteInput<K> ? [input?: RouteInput<K>] : [input: RouteInput<K>];

/** Any route's input, for building the request (RouteInput<K> is one of these). */
interface AnyInput {
  params?: Record<string, string>;
  query?: Record<string, string | undefined>;
  body?: unknown;
}

function urlOf(id: RouteId, { params, query }: AnyInput = {}): string {
  const path = routePath(apiRoutes[id], params);
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) if (value !== undefined) search.append(name, value);
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}

/**
 * The address of a route the browser loads itself rather than fetching JSON: the image preview
 * (an `<img src>`) and the OAuth callbacks (the redirect URIs registered with the providers).
 */
export function routeUrl<K extends Exclude<RouteId, JsonRouteId>>(id: K, ...[input]: InputArgs<K>): string {
  return urlOf(id, input as AnyInput | undefined);
}

/**
 * Calls route `id` with its params, query and body, and answers the route's success body; a
 * failure throws ApiError. `request('articles.get', { params: { id } })`.
 */
export async function request<K extends JsonRouteId>(
  id: K,
  ...args: [...InputArgs<K>, options?: RequestOptions]
): Promise<RouteResponse<K>> {
  const [input, options = {}] = args as unknown as [AnyInput?, RequestOptions?];
  const { method } = apiRoutes[id];
  const url = urlOf(id, input);
  const body = input?.body;
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  // The current workspace (lib/workspace.ts); none: the personal one.
  const workspace = currentWorkspaceId();
  if (workspace) headers['X-Workspace'] = workspace;
  const res = await fetch(url, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'include',
    signal: options.signal,
  });
  const data = await readBody(res);
  if (!res.ok) {
    // A 401 of a sign-in call is a wrong password, not an ended session.
    if (res.status === 401 && !url.startsWith(`${API_BASE}/auth/`)) unauthorizedHandler?.(url);
    const error = new ApiError(res.status, data);
    // Removed from the workspace (or it is gone): back to the personal one; the switcher says so.
    if (error.code === 'workspace_not_found' && workspace && currentWorkspaceId() === workspace)
      setCurrentWorkspaceId(undefined);
    throw error;
  }
  return data as RouteResponse<K>;
}
