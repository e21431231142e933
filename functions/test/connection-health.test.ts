/**
 * The check before a slot (domain/connection-health.ts) with a fixed clock and fake ports: the window boundaries,
 * one check per slot and window, a moved slot checked again, the article's own problems, and the LinkedIn expiry
 * told once.
 */
import { activityLabel, OFFLINE_LINKEDIN_NOTE, type HealthProblem } from '@app/shared';
import { describe, expect, it } from 'vitest';
import { slotsToPublish, type ArticleRecord } from '../src/domain/articles.js';
import {
  articleProblems,
  ConnectionHealthService,
  dueWindow,
  type ConnectionState,
  type SlotChannel,
} from '../src/domain/connection-health.js';
import type { OutboxEntry } from '../src/domain/automation-events.js';
import type { MailMessage } from '../src/domain/integrations.js';
import { articleRecord } from './helpers/article-record.js';

const NOW = new Date('2030-03-10T12:00:00.000Z');
const at = (ms: number) => new Date(NOW.getTime() + ms).toISOString();
const HOUR = 3600_000;
const MINUTE = 60_000;

describe('dueWindow', () => {
  it('opens the 24-hour window at exactly a day ahead and the 1-hour one at exactly an hour', () => {
    expect(dueWindow(at(24 * HOUR + 1), NOW, undefined)).toBeUndefined();
    expect(dueWindow(at(24 * HOUR), NOW, undefined)).toBe('24h');
    expect(dueWindow(at(HOUR + 1), NOW, undefined)).toBe('24h');
    expect(dueWindow(at(HOUR), NOW, undefined)).toBe('1h');
    expect(dueWindow(at(1), NOW, undefined)).toBe('1h');
    expect(dueWindow(at(0), NOW, undefined)).toBeUndefined();
    expect(dueWindow(at(-MINUTE), NOW, undefined)).toBeUndefined();
  });

  it('a window noted for the slot is not due again; a moved slot starts again', () => {
    const slot = at(3 * HOUR);
    const note = { scheduledFor: slot, windows: ['24h' as const], problems: [], checkedAt: NOW.toISOString() };
    expect(dueWindow(slot, NOW, note)).toBeUndefined();
    expect(dueWindow(slot, new Date(NOW.getTime() + 2.5 * HOUR), note)).toBe('1h');
    expect(dueWindow(at(4 * HOUR), NOW, note)).toBe('24h');
  });
});

const wordpress: SlotChannel = {
  id: 'wordpress',
  label: 'WordPress',
  platform: 'blog',
  checkArticle: () => undefined,
};
const linkedin: SlotChannel = {
  id: 'linkedin',
  label: 'LinkedIn',
  platform: 'linkedin',
  checkArticle: (a) => {
    if (a.linkedin.content.length > 20)
      throw Object.assign(new Error('LinkedIn posts must be under 20 characters.'), { code: 'too_long' });
  },
};

describe('articleProblems', () => {
  it('the offline-draft note, a text over the channel’s limit and a missing image, each with the editor as the fix', () => {
    const article = articleRecord({
      linkedin: { ...articleRecord().linkedin, content: `${OFFLINE_LINKEDIN_NOTE}\nA long text over the limit` },
      imageDescription: 'A lighthouse',
    });
    expect(articleProblems(article, 'linkedin', [linkedin], false).map((p) => [p.code, p.fix])).toEqual([
      ['offline_draft_note', 'editor'],
      ['too_long', 'editor'],
      ['image_missing', 'editor'],
    ]);
    expect(articleProblems(articleRecord(), 'blog', [wordpress], false)).toEqual([]);
  });
});

function harness(options: { articles: ArticleRecord[]; states?: Record<string, ConnectionState>; expiry?: string }) {
  let now = NOW;
  const stored = new Map(options.articles.map((a) => [a.id, a]));
  const mail: MailMessage[] = [];
  const events: OutboxEntry[] = [];
  let told: string | undefined;
  const service = new ConnectionHealthService({
    expiring: async (from, to) =>
      options.expiry && options.expiry >= from && options.expiry <= to ? [{ ownerId: 'u1', channel: 'linkedin' }] : [],
    dueSlots: async (from, to) =>
      [...stored.values()].flatMap((a) =>
        slotsToPublish(a)
          .filter((s) => s.at >= from && s.at <= to)
          .map((s) => ({ ownerId: 'u1', articleId: a.id, ...s })),
      ),
    articles: {
      get: async (_owner, id) => stored.get(id),
      update: async (_owner, id, changes, opts) => {
        const next = { ...stored.get(id)!, ...changes } as ArticleRecord;
        stored.set(id, next);
        events.push(...(opts?.events ?? []));
        return next;
      },
      recordEvents: async (entries) => void events.push(...entries),
    },
    probe: {
      channelsOf: async (_owner, platform) => (platform === 'blog' ? [wordpress] : [linkedin]),
      check: async (_owner, id) => options.states?.[id] ?? { problems: [] },
      expiry: async (_owner, id) =>
        id === 'linkedin' && options.expiry ? { label: 'LinkedIn', expiresAt: options.expiry } : undefined,
    },
    imagePresent: async () => true,
    activeOwner: async () => ({ email: 'owner@example.com', timezone: 'Europe/Paris' }),
    notifier: async () => ({
      address: undefined,
      mailer: { kind: 'outbox', send: async (m) => (mail.push(m), { id: String(mail.length) }) },
    }),
    expiryTold: { get: async () => told, set: async (_o, _c, v) => void (told = v) },
    publicUrl: () => 'https://app.example.com/',
    now: () => now,
  });
  return { service, mail, events, stored, setNow: (d: Date) => (now = d) };
}

