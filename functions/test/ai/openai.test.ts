import OpenAI from 'openai';
import sharp from 'sharp';
import { createServer } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LINKEDIN_MAX_CHARS } from '@app/shared';
import { AiError, AiQuotaError, type AiSettings, type ArticleBrief } from '../../src/domain/ai.js';
import {
  DEFAULT_EDIT_TIMEOUT_MS,
  OpenAiContentGenerator,
  OpenAiImageGenerator,
  retryDelay,
} from '../../src/adapters/ai/openai.js';
import { longLinkedInPost, QUOTA_MESSAGE, startFakeOpenAi, type FakeOpenAi } from '../fakes/openai.js';

const brief: ArticleBrief = {
  title: 'How Small Teams Automate Publishing',
  topic: 'Content automation for small marketing teams',
  keyword: 'content automation',
  details: 'Explain why scheduling matters. Show how AI drafts save time.',
  imageDescription: 'A calm desk with a laptop showing a content calendar',
  tags: ['marketing', 'AI'],
};

let fake: FakeOpenAi;
beforeAll(async () => {
  fake = await startFakeOpenAi();
});
afterAll(() => fake.stop());
beforeEach(() => fake.reset());

const settings = (over: Partial<AiSettings> = {}): AiSettings => ({
  apiKey: fake.apiKey,
  baseURL: fake.url,
  textModel: 'gpt-test-text',
  imageModel: 'gpt-image-1.5',
  ...over,
});
const text = (over: Partial<AiSettings> = {}, timeoutMs?: number) =>
  new OpenAiContentGenerator(settings(over), { retryDelayMs: 10, ...(timeoutMs ? { timeoutMs } : {}) });
const images = (over: Partial<AiSettings> = {}) => new OpenAiImageGenerator(settings(over), { retryDelayMs: 10 });

/** The rejection of `p`, which must reject. */
async function failure(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected a rejection');
}

