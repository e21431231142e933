/**
 * A schema built on its first use, then kept: `export const LoginSchema = lazySchema(() => z.strictObject({…}))`,
 * used as `LoginSchema()`. Building a zod schema takes CPU (each `.min()`, `.check()`, `.optional()` makes a
 * new one); built when their modules load, the route table's schemas cost every Lambda's cold start ~14 ms,
 * though a request uses at most three of them (docs/testing.md, Performance budgets). The route table holds
 * these getters (shared/src/api/routes.ts), so a function builds the schemas of a route on its first call.
 */
export function lazySchema<T>(build: () => T): () => T {
  let built: { schema: T } | undefined;
  return () => (built ??= { schema: build() }).schema;
}
