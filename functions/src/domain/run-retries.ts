/**
 * The back-off of a scheduled run (draft if needed, then e-mail the approval link) that failed for a reason a
 * later attempt may not meet: the mail provider down, the network, a DynamoDB hiccup. Failures only the owner
 * can fix (a revoked Gmail grant, no mailer) are not thrown and never retried (domain/scheduling.ts).
 *
 * Attempt 1 is the schedule's own run; when attempt n fails, attempt n + 1 runs RUN_RETRY_DELAYS_S[n − 1]
 * seconds later, as a one-off schedule of its own (Scheduler.retry). After the last attempt the run fails
 * for real: Lambda retries it twice, then it waits in the job failure queue (alarmed) for a person
 * (docs/operations.md, Failed jobs and redrive).
 */

/** 1, 5, 15 and 30 minutes, 1, 2 and 2 hours: eight attempts over about six hours. */
export const RUN_RETRY_DELAYS_S: readonly number[] = [60, 300, 900, 1800, 3600, 7200, 7200];

/** The longest a run's retries may take together: an approval e-mail more than a day late is not worth sending. */
const MAX_TOTAL_DELAY_S = 24 * 3600;

export interface RunRetry {
  /** The attempt to make (2 for the first retry). */
  attempt: number;
  /** When to make it. */
  at: Date;
}

/** How many attempts a run gets in all under these delays. */
export const runAttempts = (delaysS: readonly number[] = RUN_RETRY_DELAYS_S): number => delaysS.length + 1;

/** The next attempt after attempt `attempt` failed at `failedAt`, or undefined when that was the last. */
export function nextRunRetry(
  attempt: number,
  failedAt: Date,
  delaysS: readonly number[] = RUN_RETRY_DELAYS_S,
): RunRetry | undefined {
  if (!Number.isInteger(attempt) || attempt < 1) return undefined;
  const delay = delaysS[attempt - 1];
  if (delay === undefined) return undefined;
  return { attempt: attempt + 1, at: new Date(failedAt.getTime() + delay * 1000) };
}

/**
 * Delays from configuration (RUN_RETRY_DELAYS: seconds, comma-separated, decimals allowed so tests run fast),
 * else the defaults. A value that is not a list of positive numbers within a day in all gives the defaults:
 * a typo must not turn the retries off, nor make them hammer the mail provider.
 */
export function parseRunRetryDelays(value: string | undefined): readonly number[] {
  if (!value?.trim()) return RUN_RETRY_DELAYS_S;
  const delays = value.split(',').map((part) => Number(part.trim()));
  const valid =
    delays.length <= 20 &&
    delays.every((d) => Number.isFinite(d) && d > 0) &&
    delays.reduce((sum, d) => sum + d, 0) <= MAX_TOTAL_DELAY_S;
  return valid ? delays : RUN_RETRY_DELAYS_S;
}
