import { beforeEach, describe, expect, it, vi } from 'vitest';
import { TransientDraftingError } from '../src/domain/articles.js';
import { RecordedRunFailure } from '../src/domain/scheduling.js';

const articles = vi.hoisted(() => ({ generateContent: vi.fn(), generateImage: vi.fn(), recordFailure: vi.fn() }));
const notifier = vi.hoisted(() => ({ generateAndNotify: vi.fn() }));
vi.mock('../src/wiring/articles.js', () => ({ articleServices: () => ({ articles }) }));
vi.mock('../src/wiring/approval-notifier.js', () => ({ approvalNotifier: () => notifier }));
const { runJob } = await import('../src/jobs/run-job.js');

const content = { type: 'generate-content' as const, userId: 'u1', articleId: 'a1' };
const notify = {
  type: 'generate-and-notify' as const,
  userId: 'u1',
  articleId: 'a1',
  platform: 'blog' as const,
  scheduledFor: '2030-01-01T09:00:00.000Z',
};

describe('runJob: no failure goes unrecorded', () => {
  beforeEach(() => {
    for (const fn of [...Object.values(articles), notifier.generateAndNotify]) fn.mockReset();
  });

  it.each([
    ['generate-content', content, 'draft_failed', () => articles.generateContent],
    [
      'generate-image',
      {
        type: 'generate-image' as const,
        userId: 'u1',
        articleId: 'a1',
        description: 'd',
        requestedAt: '2030-01-01T09:00:00.000Z',
      },
      'image_failed',
      () => articles.generateImage,
    ],
    ['generate-and-notify', notify, 'run_failed', () => notifier.generateAndNotify],
  ] as const)(
    "records a %s failure as the article's lastError with its code, and throws it",
    async (_name, job, code, fn) => {
      fn().mockRejectedValue(new Error('Secrets Manager is unreachable'));
      await expect(runJob(job)).rejects.toThrow('Secrets Manager is unreachable');
      expect(articles.recordFailure).toHaveBeenCalledWith('u1', 'a1', { code, message: expect.any(String) });
    },
  );

  it('keeps the more precise failure a job recorded itself (an e-mail that could not be sent, a transient AI error)', async () => {
    notifier.generateAndNotify.mockRejectedValue(
      new RecordedRunFailure('email_failed', { cause: new Error('invalid_grant') }),
    );
    await expect(runJob(notify)).rejects.toThrow(RecordedRunFailure);
    articles.generateContent.mockRejectedValue(new TransientDraftingError('a1', 'ai_rate_limited', 'Rate limited'));
    await expect(runJob(content, { retryTransient: true })).rejects.toThrow(TransientDraftingError);
    expect(articles.recordFailure).not.toHaveBeenCalled();
  });

  it("still throws the job's failure when recording it fails too", async () => {
    articles.generateContent.mockRejectedValue(new Error('boom'));
    articles.recordFailure.mockRejectedValue(new Error('DynamoDB is down'));
    await expect(runJob(content)).rejects.toThrow('boom');
  });
});
