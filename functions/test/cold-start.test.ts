/**
 * What a Lambda does when it loads (its cold start, docs/testing.md, Performance budgets): importing an
 * entry must leave work that only some calls need until a call needs it. The bench measures the time
 * (`npm run bench -- lambdas`); this file pins down the causes found there, one per test.
 */
import { describe, expect, it, vi } from 'vitest';

/**
 * Every zod schema starts with a call of one of zod's functions (`z.string()`, `z.object()`, …): this
 * file's zod counts those calls, so a test can tell whether a schema was built.
 */
const zodCalls = vi.hoisted(() => ({ count: 0 }));
vi.mock('zod/mini', async (importOriginal) => {
  const zod = await importOriginal<Record<string, unknown>>();
  return Object.fromEntries(
    Object.entries(zod).map(([name, value]) => [
      name,
      typeof value === 'function' && /^[a-z]/.test(name)
        ? (...args: unknown[]) => {
            zodCalls.count++;
            return (value as (...a: unknown[]) => unknown)(...args);
          }
        : value,
    ]),
  );
});

/** The AWS clients that only some calls use: each records here when something loads it. */
const loaded = vi.hoisted(() => new Set<string>());
vi.mock('@aws-sdk/client-lambda', async (importOriginal) => {
  loaded.add('@aws-sdk/client-lambda');
  return importOriginal();
});
vi.mock('@aws-sdk/client-sqs', async (importOriginal) => {
  loaded.add('@aws-sdk/client-sqs');
  return importOriginal();
});
vi.mock('@aws-sdk/client-scheduler', async (importOriginal) => {
  loaded.add('@aws-sdk/client-scheduler');
  return importOriginal();
});
vi.mock('@aws-lambda-powertools/metrics', async (importOriginal) => {
  loaded.add('@aws-lambda-powertools/metrics');
  return importOriginal();
});

describe('loading a Lambda entry', () => {
  // Built at load, the domain events' schemas (which metrics.ts, in every function, listed) and the adapters'
  // made every function pay zod's first use at its start, though a call needs a few of them at most. The
  // route table's (@app/shared, which this file's zod does not reach) are pinned down by shared/test/lazy-schemas.test.ts.
  it('builds none of its own zod schemas (each is built on first use: lazySchema)', async () => {
    const { groupHandlers } = await import('../src/lambda/index.js');
    const { handler: worker } = await import('../src/lambda/worker.js');
    expect(Object.keys(groupHandlers).length).toBeGreaterThan(0);
    expect(typeof worker).toBe('function');
    expect(zodCalls.count).toBe(0);
  });

  // The Lambda client alone was ~70 KB of every function that queues jobs; a call that queues none (listing
  // articles, say) never needed it. Each is loaded by the first call that uses it (lambda-job-queue.ts,
  // sqs-job-queue.ts, eventbridge-scheduler.ts).
  // Powertools Metrics (~13 KB) serves only the calls that record a business event (publishing, drafting, approval
  // e-mails, jobs): the first event loads it (business-events.ts).
  it('loads none of the job and schedule clients (Lambda, SQS, EventBridge Scheduler), nor Powertools Metrics', async () => {
    await import('../src/lambda/index.js');
    await import('../src/lambda/worker.js');
    expect([...loaded]).toEqual([]);
  });

  it('loads them on first use, and each once', async () => {
    const { LambdaJobQueue } = await import('../src/adapters/aws/lambda-job-queue.js');
    const sent: unknown[] = [];
    const queue = new LambdaJobQueue((sdk) => {
      const client = new sdk.LambdaClient({ region: 'us-east-1' });
      // Records the invocation instead of sending it.
      client.send = (async (command: unknown) => void sent.push(command)) as typeof client.send;
      return client;
    }, 'worker');
    await queue.enqueue({ type: 'generate-content', userId: 'u', articleId: 'a' });
    await queue.enqueue({ type: 'generate-content', userId: 'u', articleId: 'b' });
    expect([...loaded]).toEqual(['@aws-sdk/client-lambda']);
    expect(sent).toHaveLength(2);
  });
});
