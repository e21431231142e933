import { tooManyLoginAttempts } from '@app/shared';
import { DomainError } from './errors.js';

/** Failed sign-ins of one subject (an account or a client address), as stored. */
export interface FailureCount {
  failures: number;
  /** Epoch ms until which sign-ins of this subject are refused; absent while not locked. */
  lockedUntil?: number;
}

/**
 * Where failure counts live: DynamoDB items with a TTL in AWS and locally alike, so every function
 * instance sees the same counts (a count in memory would reset with each new Lambda container).
 */
export interface ThrottleStore {
  /** The current counts of these subjects; a count that has expired is absent. */
  read(subjects: readonly string[], now: number): Promise<Map<string, FailureCount>>;
  /** Adds one failure, starting afresh when the count has expired; it expires `ttlMs` after this failure. */
  addFailure(subject: string, now: number, ttlMs: number): Promise<FailureCount>;
  /** Refuses sign-ins until `until` (epoch ms); a later lock already in place stays. */
  lock(subject: string, until: number): Promise<void>;
  clear(subject: string): Promise<void>;
}

export interface ThrottlePolicy {
  /** Failures allowed before the first lock. */
  freeFailures: number;
  /** The first lock; each further failure doubles it... */
  firstLockMs: number;
  /** ...up to this. */
  maxLockMs: number;
  /** A count is forgotten this long after its last failure. */
  memoryMs: number;
}

const MINUTE = 60_000;

/**
 * Per account: 5 free failures, then 30 s, 1, 2, 4, 8 and at most 15 minutes between tries, so a
 * password guesser gets about a hundred tries a day instead of thousands a minute. Per client
 * address, which may try many accounts: 20 free failures, the same back-off.
 */
export const ACCOUNT_POLICY: ThrottlePolicy = {
  freeFailures: 5,
  firstLockMs: 30_000,
  maxLockMs: 15 * MINUTE,
  memoryMs: 24 * 60 * MINUTE,
};
export const ADDRESS_POLICY: ThrottlePolicy = {
  freeFailures: 20,
  firstLockMs: 30_000,
  maxLockMs: 15 * MINUTE,
  memoryMs: 60 * MINUTE,
};

/** How long the n-th failure locks the subject for (0: not yet). */
export function lockDuration(policy: ThrottlePolicy, failures: number): number {
  const over = failures - policy.freeFailures;
  if (over < 0) return 0;
  return Math.min(policy.maxLockMs, policy.firstLockMs * 2 ** Math.min(over, 30));
}

/** The subjects of one sign-in attempt. */
export interface AttemptSubjects {
  /** The normalized e-mail address tried (whether or not it has an account: the same answer either way). */
  email: string;
  /** The client's address (the viewer's, behind CloudFront). */
  address: string;
}

const accountSubject = (email: string) => `account#${email}`;
const addressSubject = (address: string) => `address#${address}`;

/** A sign-in refused for now; `retryAfterSeconds` goes out as Retry-After. */
export class TooManyAttemptsError extends DomainError {
  readonly kind = 'too_many_attempts';
  constructor(retryAfterSeconds: number) {
    super(tooManyLoginAttempts(retryAfterSeconds), 'too_many_attempts', retryAfterSeconds);
  }
}

export class LoginThrottle {
  constructor(
    private readonly store: ThrottleStore,
    private readonly account: ThrottlePolicy = ACCOUNT_POLICY,
    private readonly address: ThrottlePolicy = ADDRESS_POLICY,
  ) {}

  /** Throws TooManyAttemptsError while the account or the address is locked; no password is checked then. */
  async check(subjects: AttemptSubjects, now = Date.now()): Promise<void> {
    const keys = [accountSubject(subjects.email), addressSubject(subjects.address)];
    const counts = await this.store.read(keys, now);
    const until = Math.max(...keys.map((k) => counts.get(k)?.lockedUntil ?? 0));
    if (until > now) throw new TooManyAttemptsError(Math.ceil((until - now) / 1000));
  }

  /** Counts a failed sign-in; says which subjects this failure locked (for the audit trail). */
  async failed(
    subjects: AttemptSubjects,
    now = Date.now(),
  ): Promise<{ accountLockedFor: number; addressLockedFor: number }> {
    const count = async (subject: string, policy: ThrottlePolicy) => {
      const { failures } = await this.store.addFailure(subject, now, policy.memoryMs);
      const lockMs = lockDuration(policy, failures);
      if (lockMs > 0) await this.store.lock(subject, now + lockMs);
      return lockMs;
    };
    const [accountLockedFor, addressLockedFor] = await Promise.all([
      count(accountSubject(subjects.email), this.account),
      count(addressSubject(subjects.address), this.address),
    ]);
    return { accountLockedFor, addressLockedFor };
  }

  /** A successful sign-in forgets the account's failures (the address's stay: it may be guessing others). */
  async succeeded(email: string): Promise<void> {
    await this.store.clear(accountSubject(email));
  }
}
