/**
 * Domain events for automation (functions/src/domain/automation-events.ts): each emission point of the
 * domain with its failure paths, and the emitter's promise that emitting never fails or holds up the
 * operation. The adapters: eventbridge-event-publisher.test.ts; over the real app: events-api.test.ts.
 */
import { describe, expect, it, vi } from 'vitest';
import { AiError } from '../src/domain/ai.js';
import { ArticleService, type ArticleRecord } from '../src/domain/articles.js';
import {
  AUTOMATION_EVENT_SCHEMAS,
  AutomationEvents,
  type AutomationEventName,
  type AutomationEventSink,
  type DomainEvent,
  type EmitFailure,
  type EmitOptions,
} from '../src/domain/automation-events.js';
import type { EmailService } from '../src/domain/email.js';
import { IntegrationError } from '../src/domain/integrations.js';
import type { ArticleStore } from '../src/domain/ports.js';
import { PublishingService, type PublishingDeps } from '../src/domain/publishing.js';
import { ApprovalLinks, ApprovalNotifier, RecordedRunFailure } from '../src/domain/scheduling.js';
import { EVENT_BUS_TIMEOUT_MS } from '../src/time-budgets.js';
import { articleRecord } from './helpers/article-record.js';

/** An emitter that records what the services emit, each detail checked against its schema. */
function recorder() {
  const emitted: { name: AutomationEventName; fields: Record<string, unknown>; options: EmitOptions }[] = [];
  const events = new AutomationEvents({
    bus: { publish: async () => undefined },
    webhookOf: async () => undefined,
    webhooks: { deliver: async () => ({ ok: true }) },
    where: { account: '000000000000', region: 'us-east-1' },
    onFailure: () => undefined,
  });
  const sink: AutomationEventSink = {
    async emit(name, fields, options = {}) {
      const event = events.make(name, fields);
      AUTOMATION_EVENT_SCHEMAS()[name].parse(event.detail);
      emitted.push({ name, fields: fields as Record<string, unknown>, options });
    },
  };
  return { sink, emitted, names: () => emitted.map((e) => e.name) };
}

const at = '2030-01-01T09:00:00.000Z';
const article = (changes: Partial<ArticleRecord> = {}): ArticleRecord =>
  articleRecord({
    title: 'Launch day',
    createdAt: at,
    updatedAt: at,
    generation: { status: 'done', updatedAt: at },
    scheduled: { blog: at, linkedin: null },
    ...changes,
  });

/** An article store that keeps one article and answers every claim. */
function memoryStore(initial: ArticleRecord | undefined, options: { markOnce?: boolean } = {}): ArticleStore {
  let stored = initial;
  return {
    get: async () => stored,
    update: async (_u: string, _id: string, changes: Record<string, unknown>) => {
      if (!stored) return undefined;
      const next = { ...stored } as Record<string, any>;
      for (const [path, value] of Object.entries(changes)) {
        const [head, tail] = path.split('.');
        if (tail) next[head!] = { ...next[head!], [tail]: value };
        else next[head!] = value;
      }
      return (stored = next as ArticleRecord);
    },
    claimNotify: async () => 'claimed',
    claimPublish: async () => stored,
    releasePublish: async () => {},
    notePublishAttempt: async () => true,
    forgetPublishAttempt: async () => {},
    finishNotify: async () => {},
    releaseNotify: async () => {},
    markOnce: async () => options.markOnce ?? true,
  } as unknown as ArticleStore;
}

const SECRET_LIKE = /token|approve\?|password|secret/i;

