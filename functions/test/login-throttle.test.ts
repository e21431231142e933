import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDocumentClient } from '../src/adapters/dynamo/client.js';
import { DynamoThrottleStore } from '../src/adapters/dynamo/throttle-store.js';
import { clientKey, LoginThrottle, TooManyAttemptsError, type AttemptSubjects } from '../src/domain/login-throttle.js';
import { ensureTable } from '../src/local/dynamo.js';

/**
 * The sign-in throttle over DynamoDB Local: attempts are counted before their password is checked, so
 * parallel guesses meet the same limits as sequential ones; an IPv6 /64 is one client; and failures
 * from one client cannot keep the account's owner out elsewhere.
 */
const db = createDocumentClient({ region: 'us-east-1', dynamoEndpoint: inject('dynamoEndpoint') });
const tableName = `throttle-${randomBytes(6).toString('hex')}`;
const throttle = new LoginThrottle(new DynamoThrottleStore(db, tableName));

beforeAll(() => ensureTable(inject('dynamoEndpoint'), tableName));
afterAll(() => db.destroy());

const email = () => `owner-${randomBytes(4).toString('hex')}@example.com`;

/** One sign-in as the throttle sees it: begin, then the password check's outcome. Says whether it was checked. */
async function attempt(subjects: AttemptSubjects, passwordRight: boolean, now = Date.now()): Promise<boolean> {
  try {
    await throttle.begin(subjects, now);
  } catch (err) {
    if (err instanceof TooManyAttemptsError) return false;
    throw err;
  }
  await new Promise((r) => setTimeout(r, 5)); // the password check's time, during which others arrive
  if (passwordRight) await throttle.succeeded(subjects);
  else await throttle.failed(subjects, now);
  return true;
}

describe('client keys', () => {
  it('takes an IPv4 address as it is and an IPv6 address as its /64, however it is written', () => {
    expect(clientKey('198.51.100.7')).toBe('198.51.100.7');
    expect(clientKey('2001:db8:1:2::5')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:DB8:1:2:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:0db8:0001:0002:0:0:0:1')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientKey('::ffff:198.51.100.7')).toBe('198.51.100.7');
    expect(clientKey('::1')).toBe('0:0:0:0::/64');
  });
});

describe('parallel attempts', () => {
  it('checks at most the free attempts of 40 sent at once, the right password among them', async () => {
    const subjects = { email: email(), address: '203.0.113.10' };
    const outcomes = await Promise.all(Array.from({ length: 40 }, (_, i) => attempt(subjects, i === 39, Date.now())));
    const checked = outcomes.filter(Boolean).length;
    expect(checked).toBeGreaterThan(0);
    expect(checked).toBeLessThanOrEqual(5);
  });

  it('counts an IPv6 /64 as one client: 40 addresses of one /64 get the free attempts of one', async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        attempt({ email: email(), address: `2001:db8:aa:bb::${(i + 1).toString(16)}` }, false),
      ),
    );
    expect(outcomes.filter(Boolean).length).toBeLessThanOrEqual(20);
    // Sequentially too, every further address of the /64 is refused now.
    expect(await attempt({ email: email(), address: '2001:db8:aa:bb:1:2:3:4' }, false)).toBe(false);
    // Another /64 is another client.
    expect(await attempt({ email: email(), address: '2001:db8:aa:cc::1' }, false)).toBe(true);
  });
});

describe('an attacker who knows the address', () => {
  it('locks only their own client out: the owner signs in from another address', async () => {
    const owner = email();
    for (let i = 0; i < 5; i++) expect(await attempt({ email: owner, address: '192.0.2.66' }, false)).toBe(true);
    expect(await attempt({ email: owner, address: '192.0.2.66' }, false)).toBe(false);
    expect(await attempt({ email: owner, address: '198.51.100.20' }, true)).toBe(true);
  });

  it('meets the account ceiling when guessing from many clients', async () => {
    const owner = email();
    let checked = 0;
    for (let i = 0; i < 30; i++) {
      const address = `10.${i}.0.1`;
      for (let j = 0; j < 5; j++) if (await attempt({ email: owner, address }, false)) checked++;
    }
    expect(checked).toBe(100);
    expect(await attempt({ email: owner, address: '10.99.0.1' }, true)).toBe(false);
  });
});

describe('a stuck attempt', () => {
  it('stops holding the allowance a minute after it was counted without an outcome', async () => {
    const subjects = { email: email(), address: '203.0.113.77' };
    const t0 = Date.now();
    for (let i = 0; i < 4; i++) await attempt(subjects, false, t0);
    await throttle.begin(subjects, t0); // the fifth is counted; its function stops before reporting
    await expect(throttle.begin(subjects, t0 + 1000)).rejects.toBeInstanceOf(TooManyAttemptsError);
    await expect(throttle.begin(subjects, t0 + 61_000)).resolves.toBeUndefined();
  });
});
