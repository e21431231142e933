import { afterEach, describe, expect, it, vi } from 'vitest';
import { logger, RedactingLogFormatter } from '../src/logger.js';

/** What the logger printed while `fn` ran, as parsed JSON lines. */
function printed(fn: () => void): Record<string, any>[] {
  const lines: string[] = [];
  const record = (chunk: unknown) => (lines.push(String(chunk)), true);
  const spies = [
    vi.spyOn(process.stdout, 'write').mockImplementation(record),
    vi.spyOn(process.stderr, 'write').mockImplementation(record),
  ];
  try {
    fn();
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
  return lines
    .join('')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

/** An error shaped like gaxios's and the AWS SDK's: the request it made rides along. */
function vendorError() {
  const error = Object.assign(new Error('Request failed with status code 401'), {
    code: 'ERR_BAD_REQUEST',
    status: 401,
    config: {
      url: 'https://oauth2.googleapis.com/token',
      headers: { Authorization: 'Bearer ya29.leaked-access-token' },
      data: 'client_secret=GOCSPX-leaked',
    },
    response: { data: { refresh_token: '1//leaked-refresh' } },
    $metadata: { httpStatusCode: 401, requestId: 'r-1' },
  });
  return Object.assign(new Error('Could not refresh', { cause: error }), { password: 'hunter2-leaked' });
}

describe('logged errors', () => {
  afterEach(() => vi.restoreAllMocks());

  it('keep name, message, stack, code and status and drop the request they carried', () => {
    const [line] = printed(() => logger.error('Token refresh failed', { error: vendorError() }));
    expect(line).toMatchObject({ level: 'ERROR', message: 'Token refresh failed', service: expect.any(String) });
    expect(line!.error).toMatchObject({
      name: 'Error',
      message: 'Could not refresh',
      stack: expect.stringContaining('logger.test'),
    });
    expect(line!.error.cause).toMatchObject({
      message: 'Request failed with status code 401',
      code: 'ERR_BAD_REQUEST',
      status: 401,
      httpStatusCode: 401,
    });
    const text = JSON.stringify(line);
    for (const secret of ['ya29.leaked', 'GOCSPX-leaked', '1//leaked', 'hunter2-leaked'])
      expect(text).not.toContain(secret);
  });

  it('the same for an error given as the log call’s second argument', () => {
    const [line] = printed(() => logger.warn('Retrying', vendorError()));
    expect(line!.error.cause.status).toBe(401);
    expect(JSON.stringify(line)).not.toMatch(/leaked/);
  });

  it('a non-Error cause is left out (it may be anything)', () => {
    const formatted = new RedactingLogFormatter().formatError(new Error('x', { cause: { token: 'leaked' } }));
    expect(formatted).not.toHaveProperty('cause');
  });
});
