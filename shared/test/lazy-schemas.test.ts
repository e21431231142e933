import { describe, expect, it, vi } from 'vitest';

/**
 * Every zod schema starts with a call of one of zod's functions (`z.string()`, `z.strictObject()`, …):
 * this file's zod counts those calls, so a test can tell whether a schema was built.
 */
const zodCalls = vi.hoisted(() => ({ count: 0 }));
vi.mock('zod/mini', async (importOriginal) => {
  const zod = await importOriginal<Record<string, unknown>>();
  return Object.fromEntries(
    Object.entries(zod).map(([name, value]) => [
      name,
      typeof value === 'function' && /^[a-z]/.test(name)
        ? (...args: unknown[]) => {
            zodCalls.count++;
            return (value as (...a: unknown[]) => unknown)(...args);
          }
        : value,
    ]),
  );
});

// docs/testing.md, Performance budgets: built at load, the table's schemas cost every Lambda's cold start ~14 ms.
describe('the route table builds its schemas on first use (lazySchema)', () => {
  it('importing @app/shared and the route table builds no schema', async () => {
    await import('../src/index.js');
    const { routes } = await import('../src/api/index.js');
    expect(routes.length).toBeGreaterThan(0);
    expect(zodCalls.count).toBe(0);
  });

  it("a route's first call builds its schemas, once; they validate as before", async () => {
    const { routeById } = await import('../src/api/index.js');
    const before = zodCalls.count;
    const login = routeById('auth.login').body;
    const schema = login();
    expect(zodCalls.count).toBeGreaterThan(before);
    const built = zodCalls.count;
    expect(login()).toBe(schema);
    expect(zodCalls.count).toBe(built);
    expect(schema.safeParse({ email: 'a@b.co', password: 'secret' }).success).toBe(true);
    expect(schema.safeParse({ email: 'a@b.co', password: '' }).success).toBe(false);
  });

  it('every schema of the table is a getter that gives the same schema each time', async () => {
    const { routes } = await import('../src/api/index.js');
    for (const route of routes)
      for (const part of ['body', 'query', 'params'] as const) {
        const getter = (route as { [P in typeof part]?: () => unknown })[part];
        if (!getter) continue;
        expect(typeof getter, `${route.id} ${part}`).toBe('function');
        expect(getter(), `${route.id} ${part}`).toBe(getter());
      }
  });
});