describe('ArticleDrafted (ArticleService.generateContent)', () => {
  const drafting = (draft: (platform: string) => Promise<string>, initial = article()) => {
    const { sink, emitted } = recorder();
    const service = new ArticleService({
      articles: memoryStore(initial),
      objects: { put: async () => {}, get: async () => undefined, delete: async () => {} } as never,
      jobs: { enqueue: async () => {} },
      ai: async () => ({
        content: { kind: 'openai', draft: (_brief, platform) => draft(platform), edit: async () => '' },
        image: { kind: 'openai', generate: () => Promise.reject(new Error('unused')) },
      }),
      automation: sink,
    });
    return { run: () => service.generateContent('u1', 'a1'), emitted };
  };
  const empty = article({
    blog: { ...article().blog, content: '' },
    linkedin: { ...article().linkedin, content: '' },
  });

  it('both versions drafted: one ArticleDrafted naming both platforms', async () => {
    const { run, emitted } = drafting(async (p) => `Draft for ${p}`, empty);
    await run();
    expect(emitted).toEqual([
      {
        name: 'ArticleDrafted',
        fields: { userId: 'u1', articleId: 'a1', title: 'Launch day', platforms: ['wordpress', 'linkedin'] },
        options: {},
      },
    ]);
  });

  it('one version failed: ArticleDrafted names only the one written', async () => {
    const { run, emitted } = drafting(
      (p) => (p === 'blog' ? Promise.reject(new AiError('Slow down.', 'ai_rate_limited')) : Promise.resolve('Post')),
      empty,
    );
    await run();
    expect(emitted.map((e) => e.fields.platforms)).toEqual([['linkedin']]);
  });

  it('all failed, or nothing to draft: no event', async () => {
    const failed = drafting(() => Promise.reject(new AiError('Slow down.', 'ai_rate_limited')), empty);
    await failed.run();
    expect(failed.emitted).toEqual([]);
    const nothing = drafting(async () => 'unused');
    await nothing.run();
    expect(nothing.emitted).toEqual([]);
  });
});

describe('ApprovalRequested and ScheduleMissed (the scheduled run, ApprovalNotifier)', () => {
  const run = { userId: 'u1', articleId: 'a1', platform: 'blog' as const, scheduledFor: at };
  const notifier = (
    options: {
      mailer?: { send: () => Promise<void> };
      owner?: boolean;
      initial?: ArticleRecord;
      signingKey?: () => Promise<Uint8Array>;
    } = {},
  ) => {
    const { sink, emitted, names } = recorder();
    const service = new ApprovalNotifier({
      articles: memoryStore(options.initial ?? article()),
      articleService: {} as ArticleService,
      email: {
        notifier: async () => ({ address: 'owner@example.com', mailer: options.mailer }),
      } as unknown as EmailService,
      activeOwner: async () =>
        options.owner === false ? undefined : { email: 'owner@example.com', name: 'Owner', timezone: 'UTC' },
      signingKey: options.signingKey ?? (async () => new Uint8Array(32).fill(7)),
      publicUrl: () => 'https://app.example.com',
      automation: sink,
      now: () => new Date('2030-01-01T09:00:05.000Z'),
    });
    return { generate: () => service.generateAndNotify(run), emitted, names };
  };

  it('the approval e-mail went out: ApprovalRequested with the link’s expiry, never the link', async () => {
    const sent: { text: string }[] = [];
    const { generate, emitted } = notifier({ mailer: { send: async (m?: unknown) => void sent.push(m as never) } });
    await expect(generate()).resolves.toBe('sent');
    expect(emitted).toEqual([
      {
        name: 'ApprovalRequested',
        fields: {
          userId: 'u1',
          articleId: 'a1',
          title: 'Launch day',
          platform: 'wordpress',
          scheduledFor: at,
          approvalExpiresAt: '2030-01-08T09:00:05.000Z',
        },
        options: {},
      },
    ]);
    // The e-mail carries the link; the event carries nothing of it.
    const token = /token=([^\s]+)/.exec(sent[0]!.text)![1]!;
    expect(JSON.stringify(emitted)).not.toContain(decodeURIComponent(token).slice(0, 20));
    expect(JSON.stringify(emitted)).not.toMatch(SECRET_LIKE);
  });

  it('no way to send: ScheduleMissed email_not_configured, not retryable', async () => {
    const { generate, emitted } = notifier();
    await expect(generate()).resolves.toBe('no-mailer');
    expect(emitted).toHaveLength(1);
    expect(emitted[0]).toMatchObject({
      name: 'ScheduleMissed',
      fields: {
        platform: 'wordpress',
        scheduledFor: at,
        title: 'Launch day',
        error: { code: 'email_not_configured' },
        retryable: false,
      },
    });
  });

  it('the send failed: ScheduleMissed email_failed, retryable, and the run still throws for its retry', async () => {
    const { generate, emitted } = notifier({ mailer: { send: () => Promise.reject(new Error('invalid_grant')) } });
    await expect(generate()).rejects.toThrow(RecordedRunFailure);
    expect(emitted.map((e) => [e.name, (e.fields.error as { code: string }).code, e.fields.retryable])).toEqual([
      ['ScheduleMissed', 'email_failed', true],
    ]);
  });

  it('Gmail refused because of the owner (a revoked grant): ScheduleMissed email_failed, not retryable, and the run ends', async () => {
    const refused = new IntegrationError('Google refused the saved refresh token.', 'google_invalid_grant', 400);
    const { generate, emitted } = notifier({ mailer: { send: () => Promise.reject(refused) } });
    await expect(generate()).resolves.toBe('email-refused');
    expect(emitted.map((e) => [e.name, (e.fields.error as { code: string }).code, e.fields.retryable])).toEqual([
      ['ScheduleMissed', 'email_failed', false],
    ]);
  });

  it('the owner is deactivated: ScheduleMissed owner_inactive, not to their webhook', async () => {
    const { generate, emitted } = notifier({ owner: false, mailer: { send: async () => {} } });
    await expect(generate()).resolves.toBe('inactive');
    expect(emitted).toHaveLength(1);
    expect(emitted[0]).toMatchObject({
      name: 'ScheduleMissed',
      fields: { error: { code: 'owner_inactive' }, retryable: false },
      options: { webhook: null },
    });
  });

  it('anything else that breaks the run: ScheduleMissed run_failed, retryable, thrown on', async () => {
    const { generate, emitted } = notifier({
      mailer: { send: async () => {} },
      signingKey: () => Promise.reject(new Error('Secrets Manager is down')),
    });
    await expect(generate()).rejects.toThrow('Secrets Manager is down');
    expect(emitted.map((e) => [e.name, (e.fields.error as { code: string }).code, e.fields.retryable])).toEqual([
      ['ScheduleMissed', 'run_failed', true],
    ]);
  });

  it('a moved or cancelled schedule missed nothing: no event', async () => {
    const { generate, emitted } = notifier({
      mailer: { send: async () => {} },
      initial: article({ scheduled: { blog: '2030-02-01T09:00:00.000Z', linkedin: null } }),
    });
    await expect(generate()).resolves.toBe('stale');
    expect(emitted).toEqual([]);
  });
});

