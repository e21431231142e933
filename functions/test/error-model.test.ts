import { beforeAll, describe, expect, it } from 'vitest';
import { resetDeps } from '../src/wiring/lazy.js';
import { AiQuotaError } from '../src/domain/ai.js';
import {
  ConflictError,
  ForbiddenError,
  InvalidError,
  NotFoundError,
  QuotaExceededError,
  UnauthenticatedError,
  UpstreamError,
  UpstreamTimeoutError,
} from '../src/domain/errors.js';
import { IntegrationError } from '../src/domain/integrations.js';
import { TooManyAttemptsError } from '../src/domain/login-throttle.js';
import { createApiHandler } from '../src/middleware/api.js';
import { lambdaContext, logoutEvent } from './helpers/lambda-event.js';

/** The one error model: the domain throws domain errors; only the middleware turns them into statuses. */
let toThrow: unknown;
const handler = createApiHandler({
  'auth.logout': async () => {
    throw toThrow;
  },
});

async function answer(err: unknown) {
  toThrow = err;
  const res = await handler(logoutEvent(), lambdaContext);
  return { status: res.statusCode, body: JSON.parse(res.body!) as Record<string, unknown>, headers: res.headers ?? {} };
}

beforeAll(() => {
  delete process.env.ORIGIN_SECRET_ARN;
  resetDeps();
});

describe('error model: domain error kind → HTTP status (middleware only)', () => {
  it.each([
    [new InvalidError('Bad input', 'validation_failed'), 400],
    [new UnauthenticatedError('Sign in', 'unauthenticated'), 401],
    [new QuotaExceededError('OpenAI credits insufficient', 'insufficient_quota'), 402],
    [new ForbiddenError('Not yours', 'forbidden'), 403],
    [new NotFoundError('Article not found', 'not_found'), 404],
    [new ConflictError('Already published', 'already_published'), 409],
    [new UpstreamError('WordPress refused the post', 'wordpress_permission'), 502],
    [new UpstreamTimeoutError('WordPress did not answer in time', 'publish_timeout'), 504],
  ] as const)('%s → %i, with its message and code', async (err, status) => {
    const res = await answer(err);
    expect(res.status).toBe(status);
    expect(res.body).toEqual({ error: err.message, message: err.message, code: err.code });
  });

  it('an error without a code answers without one', async () => {
    expect((await answer(new NotFoundError('Not found'))).body).toEqual({ error: 'Not found', message: 'Not found' });
  });

  it('too many sign-in attempts: 429 with Retry-After', async () => {
    const res = await answer(new TooManyAttemptsError(120));
    expect(res.status).toBe(429);
    expect(res.body).toMatchObject({ code: 'too_many_attempts' });
    expect(res.headers['retry-after']).toBe('120');
  });

  it('an integration error no domain call mapped: 502 with its (user-facing) message and code, not a 500', async () => {
    const res = await answer(
      new IntegrationError('LinkedIn refused the access token. Reconnect LinkedIn in Settings.', 'linkedin_token', 401),
    );
    expect(res.status).toBe(502);
    expect(res.body).toEqual({
      error: 'LinkedIn refused the access token. Reconnect LinkedIn in Settings.',
      message: 'LinkedIn refused the access token. Reconnect LinkedIn in Settings.',
      code: 'linkedin_token',
    });
  });

  it('anything else stays a 500 that says nothing about its cause', async () => {
    for (const err of [new Error('secret detail'), new AiQuotaError('raw vendor error')]) {
      const res = await answer(err);
      expect(res.status).toBe(500);
      expect(res.body).toMatchObject({ code: 'internal' });
      expect(JSON.stringify(res.body)).not.toContain('detail');
      expect(JSON.stringify(res.body)).not.toContain('raw vendor');
    }
  });
});
