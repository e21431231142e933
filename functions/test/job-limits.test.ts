import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hourlyLimitReached, tooManyJobsRunning } from '@app/shared';
import { JOB_LIMITS } from '../src/domain/job-limits.js';
import { startFakeOpenAi, type FakeOpenAi } from './fakes/openai.js';
import { Client, drafted, imageSettled, registration, startTestApp, type TestApp } from './helpers/app.js';

/**
 * The per-user limits on expensive calls (domain/job-limits.ts), over the local stack and DynamoDB Local with
 * the default limits: jobs in flight (drafting and images together) and calls per clock hour, answered 429
 * with Retry-After and a message saying when, and nothing written for a refused call.
 */
let app: TestApp;
let fake: FakeOpenAi;

beforeAll(async () => {
  fake = await startFakeOpenAi();
  process.env.OPENAI_BASE_URL = fake.url;
  delete process.env.OPENAI_API_KEY;
  app = await startTestApp();
});
afterAll(async () => {
  await app?.stop();
  await fake?.stop();
  delete process.env.OPENAI_BASE_URL;
});

const brief = (title: string) => ({ title, topic: 'Limits', keyword: 'limits', details: '', imageDescription: '' });

let admin: Client | undefined;
/** The first account (the admin), which activates the others. */
async function adminClient(): Promise<Client> {
  if (!admin) {
    admin = new Client(app.url);
    expect((await admin.call('/api/auth/register', { body: registration() })).status).toBeLessThan(300);
  }
  return admin;
}

/** A signed-in, active user; with `openAiKey`, drafting goes to the fake OpenAI with it. */
async function newUser(openAiKey?: string): Promise<Client> {
  const activator = await adminClient();
  const client = new Client(app.url);
  const body = registration();
  await client.call('/api/auth/register', { body });
  const id = (await activator.call('/api/admin/users')).json.users.find(
    (u: { email: string }) => u.email === body.email,
  )._id;
  await activator.call(`/api/admin/users/${id}/status`, { method: 'PATCH', body: { isActive: true } });
  expect((await client.call('/api/auth/login', { body: { email: body.email, password: body.password } })).status).toBe(
    200,
  );
  if (openAiKey) {
    const saved = await client.call('/api/settings', {
      body: { key: 'openai_api_key', value: openAiKey, description: 'OpenAI' },
    });
    expect(saved.status).toBe(201);
  }
  return client;
}

/** The user's articles as the API lists them (without waiting for running jobs, as app.items() would). */
const articleIds = async (client: Client): Promise<string[]> =>
  (await client.call('/api/articles')).json.articles.map((a: { _id: string }) => a._id).sort();

/** Far enough from the end of the clock hour that a test's calls all fall in one hour's count. */
async function sameHour(forMs = 30_000) {
  const left = 3_600_000 - (Date.now() % 3_600_000);
  if (left < forMs) await new Promise((r) => setTimeout(r, left + 100));
}

function expectRefused(res: { status: number; headers: Headers; json: any }, message: string) {
  expect(res.status).toBe(429);
  expect(res.json.message).toBe(message);
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter) && retryAfter >= 1).toBe(true);
  return retryAfter;
}

describe('jobs in flight per user', () => {
  it('20 creates sent at once start at most 5 jobs, then image generations and retries wait too; 429s write nothing', async () => {
    const user = await newUser(fake.apiKey);
    const bystander = await newUser();
    // Drafting waits for the (slow) AI, so every accepted job is still in flight while the calls arrive.
    fake.setMode('slow', { delayMs: 6_000 });
    const creates = await Promise.all(
      Array.from({ length: 20 }, (_, i) => user.call('/api/articles', { body: brief(`Burst ${i}`) })),
    );
    const accepted = creates.filter((r) => r.status === 201);
    expect(accepted.length).toBeGreaterThanOrEqual(1);
    expect(accepted.length).toBeLessThanOrEqual(JOB_LIMITS.inFlight);
    for (const refused of creates.filter((r) => r.status !== 201)) {
      expect(expectRefused(refused, tooManyJobsRunning(JOB_LIMITS.inFlight))).toBeLessThanOrEqual(60);
    }
    expect(await articleIds(user)).toHaveLength(accepted.length);

    // Exactly the limit is in flight: one by one, the next creates are accepted until it is reached.
    for (let running = accepted.length; running < JOB_LIMITS.inFlight; running++) {
      const res = await user.call('/api/articles', { body: brief(`Fill ${running}`) });
      expect(res.status).toBe(201);
      accepted.push(res);
    }
    expectRefused(await user.call('/api/articles', { body: brief('One too many') }), tooManyJobsRunning(5));
    const id = accepted[0]!.json.article._id as string;
    expectRefused(
      await user.call(`/api/articles/${id}/generate`, { method: 'POST' }),
      tooManyJobsRunning(JOB_LIMITS.inFlight),
    );
    // Image generations share the places: 30 at once are all refused while five drafts run.
    const imageBefore = (await user.call(`/api/image/${id}`)).json;
    const images = await Promise.all(
      Array.from({ length: 30 }, () =>
        user.call(`/api/image/generate/${id}`, { body: { description: 'A lighthouse at dusk' } }),
      ),
    );
    for (const refused of images) expectRefused(refused, tooManyJobsRunning(JOB_LIMITS.inFlight));
    expect((await user.call(`/api/image/${id}`)).json).toEqual(imageBefore);
    expect(await articleIds(user)).toHaveLength(JOB_LIMITS.inFlight);

    // Another user is not affected.
    expect((await bystander.call('/api/articles', { body: brief('Someone else') })).status).toBe(201);

    // Once the jobs end, their places are given back.
    fake.setMode('ok');
    for (const created of accepted) await drafted(user, created.json.article._id);
    expect((await user.call('/api/articles', { body: brief('After the burst') })).status).toBe(201);
  }, 60_000);
});

