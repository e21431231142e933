import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { DynamoArticleStore } from '../src/adapters/dynamo/article-store.js';
import { RecordedRunFailure } from '../src/domain/scheduling.js';
import { logger } from '../src/logger.js';
import { runJob } from '../src/jobs/run-job.js';
import { handler as worker } from '../src/lambda/worker.js';
import { startFakeGoogle, type FakeGoogle } from './fakes/google.js';
import { ownerWithGmail } from './helpers/gmail-owner.js';
import { drafted, startTestApp, type Client, type TestApp } from './helpers/app.js';

const articlesDb = () =>
  DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: inject('dynamoEndpoint'),
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
    { marshallOptions: { removeUndefinedValues: true } },
  );

let app: TestApp;
let google: FakeGoogle;
let owner: Client;
let userId: string;

beforeAll(async () => {
  google = await startFakeGoogle();
  process.env.GOOGLE_OAUTH_URL = google.oauthUrl;
  process.env.GOOGLE_API_URL = google.apiUrl;
  app = await startTestApp();
  ({ owner, userId } = await ownerWithGmail(app, google));
});
afterAll(async () => {
  await app?.stop();
  await google?.stop();
  delete process.env.GOOGLE_OAUTH_URL;
  delete process.env.GOOGLE_API_URL;
});

async function scheduledArticle(title: string) {
  const id = (await owner.call('/api/articles', { body: { title, topic: 'Failures', keyword: 'retries' } })).json
    .article._id as string;
  await drafted(owner, id);
  const at = new Date(Date.now() + 3600_000).toISOString();
  expect(
    (await owner.call(`/api/articles/${id}/schedule`, { method: 'PUT', body: { platform: 'blog', datetime: at } }))
      .status,
  ).toBe(200);
  return {
    id,
    job: { type: 'generate-and-notify' as const, userId, articleId: id, platform: 'blog' as const, scheduledFor: at },
  };
}

const article = async (id: string) => (await owner.call(`/api/articles/${id}`)).json.article;

describe('a scheduled run whose approval e-mail cannot be sent', () => {
  it('Gmail refuses because of the owner (a revoked grant): email_failed is recorded and logged, the worker does not fail, and a later delivery sends it and clears the error', async () => {
    const { id, job } = await scheduledArticle('Revoked Gmail');
    google.setMode('revoked');
    const warnings = vi.spyOn(logger, 'warn');
    try {
      // No function error (nothing for Lambda to retry, no Errors alarm): retrying cannot help until the owner reconnects.
      await expect(worker(job)).resolves.toBeUndefined();
      expect((await article(id)).lastError).toEqual({
        code: 'email_failed',
        message: 'The approval e-mail could not be sent: reconnect Gmail in Settings.',
      });
      expect(warnings).toHaveBeenCalledWith('approval e-mail refused: the owner must reconnect Gmail', {
        articleId: id,
        platform: 'blog',
        code: 'email_failed',
      });
    } finally {
      warnings.mockRestore();
      google.setMode('ok');
    }
    const sentBefore = google.sentMessages.length;
    await expect(worker(job)).resolves.toBeUndefined(); // a redrive (or the owner's reschedule) is not refused as a duplicate
    expect(google.sentMessages.length).toBe(sentBefore + 1);
    expect(google.sentMessages.at(-1)!.subject).toBe('Approve for WordPress (blog): Revoked Gmail');
    expect((await article(id)).lastError).toBeNull();
  });

  it('Gmail is down: no function error, the next attempt is scheduled a minute later and the article says when; the last attempt throws, so Lambda retries the run', async () => {
    const { id, job } = await scheduledArticle('Gmail down');
    google.setMode('down');
    const warnings = vi.spyOn(logger, 'warn');
    try {
      const failedAt = Date.now();
      await expect(worker(job)).resolves.toBeUndefined();
      expect((await article(id)).lastError).toMatchObject({
        code: 'run_retrying',
        message: expect.stringMatching(/tried again automatically on .+ \(attempt 2 of 8\)\.$/),
      });
      const retry = (await app.items()).find((item) => item.PK === `SCHEDULE#${id}#blog` && item.SK !== 'SCHEDULE');
      expect(retry).toMatchObject({ attempt: 2, scheduledFor: job.scheduledFor });
      expect(Date.parse(String(retry!.fireAt)) - failedAt).toBeGreaterThanOrEqual(60_000);
      expect(warnings).toHaveBeenCalledWith(
        'Scheduled run failed; it is tried again later',
        expect.objectContaining({ articleId: id, attempt: 1, nextAttempt: 2 }),
      );
      await expect(worker({ ...job, attempt: 8 })).rejects.toThrow(RecordedRunFailure);
      expect((await article(id)).lastError).toMatchObject({ code: 'run_failed' });
    } finally {
      warnings.mockRestore();
      google.setMode('ok');
    }
    await expect(worker(job)).resolves.toBeUndefined();
    expect((await article(id)).lastError).toBeNull();
  });

  it('a second delivery while another sends the e-mail (its lease held): no function error, nothing sent, nothing recorded', async () => {
    const { id, job } = await scheduledArticle('Delivered twice');
    const store = new DynamoArticleStore(articlesDb(), app.tableName);
    const now = new Date();
    expect(
      await store.claimNotify(
        userId,
        id,
        'blog',
        job.scheduledFor,
        now.toISOString(),
        new Date(now.getTime() + 60_000).toISOString(),
      ),
    ).toBe('claimed');
    const sentBefore = google.sentMessages.length;
    await expect(worker(job)).resolves.toBeUndefined();
    expect(google.sentMessages.length).toBe(sentBefore);
    expect((await article(id)).lastError).toBeNull();
  });

  it('a job redriven from the failure queue (the invocation record Lambda sent there) runs again', async () => {
    const { id, job } = await scheduledArticle('Redriven');
    const failedInvocation = {
      version: '1.0',
      timestamp: new Date().toISOString(),
      requestContext: {
        requestId: 'r-1',
        functionArn: 'arn:aws:lambda:us-east-1:111111111111:function:worker:$LATEST',
        condition: 'RetriesExhausted',
        approximateInvokeCount: 3,
      },
      requestPayload: job,
      responseContext: { statusCode: 200, executedVersion: '$LATEST', functionError: 'Unhandled' },
      responsePayload: { errorType: 'RecordedRunFailure', errorMessage: 'The approval e-mail could not be sent' },
    };
    const sentBefore = google.sentMessages.length;
    const answer = await worker({
      Records: [
        { messageId: 'm-1', body: JSON.stringify(failedInvocation), attributes: { ApproximateReceiveCount: '1' } },
      ],
    });
    expect(answer).toEqual({ batchItemFailures: [] });
    expect(google.sentMessages.length).toBe(sentBefore + 1);
    expect((await article(id)).lastError).toBeNull();
  });
});

describe('what the worker is sent', () => {
  it('an invocation that is not a job is thrown (so it ends in the failure queue) and records nothing', async () => {
    const { id } = await scheduledArticle('Not a job');
    const failing = {
      type: 'generate-image' as const,
      userId,
      articleId: id,
      description: 'a lighthouse',
      requestedAt: 'not-a-time',
    };
    await expect(worker(failing)).rejects.toThrow(/Not a job/);
    expect((await article(id)).lastError).toBeNull();
  });

  it('a job for an article that no longer exists ends without a failure', async () => {
    await expect(runJob({ type: 'generate-content', userId, articleId: 'does-not-exist' })).resolves.toBeUndefined();
  });
});
