/**
 * Domain events for automation (functions/src/domain/automation-events.ts): each point of the domain that
 * writes one with its change (the outbox), with its failure paths, and the relay that delivers them at
 * least once. The adapters: event-publishers.test.ts; over the real app: events-api.test.ts and
 * event-outbox-api.test.ts.
 */
import { describe, expect, it, vi } from 'vitest';
import { AiError } from '../src/domain/ai.js';
import { ArticleService, type ArticleRecord } from '../src/domain/articles.js';
import {
  AUTOMATION_EVENT_SCHEMAS,
  BUS_TRIES,
  EventRelay,
  WEBHOOK_ATTEMPTS,
  makeEvent,
  outboxEntry,
  type AutomationEventName,
  type DeliveryFailure,
  type DeliveryProgress,
  type DomainEvent,
  type OutboxEntry,
} from '../src/domain/automation-events.js';
import type { EmailService } from '../src/domain/email.js';
import { IntegrationError } from '../src/domain/integrations.js';
import type { ArticleStore } from '../src/domain/ports.js';
import { PublishingService, type PublishingDeps } from '../src/domain/publishing.js';
import { ApprovalLinks, ApprovalNotifier, RecordedRunFailure } from '../src/domain/scheduling.js';
import { articleRecord } from './helpers/article-record.js';

