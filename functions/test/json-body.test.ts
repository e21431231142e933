/** The API's JSON body parsing (jsonBody, middleware/api.ts), through a function's handler as API Gateway calls it. */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { Messages } from '@app/shared';
import { json } from '../src/http/response.js';
import { createApiHandler } from '../src/middleware/api.js';
import { lambdaContext, logoutEvent } from './helpers/lambda-event.js';

const received: unknown[] = [];
const handler = createApiHandler({
  // A public route with a body (its schema: an e-mail and a password).
  'auth.login': async ({ body }) => {
    received.push(body);
    return json(200, { message: 'ok' }) as never;
  },
});

/** POST /api/auth/login with this body, as API Gateway sends it. */
const login = (body: string, isBase64Encoded = false, contentType = 'application/json') => {
  const event = logoutEvent({ 'content-type': contentType }) as APIGatewayProxyEventV2 & Record<string, unknown>;
  return handler(
    {
      ...event,
      routeKey: 'POST /api/auth/login',
      rawPath: '/api/auth/login',
      requestContext: { ...event.requestContext, routeKey: 'POST /api/auth/login' },
      body,
      isBase64Encoded,
    } as APIGatewayProxyEventV2,
    lambdaContext,
  );
};
const credentials = { email: 'someone@example.com', password: 'a long enough password' };
const answer = async (res: Promise<{ statusCode?: number; body?: string }>) => {
  const { statusCode, body } = await res;
  return { status: statusCode, ...JSON.parse(body!) };
};

describe('JSON bodies (middleware/api.ts)', () => {
  it('hands the handler the parsed body, also when API Gateway sends it base64-encoded', async () => {
    received.length = 0;
    const text = JSON.stringify(credentials);
    expect((await login(text)).statusCode).toBe(200);
    expect((await login(Buffer.from(text).toString('base64'), true)).statusCode).toBe(200);
    expect(received).toEqual([credentials, credentials]);
  });

  it('answers 400 to malformed JSON, to a body that is no object and to another content type, before the handler', async () => {
    received.length = 0;
    expect(await answer(login('{"email": '))).toMatchObject({ status: 400, message: Messages.malformedJson });
    expect(await answer(login(Buffer.from('[1,').toString('base64'), true))).toMatchObject({
      status: 400,
      code: 'malformed_json',
    });
    expect(await answer(login('[{"email":"a@b.c"}]'))).toMatchObject({ status: 400, message: Messages.bodyNotObject });
    expect(await answer(login('null'))).toMatchObject({ status: 400, code: 'body_not_object' });
    expect(await answer(login(JSON.stringify(credentials), false, 'text/plain'))).toMatchObject({
      status: 400,
      code: 'unsupported_media_type',
    });
    expect(received).toEqual([]);
  });
});
