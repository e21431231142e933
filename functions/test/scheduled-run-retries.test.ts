import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RunRetryMessages } from '@app/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEventLines } from '../src/adapters/local/jsonl-event-publisher.js';
import { localJobsIdle } from '../src/adapters/local/in-process-job-queue.js';
import { RecordedRunFailure } from '../src/domain/scheduling.js';
import { handler as worker } from '../src/lambda/worker.js';
import { startFakeGoogle, type FakeGoogle } from './fakes/google.js';
import { ownerWithGmail } from './helpers/gmail-owner.js';
import { drafted, startTestApp, type Client, type TestApp } from './helpers/app.js';

/** Five attempts, 0.3 s apart (production: eight over six hours, domain/run-retries.ts). */
const DELAYS = '0.3,0.3,0.3,0.3';
const ATTEMPTS = 5;

let app: TestApp;
let google: FakeGoogle;
let owner: Client;
let userId: string;

beforeAll(async () => {
  google = await startFakeGoogle();
  process.env.GOOGLE_OAUTH_URL = google.oauthUrl;
  process.env.GOOGLE_API_URL = google.apiUrl;
  process.env.RUN_RETRY_DELAYS = DELAYS;
  app = await startTestApp();
  ({ owner, userId } = await ownerWithGmail(app, google));
});
afterAll(async () => {
  await app?.stop();
  await google?.stop();
  delete process.env.GOOGLE_OAUTH_URL;
  delete process.env.GOOGLE_API_URL;
  delete process.env.RUN_RETRY_DELAYS;
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const article = async (id: string) => (await owner.call(`/api/articles/${id}`)).json.article;

async function draftedArticle(title: string): Promise<string> {
  const id = (await owner.call('/api/articles', { body: { title, topic: 'Retries', keyword: 'back-off' } })).json
    .article._id as string;
  await drafted(owner, id);
  return id;
}

async function schedule(id: string, at: string): Promise<void> {
  const res = await owner.call(`/api/articles/${id}/schedule`, {
    method: 'PUT',
    body: { platform: 'blog', datetime: at },
  });
  expect(res.status).toBe(200);
}

/** The run's stored schedules (local timers' items: the run's own and its retries'). */
const schedulesOf = async (id: string) =>
  (await app.items()).filter((item) => String(item.PK).startsWith(`SCHEDULE#${id}#`));

const eventsOf = (id: string) =>
  parseEventLines(readFileSync(join(app.dataDir, 'events.jsonl'), 'utf8')).filter(
    (e) => (e.detail as { articleId?: string }).articleId === id,
  );

describe('a scheduled run that fails for a while is retried by itself, with back-off', () => {
  it('Gmail fails three times, then takes it: the e-mail goes out once, each failure was recorded on the article and as ScheduleMissed', async () => {
    const title = 'Gmail outage';
    const id = await draftedArticle(title);
    const sendsBefore = google.sendAttempts;
    google.failNextSends(3);
    await schedule(id, new Date(Date.now() + 1000).toISOString());

    // While it retries, the article says so: when, and which attempt of how many.
    const seen: { code: string; message: string }[] = [];
    const deadline = Date.now() + 20_000;
    while (!google.sentMessages.some((m) => m.subject.endsWith(title)) && Date.now() < deadline) {
      const { lastError } = await article(id);
      if (lastError && seen.at(-1)?.message !== lastError.message) seen.push(lastError);
      await sleep(40);
    }
    await localJobsIdle();
    expect(google.sentMessages.filter((m) => m.subject === `Approve for WordPress (blog): ${title}`)).toHaveLength(1);
    expect(google.sendAttempts - sendsBefore).toBe(4);
    expect(seen.length).toBeGreaterThan(0);
    for (const failure of seen.filter((f) => f.code === 'run_retrying'))
      expect(failure.message).toMatch(
        new RegExp(`tried again automatically on .+ \\(attempt [234] of ${ATTEMPTS}\\)\\.$`),
      );
    expect(seen.some((f) => f.code === 'run_retrying')).toBe(true);
    // Sent: the failures are over, on the card too.
    expect((await article(id)).lastError).toBeNull();

    // Every attempt is on the record: three ScheduleMissed (retryable), then the approval request.
    const events = eventsOf(id)
      .filter((e) => e['detail-type'] !== 'ArticleDrafted.v1')
      .map((e) => [
        e['detail-type'],
        (e.detail as { error?: { code: string } }).error?.code,
        (e.detail as { retryable?: boolean }).retryable,
      ]);
    expect(events).toEqual([
      ['ScheduleMissed.v1', 'email_failed', true],
      ['ScheduleMissed.v1', 'email_failed', true],
      ['ScheduleMissed.v1', 'email_failed', true],
      ['ApprovalRequested.v1', undefined, undefined],
    ]);
    // Each retry's own schedule fired once and is gone, as is the run's.
    expect(await schedulesOf(id)).toEqual([]);
  });

  it('a retry keeps the run it was made for: the owner moving the article meanwhile makes it do nothing', async () => {
    const title = 'Moved while retrying';
    const id = await draftedArticle(title);
    const first = new Date(Date.now() + 3600_000).toISOString();
    await schedule(id, first);
    google.failNextSends(1);
    const job = {
      type: 'generate-and-notify' as const,
      userId,
      articleId: id,
      platform: 'blog' as const,
      scheduledFor: first,
    };
    await expect(worker(job)).resolves.toBeUndefined(); // retried later, no function error
    expect((await article(id)).lastError).toMatchObject({ code: 'run_retrying' });
    const retries = (await schedulesOf(id)).filter((item) => String(item.SK).startsWith('RETRY#'));
    expect(retries).toEqual([expect.objectContaining({ attempt: 2, scheduledFor: first })]);
    await schedule(id, new Date(Date.now() + 7200_000).toISOString());
    const sends = google.sendAttempts;
    await sleep(600);
    await localJobsIdle();
    expect(google.sendAttempts).toBe(sends); // the retry found a stale run
    expect((await schedulesOf(id)).filter((item) => String(item.SK).startsWith('RETRY#'))).toEqual([]);
  });

  it('after the last attempt it fails for real (Lambda retries it, then the failure queue) and the article says the retries are used up', async () => {
    const id = await draftedArticle('Outage too long');
    const at = new Date(Date.now() + 3600_000).toISOString();
    await schedule(id, at);
    google.failNextSends(1);
    const job = {
      type: 'generate-and-notify' as const,
      userId,
      articleId: id,
      platform: 'blog' as const,
      scheduledFor: at,
      attempt: ATTEMPTS,
    };
    await expect(worker(job)).rejects.toThrow(RecordedRunFailure);
    expect((await article(id)).lastError).toEqual({ code: 'run_failed', message: RunRetryMessages.gaveUp(ATTEMPTS) });
    expect((await schedulesOf(id)).filter((item) => String(item.SK).startsWith('RETRY#'))).toEqual([]);
    // Redriven from the failure queue once the cause is gone, it sends (the lease was given up).
    const sent = google.sentMessages.length;
    await expect(worker(job)).resolves.toBeUndefined();
    expect(google.sentMessages.length).toBe(sent + 1);
    expect((await article(id)).lastError).toBeNull();
  });

  it("the owner's Gmail refusing (a revoked grant) is not retried: the article tells them to reconnect", async () => {
    const id = await draftedArticle('Revoked');
    const at = new Date(Date.now() + 3600_000).toISOString();
    await schedule(id, at);
    google.setMode('revoked');
    try {
      await expect(
        worker({ type: 'generate-and-notify', userId, articleId: id, platform: 'blog', scheduledFor: at }),
      ).resolves.toBeUndefined();
    } finally {
      google.setMode('ok');
    }
    expect((await article(id)).lastError).toEqual({
      code: 'email_failed',
      message: 'The approval e-mail could not be sent: reconnect Gmail in Settings.',
    });
    expect((await schedulesOf(id)).filter((item) => String(item.SK).startsWith('RETRY#'))).toEqual([]);
  });

  it('a run the Scheduler dead-lettered (the message is the job itself, a retry with its attempt) runs when redriven to the job queue', async () => {
    const title = 'Dead-lettered retry';
    const id = await draftedArticle(title);
    const at = new Date(Date.now() + 3600_000).toISOString();
    await schedule(id, at);
    const job = { type: 'generate-and-notify', userId, articleId: id, platform: 'blog', scheduledFor: at, attempt: 3 };
    const answer = await worker({
      Records: [
        {
          messageId: 'm-scheduler-1',
          body: JSON.stringify(job),
          attributes: { ApproximateReceiveCount: '1' },
          messageAttributes: {
            ERROR_CODE: { stringValue: 'Lambda.TooManyRequestsException', dataType: 'String' },
            RETRY_ATTEMPTS: { stringValue: '5', dataType: 'String' },
            EXHAUSTED_RETRY_CONDITION: { stringValue: 'MaximumRetryAttempts', dataType: 'String' },
          },
        },
      ],
    });
    expect(answer).toEqual({ batchItemFailures: [] });
    expect(google.sentMessages.filter((m) => m.subject === `Approve for WordPress (blog): ${title}`)).toHaveLength(1);
  });
});
