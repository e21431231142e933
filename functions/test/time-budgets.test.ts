/**
 * Every job fits inside its function's timeout, retries included (functions/src/time-budgets.ts;
 * the code enforcing each budget has its own test: ai/openai.test.ts, integrations/google-mail.test.ts,
 * publishing/publish-deadline.test.ts).
 */
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_EDIT_TIMEOUT_MS,
  DEFAULT_IMAGE_TIMEOUT_MS,
  DEFAULT_TEXT_TIMEOUT_MS,
  MIN_RETRY_MS,
} from '../src/adapters/ai/openai.js';
import { NOTIFY_LEASE_MS } from '../src/domain/scheduling.js';
import {
  AI_IMAGE_BUDGET_MS,
  AI_TEXT_BUDGET_MS,
  API_FUNCTION_TIMEOUT_S,
  BACKFILL_DEPLOY_LIMIT_MS,
  BACKFILL_FUNCTION_TIMEOUT_S,
  BACKFILL_INDEX_WAIT_MS,
  BACKFILL_SERVICE_TIMEOUT_S,
  BACKFILL_STEP_RESERVE_MS,
  JOB_WORST_CASES,
  PUBLISH_CLAIM_STALE_MS,
  PUBLISH_DEADLINE_MS,
  WORKER_FUNCTION_TIMEOUT_S,
} from '../src/time-budgets.js';

describe('time budgets', () => {
  it.each(JOB_WORST_CASES.map((c) => [c.job, c] as const))(
    '%s ends before its function is stopped',
    (_job, { ms, functionTimeoutS }) => {
      expect(ms).toBeLessThanOrEqual(functionTimeoutS * 1000);
    },
  );

  it('in-request publishing ends below API Gateway’s 30 s, and a claim outlives any request that can hold it', () => {
    expect(API_FUNCTION_TIMEOUT_S).toBeLessThan(30);
    expect(PUBLISH_DEADLINE_MS).toBeLessThanOrEqual(20_000);
    expect(PUBLISH_CLAIM_STALE_MS).toBeGreaterThan(API_FUNCTION_TIMEOUT_S * 1000);
    // The approval e-mail's lease outlives the worker that holds it.
    expect(NOTIFY_LEASE_MS).toBeGreaterThan(WORKER_FUNCTION_TIMEOUT_S * 1000);
  });

  it("a deployment's backfills answer CloudFormation before it stops waiting, and each invocation before Lambda stops it", () => {
    // The last step starts by the limit and ends within the reserve; a few minutes are left for the
    // invocations' start and CloudFormation's own delivery.
    expect(BACKFILL_DEPLOY_LIMIT_MS + BACKFILL_STEP_RESERVE_MS).toBeLessThanOrEqual(
      BACKFILL_SERVICE_TIMEOUT_S * 1000 - 5 * 60_000,
    );
    expect(BACKFILL_SERVICE_TIMEOUT_S).toBeLessThanOrEqual(3_600);
    expect(BACKFILL_FUNCTION_TIMEOUT_S).toBeLessThanOrEqual(900);
    expect(BACKFILL_STEP_RESERVE_MS).toBeLessThan(BACKFILL_FUNCTION_TIMEOUT_S * 1000);
    expect(BACKFILL_INDEX_WAIT_MS).toBeLessThan(BACKFILL_DEPLOY_LIMIT_MS);
  });

  it('an AI call gets its whole timeout the first time, and its retry only what is left of the budget', () => {
    expect(AI_TEXT_BUDGET_MS).toBeGreaterThanOrEqual(DEFAULT_TEXT_TIMEOUT_MS);
    expect(AI_IMAGE_BUDGET_MS).toBeGreaterThanOrEqual(DEFAULT_IMAGE_TIMEOUT_MS);
    // Two whole calls would not fit: the budget, not the timeout, bounds call + retry.
    expect(2 * DEFAULT_IMAGE_TIMEOUT_MS).toBeGreaterThan(WORKER_FUNCTION_TIMEOUT_S * 1000);
    expect(MIN_RETRY_MS).toBeLessThan(AI_TEXT_BUDGET_MS - DEFAULT_TEXT_TIMEOUT_MS);
    expect(DEFAULT_EDIT_TIMEOUT_MS).toBeLessThan(API_FUNCTION_TIMEOUT_S * 1000);
  });
});
