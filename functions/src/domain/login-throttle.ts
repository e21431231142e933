import { tooManyLoginAttempts } from '@app/shared';
import { DomainError } from './errors.js';

/** Counted sign-in attempts of one subject (an account, an account from one client, a client), as stored. */
export interface FailureCount {
  /** Attempts counted and not refunded: failures, plus attempts whose password check is still running. */
  failures: number;
  /** Epoch ms until which sign-ins of this subject are refused; absent while not locked. */
  lockedUntil?: number;
  /** The count at which the current (or last) lock was set: once it has run out, one more attempt may start. */
  lockedAt?: number;
}

/** One subject of an attempt to reserve, with its policy's numbers. */
export interface Reservation {
  subject: string;
  /** Attempts allowed before the first lock. */
  freeFailures: number;
  /** The count is forgotten this long after its last attempt. */
  memoryMs: number;
  /**
   * When the last attempt counted is this old and never reported, it no longer holds the allowance (one
   * more may start). Absent: counts hold until they are taken back or forgotten.
   */
  staleAfterMs?: number;
}

/**
 * Where counts live: DynamoDB items with a TTL in AWS and locally alike, so every function instance
 * sees the same counts (a count in memory would reset with each new Lambda container).
 */
export interface ThrottleStore {
  /**
   * Counts one attempt for every subject in one atomic write, only if none is locked and each is under
   * its allowance (fewer than `freeFailures` counted, or its lock has run out and no attempt has started
   * since). Parallel attempts therefore cannot all pass a check made before any of them is counted.
   * @returns true when counted, false when refused (nothing counted).
   */
  reserve(reservations: readonly Reservation[], now: number): Promise<boolean>;
  /** The current counts of these subjects; a count that has expired is absent. */
  read(subjects: readonly string[], now: number): Promise<Map<string, FailureCount>>;
  /** Refuses attempts until `until` (epoch ms), set at count `atCount`; a later lock already in place stays. */
  lock(subject: string, until: number, atCount: number): Promise<void>;
  /** Takes back one counted attempt (it succeeded). */
  refund(subject: string): Promise<void>;
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
 * A sign-in counted this long ago whose outcome never came (its function was stopped between the count
 * and the password check's result) no longer holds the allowance, so a count cannot stay stuck.
 */
const STALE_ATTEMPT_MS = MINUTE;

/**
 * Per account and client: 5 free failures, then 30 s, 1, 2, 4, 8 and at most 15 minutes between
 * tries, so a password guesser gets about a hundred tries a day instead of thousands a minute.
 */
export const ACCOUNT_POLICY: ThrottlePolicy = {
  freeFailures: 5,
  firstLockMs: 30_000,
  maxLockMs: 15 * MINUTE,
  memoryMs: 24 * 60 * MINUTE,
};
/**
 * Per account from every client together: a ceiling far above one client's, so that someone who only
 * knows the address cannot keep its owner out by failing from one place (the owner's own client has
 * its own count), while guessing from many addresses still meets a limit.
 */
export const ACCOUNT_CEILING_POLICY: ThrottlePolicy = {
  freeFailures: 100,
  firstLockMs: 30_000,
  maxLockMs: 15 * MINUTE,
  memoryMs: 24 * 60 * MINUTE,
};
/** Per client, which may try many accounts: 20 free failures, the same back-off. */
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

/**
 * The client an address stands for: an IPv4 address itself, an IPv6 address its /64 (one household or
 * one server is given a whole /64, so counting single IPv6 addresses would let it try 2^64 times).
 * IPv4-mapped IPv6 addresses count as the IPv4 address. Anything else is taken as it is.
 */
export function clientKey(address: string): string {
  const text = address.trim().toLowerCase();
  if (!text.includes(':')) return text;
  let canonical: string;
  try {
    // The URL parser writes an IPv6 address one way: lowercase hex groups, the longest zero run as ::.
    canonical = new URL(`http://[${text}]/`).hostname.slice(1, -1);
  } catch {
    return text;
  }
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(canonical);
  if (mapped) {
    const [hi, lo] = [parseInt(mapped[1]!, 16), parseInt(mapped[2]!, 16)];
    return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
  }
  const [head = '', tail = ''] = canonical.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = canonical.includes('::')
    ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return `${groups.slice(0, 4).join(':')}::/64`;
}

/** The subjects of one sign-in attempt. */
export interface AttemptSubjects {
  /** The normalized e-mail address tried (whether or not it has an account: the same answer either way). */
  email: string;
  /** The client's address (the viewer's, behind CloudFront). */
  address: string;
}

/** Which count locked an attempt, for the audit trail. */
export type LockReason = 'account' | 'address';

interface Subject {
  key: string;
  policy: ThrottlePolicy;
  reason: LockReason;
  /** A success forgets this count (the account from this client); the others only take the attempt back. */
  clearedBySuccess: boolean;
}

/** A sign-in refused for now; `retryAfterSeconds` goes out as Retry-After. */
export class TooManyAttemptsError extends DomainError {
  readonly kind = 'too_many_attempts';
  constructor(retryAfterSeconds: number) {
    super(tooManyLoginAttempts(retryAfterSeconds), 'too_many_attempts', retryAfterSeconds);
  }
}

/**
 * Sign-in throttling that counts an attempt before its password is checked: `begin` reserves it
 * atomically against every count (or refuses it), then the caller checks the password and reports
 * `failed` or `succeeded`. Parallel guesses are thus limited like sequential ones.
 */
export class LoginThrottle {
  constructor(
    private readonly store: ThrottleStore,
    private readonly policies: {
      account: ThrottlePolicy;
      ceiling: ThrottlePolicy;
      address: ThrottlePolicy;
    } = { account: ACCOUNT_POLICY, ceiling: ACCOUNT_CEILING_POLICY, address: ADDRESS_POLICY },
  ) {}

  private subjects({ email, address }: AttemptSubjects): Subject[] {
    const client = clientKey(address);
    return [
      { key: `account#${email}#${client}`, policy: this.policies.account, reason: 'account', clearedBySuccess: true },
      { key: `account#${email}`, policy: this.policies.ceiling, reason: 'account', clearedBySuccess: false },
      { key: `address#${client}`, policy: this.policies.address, reason: 'address', clearedBySuccess: false },
    ];
  }

  /**
   * Counts this attempt, or throws TooManyAttemptsError (nothing counted, no password to check) while
   * a count is locked or other attempts are still using up its allowance.
   */
  async begin(attempt: AttemptSubjects, now = Date.now()): Promise<void> {
    const subjects = this.subjects(attempt);
    const reservations = subjects.map((s) => ({
      subject: s.key,
      freeFailures: s.policy.freeFailures,
      memoryMs: s.policy.memoryMs,
      staleAfterMs: STALE_ATTEMPT_MS,
    }));
    if (await this.store.reserve(reservations, now)) return;
    const counts = await this.store.read(
      subjects.map((s) => s.key),
      now,
    );
    const until = Math.max(...subjects.map((s) => counts.get(s.key)?.lockedUntil ?? 0));
    // No lock yet: the allowance is taken by attempts still being checked, whose outcome comes within a second.
    throw new TooManyAttemptsError(until > now ? Math.ceil((until - now) / 1000) : 1);
  }

  /** The attempt's password was wrong: locks each count that has reached its limit; says which (audit trail). */
  async failed(attempt: AttemptSubjects, now = Date.now()): Promise<{ lockedForMs: number; reason?: LockReason }> {
    const subjects = this.subjects(attempt);
    const counts = await this.store.read(
      subjects.map((s) => s.key),
      now,
    );
    let longest: { lockedForMs: number; reason?: LockReason } = { lockedForMs: 0 };
    await Promise.all(
      subjects.map(async (s) => {
        const failures = counts.get(s.key)?.failures ?? 0;
        const lockMs = lockDuration(s.policy, failures);
        if (lockMs === 0) return;
        await this.store.lock(s.key, now + lockMs, failures);
        if (lockMs > longest.lockedForMs) longest = { lockedForMs: lockMs, reason: s.reason };
      }),
    );
    return longest;
  }

  /**
   * The attempt's password was right: the account's count from this client is forgotten; the account's
   * ceiling and the client's count only take this attempt back (the client may be guessing others).
   */
  async succeeded(attempt: AttemptSubjects): Promise<void> {
    await Promise.all(
      this.subjects(attempt).map((s) => (s.clearedBySuccess ? this.store.clear(s.key) : this.store.refund(s.key))),
    );
  }
}
