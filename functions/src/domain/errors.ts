/** An error a person can act on: its status and message reach them as they are. */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly code?: string,
    /** Headers the answer carries (e.g. Retry-After of a 429). */
    readonly headers?: Record<string, string>,
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
