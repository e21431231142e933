import type { APIGatewayProxyResultV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';

export type ApiResponse = APIGatewayProxyStructuredResultV2;

export { ApiError, badRequest, unauthorized, forbidden, notFound, conflict } from '../domain/errors.js';

export function json(statusCode: number, body: unknown, cookies?: string[]): ApiResponse {
  return {
    statusCode,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
    body: JSON.stringify(body),
    ...(cookies?.length ? { cookies } : {}),
  };
}

/** Error bodies carry the text in both `error` and `message` (SPEC.md §8 reads one or the other). */
export function errorResponse(statusCode: number, message: string, code?: string, cookies?: string[]): ApiResponse {
  return json(statusCode, code ? { error: message, message, code } : { error: message, message }, cookies);
}

export type HandlerResult = APIGatewayProxyResultV2;

/** Bytes (an image): API Gateway needs them base64-encoded with isBase64Encoded. */
export function binary(statusCode: number, body: Buffer, contentType: string, headers: Record<string, string> = {}): ApiResponse {
  return {
    statusCode,
    headers: { 'content-type': contentType, 'content-length': String(body.length), ...headers },
    body: body.toString('base64'),
    isBase64Encoded: true,
  };
}