describe('PublishSucceeded and PublishFailed (PublishingService)', () => {
  const publisher = (publish: () => Promise<{ postId: number; link: string }>) => {
    const { sink, emitted } = recorder();
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
      automation: sink,
    } as unknown as PublishingDeps);
    return { service, emitted };
  };

  it('a post made from the app: PublishSucceeded, trigger manual, with its URL and time', async () => {
    const { service, emitted } = publisher(async () => ({ postId: 7, link: 'https://blog.example.com/?p=7' }));
    await service.publishWordPress('u1', 'a1');
    expect(emitted).toHaveLength(1);
    expect(emitted[0]).toMatchObject({
      name: 'PublishSucceeded',
      fields: {
        userId: 'u1',
        articleId: 'a1',
        platform: 'wordpress',
        trigger: 'manual',
        scheduledFor: null,
        postUrl: 'https://blog.example.com/?p=7',
      },
    });
    expect(Date.parse(emitted[0]!.fields.publishedAt as string)).not.toBeNaN();
    // The webhook gets what is left of the publish's deadline.
    expect(emitted[0]!.options.webhookTimeoutMs).toBeGreaterThan(10_000);
  });

  it('refused by the platform: PublishFailed with its code and message, and the publish still fails as before', async () => {
    const { service, emitted } = publisher(() =>
      Promise.reject(new IntegrationError('WordPress refused the credentials.', 'wordpress_auth_failed', 401)),
    );
    await expect(service.publishWordPress('u1', 'a1', { trigger: 'approval', scheduledFor: at })).rejects.toMatchObject(
      { code: 'wordpress_auth_failed' },
    );
    expect(emitted).toEqual([
      {
        name: 'PublishFailed',
        fields: {
          userId: 'u1',
          articleId: 'a1',
          title: 'Launch day',
          platform: 'wordpress',
          trigger: 'approval',
          scheduledFor: at,
          error: { code: 'wordpress_auth_failed', message: 'WordPress refused the credentials.' },
        },
        options: expect.objectContaining({ webhookTimeoutMs: expect.any(Number) }),
      },
    ]);
  });

  it('not connected (nothing was tried): no event', async () => {
    const { sink, emitted } = recorder();
    const service = new PublishingService({
      articles: memoryStore(article()),
      wordpress: { stored: async () => undefined },
      automation: sink,
    } as unknown as PublishingDeps);
    await expect(service.publishWordPress('u1', 'a1')).rejects.toMatchObject({ code: 'wordpress_not_connected' });
    expect(emitted).toEqual([]);
  });
});

