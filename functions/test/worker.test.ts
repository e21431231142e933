import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AiError, AiQuotaError, type ContentGenerator } from '../src/domain/ai.js';
import { ArticleService, TransientDraftingError, type ArticleRecord } from '../src/domain/articles.js';
import type { ArticleStore, Job } from '../src/domain/ports.js';

const runJob = vi.hoisted(() => vi.fn<(job: Job, options?: { retryTransient?: boolean }) => Promise<void>>());
vi.mock('../src/jobs/run-job.js', () => ({ runJob }));
const { handler } = await import('../src/lambda/worker.js');

const job = (articleId: string): Job => ({ type: 'generate-content', userId: 'u1', articleId });
const record = (messageId: string, body: string): SQSRecord =>
  ({
    messageId,
    receiptHandle: `rh-${messageId}`,
    body,
    attributes: { ApproximateReceiveCount: '1' },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:eu-west-1:123456789012:bulk-jobs',
    awsRegion: 'eu-west-1',
  }) as unknown as SQSRecord;

describe('worker handler', () => {
  beforeEach(() => {
    runJob.mockReset();
  });

  it('runs a directly invoked job (async invoke, EventBridge Scheduler) as before: no retry option, no answer', async () => {
    runJob.mockResolvedValue();
    await expect(handler(job('a1'))).resolves.toBeUndefined();
    expect(runJob).toHaveBeenCalledTimes(1);
    expect(runJob.mock.calls[0]).toEqual([job('a1')]);
  });

  it.each([
    ['its live alias', ':live', ':live'],
    ['no version number', ':7', ''],
    ['no $LATEST', ':$LATEST', ''],
    ['the function unqualified', '', ''],
  ])(
    "takes its own ARN from the invocation as the target of the failed runs' retries it schedules: %s",
    async (_what, invokedAs, expected) => {
      runJob.mockResolvedValue();
      const before = process.env.SCHEDULE_TARGET_ARN;
      delete process.env.SCHEDULE_TARGET_ARN;
      const fn = 'arn:aws:lambda:eu-west-1:123456789012:function:cp-worker';
      try {
        await handler(job('a1'), { invokedFunctionArn: fn + invokedAs } as never);
        expect(process.env.SCHEDULE_TARGET_ARN).toBe(fn + expected);
      } finally {
        if (before === undefined) delete process.env.SCHEDULE_TARGET_ARN;
        else process.env.SCHEDULE_TARGET_ARN = before;
      }
    },
  );

  it('lets a directly invoked job fail as before (Lambda async retries apply)', async () => {
    runJob.mockRejectedValue(new Error('boom'));
    await expect(handler(job('a1'))).rejects.toThrow('boom');
  });

  it("runs each SQS record's job with transient failures retried, and reports only the failed records", async () => {
    runJob.mockImplementation(async (j) => {
      if (j.articleId === 'bad')
        throw new TransientDraftingError('bad', 'ai_rate_limited', 'OpenAI is rate-limiting this API key.');
    });
    const event: SQSEvent = {
      Records: [record('m1', JSON.stringify(job('ok'))), record('m2', JSON.stringify(job('bad')))],
    };
    await expect(handler(event)).resolves.toEqual({ batchItemFailures: [{ itemIdentifier: 'm2' }] });
    expect(runJob.mock.calls).toEqual([
      [job('ok'), { retryTransient: true }],
      [job('bad'), { retryTransient: true }],
    ]);
  });

  it('answers an empty failure list when every record succeeded', async () => {
    runJob.mockResolvedValue();
    await expect(handler({ Records: [record('m1', JSON.stringify(job('a')))] })).resolves.toEqual({
      batchItemFailures: [],
    });
  });

  it('drops records whose body is not a job (logged, never retried)', async () => {
    runJob.mockResolvedValue();
    const event: SQSEvent = {
      Records: [
        record('m1', 'not json'),
        record('m2', JSON.stringify({ type: 'drop-tables', userId: 'u1', articleId: 'a' })),
        record('m3', JSON.stringify({ type: 'generate-content', userId: 'u1' })),
        record('m4', 'null'),
        record('m5', JSON.stringify(job('fine'))),
      ],
    };
    await expect(handler(event)).resolves.toEqual({ batchItemFailures: [] });
    expect(runJob.mock.calls).toEqual([[job('fine'), { retryTransient: true }]]);
  });
});

