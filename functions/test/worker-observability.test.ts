import type { Context, SQSRecord } from 'aws-lambda';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Job } from '../src/domain/ports.js';
import { Client, drafted, registration, startTestApp, type TestApp } from './helpers/app.js';

// Metrics as in Lambda (src/metrics.ts records only there, or with POWERTOOLS_METRICS_DISABLED=false),
// set before the modules that read it are loaded.
vi.hoisted(() => {
  process.env.POWERTOOLS_METRICS_DISABLED = 'false';
  process.env.POWERTOOLS_METRICS_NAMESPACE = 'content-publisher-test';
});
// The real job runner unless a test says otherwise.
vi.mock('../src/jobs/run-job.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../src/jobs/run-job.js')>();
  return { runJob: vi.fn(actual.runJob) };
});
const { runJob } = await import('../src/jobs/run-job.js');
const { handler: worker } = await import('../src/lambda/worker.js');
const { businessEvents, metrics } = await import('../src/metrics.js');

/** What Lambda hands the worker. */
const context = (awsRequestId: string): Context =>
  ({
    functionName: 'content-publisher-worker',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:us-east-1:111111111111:function:content-publisher-worker',
    memoryLimitInMB: '2048',
    awsRequestId,
    logGroupName: '/aws/lambda/content-publisher-worker',
    logStreamName: 's',
    callbackWaitsForEmptyEventLoop: true,
    getRemainingTimeInMillis: () => 300_000,
  }) as unknown as Context;

/** Every JSON line printed to stdout and stderr while `fn` ran (log lines and EMF lines), in order. */
async function output(fn: () => Promise<unknown>): Promise<Record<string, any>[]> {
  const lines: string[] = [];
  const record = (chunk: unknown) => (lines.push(String(chunk)), true);
  const spies = [
    vi.spyOn(process.stdout, 'write').mockImplementation(record),
    vi.spyOn(process.stderr, 'write').mockImplementation(record),
  ];
  try {
    await fn().catch(() => undefined);
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
  return lines
    .join('')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}
const logLines = (lines: Record<string, any>[]) => lines.filter((l) => typeof l.level === 'string');
/** EMF lines as metric name → dimensions. */
const emfMetrics = (lines: Record<string, any>[]) =>
  lines
    .filter((l) => l._aws)
    .flatMap((l) =>
      l._aws.CloudWatchMetrics.flatMap((d: { Metrics: { Name: string }[]; Dimensions: string[][] }) =>
        d.Metrics.map((m) => ({
          name: m.Name,
          value: l[m.Name],
          dimensions: Object.fromEntries(d.Dimensions[0]!.map((k) => [k, l[k]])),
        })),
      ),
    );

const job: Job = { type: 'generate-content', userId: 'u1', articleId: 'a1' };

afterEach(() => {
  vi.mocked(runJob).mockReset();
  vi.restoreAllMocks();
});

describe('the worker Lambda: Lambda context in its logs, metrics flushed per invocation', () => {
  it('every log line of a job carries the invocation (function_request_id, name, cold start); the metrics follow the job', async () => {
    vi.mocked(runJob).mockImplementation(async () => {
      businessEvents.approvalEmailSent();
    });
    const lines = await output(() => worker(job, context('req-1')));
    const logs = logLines(lines);
    expect(logs.length).toBeGreaterThan(0);
    for (const line of logs) {
      expect(line).toMatchObject({
        function_request_id: 'req-1',
        function_name: 'content-publisher-worker',
        cold_start: expect.any(Boolean),
      });
    }
    expect(logs.find((l) => l.message === 'job')).toMatchObject({ type: 'generate-content', articleId: 'a1' });
    expect(emfMetrics(lines)).toEqual([
      { name: 'ApprovalEmailSent', value: 1, dimensions: { service: expect.any(String) } },
    ]);
    expect(lines.at(-1)!._aws).toBeDefined(); // flushed when the invocation ends
  });

  it('a job that throws still flushes its metrics, and the error reaches Lambda (which retries it)', async () => {
    vi.mocked(runJob).mockImplementation(async () => {
      businessEvents.approvalEmailFailed('email_failed');
      throw new Error('boom');
    });
    let thrown: unknown;
    const lines = await output(() => worker(job, context('req-2')).catch((err: unknown) => void (thrown = err)));
    expect(thrown).toMatchObject({ message: 'boom' });
    expect(emfMetrics(lines)).toEqual([
      { name: 'ApprovalEmailFailed', value: 1, dimensions: { service: expect.any(String), code: 'email_failed' } },
    ]);
  });

  it('an SQS batch: the records’ log lines carry the invocation too, and the answer is still the batch response', async () => {
    vi.mocked(runJob).mockRejectedValueOnce(new Error('later')).mockResolvedValueOnce();
    const record = (messageId: string) =>
      ({ messageId, body: JSON.stringify(job), attributes: { ApproximateReceiveCount: '1' } }) as unknown as SQSRecord;
    let answer: unknown;
    const lines = await output(
      async () => (answer = await worker({ Records: [record('m1'), record('m2')] }, context('req-3'))),
    );
    expect(answer).toEqual({ batchItemFailures: [{ itemIdentifier: 'm1' }] });
    const logs = logLines(lines);
    expect(logs.filter((l) => l.messageId).map((l) => [l.messageId, l.function_request_id])).toEqual([
      ['m1', 'req-3'],
      ['m1', 'req-3'],
      ['m2', 'req-3'],
    ]);
  });

  it('the next invocation logs its own request id, not the previous one', async () => {
    vi.mocked(runJob).mockResolvedValue();
    const lines = await output(() => worker(job, context('req-4')));
    expect(logLines(lines).map((l) => l.function_request_id)).toEqual(logLines(lines).map(() => 'req-4'));
  });
});

describe('a scheduled run through the real services (local stack)', () => {
  let app: TestApp;
  let owner: Client;
  let userId: string;
  beforeAll(async () => {
    app = await startTestApp();
    owner = new Client(app.url);
    userId = (await owner.call('/api/auth/register', { body: registration({ email: 'metrics@example.com' }) })).json
      .user._id;
  });
  afterAll(() => app?.stop());

  it('sending the approval e-mail records ApprovalEmailSent and the job’s duration, flushed by the worker', async () => {
    const id = (
      await owner.call('/api/articles', { body: { title: 'Metrics', topic: 'Observability', keyword: 'emf' } })
    ).json.article._id as string;
    await drafted(owner, id);
    const at = new Date(Date.now() + 3600_000).toISOString();
    expect(
      (await owner.call(`/api/articles/${id}/schedule`, { method: 'PUT', body: { platform: 'blog', datetime: at } }))
        .status,
    ).toBe(200);
    await output(async () => metrics.publishStoredMetrics()); // what the local requests and jobs left behind

    const lines = await output(() =>
      worker(
        { type: 'generate-and-notify', userId, articleId: id, platform: 'blog', scheduledFor: at },
        context('req-5'),
      ),
    );
    expect(emfMetrics(lines)).toEqual([
      { name: 'ApprovalEmailSent', value: 1, dimensions: { service: expect.any(String) } },
      {
        name: 'JobDuration',
        value: expect.any(Number),
        dimensions: { service: expect.any(String), type: 'generate-and-notify' },
      },
    ]);
    for (const line of logLines(lines)) expect(line.function_request_id).toBe('req-5');
    expect(
      lines.filter((l) => l._aws).every((l) => l._aws.CloudWatchMetrics[0].Namespace === 'content-publisher-test'),
    ).toBe(true);
  });
});
