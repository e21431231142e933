/**
 * The business events of an API call (business-events.ts): Powertools Metrics loads with the first event, not with
 * the function, and what the call recorded is flushed when its invocation ends, as Powertools' logMetrics did.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json } from '../src/http/response.js';
import { lambdaContext, logoutEvent } from './helpers/lambda-event.js';

// Metrics as in Lambda (src/metrics.ts records only there, or with POWERTOOLS_METRICS_DISABLED=false).
vi.hoisted(() => {
  process.env.POWERTOOLS_METRICS_DISABLED = 'false';
  process.env.POWERTOOLS_METRICS_NAMESPACE = 'content-publisher-test';
});
/** Whether something loaded Powertools Metrics. */
const loaded = vi.hoisted(() => ({ metrics: false }));
vi.mock('@aws-lambda-powertools/metrics', async (importOriginal) => {
  loaded.metrics = true;
  return importOriginal();
});

const { businessEvents } = await import('../src/business-events.js');
const { createApiHandler } = await import('../src/middleware/api.js');

/** The EMF lines printed while `fn` ran. */
async function emfLines(fn: () => Promise<unknown>): Promise<Record<string, any>[]> {
  const lines: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (lines.push(String(chunk)), true));
  try {
    await fn();
  } finally {
    spy.mockRestore();
  }
  return lines
    .join('')
    .split('\n')
    .filter((line) => line.includes('"_aws"'))
    .map((line) => JSON.parse(line));
}

let record: (() => void) | undefined;
const handler = createApiHandler({
  // A public route without a body: the handler records what the test says, then answers.
  'auth.logout': async () => {
    record?.();
    return json(200, { message: 'Logged out' });
  },
});
const call = () => handler(logoutEvent(), lambdaContext);

afterEach(() => {
  record = undefined;
});

describe('business metrics of an API call', () => {
  it('a call that records none loads no Powertools Metrics and prints no EMF line', async () => {
    expect(await emfLines(call)).toEqual([]);
    expect(loaded.metrics).toBe(false);
  });

  it("the first event loads it, and the call's events are flushed as its invocation ends", async () => {
    record = () => {
      businessEvents.publishSucceeded('wordpress');
      businessEvents.publishFailed('linkedin', 'linkedin_token_invalid');
    };
    const lines = await emfLines(async () => expect((await call()).statusCode).toBe(200));
    expect(loaded.metrics).toBe(true);
    expect(lines.map((line) => [line._aws.CloudWatchMetrics[0].Namespace, line.platform, line.code])).toEqual([
      ['content-publisher-test', 'wordpress', undefined],
      ['content-publisher-test', 'linkedin', 'linkedin_token_invalid'],
    ]);
    expect(lines[0]!.PublishSucceeded).toBe(1);
    expect(lines[1]!.PublishFailed).toBe(1);
    // Flushed with the call that recorded them: the next call prints nothing again.
    record = undefined;
    expect(await emfLines(call)).toEqual([]);
  });

  it('an event of a call that fails is flushed too', async () => {
    record = () => {
      businessEvents.approvalEmailFailed('email_failed');
      throw new Error('boom');
    };
    let status: number | undefined;
    const lines = await emfLines(async () => (status = (await call()).statusCode));
    expect(status).toBe(500);
    expect(lines.map((line) => [line.code, line.ApprovalEmailFailed])).toEqual([['email_failed', 1]]);
  });
});
