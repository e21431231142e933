import type { ReactElement, ReactNode } from 'react';
import { render } from '@testing-library/react';
import { MemoryRouter, useLocation, useNavigationType } from 'react-router-dom';
import { QueryClient } from '@tanstack/react-query';
import { vi } from 'vitest';
import type { PublicUser } from '@app/shared';
import { AppProviders } from '../AppProviders';

export interface RecordedRequest {
  method: string;
  path: string;
  body: unknown;
  credentials: RequestCredentials | undefined;
}

export interface MockReply {
  status?: number;
  body?: unknown;
}

type Handler = MockReply | ((request: RecordedRequest) => MockReply | Promise<MockReply>);

/**
 * Replaces fetch with a table of `"METHOD /api/path"` → reply. Unknown calls answer 404, so a
 * test notices a request it did not expect. Returns the mock and the list of requests sent.
 */
export function mockApi(routes: Record<string, Handler>) {
  const requests: RecordedRequest[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const path = url.replace(/^https?:\/\/[^/]+/, '');
    const method = (init.method ?? 'GET').toUpperCase();
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    const request: RecordedRequest = { method, path, body, credentials: init.credentials };
    requests.push(request);
    const handler = routes[`${method} ${path}`];
    const reply: MockReply = !handler
      ? { status: 404, body: { error: 'Not found', message: 'Not found' } }
      : typeof handler === 'function'
        ? await handler(request)
        : handler;
    const status = reply.status ?? 200;
    return new Response(reply.body === undefined ? null : JSON.stringify(reply.body), {
      status,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { fetchMock, requests };
}

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
      for (const listener of [...listeners]) listener({ matches: next, media: '(prefers-color-scheme: dark)' } as MediaQueryListEvent);
    },
    listenerCount: () => listeners.size,
  };
}