const refused: HealthProblem = {
  channel: 'wordpress',
  code: 'wordpress_wrong_password',
  message: 'WordPress refused the application password.',
  fix: 'settings',
};

describe('ConnectionHealthService.sweep', () => {
  it('checks a slot once per window: the 24-hour check, nothing more until the hour, then the 1-hour check', async () => {
    const slot = at(20 * HOUR);
    const h = harness({
      articles: [articleRecord({ scheduled: { blog: slot, linkedin: null } })],
      states: { wordpress: { problems: [refused] } },
    });
    expect(await h.service.sweep()).toEqual({ checked: 1, withProblems: 1, expiring: 0 });
    expect(await h.service.sweep()).toEqual({ checked: 0, withProblems: 0, expiring: 0 });
    expect(h.mail).toHaveLength(1);
    expect(h.mail[0]!.subject).toBe('Needs attention before it goes out: “T”');
    expect(h.mail[0]!.text).toContain('https://app.example.com/settings');
    expect(h.mail[0]!.html).toContain('Open Settings');
    h.setNow(new Date(Date.parse(slot) - 59 * MINUTE));
    expect(await h.service.sweep()).toEqual({ checked: 1, withProblems: 1, expiring: 0 });
    expect(await h.service.sweep()).toEqual({ checked: 0, withProblems: 0, expiring: 0 });
    expect(h.stored.get('a1')!.blogHealth).toMatchObject({ scheduledFor: slot, windows: ['24h', '1h'] });
    expect(h.mail).toHaveLength(2);
    expect(h.events.map((e) => [e.event.name, (e.event.detail as { window: string }).window])).toEqual([
      ['ConnectionProblem', '24h'],
      ['ConnectionProblem', '1h'],
    ]);
  });

  it('all well: noted, no e-mail, no event', async () => {
    const h = harness({ articles: [articleRecord({ scheduled: { blog: at(2 * HOUR), linkedin: null } })] });
    expect(await h.service.sweep()).toEqual({ checked: 1, withProblems: 0, expiring: 0 });
    expect(h.mail).toEqual([]);
    expect(h.events).toEqual([]);
    expect(h.stored.get('a1')!.blogHealth).toMatchObject({ windows: ['24h'], problems: [] });
  });

  it('a LinkedIn token expiring before the slot is a problem of that slot', async () => {
    const h = harness({
      articles: [articleRecord({ scheduled: { blog: null, linkedin: at(5 * HOUR) } })],
      states: { linkedin: { problems: [], expiresAt: at(4 * HOUR) } },
    });
    await h.service.sweep();
    expect(h.stored.get('a1')!.linkedinHealth!.problems).toEqual([
      expect.objectContaining({ code: 'linkedin_expires_before_slot', fix: 'settings' }),
    ]);
  });

  it('a LinkedIn connection expiring within 7 days is told once per expiry, with no slot', async () => {
    const expiry = at(6 * 24 * HOUR);
    const h = harness({ articles: [], expiry });
    expect((await h.service.sweep()).expiring).toBe(1);
    expect((await h.service.sweep()).expiring).toBe(0);
    expect(h.mail.map((m) => m.subject)).toEqual(['Your LinkedIn connection expires soon']);
    expect(h.events[0]!.event.detail).toMatchObject({ articleId: null, expiresAt: expiry });
    const later = harness({ articles: [], expiry: at(8 * 24 * HOUR) });
    expect((await later.service.sweep()).expiring).toBe(0);
  });
});

describe('the activity entry of a slot’s problems', () => {
  it('reads as a need of attention before the version’s time', () => {
    expect(activityLabel({ name: 'ConnectionProblem', platform: 'blog' })).toBe(
      'Needs attention before its scheduled time on WordPress',
    );
  });
});
