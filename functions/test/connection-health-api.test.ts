/**
 * The check before a slot over the real local app (docs/product.md, Connection health): a WordPress site that now
 * refuses the saved application password (401) and a LinkedIn token that expires before the slot are e-mailed to
 * the owner (one e-mail per slot and window), told as ConnectionProblem events (events.jsonl and the webhook), and
 * shown in the Schedule list's answer; a second sweep in the same window does nothing more.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { localJobsIdle } from '../src/adapters/local/in-process-job-queue.js';
import { parseEventLines } from '../src/adapters/local/jsonl-event-publisher.js';
import { AUTOMATION_EVENT_SCHEMAS } from '../src/domain/automation-events.js';
import { HEALTH_SWEEP_INPUT } from '@app/shared';
import { handler } from '../src/lambda/worker.js';
import { connectionHealth } from '../src/wiring/connection-health.js';
import { startFakeLinkedIn, type FakeLinkedIn } from './fakes/linkedin.js';
import { parseMime } from './fakes/mime.js';
import { FAKE_WP_EDITOR, startFakeWordPress, type FakeWordPress } from './fakes/wordpress.js';
import { serve } from './publishing/helpers.js';
import {
  articleStore,
  Client,
  completeOAuth,
  draftedForPublishing,
  registration,
  startTestApp,
  type TestApp,
} from './helpers/app.js';
import { settingService } from '../src/wiring/settings.js';

let app: TestApp;
let wp: FakeWordPress;
let li: FakeLinkedIn;
let user: Client;
let userId: string;
let hook: Awaited<ReturnType<typeof serve>>;

const editor = { ...FAKE_WP_EDITOR };

function mails() {
  const dir = join(app.dataDir, 'outbox');
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.eml'));
  } catch {
    return [];
  }
  return files.sort().map((f) => ({ file: join(dir, f), ...parseMime(readFileSync(join(dir, f), 'utf8')) }));
}

function problemEvents() {
  let text: string;
  try {
    text = readFileSync(join(app.dataDir, 'events.jsonl'), 'utf8');
  } catch {
    return [];
  }
  return parseEventLines(text)
    .filter((e) => e['detail-type'] === 'ConnectionProblem.v1')
    .map((e) => AUTOMATION_EVENT_SCHEMAS().ConnectionProblem.parse(e.detail));
}

beforeAll(async () => {
  [wp, li] = await Promise.all([startFakeWordPress({ users: [editor] }), startFakeLinkedIn()]);
  process.env.LINKEDIN_OAUTH_URL = li.oauthUrl;
  process.env.LINKEDIN_API_URL = li.apiUrl;
  app = await startTestApp();
  user = new Client(app.url);
  userId = (await user.call('/api/auth/register', { body: registration() })).json.user._id;
  await user.call('/api/wordpress/credentials', {
    body: { siteUrl: wp.url, username: editor.username, appPassword: editor.appPassword },
  });
  await user.call('/api/linkedin/credentials', {
    body: { clientId: li.app.clientId, clientSecret: li.app.clientSecret },
  });
  const { authUrl } = (await user.call('/api/linkedin/auth-url')).json;
  expect((await completeOAuth(user, authUrl)).location).toBe('/settings?linkedin_connected=true');
  hook = await serve((_req, res) => res.end('ok'));
  await user.call('/api/linkedin/zapier-webhook', { body: { webhookUrl: `${hook.url}/hook` } });
});
afterAll(async () => {
  await app?.stop();
  await Promise.all([wp?.stop(), li?.stop(), hook?.close()]);
});

describe('the check before a slot', () => {
  it('a refused WordPress password and a LinkedIn token expiring before the slot: one e-mail, the events, the card', async () => {
    const id = (
      await user.call('/api/articles', { body: { title: 'Health check', topic: 'Health', keyword: 'slots' } })
    ).json.article._id as string;
    await draftedForPublishing(user, id);
    const slot = new Date(Date.now() + 2 * 3600_000).toISOString();
    for (const platform of ['blog', 'linkedin'])
      expect(
        (await user.call(`/api/articles/${id}/schedule`, { method: 'PUT', body: { platform, datetime: slot } })).status,
      ).toBe(200);
    // The site now refuses the saved application password (401), and the token runs out an hour before the slot.
    editor.appPassword = 'abcd efgh ijkl mnop qrst uvwx';
    const expiresAt = new Date(Date.now() + 3600_000).toISOString();
    await settingService().put(userId, 'linkedin_token_expiry', expiresAt, 'LinkedIn token expiry');
    const before = mails().length;

    const result = await connectionHealth().sweep();
    await localJobsIdle();
    expect(result).toMatchObject({ checked: 2, withProblems: 2, expiring: 1 });

    const list = (await user.call('/api/articles/unpublished')).json.articles as any[];
    const card = list.find((a) => a._id === id);
    expect(card.health.blog).toMatchObject({ scheduledFor: slot, windows: ['24h'] });
    expect(card.health.blog.problems).toEqual([
      expect.objectContaining({ channel: 'wordpress', code: 'wordpress_wrong_password', fix: 'settings' }),
    ]);
    expect(card.health.linkedin.problems).toEqual([
      expect.objectContaining({ channel: 'linkedin', code: 'linkedin_expires_before_slot', fix: 'settings' }),
    ]);

    const sent = mails().slice(before);
    const slotMails = sent.filter((m) => m.subject.includes('Needs attention before it goes out'));
    expect(slotMails).toHaveLength(2); // one per slot (blog, LinkedIn) and window
    const blogMail = slotMails.find((m) => m.text?.includes('WordPress refused'))!;
    expect(blogMail.html).toContain('style=');
    expect(blogMail.text).toContain('/settings');
    expect(sent.filter((m) => m.subject === 'Your LinkedIn connection expires soon')).toHaveLength(1);

    const events = problemEvents();
    expect(
      events
        .filter((e) => e.articleId === id)
        .map((e) => [e.platform, e.window, e.problems[0]!.code])
        .sort(),
    ).toEqual([
      ['linkedin', '24h', 'linkedin_expires_before_slot'],
      ['wordpress', '24h', 'wordpress_wrong_password'],
    ]);
    expect(events.filter((e) => e.articleId === null)).toEqual([
      expect.objectContaining({ expiresAt, problems: [expect.objectContaining({ code: 'linkedin_expiring_soon' })] }),
    ]);
    const hooked = hook.received.map((r) => JSON.parse(r.body) as Record<string, any>);
    expect(hooked.filter((p) => p['detail-type'] === 'ConnectionProblem.v1')).toHaveLength(3);

    // The same window again: nothing more (noted on the item; the expiry told once).
    const again = await connectionHealth().sweep();
    await localJobsIdle();
    expect(again).toEqual({ checked: 0, withProblems: 0, expiring: 0 });
    expect(mails().length).toBe(before + 3);
    expect(problemEvents()).toHaveLength(3);

    // The worker runs the sweep when the stack's rate schedule invokes it with the sweep's input: a slot scheduled
    // since is checked (and only it).
    const next = (
      await user.call('/api/articles', { body: { title: 'Later slot', topic: 'Health', keyword: 'slots' } })
    ).json.article._id as string;
    await draftedForPublishing(user, next);
    await user.call(`/api/articles/${next}/schedule`, {
      method: 'PUT',
      body: { platform: 'blog', datetime: new Date(Date.now() + 3 * 3600_000).toISOString() },
    });
    await expect(handler({ ...HEALTH_SWEEP_INPUT })).resolves.toBeUndefined();
    await localJobsIdle();
    expect(problemEvents()).toHaveLength(4);
    expect(problemEvents().filter((e) => e.articleId === next)).toEqual([
      expect.objectContaining({ platform: 'wordpress', window: '24h' }),
    ]);
    expect(mails().length).toBe(before + 4);
  });

  it('two sweeps at the same moment: one claims the slot’s window, so one e-mail and one event', async () => {
    const id = (await user.call('/api/articles', { body: { title: 'Met twice', topic: 'Health', keyword: 'slots' } }))
      .json.article._id as string;
    await draftedForPublishing(user, id);
    const slot = new Date(Date.now() + 5 * 3600_000).toISOString();
    await user.call(`/api/articles/${id}/schedule`, { method: 'PUT', body: { platform: 'blog', datetime: slot } });
    const before = mails().length;

    const results = await Promise.all([connectionHealth().sweep(), connectionHealth().sweep()]);
    await localJobsIdle();
    expect(results.reduce((sum, r) => sum + r.checked, 0)).toBe(1);
    expect(
      mails()
        .slice(before)
        .filter((m) => m.subject.includes('“Met twice”')),
    ).toHaveLength(1);
    expect(problemEvents().filter((e) => e.articleId === id)).toEqual([
      expect.objectContaining({ platform: 'wordpress', window: '24h' }),
    ]);
  });

  it('a blog-first bundle’s blog slot checks the social channels that publish with it', async () => {
    const id = (await user.call('/api/articles', { body: { title: 'Bundled', topic: 'Health', keyword: 'slots' } }))
      .json.article._id as string;
    await draftedForPublishing(user, id);
    // LinkedIn is connected, and its token (set by the first test) runs out before this slot.
    const slot = new Date(Date.now() + 6 * 3600_000).toISOString();
    const scheduled = await user.call(`/api/articles/${id}/schedule`, {
      method: 'PUT',
      body: { platform: 'blog', datetime: slot, bundle: true },
    });
    expect(scheduled.status, JSON.stringify(scheduled.json)).toBe(200);

    await connectionHealth().sweep();
    await localJobsIdle();

    const card = ((await user.call('/api/articles/unpublished')).json.articles as any[]).find((a) => a._id === id);
    expect(card.health.blog).toMatchObject({ scheduledFor: slot, windows: ['24h'] });
    expect(card.health.blog.problems.map((p: any) => [p.channel, p.code])).toEqual([
      ['wordpress', 'wordpress_wrong_password'],
      ['linkedin', 'linkedin_expires_before_slot'],
    ]);
    expect(card.health.linkedin).toBeUndefined();
  });

  it('a channel’s own version’s slot is checked as the others: its channel, its text rule, its note by version id', async () => {
    const id = (await user.call('/api/articles', { body: { title: 'Own version', topic: 'Health', keyword: 'slots' } }))
      .json.article._id as string;
    await draftedForPublishing(user, id);
    // Bluesky's version, over its 300-grapheme limit, with a slot of its own (`scheduled.<version id>`); Bluesky is not
    // connected.
    const slot = new Date(Date.now() + 4 * 3600_000).toISOString();
    await articleStore(app).update(userId, id, {
      'versions.bluesky': { content: 'word '.repeat(80).trim() },
      'scheduled.bluesky': slot,
    });
    const before = mails().length;

    await connectionHealth().sweep();
    await localJobsIdle();

    const card = ((await user.call('/api/articles/unpublished')).json.articles as any[]).find((a) => a._id === id);
    expect(card.health.bluesky).toMatchObject({ scheduledFor: slot, windows: ['24h'] });
    expect(card.health.bluesky.problems.map((p: any) => [p.channel, p.code, p.fix])).toEqual([
      ['bluesky', 'bluesky_text_too_long', 'editor'],
      ['bluesky', 'bluesky_not_connected', 'settings'],
    ]);
    const mail = mails()
      .slice(before)
      .filter((m) => m.subject.includes('“Own version”'));
    expect(mail).toHaveLength(1);
    expect(mail[0]!.text).toContain('scheduled for Bluesky within the next 24 hours');
    expect(problemEvents().filter((e) => e.articleId === id)).toEqual([
      expect.objectContaining({ platform: 'bluesky', window: '24h' }),
    ]);
  });

  it('a failed read of the settings is no finding: nothing told, and the next sweep checks the slot', async () => {
    const id = (await user.call('/api/articles', { body: { title: 'Read failed', topic: 'Health', keyword: 'slots' } }))
      .json.article._id as string;
    await draftedForPublishing(user, id);
    const slot = new Date(Date.now() + 7 * 3600_000).toISOString();
    await user.call(`/api/articles/${id}/schedule`, { method: 'PUT', body: { platform: 'linkedin', datetime: slot } });
    const before = mails().length;
    const titled = () =>
      mails()
        .slice(before)
        .filter((m) => m.subject.includes('“Read failed”'));

    // The LinkedIn connection's read fails (a throttled table, say): not "LinkedIn is not connected".
    const values = settingService().values.bind(settingService());
    const failing = vi
      .spyOn(settingService(), 'values')
      .mockImplementation(async (owner, keys) =>
        keys.includes('linkedin_access_token')
          ? Promise.reject(new Error('ProvisionedThroughputExceeded'))
          : values(owner, keys),
      );
    try {
      await connectionHealth().sweep();
      await localJobsIdle();
    } finally {
      failing.mockRestore();
    }
    const card = async () =>
      ((await user.call('/api/articles/unpublished')).json.articles as any[]).find((a) => a._id === id);
    expect((await card()).health?.linkedin).toBeUndefined();
    expect(titled()).toHaveLength(0);

    // The read works again: the slot's window was not noted, so this sweep checks it and tells what it finds.
    await connectionHealth().sweep();
    await localJobsIdle();
    expect((await card()).health.linkedin).toMatchObject({ scheduledFor: slot, windows: ['24h'] });
    expect((await card()).health.linkedin.problems.map((p: any) => p.code)).toEqual(['linkedin_expires_before_slot']);
    expect(titled()).toHaveLength(1);
  });
});
