import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { ApiErrorBody, Redirect } from '@app/shared/api';

export type ApiResponse = APIGatewayProxyStructuredResultV2;

export { badRequest, unauthorized, forbidden, notFound, conflict } from '../domain/errors.js';

declare const replyOf: unique symbol;
declare const jsonOf: unique symbol;
declare const gzipOf: unique symbol;
/**
 * An answer whose body is a T (in its type only: nothing of it exists at run time). A handler of
 * route K returns Reply<ApiResponses[K]> (http/handlers.ts), so its answer is checked against the
 * contract in shared/src/api/responses.ts; only the helpers below make one.
 */
export type Reply<T> = ApiResponse & { readonly [replyOf]: T };
/** JSON text of a T (serialize()): an answer serialized ahead of time keeps its body's type. */
export type JsonText<T> = string & { readonly [jsonOf]: T };
/** JsonText<T> gzipped and base64-encoded (gzipBase64()). */
export type GzipJson<T> = string & { readonly [gzipOf]: T };

export const serialize = <T>(value: T): JsonText<T> => JSON.stringify(value) as JsonText<T>;

/**
 * A JSON answer. T comes from where the answer goes (the route's answer type), not from `body`, so
 * `body` is checked against it, extra fields included.
 */
export function json<T>(statusCode: number, body: NoInfer<T>, cookies?: string[]): Reply<T> {
  return jsonText(statusCode, serialize<T>(body), cookies);
}

const gzipAsync = promisify(gzip);

/** Whether an Accept-Encoding header allows gzip (and does not refuse it with q=0). */
export function acceptsGzip(acceptEncoding: string | undefined): boolean {
  return (acceptEncoding ?? '').split(',').some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    if (coding !== 'gzip' && coding !== '*') return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return !q || Number(q.slice(2)) > 0;
  });
}

/**
 * zlib's level for JSON answers. Level 6 (zlib's default) took ~1.1 ms for a list's first page (75 kB of JSON),
 * the biggest step of a list answer built after a write; level 4 takes ~0.6 ms for 6% more bytes (17.0 → 18.0 kB).
 * Levels above 4 switch deflate to its slower lazy matching.
 */
export const GZIP_LEVEL = 4;

/** JSON text gzipped, base64-encoded for the API Gateway answer (see jsonGzip). */
export async function gzipBase64<T>(text: JsonText<T>): Promise<GzipJson<T>> {
  return (await gzipAsync(Buffer.from(text, 'utf8'), { level: GZIP_LEVEL })).toString('base64') as GzipJson<T>;
}

/** A JSON answer gzipped already (gzipBase64), for a client that accepts gzip. */
export function jsonGzip<T>(statusCode: number, base64Gzip: GzipJson<T>): Reply<T> {
  return reply<T>({
    statusCode,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'content-encoding': 'gzip',
      vary: 'accept-encoding',
      'cache-control': 'no-store',
    },
    body: base64Gzip,
    isBase64Encoded: true,
  });
}

/** A JSON answer that is serialized already. */
export function jsonText<T>(statusCode: number, body: JsonText<T>, cookies?: string[]): Reply<T> {
  return reply<T>({
    statusCode,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
    body,
    ...(cookies?.length ? { cookies } : {}),
  });
}

/**
 * 304 Not Modified: the client's copy of a T, named by its ETag, is still right (no body). The
 * answer repeats the ETag and the caching headers of the 200 it stands for.
 */
export function notModified<T>(headers: Record<string, string>): Reply<T> {
  return reply<T>({ statusCode: 304, headers, body: '' });
}

/** Error bodies carry the text in both `error` and `message` (the screens read one or the other: docs/product.md, Texts). */
export function errorResponse(
  statusCode: number,
  message: string,
  code?: string,
  cookies?: string[],
): Reply<ApiErrorBody> {
  return json<ApiErrorBody>(
    statusCode,
    code ? { error: message, message, code } : { error: message, message },
    cookies,
  );
}

/** A redirect: to a page of the SPA (where an OAuth provider sends the browser back), or to a stored file. */
export function redirect(location: string, cacheControl = 'no-store'): Reply<Redirect> {
  return reply<Redirect>({ statusCode: 302, headers: { location, 'cache-control': cacheControl }, body: '' });
}

/** Marks an answer as one of a T; the helpers above are the only callers. */
const reply = <T>(response: ApiResponse): Reply<T> => response as Reply<T>;
