import { hourlyLimitReached, tooManyJobsRunning, type LimitedCall } from '@app/shared';
import { DomainError } from './errors.js';
import type { ThrottleStore } from './login-throttle.js';

export type { LimitedCall };

/**
 * Per-user limits on the calls that cost AI credits, worker time or decoding work: drafting (creating an
 * article, drafting again), image generation and upload starts. Without them one account could start
 * jobs in a loop and take the worker's whole concurrency (and the owner's OpenAI credits).
 */
export interface JobLimitPolicy {
  /** Drafting and image jobs of one user queued or running at once. */
  inFlight: number;
  /** Calls of each kind one user may start per clock hour. */
  perHour: Record<LimitedCall, number>;
}

/** Far above what a person writing articles needs; a spreadsheet import is not counted (its own queue). */
export const JOB_LIMITS: JobLimitPolicy = {
  inFlight: 5,
  perHour: { draft: 30, image: 20, upload: 20 },
};

const HOUR_MS = 60 * 60_000;
/**
 * A job's place in flight is taken back when the job ends (the worker reports it). One that never reports
 * (its process was stopped) is forgotten with its count this long after the user's last start: twice the
 * worker's timeout (functions/src/time-budgets.ts), longer than any job runs.
 */
export const IN_FLIGHT_MEMORY_MS = 10 * 60_000;
/** What a refusal for jobs in flight suggests: drafting or an image usually ends within this. */
const IN_FLIGHT_RETRY_SECONDS = 30;

/** A call refused for now; `retryAfterSeconds` goes out as Retry-After (429). */
export class TooManyJobsError extends DomainError {
  readonly kind = 'too_many_attempts';
}

/** A started call's places: `cancel` gives them back when nothing was started after all (a failed write). */
export interface StartedCall {
  /** Whether the call holds a place in flight, which its job gives back when it ends (finished()). */
  inFlight: boolean;
  cancel(): Promise<void>;
}

/**
 * Counts calls in the same DynamoDB items and with the same atomic conditional writes as the sign-in
 * throttle (ThrottleStore): a start is counted against the hour's and the in-flight limit in one
 * transaction, or refused with nothing counted, so parallel calls cannot all pass a check made before
 * any of them is counted.
 */
export class JobLimits {
  constructor(
    private readonly store: ThrottleStore,
    private readonly policy: JobLimitPolicy = JOB_LIMITS,
  ) {}

  private static inFlightKey = (userId: string) => `jobs#${userId}`;
  /** The clock hour's count: a new hour is a new item, so the count starts afresh on the hour. */
  private static hourKey = (userId: string, call: LimitedCall, hourStart: number) =>
    `calls#${call}#${userId}#${hourStart}`;

  /**
   * Counts one call of `call` (and, for jobs, a place in flight), or throws TooManyJobsError with when
   * to try again. Uploads run no job: only the hour's count applies.
   */
  async start(userId: string, call: LimitedCall, now = Date.now()): Promise<StartedCall> {
    const hourStart = now - (now % HOUR_MS);
    const hourEnd = hourStart + HOUR_MS;
    const hourly = {
      subject: JobLimits.hourKey(userId, call, hourStart),
      freeFailures: this.policy.perHour[call],
      memoryMs: hourEnd - now,
    };
    const inFlight = call !== 'upload';
    const running = {
      subject: JobLimits.inFlightKey(userId),
      freeFailures: this.policy.inFlight,
      memoryMs: IN_FLIGHT_MEMORY_MS,
    };
    const reservations = inFlight ? [hourly, running] : [hourly];
    if (await this.store.reserve(reservations, now)) {
      return {
        inFlight,
        cancel: async () => {
          await Promise.all(reservations.map((r) => this.store.refund(r.subject)));
        },
      };
    }
    const counts = await this.store.read(
      reservations.map((r) => r.subject),
      now,
    );
    if ((counts.get(hourly.subject)?.failures ?? 0) >= hourly.freeFailures) {
      const wait = Math.max(1, Math.ceil((hourEnd - now) / 1000));
      throw new TooManyJobsError(hourlyLimitReached(call, hourly.freeFailures, wait), 'hourly_limit', wait);
    }
    throw new TooManyJobsError(
      tooManyJobsRunning(this.policy.inFlight),
      'too_many_jobs_running',
      IN_FLIGHT_RETRY_SECONDS,
    );
  }

  /** A job that held a place in flight has ended (done, failed or superseded): its place is free. */
  async finished(userId: string): Promise<void> {
    await this.store.refund(JobLimits.inFlightKey(userId));
  }
}
