import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  findRouteByKey,
  matchRoute,
  routeById,
  routeGroup,
  routeKey,
  routePath,
  routes,
  type ApiResponses,
  type ArticleAnswer,
  type JsonRouteId,
  type Redirect,
  type RouteId,
  type RouteInput,
  type RouteParsedInput,
  type RouteResponse,
} from '../src/api/index.js';

describe('route table', () => {
  it('has unique ids and unique method+path pairs, all under /api', () => {
    expect(new Set(routes.map((r) => r.id)).size).toBe(routes.length);
    expect(new Set(routes.map(routeKey)).size).toBe(routes.length);
    for (const r of routes) expect(r.path.startsWith('/api/'), r.id).toBe(true);
  });

  it('validates the path parameters of every route that has them, and names each one in its schema', () => {
    for (const r of routes) {
      const names = [...r.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
      if (!names.length) continue;
      expect('params' in r, r.id).toBe(true);
      const sample = Object.fromEntries(names.map((n) => [n, 'abc-123']));
      expect('params' in r && r.params().safeParse(sample).success, r.id).toBe(true);
    }
  });

  it('matches paths the way API Gateway does', () => {
    const m = matchRoute('PATCH', '/api/admin/users/abc-123/status');
    expect(m && 'route' in m && m.route.id).toBe('admin.setUserStatus');
    expect(m && 'params' in m && m.params).toEqual({ id: 'abc-123' });
    expect(matchRoute('GET', '/api/admin/users/abc/status')).toEqual({ methodNotAllowed: true });
    expect(matchRoute('GET', '/api/admin/users/a/b/status')).toBeUndefined();
    expect(matchRoute('GET', '/api/articles/%ZZ')).toEqual({ malformedPath: true });
    expect(routeGroup({ id: 'auth.login' })).toBe('auth');
    const literal = matchRoute('GET', '/api/articles/unpublished');
    expect(literal && 'route' in literal && literal.route.id).toBe('articles.unpublished');
    const param = matchRoute('GET', '/api/articles/abc');
    expect(param && 'route' in param && param.route.id).toBe('articles.get');
  });

  it('finds an entry by its API Gateway route key and by its id', () => {
    expect(findRouteByKey('GET /api/articles/{id}')?.id).toBe('articles.get');
    expect(findRouteByKey('GET /api/nothing')).toBeUndefined();
    expect(routeById('settings.delete')).toMatchObject({ method: 'DELETE', path: '/api/settings/{key}' });
  });
});

describe('routePath', () => {
  it('puts each parameter, URI-encoded, into its {name} segment', () => {
    expect(routePath(routeById('articles.get'), { id: 'a1' })).toBe('/api/articles/a1');
    expect(routePath(routeById('settings.delete'), { key: 'my key/1?x=é' })).toBe(
      '/api/settings/my%20key%2F1%3Fx%3D%C3%A9',
    );
    expect(routePath(routeById('images.preview'), { articleId: 'x' })).toBe('/api/image/preview/x');
    expect(routePath(routeById('auth.me'))).toBe('/api/auth/me');
  });

  it('builds a path that matchRoute takes back to the same route and parameters', () => {
    for (const r of routes) {
      const names = [...r.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
      const params = Object.fromEntries(names.map((n) => [n, `${n} #1/ü`]));
      const match = matchRoute(r.method, routePath(r, params));
      expect(match && 'route' in match && match.route.id, r.id).toBe(r.id);
      expect(match && 'params' in match && match.params, r.id).toEqual(params);
    }
  });

  it('refuses to build a path with a parameter missing', () => {
    expect(() => routePath(routeById('articles.get'), {})).toThrow('{id}');
  });
});

describe('the contract types', () => {
  it('ApiResponses names exactly the routes of the table', () => {
    expectTypeOf<keyof ApiResponses>().toEqualTypeOf<RouteId>();
    expectTypeOf<RouteResponse<'articles.get'>>().toEqualTypeOf<ArticleAnswer>();
    expectTypeOf<RouteResponse<'images.preview'>>().toEqualTypeOf<Redirect>();
    expectTypeOf<RouteResponse<'linkedin.callback'>>().toEqualTypeOf<Redirect>();
  });

  it('JsonRouteId leaves out the redirects (the OAuth callbacks and the image files)', () => {
    expectTypeOf<Exclude<RouteId, JsonRouteId>>().toEqualTypeOf<
      | 'images.preview'
      | 'images.original'
      | 'approvals.image'
      | 'approvals.reviewImage'
      | 'linkedin.callback'
      | 'email.callback'
      | 'sheets.callback'
    >();
  });

  it('RouteInput has a part only where the route has a schema for it, required unless all its fields are optional', () => {
    expectTypeOf<keyof RouteInput<'auth.me'>>().toEqualTypeOf<never>();
    expectTypeOf<RouteInput<'articles.get'>>().toEqualTypeOf<{ params: { id: string } }>();
    expectTypeOf<RouteInput<'admin.setUserStatus'>>().toEqualTypeOf<{
      params: { id: string };
      body: { isActive: boolean };
    }>();
    // Every field of the settings query is optional, so the query may be left out.
    expectTypeOf<RouteInput<'settings.list'>>().toEqualTypeOf<{ query?: { mask?: 'true' | 'false' | undefined } }>();
    // z.input: a field with a default may be left out by the caller.
    expectTypeOf<RouteInput<'email.test'>['body']>().toHaveProperty('method').toEqualTypeOf<'gmail' | undefined>();
  });

  it('RouteParsedInput gives a handler the parsed values (z.output: defaults applied)', () => {
    expectTypeOf<RouteParsedInput<'settings.list'>>().toEqualTypeOf<{ query: { mask: 'true' | 'false' } }>();
    expectTypeOf<RouteParsedInput<'email.test'>['body']['method']>().toEqualTypeOf<'gmail'>();
    expectTypeOf<keyof RouteParsedInput<'auth.me'>>().toEqualTypeOf<never>();
  });
});
