import type * as z from 'zod/mini';
import type { RouteId, RouteOf } from './routes.js';

type Part = 'params' | 'query' | 'body';
/** One object type instead of an intersection of parts (what editors show, and what type equality compares). */
type Flat<T> = { [P in keyof T]: T[P] };
/** The schema of one part of route K's request (its table entry holds the schema's getter), or never when the route takes none. */
type SchemaOf<K extends RouteId, P extends Part> =
  RouteOf<K> extends { readonly [Q in P]: () => infer S extends z.ZodMiniType } ? S : never;

/**
 * One part as the caller gives it (z.input: before defaults and transforms): present only when the
 * route has a schema for it, and optional when every field of it is.
 */
type InputPart<K extends RouteId, P extends Part> = [SchemaOf<K, P>] extends [never]
  ? object
  : object extends z.input<SchemaOf<K, P>>
    ? { [Q in P]?: z.input<SchemaOf<K, P>> }
    : { [Q in P]: z.input<SchemaOf<K, P>> };

/**
 * What a call of route K sends: `params` (the path's `{name}` segments), `query` and `body`, each
 * only when the route's table entry has a schema for it. `RouteInput<'auth.me'>` has no keys (nothing to send);
 * `RouteInput<'articles.get'>` is `{ params: { id: string } }`.
 */
export type RouteInput<K extends RouteId> = Flat<InputPart<K, 'params'> & InputPart<K, 'query'> & InputPart<K, 'body'>>;

/** What the middleware hands a handler of route K (z.output: after defaults and transforms), same keys as RouteInput. */
export type RouteParsedInput<K extends RouteId> = Flat<
  ParsedPart<K, 'params'> & ParsedPart<K, 'query'> & ParsedPart<K, 'body'>
>;
type ParsedPart<K extends RouteId, P extends Part> = [SchemaOf<K, P>] extends [never]
  ? object
  : { [Q in P]: z.output<SchemaOf<K, P>> };