/** What the services write into the outbox with their changes, each detail checked against its schema. */
function recorder() {
  const emitted: {
    name: AutomationEventName;
    fields: Record<string, unknown>;
    toWebhook: boolean;
    alsoToWebhook?: readonly unknown[];
  }[] = [];
  const record = (entries: readonly OutboxEntry[] | undefined) => {
    for (const { event, toWebhook, alsoToWebhook } of entries ?? []) {
      AUTOMATION_EVENT_SCHEMAS()[event.name].parse(event.detail);
      const { eventId: _id, version: _version, occurredAt: _at, ...fields } = event.detail;
      emitted.push({ name: event.name, fields, toWebhook, ...(alsoToWebhook ? { alsoToWebhook } : {}) });
    }
  };
  return { record, emitted, names: () => emitted.map((e) => e.name) };
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

/**
 * An article store that keeps one article and answers every claim; the events a write carries go to
 * `record` when the write is made (the outbox's transaction).
 */
function memoryStore(
  initial: ArticleRecord | undefined,
  options: { markOnce?: boolean; record?: (entries: readonly OutboxEntry[] | undefined) => void } = {},
): ArticleStore {
  let stored = initial;
  const record = options.record ?? (() => undefined);
  return {
    get: async () => stored,
    update: async (
      _u: string,
      _id: string,
      changes: Record<string, unknown>,
      writeOptions: { events?: readonly OutboxEntry[] } = {},
    ) => {
      if (!stored) return undefined;
      record(writeOptions.events);
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
    finishNotify: async (_u: string, _id: string, _p: string, _for: string, events?: readonly OutboxEntry[]) =>
      record(events),
    releaseNotify: async () => {},
    recordEvents: async (events: readonly OutboxEntry[]) => record(events),
    markOnce: async (_u: string, _id: string, _f: string, _p: string, _v: string, events?: readonly OutboxEntry[]) => {
      const first = options.markOnce ?? true;
      if (first) record(events);
      return first;
    },
  } as unknown as ArticleStore;
}

const SECRET_LIKE = /token|approve\?|password|secret/i;

describe('ArticleDrafted (ArticleService.generateContent)', () => {
  const drafting = (draft: (platform: string) => Promise<string>, initial = article()) => {
    const { record, emitted } = recorder();
    const service = new ArticleService({
      articles: memoryStore(initial, { record }),
      objects: { put: async () => {}, get: async () => undefined, delete: async () => {} } as never,
      jobs: { enqueue: async () => {} },
      ai: async () => ({
        content: { kind: 'openai', draft: (_brief, platform) => draft(platform), edit: async () => '' },
        image: { kind: 'openai', generate: () => Promise.reject(new Error('unused')) },
      }),
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
        toWebhook: true,
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

  it('names who asked for the drafting as the other events do: a member by id, a scheduled run null, an import nobody', async () => {
    const jobs: unknown[] = [];
    const { record, emitted } = recorder();
    const service = new ArticleService({
      articles: { ...memoryStore(empty, { record }), put: async () => {} },
      objects: {} as never,
      jobs: { enqueue: async (job) => void jobs.push(job) },
      ai: async () => ({
        content: { kind: 'openai', draft: async (_brief, p) => `Draft for ${p}`, edit: async () => '' },
        image: { kind: 'openai', generate: () => Promise.reject(new Error('unused')) },
      }),
    });
    // The job a member's request hands the worker names them; an import's row (no actorId) names nobody.
    await service.retryGeneration('u1', 'a1', 'member-7');
    expect(jobs).toEqual([{ type: 'generate-content', userId: 'u1', articleId: 'a1', actorId: 'member-7' }]);
    const input = { title: 'T', topic: 'x', keyword: 'k', details: '', imageDescription: '' };
    const created = await service.create('u1', input, [], { actorId: 'member-8' });
    const imported = await service.create('u1', input, []);
    expect(jobs.slice(1)).toEqual([
      { type: 'generate-content', userId: 'u1', articleId: created.id, actorId: 'member-8' },
      { type: 'generate-content', userId: 'u1', articleId: imported.id },
    ]);
    for (const actorId of ['member-7', null, undefined]) {
      emitted.length = 0;
      await service.generateContent('u1', 'a1', actorId === undefined ? {} : { actorId });
      expect(emitted.map((e) => e.fields.actorId)).toEqual([actorId]);
      expect(emitted.map((e) => 'actorId' in e.fields)).toEqual([actorId !== undefined]);
      await service.updateContent('u1', 'a1', 'blog', '', 'member-7');
      await service.updateContent('u1', 'a1', 'linkedin', '', 'member-7');
    }
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
    const { record, emitted, names } = recorder();
    const service = new ApprovalNotifier({
      articles: memoryStore(options.initial ?? article(), { record }),
      articleService: {} as ArticleService,
      email: {
        notifier: async () => ({ address: 'owner@example.com', mailer: options.mailer }),
      } as unknown as EmailService,
      activeOwner: async () =>
        options.owner === false ? undefined : { email: 'owner@example.com', name: 'Owner', timezone: 'UTC' },
      signingKey: options.signingKey ?? (async () => new Uint8Array(32).fill(7)),
      publicUrl: () => 'https://app.example.com',
      now: () => new Date('2030-01-01T09:00:05.000Z'),
    });
    return { generate: () => service.generateAndNotify(run), emitted, names };
  };

  it('the approval e-mail went out: ApprovalRequested (by the scheduled run: actorId null) with the link’s expiry, never the link', async () => {
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
          actorId: null,
        },
        toWebhook: true,
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

  it('its drafting of a version still empty is by the scheduled run: ArticleDrafted’s actorId null', async () => {
    const generateContent = vi.fn(async () => undefined);
    const service = new ApprovalNotifier({
      articles: memoryStore(article({ blog: { ...article().blog, content: '' } })),
      articleService: { generateContent } as unknown as ArticleService,
      email: { notifier: async () => ({ address: 'owner@example.com', mailer: undefined }) } as unknown as EmailService,
      activeOwner: async () => ({ email: 'owner@example.com', name: 'Owner', timezone: 'UTC' }),
      signingKey: async () => new Uint8Array(32).fill(7),
      publicUrl: () => 'https://app.example.com',
      now: () => new Date('2030-01-01T09:00:05.000Z'),
    });
    await service.generateAndNotify(run);
    expect(generateContent).toHaveBeenCalledWith('u1', 'a1', { actorId: null });
  });

  it('the owner is deactivated: ScheduleMissed owner_inactive, not to their webhook', async () => {
    const { generate, emitted } = notifier({ owner: false, mailer: { send: async () => {} } });
    await expect(generate()).resolves.toBe('inactive');
    expect(emitted).toHaveLength(1);
    expect(emitted[0]).toMatchObject({
      name: 'ScheduleMissed',
      fields: { error: { code: 'owner_inactive' }, retryable: false },
      toWebhook: false,
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
    const { record, emitted } = recorder();
    const service = new PublishingService({
      articles: memoryStore(article(), { record }),
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
    } as unknown as PublishingDeps);
    return { service, emitted };
  };

  it('a post made from the app: PublishSucceeded, trigger manual, by its member, with its URL and time', async () => {
    const { service, emitted } = publisher(async () => ({ postId: 7, link: 'https://blog.example.com/?p=7' }));
    await service.publishWordPress('u1', 'a1', { trigger: 'manual', actorId: 'member-7' });
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
        actorId: 'member-7',
      },
    });
    expect(Date.parse(emitted[0]!.fields.publishedAt as string)).not.toBeNaN();
  });

  it('refused by the platform: PublishFailed with its code and message (a scheduled run’s: actorId null), and the publish still fails as before', async () => {
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
          actorId: null,
        },
        toWebhook: true,
      },
    ]);
  });

  it('not connected (nothing was tried): no event', async () => {
    const { record, emitted } = recorder();
    const service = new PublishingService({
      articles: memoryStore(article(), { record }),
      wordpress: { stored: async () => undefined },
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

    // The version's one channel (WordPress) publishes: how PublishingService.publishVersion answers it.
    const publishVersion = vi.fn(async () => [
      { channel: 'wordpress', label: 'WordPress', ok: true, url: 'https://blog.example.com/launch', already: false },
    ]);
    const confirm = async (markOnce: boolean) => {
      const { record, emitted } = recorder();
      const links = new ApprovalLinks({
        articles: memoryStore(article(), { markOnce, record }),
        publishing: { publishVersion } as unknown as PublishingService,
        activeOwner: async () => ({ id: 'owner-1', timezone: 'UTC' }),
        signingKey: async () => key,
      });
      await links.confirmApproval(token);
      return emitted;
    };
    const emitted = await confirm(true);
    expect(publishVersion).toHaveBeenCalledWith('blog', 'u1', 'a1', { trigger: 'approval', scheduledFor: at });
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
          actorId: 'owner-1',
        },
        toWebhook: true,
      },
    ]);
    expect(JSON.stringify(emitted)).not.toContain(token.slice(0, 20));
    // Two confirmations at once: the one that did not record the approval emits nothing.
    expect(await confirm(false)).toEqual([]);
  });
});

describe('EventRelay: at-least-once delivery from the outbox to the bus and the owner’s webhook', () => {
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
  const event = () => makeEvent('PublishSucceeded', fields, new Date(at));

  /** A relay over in-memory marks (as the outbox item keeps them), a bus and a webhook receiver. */
  const setup = (
    overrides: Partial<ConstructorParameters<typeof EventRelay>[0]> = {},
    initial: Record<string, DeliveryProgress> = {},
  ) => {
    const bus: DomainEvent[] = [];
    const delivered: { url: string; secret: string; payload: any; timeoutMs?: number }[] = [];
    const failures: DeliveryFailure[] = [];
    const marks = new Map<string, DeliveryProgress>(Object.entries(initial));
    const relay = new EventRelay({
      bus: { publish: async (events) => void bus.push(...events) },
      marks: {
        progress: async (events) =>
          new Map(
            events.flatMap((e) =>
              marks.has(e.detail.eventId) ? [[e.detail.eventId, marks.get(e.detail.eventId)!]] : [],
            ),
          ),
        mark: async (e, m) => {
          const p = marks.get(e.detail.eventId) ?? { webhookFailures: 0 };
          marks.set(e.detail.eventId, {
            ...p,
            ...(m.busAt ? { busAt: m.busAt } : {}),
            ...(m.webhook ? { webhook: m.webhook } : {}),
            ...(m.deliveredAt ? { deliveredAt: m.deliveredAt } : {}),
            webhookFailures: p.webhookFailures + (m.webhookFailed ? 1 : 0),
          });
        },
      },
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
      sleep: async () => undefined,
      ...overrides,
    });
    return { relay, bus, delivered, failures, marks };
  };

  it('puts the event on the bus, POSTs its envelope (after any payload beside it) to the webhook, and marks it delivered', async () => {
    const { relay, bus, delivered, failures, marks } = setup();
    const e = event();
    const legacy = { event: 'linkedin.published', articleId: 'a1' };
    expect(await relay.deliver([outboxEntry(e, { alsoToWebhook: [legacy] })])).toEqual({ undelivered: [] });
    expect(bus).toEqual([e]);
    expect(delivered.map((d) => d.payload)).toEqual([
      legacy,
      {
        event: 'PublishSucceeded.v1',
        version: '0',
        id: e.detail.eventId,
        'detail-type': 'PublishSucceeded.v1',
        source: 'content-publisher',
        account: '000000000000',
        time: at,
        region: 'eu-west-1',
        resources: [],
        detail: e.detail,
      },
    ]);
    expect(delivered[0]).toMatchObject({ url: 'https://hooks.example.com/h', secret: 'whsec_1', timeoutMs: 5_000 });
    expect(failures).toEqual([]);
    expect(marks.get(e.detail.eventId)).toEqual({
      busAt: at,
      webhook: 'delivered',
      webhookFailures: 0,
      deliveredAt: at,
    });
  });

  it('a bus down: tried BUS_TRIES times, reported, left undelivered; the next delivery puts it and sends nothing twice to the webhook', async () => {
    let calls = 0;
    let down = true;
    const { relay, bus, delivered, failures, marks } = setup({
      bus: {
        publish: async () => {
          calls++;
          if (down) throw new Error('AccessDeniedException');
        },
      },
    });
    const entry = outboxEntry(event());
    expect((await relay.deliver([entry])).undelivered).toEqual([entry]);
    expect(calls).toBe(BUS_TRIES);
    expect(failures.map((f) => f.target)).toEqual(['bus']);
    expect(marks.get(entry.event.detail.eventId)).toMatchObject({ webhook: 'delivered' });
    expect(marks.get(entry.event.detail.eventId)?.deliveredAt).toBeUndefined();
    down = false;
    expect((await relay.deliver([entry])).undelivered).toEqual([]);
    expect(calls).toBe(BUS_TRIES + 1);
    expect(delivered).toHaveLength(1);
    expect(marks.get(entry.event.detail.eventId)?.deliveredAt).toBe(at);
    expect(bus).toEqual([]);
  });

  it('a webhook down: retried by later deliveries until it answers; given up (reported) after WEBHOOK_ATTEMPTS failures', async () => {
    let answers = 0;
    const failing = setup({ webhooks: { deliver: async () => ({ ok: false, status: 500, error: 'HTTP 500' }) } });
    const entry = outboxEntry(event());
    for (let attempt = 1; attempt < WEBHOOK_ATTEMPTS; attempt++) {
      expect((await failing.relay.deliver([entry])).undelivered).toEqual([entry]);
    }
    expect((await failing.relay.deliver([entry])).undelivered).toEqual([]);
    expect(failing.bus).toHaveLength(1);
    expect(failing.failures.map((f) => f.target === 'webhook' && f.gaveUp)).toEqual([
      ...Array.from({ length: WEBHOOK_ATTEMPTS - 1 }, () => false),
      true,
    ]);
    expect(failing.marks.get(entry.event.detail.eventId)).toMatchObject({
      webhook: 'gave-up',
      webhookFailures: WEBHOOK_ATTEMPTS - 1,
    });

    const recovering = setup({
      webhooks: { deliver: async () => (++answers < 3 ? { ok: false, status: 503 } : { ok: true, status: 200 }) },
    });
    expect((await recovering.relay.deliver([entry])).undelivered).toHaveLength(1);
    expect((await recovering.relay.deliver([entry])).undelivered).toHaveLength(1);
    expect((await recovering.relay.deliver([entry])).undelivered).toHaveLength(0);
    expect(recovering.marks.get(entry.event.detail.eventId)).toMatchObject({ webhook: 'delivered', deliveredAt: at });
  });

  it('delivered already, or not for the webhook (a deactivated owner), or no webhook: nothing more is sent', async () => {
    const e = event();
    const done = setup(
      {},
      { [e.detail.eventId]: { busAt: at, webhook: 'delivered', webhookFailures: 0, deliveredAt: at } },
    );
    expect((await done.relay.deliver([outboxEntry(e)])).undelivered).toEqual([]);
    expect([done.bus, done.delivered]).toEqual([[], []]);

    const notForHook = setup();
    await notForHook.relay.deliver([outboxEntry(e, { toWebhook: false })]);
    expect([notForHook.bus.length, notForHook.delivered.length]).toEqual([1, 0]);

    const none = setup({ webhookOf: async () => undefined });
    expect((await none.relay.deliver([outboxEntry(e)])).undelivered).toEqual([]);
    expect(none.marks.get(e.detail.eventId)).toMatchObject({ webhook: 'none', deliveredAt: at });
  });

  it('a failing onFailure does not stop the delivery', async () => {
    const { relay, delivered } = setup({
      bus: { publish: () => Promise.reject(new Error('down')) },
      onFailure: () => {
        throw new Error('logger broke');
      },
    });
    await expect(relay.deliver([outboxEntry(event())])).resolves.toMatchObject({ undelivered: [expect.anything()] });
    expect(delivered).toHaveLength(1);
  });
});
