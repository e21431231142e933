import type { ReactElement, ReactNode } from 'react';
import { render } from '@testing-library/react';
import { MemoryRouter, useLocation, useNavigationType } from 'react-router-dom';
import { QueryClient } from '@tanstack/react-query';
import { vi, type Mock } from 'vitest';
import type { PublicUser } from '@app/shared';
import {
  matchRoute,
  type ApiErrorBody,
  type JsonRouteId,
  type RouteId,
  type RouteInput,
  type RouteResponse,
} from '@app/shared/api';
import { AppProviders } from '../AppProviders';

export interface RecordedRequest {
  method: string;
  /** The path with its query string, as fetched. */
  path: string;
  /** The table's route the request matched (undefined for an address that is no route). */
  route: RouteId | undefined;
  /** The route's `{name}` segments, decoded. */
  params: Record<string, string>;
  body: unknown;
  credentials: RequestCredentials | undefined;
}

/** A failure: the status and the API's error body, or null for one without it (a gateway's, a proxy's). */
export interface ErrorReply {
  status: number;
  body: ApiErrorBody | null;
}

/** What route K answers in a test: its success body (status 200), or a failure. */
export type Reply<K extends JsonRouteId> = RouteResponse<K> | ErrorReply;
/** A request of route K, its body typed as the route takes it. */
export type MockRequest<K extends JsonRouteId> = Omit<RecordedRequest, 'body'> & {
  body: RouteInput<K> extends { body?: infer B } ? B : undefined;
};
type Handler<K extends JsonRouteId> = Reply<K> | ((request: MockRequest<K>) => Reply<K> | Promise<Reply<K>>);

/** Replies by route id: a change of a route's answer type breaks the tests that mock it. */
export type MockRoutes = { [K in JsonRouteId]?: Handler<K> };

const isErrorReply = (reply: unknown): reply is ErrorReply =>
  !!reply &&
  typeof reply === 'object' &&
  Object.keys(reply).length === 2 &&
  typeof (reply as ErrorReply).status === 'number' &&
  (reply as ErrorReply).status >= 400 &&
  typeof (reply as ErrorReply).body === 'object';

const notFound: ErrorReply = { status: 404, body: { error: 'Not found', message: 'Not found' } };

/**
 * Replaces fetch with replies by route id, matched with the route table (matchRoute), e.g.
 * `mockApi({ 'articles.list': { articles: [] }, 'auth.me': { status: 401, body: {...} } })`.
 * A reply is the route's answer or a function of the request. Unknown calls answer 404, so a test
 * notices a request it did not expect. Returns the mock and the list of requests sent.
 */
export function mockApi(routes: MockRoutes): MockedApi {
  const requests: RecordedRequest[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const path = url.replace(/^https?:\/\/[^/]+/, '');
    const method = (init.method ?? 'GET').toUpperCase();
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    const match = matchRoute(method, path.split('?')[0]!);
    const matched = match && 'route' in match ? match : undefined;
    const request: RecordedRequest = {
      method,
      path,
      route: matched?.route.id as RouteId | undefined,
      params: matched?.params ?? {},
      body,
      credentials: init.credentials,
    };
    requests.push(request);
    const handler = request.route && (routes as Record<string, unknown>)[request.route];
    const reply: unknown = !handler ? notFound : typeof handler === 'function' ? await handler(request) : handler;
    return isErrorReply(reply) ? jsonResponse(reply.status, reply.body ?? undefined) : jsonResponse(200, reply);
  });
  vi.stubGlobal('fetch', fetchMock);
  return { fetchMock, requests };
}

interface MockedApi {
  fetchMock: Mock<typeof fetch>;
  requests: RecordedRequest[];
}

const jsonResponse = (status: number, body: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });

/** A promise whose settling the test controls: for "while pending" states. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

export function LocationProbe() {
  const location = useLocation();
  const navigationType = useNavigationType();
  return (
    <output data-testid="location" data-navigation={navigationType}>
      {location.pathname + location.search}
    </output>
  );
}

export function makeUser(overrides: Partial<PublicUser> = {}): PublicUser {
  return {
    _id: 'u1',
    name: 'Jane',
    surname: 'Doe',
    email: 'jane@example.com',
    role: 'user',
    isActive: true,
    timezone: 'UTC',
    createdAt: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}

export function renderWithProviders(ui: ReactElement, { route = '/' }: { route?: string } = {}) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false, gcTime: Infinity }, mutations: { retry: false } },
  });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <AppProviders queryClient={queryClient}>
      <MemoryRouter initialEntries={[route]}>
        {children}
        <LocationProbe />
      </MemoryRouter>
    </AppProviders>
  );
  return { queryClient, ...render(ui, { wrapper }) };
}

/** A controllable `matchMedia('(prefers-color-scheme: dark)')`. */
export function mockColorScheme(initialDark: boolean) {
  let dark = initialDark;
  const listeners = new Set<(event: MediaQueryListEvent) => void>();
  const matchMedia = vi.fn((query: string) => {
    const isDarkQuery = query.includes('prefers-color-scheme: dark');
    return {
      get matches() {
        return isDarkQuery ? dark : false;
      },
      media: query,
      onchange: null,
      addEventListener: (_type: string, listener: (event: MediaQueryListEvent) => void) => listeners.add(listener),
      removeEventListener: (_type: string, listener: (event: MediaQueryListEvent) => void) =>
        listeners.delete(listener),
      addListener: (listener: (event: MediaQueryListEvent) => void) => listeners.add(listener),
      removeListener: (listener: (event: MediaQueryListEvent) => void) => listeners.delete(listener),
      dispatchEvent: () => true,
    } as unknown as MediaQueryList;
  });
  vi.stubGlobal('matchMedia', matchMedia);
  return {
    setDark(next: boolean) {
      dark = next;
      for (const listener of [...listeners])
        listener({ matches: next, media: '(prefers-color-scheme: dark)' } as MediaQueryListEvent);
    },
    listenerCount: () => listeners.size,
  };
}
