import { describe, expect, it, vi } from 'vitest';
import { ApiError, api, errorText, setUnauthorizedHandler } from './client';
import { mockApi } from '../test/utils';

describe('api client', () => {
  it('sends JSON with credentials and returns the parsed body', async () => {
    const { fetchMock } = mockApi({ 'POST /api/things': { status: 201, body: { ok: true } } });
    await expect(api.post('/things', { a: 1 })).resolves.toEqual({ ok: true });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/things');
    expect(init).toMatchObject({ method: 'POST', credentials: 'include', body: '{"a":1}' });
    expect((init as RequestInit).headers).toMatchObject({ 'Content-Type': 'application/json' });
  });

  it('throws ApiError with status, error, message and code from failures', async () => {
    mockApi({ 'GET /api/x': { status: 429, body: { error: 'E', message: 'M', code: 'insufficient_quota' } } });
    const err = await api.get('/x').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 429, error: 'E', serverMessage: 'M', code: 'insufficient_quota' });
    expect(errorText(err, 'fallback', 'error')).toBe('E');
    expect(errorText(err, 'fallback', 'message')).toBe('M');
    expect(errorText(new TypeError('network'), 'fallback')).toBe('fallback');
    expect(errorText(new ApiError(500, 'oops'), 'fallback', 'error')).toBe('fallback');
  });

  it('reports a 401 outside /auth as an ended session', async () => {
    mockApi({
      'GET /api/articles': { status: 401, body: { error: 'Not authenticated' } },
      'GET /api/auth/me': { status: 401, body: { error: 'Not authenticated' } },
    });
    const handler = vi.fn();
    const off = setUnauthorizedHandler(handler);
    await expect(api.get('/auth/me')).rejects.toBeInstanceOf(ApiError);
    expect(handler).not.toHaveBeenCalled();
    await expect(api.get('/articles')).rejects.toMatchObject({ status: 401 });
    expect(handler).toHaveBeenCalledWith('/articles');
    off();
  });
});
