import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetDeps } from '../src/wiring/lazy.js';
import { clientAddress, viewerIp } from '../src/http/client-address.js';
import { json } from '../src/http/response.js';
import { createApiHandler } from '../src/middleware/api.js';
import { ORIGIN_SECRET_HEADER } from '../src/middleware/origin-secret.js';
import { lambdaContext, logoutEvent } from './helpers/lambda-event.js';

const ARN = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:OriginSecret-AbCdEf';
const SECRET = 'origin-secret-value-0123456789abcdefABCDEF';

const sm = mockClient(SecretsManagerClient);
/** What the handler saw: the address clientAddress() gave and whether the secret header was still there. */
const seen: { address?: string; header?: string }[] = [];
const handler = createApiHandler({
  // A public route without a body: nothing but the origin check stands before the handler.
  'auth.logout': async ({ event }) => {
    seen.push({ address: clientAddress(event), header: event.headers[ORIGIN_SECRET_HEADER] });
    return json(200, { message: 'Logged out' });
  },
});

const call = (headers?: Record<string, string>) => handler(logoutEvent(headers), lambdaContext);

beforeEach(() => {
  sm.reset();
  sm.on(GetSecretValueCommand, { SecretId: ARN }).resolves({ SecretString: SECRET });
  seen.length = 0;
  vi.useRealTimers();
});
afterAll(() => {
  delete process.env.ORIGIN_SECRET_ARN;
  resetDeps();
});

describe('origin secret check (ORIGIN_SECRET_ARN set: AWS behind CloudFront)', () => {
  beforeEach(() => {
    process.env.ORIGIN_SECRET_ARN = ARN;
    resetDeps();
  });

  it('answers 403 to a request without the header (the execute-api endpoint called directly)', async () => {
    const res = await call();
    expect(res.statusCode).toBe(403);
    expect(JSON.parse(res.body!)).toMatchObject({ code: 'origin_not_verified' });
    expect(seen).toEqual([]);
  });

  it('answers 403 to a wrong value, and to a value that only starts like the secret', async () => {
    for (const wrong of ['nope', SECRET.slice(0, -1), `${SECRET}x`, SECRET.toUpperCase()]) {
      const res = await call({ [ORIGIN_SECRET_HEADER]: wrong });
      expect(res.statusCode, wrong).toBe(403);
    }
    expect(seen).toEqual([]);
  });

  it('passes the request with the right value, and the handler no longer sees the header', async () => {
    const res = await call({ [ORIGIN_SECRET_HEADER]: SECRET });
    expect(res.statusCode).toBe(200);
    expect(seen).toEqual([{ address: '130.176.1.1', header: undefined }]);
  });

  it('reads the secret once per container, not once per request', async () => {
    for (let i = 0; i < 3; i++) expect((await call({ [ORIGIN_SECRET_HEADER]: SECRET })).statusCode).toBe(200);
    await call({ [ORIGIN_SECRET_HEADER]: 'wrong' });
    expect(sm.commandCalls(GetSecretValueCommand)).toHaveLength(1);
    expect(sm.commandCalls(GetSecretValueCommand)[0]!.args[0].input).toEqual({ SecretId: ARN });
  });

  it('picks up a rotated value: after a mismatch the secret is read again (at most once a minute)', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    expect((await call({ [ORIGIN_SECRET_HEADER]: SECRET })).statusCode).toBe(200);
    sm.on(GetSecretValueCommand, { SecretId: ARN }).resolves({ SecretString: 'rotated-value' });
    expect((await call({ [ORIGIN_SECRET_HEADER]: 'rotated-value' })).statusCode).toBe(403);
    vi.setSystemTime(Date.now() + 61_000);
    expect((await call({ [ORIGIN_SECRET_HEADER]: 'rotated-value' })).statusCode).toBe(200);
    expect(sm.commandCalls(GetSecretValueCommand)).toHaveLength(2);
  });

  it('a verified request gives the viewer address CloudFront forwards', async () => {
    await call({ [ORIGIN_SECRET_HEADER]: SECRET, 'cloudfront-viewer-address': '198.51.100.10:46532' });
    await call({ [ORIGIN_SECRET_HEADER]: SECRET, 'cloudfront-viewer-address': '2001:db8::1:443' });
    expect(seen.map((s) => s.address)).toEqual(['198.51.100.10', '2001:db8::1']);
  });

  it('a Secrets Manager failure is a 500, and the next request reads again', async () => {
    sm.reset();
    sm.on(GetSecretValueCommand).rejectsOnce(new Error('throttled')).resolves({ SecretString: SECRET });
    expect((await call({ [ORIGIN_SECRET_HEADER]: SECRET })).statusCode).toBe(500);
    expect((await call({ [ORIGIN_SECRET_HEADER]: SECRET })).statusCode).toBe(200);
  });
});

describe('without ORIGIN_SECRET_ARN (local)', () => {
  beforeEach(() => {
    delete process.env.ORIGIN_SECRET_ARN;
    resetDeps();
  });

  it('checks nothing and reads no secret', async () => {
    expect((await call()).statusCode).toBe(200);
    expect(sm.commandCalls(GetSecretValueCommand)).toHaveLength(0);
  });

  it('ignores a client-sent CloudFront-Viewer-Address: the address is the socket one', async () => {
    await call({ 'cloudfront-viewer-address': '203.0.113.9:1234' });
    expect(seen.map((s) => s.address)).toEqual(['130.176.1.1']);
  });
});

describe('viewerIp (CloudFront-Viewer-Address values)', () => {
  it.each([
    ['198.51.100.10:46532', '198.51.100.10'],
    ['2001:db8::1:46532', '2001:db8::1'],
    ['2001:db8:85a3:0:0:8a2e:370:7334:443', '2001:db8:85a3:0:0:8a2e:370:7334'],
    ['[2001:db8::1]:46532', '2001:db8::1'],
    [' 203.0.113.7:80 ', '203.0.113.7'],
  ])('%s → %s', (value, ip) => {
    expect(viewerIp(value)).toBe(ip);
  });

  it.each([
    undefined,
    '',
    '198.51.100.10',
    'not-an-ip:80',
    '198.51.100.10:',
    '[2001:db8::1]',
    '999.1.1.1:80',
    '198.51.100.10:80, 1.2.3.4:80',
  ])('refuses %j', (value) => {
    expect(viewerIp(value)).toBeUndefined();
  });

  it('clientAddress falls back to sourceIp when a verified request has no usable header', () => {
    expect(clientAddress(logoutEvent())).toBe('130.176.1.1');
  });
});
