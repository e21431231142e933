import type { ArticleAnswer, Redirect } from '@app/shared/api';
import { describe, expectTypeOf, it } from 'vitest';
import type { UserRecord } from '../src/domain/users.js';
import { defineHandlers, type RouteHandler, type RouteRequest } from '../src/http/handlers.js';
import { handlers as approvalHandlers } from '../src/http/approvals.js';
import { json, type Reply } from '../src/http/response.js';

const never = async (): Promise<never> => {
  throw new Error('not called');
};

/**
 * The handlers' contract is checked by the compiler (tsc -p functions): each @ts-expect-error below
 * fails the type check when the mistake it marks stops being one.
 */
describe('typed route handlers (compile-time)', () => {
  it('a handler gets its route’s parsed input and the user its access guarantees', () => {
    expectTypeOf<RouteRequest<'articles.get'>['params']>().toEqualTypeOf<{ id: string }>();
    expectTypeOf<RouteRequest<'settings.list'>['query']>().toEqualTypeOf<{ mask: 'true' | 'false' }>();
    expectTypeOf<RouteRequest<'articles.get'>['user']>().toEqualTypeOf<UserRecord>();
    expectTypeOf<RouteRequest<'auth.logout'>['user']>().toEqualTypeOf<UserRecord | undefined>();
    expectTypeOf<RouteRequest<'auth.me'>>().not.toHaveProperty('body');
    expectTypeOf<ReturnType<RouteHandler<'articles.get'>>>().toEqualTypeOf<Promise<Reply<ArticleAnswer>>>();
    expectTypeOf<ReturnType<RouteHandler<'email.callback'>>>().toEqualTypeOf<Promise<Reply<Redirect>>>();
  });

  it('a group’s handlers are exactly its routes', () => {
    expectTypeOf(approvalHandlers).toHaveProperty('approvals.confirm');
    // @ts-expect-error: approvals.confirm has no handler
    defineHandlers('approvals', { 'approvals.preview': never });
    // @ts-expect-error: auth.me is not a route of the approvals group
    defineHandlers('approvals', { 'approvals.preview': never, 'approvals.confirm': never, 'auth.me': never });
  });

  it('an answer must be the route’s answer type', () => {
    defineHandlers('admin', {
      // @ts-expect-error: the user list answers { users }
      'admin.listUsers': async () => json(200, { accounts: [] }),
      'admin.setUserStatus': never,
      'admin.getSettings': never,
      'admin.setSettings': never,
    });
    defineHandlers('admin', {
      // @ts-expect-error: a field the contract does not have
      'admin.listUsers': async () => json(200, { users: [], total: 0 }),
      'admin.setUserStatus': never,
      'admin.getSettings': never,
      'admin.setSettings': never,
    });
  });
});
