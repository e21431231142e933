import { describe, expect, it } from 'vitest';
import { groupHandlers } from '../src/lambda/index.js';
import { handlers as authHandlers } from '../src/http/auth.js';
import { handlers as adminHandlers } from '../src/http/admin.js';
import { handlers as articleHandlers } from '../src/http/articles.js';
import { handlers as imageHandlers } from '../src/http/images.js';
import { handlers as settingHandlers } from '../src/http/settings.js';
import { handlers as wordpressHandlers } from '../src/http/wordpress.js';
import { handlers as linkedinHandlers } from '../src/http/linkedin.js';
import { handlers as emailHandlers } from '../src/http/email.js';
import { handlers as scheduleHandlers } from '../src/http/schedule.js';
import { handlers as approvalHandlers } from '../src/http/approvals.js';
import { handlers as sheetsHandlers } from '../src/http/sheets.js';
import { matchRoute, routeGroup, routeGroups, routes } from '../src/routes.js';

describe('route table', () => {
  it('has a Lambda entry for every group and a handler for every route', () => {
    const all = { ...authHandlers, ...adminHandlers, ...articleHandlers, ...imageHandlers, ...settingHandlers, ...wordpressHandlers, ...linkedinHandlers, ...emailHandlers, ...scheduleHandlers, ...approvalHandlers, ...sheetsHandlers };
    for (const group of routeGroups()) expect(groupHandlers[group], group).toBeTypeOf('function');
    for (const route of routes) expect(all[route.id], route.id).toBeTypeOf('function');
    expect(Object.keys(all).sort()).toEqual(routes.map((r) => r.id).sort());
  });

  it('has unique ids and unique method+path pairs, all under /api', () => {
    expect(new Set(routes.map((r) => r.id)).size).toBe(routes.length);
    expect(new Set(routes.map((r) => `${r.method} ${r.path}`)).size).toBe(routes.length);
    for (const r of routes) expect(r.path.startsWith('/api/')).toBe(true);
  });

  it('validates the path parameters of every route that has them', () => {
    for (const r of routes) if (r.path.includes('{')) expect('params' in r, r.id).toBe(true);
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
});