describe('ArticleService.generateContent on AI failures', () => {
  const at = '2026-01-01T00:00:00.000Z';
  const article = (): ArticleRecord => ({
    id: 'a1',
    userId: 'u1',
    title: 'T',
    topic: 'topic',
    keyword: 'k',
    details: 'd',
    imageDescription: '',
    tags: [],
    createdAt: at,
    updatedAt: at,
    blog: { content: '', publishedToWordPress: false, lastPublished: null, wordpressPostUrl: null },
    linkedin: { content: '', publishedToLinkedIn: false, lastPublished: null, linkedinPostUrl: null },
    scheduled: { blog: null, linkedin: null },
    lastError: null,
    linkedInMode: 'personal',
    generation: { status: 'pending', updatedAt: at },
    image: null,
    imageJob: null,
  });

  function serviceFailingWith(error: Error) {
    let stored = article();
    const updates: Record<string, unknown>[] = [];
    const articles = {
      get: async () => stored,
      update: async (_u: string, _id: string, changes: Record<string, unknown>) => {
        updates.push(changes);
        stored = { ...stored, ...(changes as Partial<ArticleRecord>) };
        return stored;
      },
    } as unknown as ArticleStore;
    const content: ContentGenerator = {
      kind: 'openai',
      draft: async (_brief, platform) => {
        if (platform === 'linkedin') throw error;
        return 'A blog draft';
      },
      edit: async () => '',
    };
    const service = new ArticleService({
      articles,
      objects: { put: async () => {}, get: async () => undefined, delete: async () => {} },
      jobs: { enqueue: async () => {} },
      ai: async () => ({
        content,
        image: { kind: 'openai', generate: async () => Promise.reject(new Error('unused')) },
      }),
      now: () => new Date(at),
    });
    return { service, updates };
  }

  it.each(['ai_rate_limited', 'ai_server_error', 'ai_connection', 'ai_timeout'])(
    '%s: records lastError and the versions that did draft, then throws TransientDraftingError when asked',
    async (code) => {
      const { service, updates } = serviceFailingWith(new AiError('Try again later.', code));
      const error = await service.generateContent('u1', 'a1', { throwIfTransient: true }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TransientDraftingError);
      expect(error).toMatchObject({ articleId: 'a1', code });
      expect(updates).toHaveLength(1);
      expect(updates[0]).toMatchObject({
        'blog.content': 'A blog draft',
        lastError: { code, message: 'Try again later.' },
        generation: { status: 'failed', updatedAt: at },
      });
    },
  );

  it('without throwIfTransient (interactive and scheduled jobs) records the failure and resolves, as before', async () => {
    const { service, updates } = serviceFailingWith(new AiError('Slow down.', 'ai_rate_limited'));
    await expect(service.generateContent('u1', 'a1')).resolves.toMatchObject({
      lastError: { code: 'ai_rate_limited' },
    });
    expect(updates).toHaveLength(1);
  });

  it.each([
    ['insufficient_quota', new AiQuotaError('You exceeded your current quota.')],
    ['ai_auth', new AiError('The OpenAI API key was refused.', 'ai_auth')],
    ['ai_model_not_found', new AiError('Model missing.', 'ai_model_not_found')],
  ])('%s: retrying cannot fix it, so it resolves even with throwIfTransient', async (code, err) => {
    const { service } = serviceFailingWith(err);
    await expect(service.generateContent('u1', 'a1', { throwIfTransient: true })).resolves.toMatchObject({
      lastError: { code },
    });
  });
});
