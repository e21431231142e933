import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';

export type ApiResponse = APIGatewayProxyStructuredResultV2;

export { badRequest, unauthorized, forbidden, notFound, conflict } from '../domain/errors.js';

export function json(statusCode: number, body: unknown, cookies?: string[]): ApiResponse {
  return jsonText(statusCode, JSON.stringify(body), cookies);
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

/** JSON text gzipped, base64-encoded for the API Gateway answer (see jsonGzip). */
export async function gzipBase64(text: string): Promise<string> {
  return (await gzipAsync(Buffer.from(text, 'utf8'))).toString('base64');
}

/** A JSON answer gzipped already (gzipBase64), for a client that accepts gzip. */
export function jsonGzip(statusCode: number, base64Gzip: string): ApiResponse {
  return {
    statusCode,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'content-encoding': 'gzip',
      vary: 'accept-encoding',
      'cache-control': 'no-store',
    },
    body: base64Gzip,
    isBase64Encoded: true,
  };
}

/** A JSON answer that is serialized already. */
export function jsonText(statusCode: number, body: string, cookies?: string[]): ApiResponse {
  return {
    statusCode,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
    body,
    ...(cookies?.length ? { cookies } : {}),
  };
}

/** Error bodies carry the text in both `error` and `message` (the screens read one or the other: docs/product.md, Texts). */
export function errorResponse(statusCode: number, message: string, code?: string, cookies?: string[]): ApiResponse {
  return json(statusCode, code ? { error: message, message, code } : { error: message, message }, cookies);
}

/** Bytes (an image): API Gateway needs them base64-encoded with isBase64Encoded. */
export function binary(statusCode: number, body: Buffer, contentType: string, headers: Record<string, string> = {}): ApiResponse {
  return {
    statusCode,
    headers: { 'content-type': contentType, 'content-length': String(body.length), ...headers },
    body: body.toString('base64'),
    isBase64Encoded: true,
  };
}