describe('OpenAiContentGenerator against the fake OpenAI', () => {
  it('drafts a blog article through the Responses API with the brief in the prompt', async () => {
    const out = await text().draft(brief, 'blog');

    expect(out).toContain('Fake answer from gpt-test-text.');
    expect(fake.requests).toHaveLength(1);
    const [req] = fake.requests;
    expect(req).toMatchObject({ method: 'POST', path: '/v1/responses', authorized: true });
    expect(req!.headers.authorization).toBeUndefined();
    expect(req!.body).toMatchObject({ model: 'gpt-test-text', store: false });
    expect(req!.body.instructions).toMatch(/blog article/);
    expect(req!.body.instructions).toMatch(/Markdown/);
    // The title is published as the post's title: the draft must not repeat it as a heading.
    expect(req!.body.instructions).toMatch(/Do not write the title and do not use any H1/);
    expect(req!.body.instructions).not.toMatch(/Start with exactly one H1/);
    expect(req!.body.instructions).toMatch(/call to action/);
    for (const s of [brief.title, brief.topic, brief.keyword, brief.details, 'marketing, AI']) {
      expect(req!.body.input).toContain(s);
      expect(out).toContain(s); // what the fake echoed came back as output_text
    }
  });

  it('drafts a LinkedIn post asking for at most 2,800 characters and no Markdown headings', async () => {
    const out = await text().draft(brief, 'linkedin');
    const body = fake.requests[0]!.body;
    expect(body.instructions).toMatch(/LinkedIn post/);
    expect(body.instructions).toContain('at most 2,800 characters');
    expect(body.instructions).toMatch(/No Markdown/);
    expect(body.input).toContain('#ContentAutomation #Marketing #AI');
    expect(out).toContain(brief.keyword);
    expect(out.length).toBeLessThanOrEqual(LINKEDIN_MAX_CHARS);
  });

  it('cuts an over-long LinkedIn answer below 3,000 characters at a sentence boundary, keeping the hashtags', async () => {
    fake.setMode('long_linkedin');
    const long = longLinkedInPost();
    expect(long.length).toBe(5000);

    const out = await text().draft(brief, 'linkedin');

    expect(out.length).toBeLessThanOrEqual(LINKEDIN_MAX_CHARS);
    expect(out.length).toBeGreaterThan(2500); // cut near the limit, not at the first boundary
    expect(out.endsWith('\n\n#ContentAutomation #Marketing #AI')).toBe(true);
    const kept = out.slice(0, out.lastIndexOf('\n\n#'));
    expect(long.startsWith(kept)).toBe(true); // nothing rewritten, only cut
    expect(kept).toMatch(/well\.$/); // ends with a whole sentence
  });

  it('leaves blog drafts alone in long_linkedin mode and trims LinkedIn edits too', async () => {
    fake.setMode('long_linkedin');
    const blog = await text().draft(brief, 'blog');
    expect(blog).toContain('Fake answer from');
    const edited = await text().edit({ brief, platform: 'linkedin', content: 'Old post.', request: 'Make it longer' });
    expect(edited.length).toBeLessThanOrEqual(LINKEDIN_MAX_CHARS);
  });

  it('sends the edit request, the current text and the platform rules, and returns the revised text', async () => {
    const out = await text().edit({
      brief,
      platform: 'blog',
      content: '# Old title\n\nOld body.',
      request: 'Add a section about approvals',
    });
    const body = fake.requests[0]!.body;
    expect(body.instructions).toMatch(/Apply the edit request/);
    expect(body.instructions).toMatch(/Return only the full revised text/);
    expect(body.instructions).toMatch(/do not use any H1/); // blog rules still apply
    expect(body.input).toContain('Edit request: Add a section about approvals');
    expect(body.input).toContain('# Old title\n\nOld body.');
    expect(body.input).toContain(brief.keyword);
    expect(out).toContain('Add a section about approvals');
  });

  it('turns insufficient_quota into AiQuotaError with OpenAI’s message after exactly one request', async () => {
    fake.setMode('insufficient_quota');
    const err = await failure(text().draft(brief, 'blog'));
    expect(err).toBeInstanceOf(AiQuotaError);
    expect(err.message).toBe(QUOTA_MESSAGE);
    expect((err as AiQuotaError).code).toBe('insufficient_quota');
    expect(fake.requests).toHaveLength(1);
  });

  it('also recognises the older insufficient_quota body whose code is null (type only)', async () => {
    fake.setMode('insufficient_quota_legacy');
    const err = await failure(text().draft(brief, 'linkedin'));
    expect(err).toBeInstanceOf(AiQuotaError);
    expect(fake.requests).toHaveLength(1);
  });

  it('retries a rate-limited request once, honouring retry-after-ms, then succeeds', async () => {
    fake.setMode('rate_limited', { retryAfterMs: 300 });
    const started = Date.now();
    const out = await text().draft(brief, 'blog');
    expect(out).toContain(brief.title);
    expect(fake.requests).toHaveLength(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(280);
  });

  it('gives up after one retry when the rate limit persists', async () => {
    fake.setMode('rate_limited', { times: 5, retryAfterMs: 10 });
    const err = await failure(text().draft(brief, 'blog'));
    expect(err).toBeInstanceOf(AiError);
    expect(err).not.toBeInstanceOf(AiQuotaError);
    expect((err as AiError).code).toBe('ai_rate_limited');
    expect(fake.requests).toHaveLength(2);
  });

  it('retries a server error once: a single 500 is survived, a lasting one becomes ai_server_error', async () => {
    fake.setMode('server_error', { times: 1 });
    await expect(text().draft(brief, 'blog')).resolves.toContain('Fake answer');
    expect(fake.requests).toHaveLength(2);

    fake.reset();
    fake.setMode('server_error');
    const err = await failure(text().draft(brief, 'blog'));
    expect((err as AiError).code).toBe('ai_server_error');
    expect(err.message).toMatch(/HTTP 500/);
    expect(fake.requests).toHaveLength(2);
  });

  it('the call and its retry share one budget: a server error that came late leaves no time for a retry, so the job ends before its function', async () => {
    // The first answer is a 500 after 1.5 s; with a 1.6 s budget, a retry could not finish in time.
    fake.setMode('server_error', { times: 1, delayMs: 1500 });
    const started = Date.now();
    const err = await failure(
      new OpenAiContentGenerator(settings(), { retryDelayMs: 10, budgetMs: 1600 }).draft(brief, 'blog'),
    );
    expect((err as AiError).code).toBe('ai_server_error');
    expect(fake.requests).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(1600);

    // Images too; with time left, the retry is made (and succeeds).
    fake.reset();
    fake.setMode('server_error', { times: 1, delayMs: 1500 });
    expect(
      (
        await failure(
          new OpenAiImageGenerator(settings(), { retryDelayMs: 10, budgetMs: 1600 }).generate({
            brief,
            description: 'a desk',
          }),
        )
      ).message,
    ).toMatch(/HTTP 500/);
    expect(fake.requests).toHaveLength(1);
    fake.reset();
    fake.setMode('server_error', { times: 1, delayMs: 200 });
    await expect(
      new OpenAiContentGenerator(settings(), { retryDelayMs: 10, budgetMs: 10_000 }).draft(brief, 'blog'),
    ).resolves.toContain('Fake answer');
    expect(fake.requests).toHaveLength(2);
  });

  it('maps a refused key to ai_auth without retrying or leaking the key', async () => {
    fake.setMode('bad_key');
    const err = await failure(text().draft(brief, 'blog'));
    expect(err).toBeInstanceOf(AiError);
    expect((err as AiError).code).toBe('ai_auth');
    expect(err.message).toBe('The OpenAI API key was refused. Check the openai_api_key setting.');
    expect(fake.requests).toHaveLength(1);

    const wrongKey = 'sk-wrong-key-abcdefghijklmnop';
    const err2 = await failure(text({ apiKey: wrongKey }).draft(brief, 'blog'));
    expect((err2 as AiError).code).toBe('ai_auth');
    expect(err2.message).not.toContain(wrongKey);
    expect(fake.requests[1]!.authorized).toBe(false);
  });

  it('names the model and the TEXT_MODEL / IMAGE_MODEL setting when the model is unknown', async () => {
    fake.setMode('model_not_found');
    const err = await failure(text({ textModel: 'gpt-nope' }).draft(brief, 'blog'));
    expect((err as AiError).code).toBe('ai_model_not_found');
    expect(err.message).toContain('"gpt-nope"');
    expect(err.message).toContain('TEXT_MODEL');
    expect(fake.requests).toHaveLength(1);

    fake.reset();
    const err2 = await failure(images({ imageModel: 'dall-e-3' }).generate({ brief, description: 'x' }));
    expect((err2 as AiError).code).toBe('ai_model_not_found');
    expect(err2.message).toContain('"dall-e-3"');
    expect(err2.message).toContain('IMAGE_MODEL');
  });

  it('reports a timeout as ai_timeout without retrying', async () => {
    fake.setMode('slow', { delayMs: 1500 });
    const err = await failure(text({}, 200).draft(brief, 'blog'));
    expect((err as AiError).code).toBe('ai_timeout');
    expect(err.message).toMatch(/did not answer/);
    expect(fake.requests).toHaveLength(1);
  });

  it('an in-request GPT edit gets its own short timeout and no retry, so it ends before the API function does', async () => {
    fake.setMode('slow', { delayMs: 1500 });
    // The fake answers after 1.5 s: with the 120 s text timeout the edit would succeed.
    const edit = new OpenAiContentGenerator(settings(), { retryDelayMs: 10, editTimeoutMs: 200 }).edit({
      brief,
      platform: 'blog',
      content: 'Old.',
      request: 'Shorter',
    });
    const err = await failure(edit);
    expect((err as AiError).code).toBe('ai_timeout');
    expect(err.message).toBe('OpenAI did not answer within 1 s. Try again in a moment.');
    fake.setMode('server_error', { times: 1 });
    const again = await failure(
      new OpenAiContentGenerator(settings(), { retryDelayMs: 10, editTimeoutMs: 200 }).edit({
        brief,
        platform: 'blog',
        content: 'Old.',
        request: 'Shorter',
      }),
    );
    expect((again as AiError).code).toBe('ai_server_error');
    expect(fake.requests).toHaveLength(2); // one per edit: no retry
    expect(DEFAULT_EDIT_TIMEOUT_MS).toBeLessThan(25_000); // the API functions' timeout (infra/lib/api-function.ts)
  });

  it('retries a dropped connection once, then reports ai_connection', async () => {
    fake.setMode('disconnect');
    const err = await failure(text().draft(brief, 'blog'));
    expect((err as AiError).code).toBe('ai_connection');
    expect(err.message).toMatch(/Could not reach OpenAI at 127\.0\.0\.1:\d+/);
    expect(fake.requests).toHaveLength(2);
  });

  it('reports an unreachable server as ai_connection', async () => {
    const port = await freePort();
    const err = await failure(text({ baseURL: `http://127.0.0.1:${port}/v1` }).draft(brief, 'blog'));
    expect((err as AiError).code).toBe('ai_connection');
  });
});

describe('OpenAiImageGenerator against the fake OpenAI', () => {
  it('asks for one 1536x1024 GPT image and returns a 1200×800 blog and a 1200×627 LinkedIn JPEG', async () => {
    const out = await images().generate({ brief, description: 'A lighthouse at dawn' });

    expect(fake.requests).toHaveLength(1);
    const req = fake.requests[0]!;
    expect(req.path).toBe('/v1/images/generations');
    expect(req.body).toMatchObject({ model: 'gpt-image-1.5', size: '1536x1024', n: 1 });
    expect(req.body).not.toHaveProperty('response_format');
    expect(req.body.prompt).toContain('A lighthouse at dawn');
    expect(req.body.prompt).toContain(brief.title);
    expect(req.body.prompt).toContain(brief.topic);
    expect(req.body.prompt).toMatch(/Do not include any text/);

    expect(out.contentType).toBe('image/jpeg');
    const blog = await sharp(out.blog).metadata();
    const linkedin = await sharp(out.linkedin).metadata();
    expect([blog.format, blog.width, blog.height]).toEqual(['jpeg', 1200, 800]);
    expect([linkedin.format, linkedin.width, linkedin.height]).toEqual(['jpeg', 1200, 627]);
  });

  it('uses the brief’s image description when none is given', async () => {
    await images().generate({ brief, description: '' });
    expect(fake.requests[0]!.body.prompt).toContain(brief.imageDescription);
  });

  it('maps insufficient_quota on images to AiQuotaError without retrying', async () => {
    fake.setMode('insufficient_quota');
    const err = await failure(images().generate({ brief, description: 'x' }));
    expect(err).toBeInstanceOf(AiQuotaError);
    expect(fake.requests).toHaveLength(1);
  });
});

describe('the fake OpenAI speaks the documented shapes', () => {
  it('answers a raw Responses call without output_text (the SDK derives it) and Chat Completions through the SDK', async () => {
    const raw = await fetch(`${fake.url}/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fake.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', input: 'hello' }),
    });
    const json = (await raw.json()) as Record<string, unknown>;
    expect(json.object).toBe('response');
    expect(json).not.toHaveProperty('output_text');

    const client = new OpenAI({ apiKey: fake.apiKey, baseURL: fake.url, maxRetries: 0 });
    const chat = await client.chat.completions.create({
      model: 'gpt-test-text',
      messages: [
        { role: 'developer', content: 'Be brief.' },
        { role: 'user', content: 'Say hi about content automation' },
      ],
    });
    expect(chat.choices[0]!.message.content).toContain('Say hi about content automation');
    expect(fake.requests.map((r) => r.path)).toEqual(['/v1/responses', '/v1/chat/completions']);
  });

  it('refuses the sizes of retired DALL·E models', async () => {
    const client = new OpenAI({ apiKey: fake.apiKey, baseURL: fake.url, maxRetries: 0 });
    await expect(
      client.images.generate({ model: 'gpt-image-1.5', prompt: 'x', size: '1792x1024' }),
    ).rejects.toMatchObject({
      status: 400,
      code: 'invalid_value',
    });
  });
});

describe('retryDelay', () => {
  const err = (headers: Record<string, string>) =>
    new OpenAI.RateLimitError(429, { message: 'slow down' }, undefined, new Headers(headers));
  it('prefers retry-after-ms, then retry-after seconds, caps at 2 s and falls back to the default', () => {
    expect(retryDelay(err({ 'retry-after-ms': '150', 'retry-after': '1' }), 500)).toBe(150);
    expect(retryDelay(err({ 'retry-after': '1.5' }), 500)).toBe(1500);
    expect(retryDelay(err({ 'retry-after': '20' }), 500)).toBe(2000);
    expect(retryDelay(err({}), 500)).toBe(500);
    expect(retryDelay(new Error('x'), 300)).toBe(300);
  });
});

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}
