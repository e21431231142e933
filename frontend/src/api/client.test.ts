import { describe, expect, expectTypeOf, it, vi } from 'vitest';
import type { Setting } from '@app/shared';
import type { ArticleAnswer } from '@app/shared/api';
import { ApiError, errorText, request, routeUrl, setUnauthorizedHandler } from './client';
import { makeArticle } from '../test/articles';
import { makeUser, mockApi } from '../test/utils';

describe('request', () => {
  it('calls the route with the method and path of the table, JSON body and credentials, and returns the parsed body', async () => {
    const user = makeUser({ _id: 'a b/1' });
    const { fetchMock, requests } = mockApi({ 'admin.setUserStatus': { user, message: 'Activated' } });
    await expect(
      request('admin.setUserStatus', { params: { id: 'a b/1' }, body: { isActive: true } }),
    ).resolves.toEqual({
      user,
      message: 'Activated',
    });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/admin/users/a%20b%2F1/status');
    expect(init).toMatchObject({ method: 'PATCH', credentials: 'include', body: '{"isActive":true}' });
    expect(init!.headers).toMatchObject({ 'Content-Type': 'application/json', Accept: 'application/json' });
    expect(requests[0]).toMatchObject({ route: 'admin.setUserStatus', params: { id: 'a b/1' } });
  });

  it('sends no body and no Content-Type when the route takes none, and the abort signal when given', async () => {
    const { fetchMock } = mockApi({ 'articles.retryGeneration': { success: true, article: makeArticle() } });
    const controller = new AbortController();
    await request('articles.retryGeneration', { params: { id: 'a1' } }, { signal: controller.signal });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/articles/a1/generate');
    expect(init).toMatchObject({ method: 'POST', body: undefined, signal: controller.signal });
    expect(init!.headers).not.toHaveProperty('Content-Type');
  });

  it('puts the query into the search string, leaving out what is undefined', async () => {
    const { requests } = mockApi({
      'settings.list': [],
      'linkedin.authUrl': { success: true, authUrl: 'https://www.linkedin.com/x' },
      'sheets.authUrl': { success: true, authUrl: 'https://accounts.google.com/x' },
    });
    await request('settings.list', { query: { mask: 'false' } });
    await request('linkedin.authUrl', {
      query: { redirectUri: 'http://localhost:3000/api/linkedin/callback', pages: 'true' },
    });
    await request('sheets.authUrl', { query: { access: undefined } });
    await request('sheets.authUrl');
    expect(requests.map((r) => r.path)).toEqual([
      '/api/settings?mask=false',
      '/api/linkedin/auth-url?redirectUri=http%3A%2F%2Flocalhost%3A3000%2Fapi%2Flinkedin%2Fcallback&pages=true',
      '/api/sheets/auth',
      '/api/sheets/auth',
    ]);
  });

  it("answers the route's type and takes its input type", () => {
    expectTypeOf(request<'articles.get'>).returns.resolves.toEqualTypeOf<ArticleAnswer>();
    expectTypeOf(request<'settings.list'>).returns.resolves.toEqualTypeOf<Setting[]>();
    // Never called: tsc checks that each of these calls is refused.
    expectTypeOf(() => {
      // @ts-expect-error: articles.get needs its params
      void request('articles.get');
      // @ts-expect-error: the image preview is bytes, loaded by its URL (routeUrl)
      void request('images.preview', { params: { articleId: 'a1' } });
      // @ts-expect-error: a body of another shape
      void request('admin.setUserStatus', { params: { id: 'u1' }, body: { active: true } });
      // @ts-expect-error: a JSON route is called with request()
      routeUrl('articles.list');
    }).toBeFunction();
  });

  it('throws ApiError with status, error, message and code from failures', async () => {
    mockApi({ 'articles.list': { status: 429, body: { error: 'E', message: 'M', code: 'insufficient_quota' } } });
    const err = await request('articles.list').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 429, error: 'E', serverMessage: 'M', code: 'insufficient_quota' });
    expect(errorText(err, 'fallback', 'error')).toBe('E');
    expect(errorText(err, 'fallback', 'message')).toBe('M');
    expect(errorText(new TypeError('network'), 'fallback')).toBe('fallback');
    expect(errorText(new ApiError(500, 'oops'), 'fallback', 'error')).toBe('fallback');
  });

  it('reports a 401 outside /api/auth/ as an ended session', async () => {
    const notSignedIn = { status: 401, body: { error: 'Not authenticated', message: 'Not authenticated' } };
    mockApi({ 'articles.list': notSignedIn, 'auth.me': notSignedIn });
    const handler = vi.fn();
    const off = setUnauthorizedHandler(handler);
    await expect(request('auth.me')).rejects.toBeInstanceOf(ApiError);
    expect(handler).not.toHaveBeenCalled();
    await expect(request('articles.list')).rejects.toMatchObject({ status: 401 });
    expect(handler).toHaveBeenCalledWith('/api/articles');
    off();
  });
});

describe('routeUrl', () => {
  it('builds the address of a route the browser loads itself', () => {
    expect(
      routeUrl('images.preview', {
        params: { articleId: 'a 1' },
        query: { platform: 'blog', t: '2025-03-01T11:00:00Z' },
      }),
    ).toBe('/api/image/preview/a%201?platform=blog&t=2025-03-01T11%3A00%3A00Z');
    expect(routeUrl('linkedin.callback')).toBe('/api/linkedin/callback');
  });
});
