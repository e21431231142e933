import { afterEach, describe, expect, it, vi } from 'vitest';
import { AiError } from '../src/domain/ai.js';
import { ArticleService, type ArticleRecord } from '../src/domain/articles.js';
import type { EmailService } from '../src/domain/email.js';
import type { BusinessEvents } from '../src/domain/events.js';
import type { ArticleStore } from '../src/domain/ports.js';
import type { PublishChannel } from '../src/channels/channel.js';
import { ghostChannel, GHOST_KEYS } from '../src/channels/ghost/channel.js';
import { IntegrationError } from '../src/domain/integrations.js';
import { PublishingService, type PublishingDeps } from '../src/domain/publishing.js';
import { ApprovalNotifier, RecordedRunFailure } from '../src/domain/scheduling.js';
import { createMetrics, MetricsRecorder, metricsEnabled } from '../src/metrics.js';
import { articleRecord } from './helpers/article-record.js';

/** What `fn` printed to stdout and stderr, as parsed JSON lines: EMF lines and log lines. */
async function output(fn: () => unknown): Promise<Record<string, any>[]> {
  const lines: string[] = [];
  const record = (chunk: unknown) => (lines.push(String(chunk)), true);
  const spies = [
    vi.spyOn(process.stdout, 'write').mockImplementation(record),
    vi.spyOn(process.stderr, 'write').mockImplementation(record),
  ];
  try {
    await fn();
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
  return lines
    .join('')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

/** The EMF lines `fn` printed (Powertools prints them to stdout). */
const printed = async (fn: () => unknown) => (await output(fn)).filter((line) => '_aws' in line);

/** An EMF line reduced to what CloudWatch makes of it: namespace, dimension names, metrics (name, unit) and values. */
const emf = (line: Record<string, any>) => {
  const [directive] = line._aws.CloudWatchMetrics;
  const dimensions: string[] = directive.Dimensions[0];
  return {
    namespace: directive.Namespace,
    dimensions: Object.fromEntries(dimensions.map((d) => [d, line[d]])),
    metrics: Object.fromEntries(
      directive.Metrics.map((m: { Name: string; Unit: string }) => [m.Name, { unit: m.Unit, value: line[m.Name] }]),
    ),
  };
};

function recorder() {
  vi.stubEnv('POWERTOOLS_METRICS_DISABLED', 'false');
  const metrics = createMetrics({
    POWERTOOLS_METRICS_NAMESPACE: 'content-publisher-test',
    POWERTOOLS_SERVICE_NAME: 'content-publisher-worker',
  });
  return { metrics, events: new MetricsRecorder(metrics) };
}

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe('business metrics as EMF (metrics.ts)', () => {
  it('publish succeeded and failed: by channel (the platform dimension) and code, one EMF line per dimension set', async () => {
    const { metrics, events } = recorder();
    const lines = await printed(() => {
      events.publishSucceeded('wordpress');
      events.publishSucceeded('wordpress');
      events.publishFailed('linkedin', 'linkedin_token_invalid');
      metrics.publishStoredMetrics(); // what logMetrics does at the end of the invocation
    });
    expect(lines.map(emf)).toEqual([
      {
        namespace: 'content-publisher-test',
        dimensions: { service: 'content-publisher-worker', platform: 'wordpress' },
        metrics: { PublishSucceeded: { unit: 'Count', value: [1, 1] } },
      },
      {
        namespace: 'content-publisher-test',
        dimensions: { service: 'content-publisher-worker', platform: 'linkedin', code: 'linkedin_token_invalid' },
        metrics: { PublishFailed: { unit: 'Count', value: 1 } },
      },
    ]);
  });

  it('an automation event not delivered: by target and event name (anything else is other)', async () => {
    const { metrics, events } = recorder();
    const lines = await printed(() => {
      events.automationEventFailed('bus', 'PublishFailed');
      events.automationEventFailed('webhook', 'NotAnEvent');
      metrics.publishStoredMetrics();
    });
    expect(lines.map(emf).map(({ dimensions, metrics: m }) => ({ dimensions, metrics: m }))).toEqual([
      {
        dimensions: { service: 'content-publisher-worker', target: 'bus', event: 'PublishFailed' },
        metrics: { AutomationEventFailed: { unit: 'Count', value: 1 } },
      },
      {
        dimensions: { service: 'content-publisher-worker', target: 'webhook', event: 'other' },
        metrics: { AutomationEventFailed: { unit: 'Count', value: 1 } },
      },
    ]);
  });

  it('draft failed by code, approval e-mail sent and failed, job duration by type (ms)', async () => {
    const { metrics, events } = recorder();
    const lines = await printed(() => {
      events.draftFailed('ai_rate_limited');
      events.approvalEmailSent();
      events.approvalEmailFailed('email_failed');
      events.jobDuration('generate-and-notify', 1234.4);
      metrics.publishStoredMetrics();
    });
    expect(lines.map(emf).map(({ dimensions, metrics: m }) => ({ dimensions, metrics: m }))).toEqual([
      {
        dimensions: { service: 'content-publisher-worker', code: 'ai_rate_limited' },
        metrics: { DraftFailed: { unit: 'Count', value: 1 } },
      },
      {
        dimensions: { service: 'content-publisher-worker' },
        metrics: { ApprovalEmailSent: { unit: 'Count', value: 1 } },
      },
      {
        dimensions: { service: 'content-publisher-worker', code: 'email_failed' },
        metrics: { ApprovalEmailFailed: { unit: 'Count', value: 1 } },
      },
      {
        dimensions: { service: 'content-publisher-worker', type: 'generate-and-notify' },
        metrics: { JobDuration: { unit: 'Milliseconds', value: 1234 } },
      },
    ]);
  });

  it('a code not shaped like ours becomes "other" (each distinct dimension value is a billed metric)', async () => {
    const { metrics, events } = recorder();
    const [line] = await printed(() => {
      events.draftFailed('Something <odd> from a vendor');
      metrics.publishStoredMetrics();
    });
    expect(emf(line!).dimensions.code).toBe('other');
  });

  it('a flush without events prints nothing, and says so at debug level only', async () => {
    const { metrics } = recorder();
    const lines = await output(() => metrics.publishStoredMetrics());
    expect(lines.filter((line) => '_aws' in line)).toEqual([]);
    expect(lines.filter((line) => line.level !== 'DEBUG')).toEqual([]);
  });

  it('a disabled recorder records nothing', async () => {
    const { metrics } = recorder();
    const off = new MetricsRecorder(metrics, false);
    const lines = await printed(() => {
      off.publishSucceeded('linkedin');
      metrics.publishStoredMetrics();
    });
    expect(lines).toEqual([]);
  });

  it('records in Lambda only, unless POWERTOOLS_METRICS_DISABLED says otherwise (tests and npm start stay quiet)', () => {
    expect(metricsEnabled({})).toBe(false);
    expect(metricsEnabled({ AWS_LAMBDA_FUNCTION_NAME: 'fn' })).toBe(true);
    expect(metricsEnabled({ AWS_LAMBDA_FUNCTION_NAME: 'fn', POWERTOOLS_METRICS_DISABLED: 'true' })).toBe(false);
    expect(metricsEnabled({ POWERTOOLS_METRICS_DISABLED: 'false' })).toBe(true);
    // This test run: not in Lambda, so the process's recorder is off.
    expect(metricsEnabled()).toBe(false);
  });
});

/** A fake BusinessEvents port: the calls it received. */
function fakeEvents() {
  const calls: [keyof BusinessEvents, ...unknown[]][] = [];
  const events: BusinessEvents = {
    publishSucceeded: (platform) => void calls.push(['publishSucceeded', platform]),
    publishFailed: (platform, code) => void calls.push(['publishFailed', platform, code]),
    draftFailed: (code) => void calls.push(['draftFailed', code]),
    approvalEmailSent: () => void calls.push(['approvalEmailSent']),
    approvalEmailFailed: (code) => void calls.push(['approvalEmailFailed', code]),
    automationEventFailed: (target, name) => void calls.push(['automationEventFailed', target, name]),
  };
  return { events, calls };
}

const at = '2026-01-01T00:00:00.000Z';
const article = (changes: Partial<ArticleRecord> = {}): ArticleRecord =>
  articleRecord({ scheduled: { blog: at, linkedin: null }, ...changes });

/** An article store that keeps one article and answers every claim. */
function memoryStore(initial: ArticleRecord): ArticleStore {
  let stored = initial;
  return {
    get: async () => stored,
    update: async (_u: string, _id: string, changes: Record<string, unknown>) =>
      (stored = { ...stored, ...(changes as Partial<ArticleRecord>) }),
    claimNotify: async () => 'claimed',
    claimPublish: async () => stored,
    releasePublish: async () => {},
    notePublishAttempt: async () => true,
    forgetPublishAttempt: async () => {},
    finishNotify: async () => {},
    releaseNotify: async () => {},
  } as unknown as ArticleStore;
}

describe('the services report their outcomes to the events port', () => {
  it('drafting that fails reports draftFailed with the lastError code; drafting that works reports nothing', async () => {
    const run = async (draft: () => Promise<string>) => {
      const { events, calls } = fakeEvents();
      const service = new ArticleService({
        articles: memoryStore(article({ blog: { ...article().blog, content: '' } })),
        objects: { put: async () => {}, get: async () => undefined, delete: async () => {} },
        jobs: { enqueue: async () => {} },
        ai: async () => ({
          content: { kind: 'openai', draft, edit: async () => '' },
          image: { kind: 'openai', generate: () => Promise.reject(new Error('unused')) },
        }),
        events,
      });
      await service.generateContent('u1', 'a1');
      return calls;
    };
    expect(await run(() => Promise.reject(new AiError('Slow down.', 'ai_rate_limited')))).toEqual([
      ['draftFailed', 'ai_rate_limited'],
    ]);
    expect(await run(async () => 'A draft')).toEqual([]);
  });

  describe('the approval e-mail of a scheduled run', () => {
    const notifier = (mailer: { send: () => Promise<void> } | undefined) => {
      const { events, calls } = fakeEvents();
      const service = new ApprovalNotifier({
        articles: memoryStore(article()),
        articleService: {} as ArticleService,
        email: { notifier: async () => ({ address: 'owner@example.com', mailer }) } as unknown as EmailService,
        activeOwner: async () => ({ email: 'owner@example.com', name: 'Owner', timezone: 'UTC' }),
        signingKey: async () => new Uint8Array(32).fill(7),
        publicUrl: () => 'https://app.example.com',
        events,
      });
      const run = () =>
        service.generateAndNotify({ userId: 'u1', articleId: 'a1', platform: 'blog', scheduledFor: at });
      return { run, calls };
    };

    it('sent: approvalEmailSent', async () => {
      const { run, calls } = notifier({ send: async () => {} });
      await expect(run()).resolves.toBe('sent');
      expect(calls).toEqual([['approvalEmailSent']]);
    });

    it('the send failed: approvalEmailFailed(email_failed)', async () => {
      const { run, calls } = notifier({ send: () => Promise.reject(new Error('invalid_grant')) });
      await expect(run()).rejects.toThrow(RecordedRunFailure);
      expect(calls).toEqual([['approvalEmailFailed', 'email_failed']]);
    });

    it('no way to send: approvalEmailFailed(email_not_configured)', async () => {
      const { run, calls } = notifier(undefined);
      await expect(run()).resolves.toBe('no-mailer');
      expect(calls).toEqual([['approvalEmailFailed', 'email_not_configured']]);
    });
  });

  describe('publishing to WordPress', () => {
    const publisher = (publish: () => Promise<{ postId: number; link: string }>) => {
      const { events, calls } = fakeEvents();
      const service = new PublishingService({
        articles: memoryStore(article()),
        objects: { put: async () => {}, get: async () => undefined },
        wordpress: {
          stored: async () => ({
            siteUrl: 'https://blog.example.com',
            username: 'u',
            appPassword: 'p',
            apiStyle: 'pretty',
          }),
        },
        wordpressPublisher: { publish },
        events,
      } as unknown as PublishingDeps);
      return { publish: () => service.publishWordPress('u1', 'a1'), calls };
    };

    it('a post made: publishSucceeded(wordpress)', async () => {
      const { publish, calls } = publisher(async () => ({ postId: 7, link: 'https://blog.example.com/?p=7' }));
      await publish();
      expect(calls).toEqual([['publishSucceeded', 'wordpress']]);
    });

    it('refused by the platform: publishFailed(wordpress, its code)', async () => {
      const { publish, calls } = publisher(() =>
        Promise.reject(new IntegrationError('WordPress refused the credentials.', 'wordpress_auth_failed', 401)),
      );
      await expect(publish()).rejects.toMatchObject({ code: 'wordpress_auth_failed' });
      expect(calls).toEqual([['publishFailed', 'wordpress', 'wordpress_auth_failed']]);
    });

    it('not connected (nothing was tried): no event', async () => {
      const { events, calls } = fakeEvents();
      const service = new PublishingService({
        articles: memoryStore(article()),
        wordpress: { stored: async () => undefined },
        events,
      } as unknown as PublishingDeps);
      await expect(service.publishWordPress('u1', 'a1')).rejects.toMatchObject({ code: 'wordpress_not_connected' });
      expect(calls).toEqual([]);
    });
  });

  describe('publishing to Ghost (the blog version’s second channel)', () => {
    const settings = {
      values: async () =>
        new Map([
          [GHOST_KEYS.siteUrl, 'https://ghost.example.com'],
          [GHOST_KEYS.adminApiKey, `${'a1'.repeat(12)}:${'0f'.repeat(32)}`],
        ]),
    };
    const publisher = (publishPost: () => Promise<unknown>) => {
      const { events, calls } = fakeEvents();
      const client = { findPost: async () => undefined, uploadImage: async () => ({ url: '' }), publishPost };
      const service = new PublishingService({
        articles: memoryStore(article()),
        objects: { put: async () => {}, get: async () => undefined },
        channel: async () => ghostChannel({ settings, client } as never) as PublishChannel,
        imageUrl: () => '/image',
        events,
      } as unknown as PublishingDeps);
      return { publish: () => service.publish('ghost', 'u1', 'a1'), calls };
    };

    it('a post made: publishSucceeded(ghost), not the WordPress series', async () => {
      const { publish, calls } = publisher(async () => ({ id: 'g1', url: 'https://ghost.example.com/t/' }));
      await publish();
      expect(calls).toEqual([['publishSucceeded', 'ghost']]);
    });

    it('refused: publishFailed(ghost, its code), so it does not feed the WordPress alarm', async () => {
      const { publish, calls } = publisher(() =>
        Promise.reject(new IntegrationError('Ghost refused the Admin API key.', 'ghost_auth_failed', 401)),
      );
      await expect(publish()).rejects.toMatchObject({ code: 'ghost_auth_failed' });
      expect(calls).toEqual([['publishFailed', 'ghost', 'ghost_auth_failed']]);
    });
  });
});