describe('calls per hour per user', () => {
  it('30 drafts (creates and retries together) per hour; the 31st answers 429 saying in how many minutes', async () => {
    await sameHour();
    const user = await newUser();
    let lastId = '';
    for (let i = 0; i < JOB_LIMITS.perHour.draft; i++) {
      // Some drafts are retries of an earlier article: they count against the same hour.
      const res =
        i % 6 === 5
          ? await user.call(`/api/articles/${lastId}/generate`, { method: 'POST' })
          : await user.call('/api/articles', { body: brief(`Hourly ${i}`) });
      expect(res.status, `draft ${i + 1}`).toBeLessThan(300);
      lastId = res.json.article._id;
      await drafted(user, lastId);
    }
    const before = await articleIds(user);
    const create = await user.call('/api/articles', { body: brief('Thirty-one') });
    const wait = Math.ceil((3_600_000 - (Date.now() % 3_600_000)) / 1000);
    const retryAfter = expectRefused(create, create.json.message);
    expect(Math.abs(retryAfter - wait)).toBeLessThanOrEqual(5);
    expect(create.json.message).toBe(hourlyLimitReached('draft', 30, retryAfter));
    expect(create.json.message).toMatch(
      /^You have started 30 drafts this hour, the most allowed\. You can start another in \d+ minutes?\.$/,
    );
    expectRefused(await user.call(`/api/articles/${lastId}/generate`, { method: 'POST' }), create.json.message);
    expect(await articleIds(user)).toEqual(before);
    // Images have their own hourly count.
    expect((await user.call(`/api/image/generate/${lastId}`, { body: { description: 'A map' } })).status).toBe(202);
    await imageSettled(user, lastId);
  }, 60_000);

  it('20 upload starts per hour; the 21st answers 429 and signs nothing', async () => {
    await sameHour();
    const user = await newUser();
    const id = (await user.call('/api/articles', { body: brief('Uploads') })).json.article._id;
    await drafted(user, id);
    for (let i = 0; i < JOB_LIMITS.perHour.upload; i++) {
      const start = await user.call(`/api/image/upload/${id}`, { body: { contentType: 'image/jpeg', size: 1000 } });
      expect(start.status, `upload start ${i + 1}`).toBe(200);
    }
    const refused = await user.call(`/api/image/upload/${id}`, { body: { contentType: 'image/jpeg', size: 1000 } });
    const retryAfter = expectRefused(refused, refused.json.message);
    expect(refused.json.message).toBe(hourlyLimitReached('upload', 20, retryAfter));
    expect(refused.json.upload).toBeUndefined();
  }, 60_000);

  it('20 image generations per hour', async () => {
    await sameHour();
    const user = await newUser();
    const id = (await user.call('/api/articles', { body: brief('Pictures') })).json.article._id;
    await drafted(user, id);
    for (let i = 0; i < JOB_LIMITS.perHour.image; i++) {
      const res = await user.call(`/api/image/regenerate/${id}`, { body: { description: `Picture ${i}` } });
      expect(res.status, `image ${i + 1}`).toBe(202);
      await imageSettled(user, id);
    }
    const before = (await user.call(`/api/image/${id}`)).json;
    const refused = await user.call(`/api/image/generate/${id}`, { body: { description: 'One more' } });
    const retryAfter = expectRefused(refused, refused.json.message);
    expect(refused.json.message).toBe(hourlyLimitReached('image', 20, retryAfter));
    expect((await user.call(`/api/image/${id}`)).json).toEqual(before);
  }, 90_000);
});