describe('ArticleApproved (ApprovalLinks.confirmApproval)', () => {
  it('a used link publishes with trigger approval and emits ArticleApproved once; a repeat emits nothing', async () => {
    const key = new Uint8Array(32).fill(7);
    // The token as the notifier signs it, taken from its e-mail.
    const sent: { text: string }[] = [];
    await new ApprovalNotifier({
      articles: memoryStore(article()),
      articleService: {} as ArticleService,
      email: {
        notifier: async () => ({ address: 'o@example.com', mailer: { send: async (m: never) => void sent.push(m) } }),
      } as unknown as EmailService,
      activeOwner: async () => ({ email: 'o@example.com', name: 'O', timezone: 'UTC' }),
      signingKey: async () => key,
      publicUrl: () => 'https://app.example.com',
    }).generateAndNotify({ userId: 'u1', articleId: 'a1', platform: 'blog', scheduledFor: at });
    const token = decodeURIComponent(/token=([^\s]+)/.exec(sent[0]!.text)![1]!);

    const publishWordPress = vi.fn(async () => ({ link: 'https://blog.example.com/launch', article: article() }));
    const confirm = async (markOnce: boolean) => {
      const { sink, emitted } = recorder();
      const links = new ApprovalLinks({
        articles: memoryStore(article(), { markOnce }),
        publishing: { publishWordPress } as unknown as PublishingService,
        activeOwner: async () => ({ timezone: 'UTC' }),
        signingKey: async () => key,
        automation: sink,
      });
      await links.confirmApproval(token);
      return emitted;
    };
    const emitted = await confirm(true);
    expect(publishWordPress).toHaveBeenCalledWith('u1', 'a1', { trigger: 'approval', scheduledFor: at });
    expect(emitted).toEqual([
      {
        name: 'ArticleApproved',
        fields: {
          userId: 'u1',
          articleId: 'a1',
          title: 'Launch day',
          platform: 'wordpress',
          scheduledFor: at,
          postUrl: 'https://blog.example.com/launch',
        },
        options: { webhookTimeoutMs: expect.any(Number) },
      },
    ]);
    expect(JSON.stringify(emitted)).not.toContain(token.slice(0, 20));
    // Two confirmations at once: the one that did not record the approval emits nothing.
    expect(await confirm(false)).toEqual([]);
  });
});

