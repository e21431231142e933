import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RecordedRunFailure } from '../src/domain/scheduling.js';
import { runJob } from '../src/jobs/run-job.js';
import { handler as worker } from '../src/lambda/worker.js';
import { startFakeGoogle, type FakeGoogle } from './fakes/google.js';
import { Client, completeOAuth, drafted, registration, startTestApp, type TestApp } from './helpers/app.js';

let app: TestApp;
let google: FakeGoogle;
let owner: Client;
let userId: string;

beforeAll(async () => {
  google = await startFakeGoogle();
  process.env.GOOGLE_OAUTH_URL = google.oauthUrl;
  process.env.GOOGLE_API_URL = google.apiUrl;
  app = await startTestApp();
  owner = new Client(app.url);
  userId = (await owner.call('/api/auth/register', { body: registration({ email: 'owner@example.com' }) })).json.user
    ._id;
  for (const [key, value] of [
    ['notification_email', 'owner@example.com'],
    ['gmail_client_id', google.client.clientId],
    ['gmail_client_secret', google.client.clientSecret],
  ]) {
    expect((await owner.call('/api/settings', { body: { key, value } })).status).toBeLessThan(300);
  }
  const { authUrl } = (await owner.call('/api/email/oauth/auth')).json;
  expect((await completeOAuth(owner, authUrl)).location).toBe('/settings?gmail_connected=true');
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
  it('records email_failed on the article, throws for the retry, and a later delivery sends it and clears the error', async () => {
    const { id, job } = await scheduledArticle('Revoked Gmail');
    google.setMode('revoked');
    try {
      // The worker throws: Lambda retries it and then hands it to the failure destination.
      await expect(worker(job)).rejects.toThrow(RecordedRunFailure);
      expect((await article(id)).lastError).toEqual({
        code: 'email_failed',
        message: 'The approval e-mail could not be sent: reconnect Gmail in Settings.',
      });
    } finally {
      google.setMode('ok');
    }
    const sentBefore = google.sentMessages.length;
    await expect(worker(job)).resolves.toBeUndefined(); // the retry (or a redrive) is not refused as a duplicate
    expect(google.sentMessages.length).toBe(sentBefore + 1);
    expect(google.sentMessages.at(-1)!.subject).toBe('Approve for WordPress (blog): Revoked Gmail');
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
