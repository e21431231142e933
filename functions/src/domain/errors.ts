/**
 * An error a person can act on: its message and stable `code` reach them as they are. The domain says what went
 * wrong (its `kind`); only the API middleware (middleware/api.ts) turns the kind into an HTTP status.
 */
export type DomainErrorKind =
  | 'invalid'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'quota_exceeded'
  | 'too_many_attempts'
  | 'upstream'
  | 'upstream_timeout';

export abstract class DomainError extends Error {
  abstract readonly kind: DomainErrorKind;
  constructor(
    message: string,
    readonly code?: string,
    /** When the same request may succeed again (goes out as Retry-After). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** The input is wrong; the person can fix it. */
export class InvalidError extends DomainError {
  readonly kind = 'invalid';
}
/** No (valid) sign-in. */
export class UnauthenticatedError extends DomainError {
  readonly kind = 'unauthenticated';
}
/** Signed in, but not allowed to do this. */
export class ForbiddenError extends DomainError {
  readonly kind = 'forbidden';
}
export class NotFoundError extends DomainError {
  readonly kind = 'not_found';
}
/** The current state does not allow it (already done, in progress, taken, …). */
export class ConflictError extends DomainError {
  readonly kind = 'conflict';
}
/** A paid quota is used up (the AI credits). */
export class QuotaExceededError extends DomainError {
  readonly kind = 'quota_exceeded';
}
/** A service we call (AI, WordPress, LinkedIn, Gmail, Google Sheets) failed or refused. */
export class UpstreamError extends DomainError {
  readonly kind = 'upstream';
}
/** A service we call did not answer in time. */
export class UpstreamTimeoutError extends DomainError {
  readonly kind = 'upstream_timeout';
}

export const badRequest = (message: string, code?: string) => new InvalidError(message, code);
export const unauthorized = (message: string, code?: string) => new UnauthenticatedError(message, code);
export const forbidden = (message: string, code?: string) => new ForbiddenError(message, code);
export const notFound = (message = 'Not found', code?: string) => new NotFoundError(message, code);
export const conflict = (message: string, code?: string) => new ConflictError(message, code);
