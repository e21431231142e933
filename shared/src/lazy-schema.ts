import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';

/**
 * zod/mini, unlike classic zod, sets no messages of its own when it loads: an issue without a message of ours
 * would read "Invalid input". The English ones (`Too small: expected number to be >=1`, …) are set once,
 * before the first schema is built, so every 400 answer and form message reads as it did with classic zod.
 * ~3 KB, where classic zod's methods and messages were ~90 KB of every Lambda's cold start (docs/testing.md,
 * Performance budgets).
 */
let messagesSet = false;
export function setZodMessages(): void {
  if (messagesSet) return;
  messagesSet = true;
  z.config(en());
}

/**
 * A schema built on its first use, then kept: `export const LoginSchema = lazySchema(() => z.strictObject({…}))`,
 * used as `LoginSchema()`. Building a zod schema takes CPU (each `z.optional()`, `.check()` makes a
 * new one); built when their modules load, the route table's schemas cost every Lambda's cold start ~14 ms,
 * though a request uses at most three of them (docs/testing.md, Performance budgets). The route table holds
 * these getters (shared/src/api/routes.ts), so a function builds the schemas of a route on its first call.
 */
export function lazySchema<T>(build: () => T): () => T {
  let built: { schema: T } | undefined;
  return () => {
    if (built) return built.schema;
    setZodMessages();
    return (built = { schema: build() }).schema;
  };
}

/**
 * `z.catch(schema, fallback)`: the schema's value, or `fallback` where the input does not fit it. zod/mini's
 * `z.catch` reaches its helpers through the whole `util` namespace, which esbuild then keeps entire (~7 KB at the
 * cold start of every function that bundles one call of it; docs/testing.md, Performance budgets).
 */
export const withFallback = <T extends z.ZodMiniType>(innerType: T, fallback: z.output<T>): z.ZodMiniCatch<T> =>
  new z.ZodMiniCatch({ type: 'catch', innerType, catchValue: () => fallback }) as z.ZodMiniCatch<T>;
