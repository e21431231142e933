import type { APIGatewayProxyResultV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';

export type ApiResponse = APIGatewayProxyStructuredResultV2;

/** An error a person can act on: its message is shown to them as it is. */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const badRequest = (message: string, code?: string) => new ApiError(400, message, code);
export const unauthorized = (message: string, code?: string) => new ApiError(401, message, code);
export const forbidden = (message: string, code?: string) => new ApiError(403, message, code);
export const notFound = (message = 'Not found', code?: string) => new ApiError(404, message, code);
export const conflict = (message: string, code?: string) => new ApiError(409, message, code);

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