describe('AutomationEvents: the bus and the owner’s webhook, never failing the operation', () => {
  const emitter = (overrides: Partial<ConstructorParameters<typeof AutomationEvents>[0]> = {}) => {
    const bus: DomainEvent[] = [];
    const delivered: { url: string; secret: string; payload: any; timeoutMs?: number }[] = [];
    const failures: EmitFailure[] = [];
    const events = new AutomationEvents({
      bus: { publish: async (events) => void bus.push(...events) },
      webhookOf: async () => ({ url: 'https://hooks.example.com/h', secret: 'whsec_1' }),
      webhooks: {
        deliver: async (url, secret, payload, options) => {
          delivered.push({ url, secret, payload, timeoutMs: options?.timeoutMs });
          return { ok: true, status: 200 };
        },
      },
      where: { account: '000000000000', region: 'eu-west-1' },
      onFailure: (f) => void failures.push(f),
      now: () => new Date(at),
      ...overrides,
    });
    return { events, bus, delivered, failures };
  };
  const fields = {
    userId: 'u1',
    articleId: 'a1',
    title: 'Launch day',
    platform: 'linkedin',
    trigger: 'manual',
    scheduledFor: null,
    postUrl: 'https://www.linkedin.com/feed/update/urn:li:share:1',
    publishedAt: at,
  } as const;

  it('puts the event on the bus and POSTs its envelope (with `event`) to the owner’s webhook', async () => {
    const { events, bus, delivered, failures } = emitter();
    await events.emit('PublishSucceeded', fields);
    expect(bus).toHaveLength(1);
    expect(bus[0]).toMatchObject({ name: 'PublishSucceeded', detailType: 'PublishSucceeded.v1' });
    const detail = AUTOMATION_EVENT_SCHEMAS().PublishSucceeded.parse(bus[0]!.detail);
    expect(detail).toMatchObject({ ...fields, version: 1, occurredAt: at });
    expect(delivered).toEqual([
      {
        url: 'https://hooks.example.com/h',
        secret: 'whsec_1',
        payload: {
          event: 'PublishSucceeded.v1',
          version: '0',
          id: detail.eventId,
          'detail-type': 'PublishSucceeded.v1',
          source: 'content-publisher',
          account: '000000000000',
          time: at,
          region: 'eu-west-1',
          resources: [],
          detail,
        },
        timeoutMs: 5_000,
      },
    ]);
    expect(failures).toEqual([]);
  });

  it('a bus that refuses or fails: reported, emit still resolves; the webhook still gets the event', async () => {
    const { events, delivered, failures } = emitter({
      bus: { publish: () => Promise.reject(new Error('AccessDeniedException')) },
    });
    await expect(events.emit('PublishSucceeded', fields)).resolves.toBeUndefined();
    expect(failures.map((f) => [f.target, f.event.name])).toEqual([['bus', 'PublishSucceeded']]);
    expect(delivered).toHaveLength(1);
  });

  it('a bus that never answers is given up after EVENT_BUS_TIMEOUT_MS', async () => {
    vi.useFakeTimers();
    try {
      const { events, failures } = emitter({ bus: { publish: () => new Promise(() => undefined) } });
      const emitted = events.emit('PublishSucceeded', fields);
      await vi.advanceTimersByTimeAsync(EVENT_BUS_TIMEOUT_MS);
      await expect(emitted).resolves.toBeUndefined();
      expect(failures.map((f) => f.target)).toEqual(['bus']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a webhook that fails, whose settings cannot be read, or with no time left: reported, never thrown', async () => {
    const down = emitter({ webhooks: { deliver: async () => ({ ok: false, status: 500, error: 'HTTP 500' }) } });
    await down.events.emit('PublishSucceeded', fields);
    expect(down.failures).toMatchObject([{ target: 'webhook', status: 500, error: 'HTTP 500' }]);

    const unreadable = emitter({ webhookOf: () => Promise.reject(new Error('throttled')) });
    await unreadable.events.emit('PublishSucceeded', fields);
    expect(unreadable.failures).toMatchObject([{ target: 'webhook' }]);
    expect(unreadable.bus).toHaveLength(1);

    const late = emitter();
    await late.events.emit('PublishSucceeded', fields, { webhookTimeoutMs: 100 });
    expect(late.delivered).toEqual([]);
    expect(late.failures).toMatchObject([{ target: 'webhook', error: expect.stringMatching(/all its time/) }]);
  });

  it('the webhook gets at most what the caller has left; none when the owner has none (or is told so)', async () => {
    const { events, delivered } = emitter();
    await events.emit('PublishSucceeded', fields, { webhookTimeoutMs: 1_234 });
    expect(delivered.map((d) => d.timeoutMs)).toEqual([1_234]);

    const none = emitter({ webhookOf: async () => undefined });
    await none.events.emit('PublishSucceeded', fields);
    expect(none.delivered).toEqual([]);
    const told = emitter();
    await told.events.emit('PublishSucceeded', fields, { webhook: null });
    expect(told.delivered).toEqual([]);
  });

  it('a failing onFailure does not fail emit either', async () => {
    const { events } = emitter({
      bus: { publish: () => Promise.reject(new Error('down')) },
      onFailure: () => {
        throw new Error('logger broke');
      },
    });
    await expect(events.emit('PublishSucceeded', fields)).resolves.toBeUndefined();
  });
});
