import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALENDAR_MAX_DAYS, CalendarMessages } from '@app/shared';
import { FAKE_WP_EDITOR, startFakeWordPress, type FakeWordPress } from './fakes/wordpress.js';
import { approvalMail } from './helpers/scheduled.js';
import { Client, articleStore, draftedForPublishing, registration, startTestApp, type TestApp } from './helpers/app.js';
import { settingService } from '../src/wiring/settings.js';

/** GET /api/calendar (docs/product.md, Calendar): the owner's entries in a range, through the real stack. */
let app: TestApp;
let wp: FakeWordPress;
let owner: Client;
let stranger: Client;

const HOUR = 3600_000;
const DAY = 24 * HOUR;

async function newArticle(client: Client, title: string) {
  const id = (await client.call('/api/articles', { body: { title, topic: 'Calendars', keyword: 'calendar' } })).json
    .article._id as string;
  await draftedForPublishing(client, id);
  return id;
}
const schedule = (client: Client, id: string, platform: string, datetime: string) =>
  client.call(`/api/articles/${id}/schedule`, { method: 'PUT', body: { platform, datetime } });
const calendar = (client: Client, from: string, to: string) =>
  client.call(`/api/calendar?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`);

beforeAll(async () => {
  wp = await startFakeWordPress();
  app = await startTestApp();
  owner = new Client(app.url);
  stranger = new Client(app.url);
  await owner.call('/api/auth/register', { body: registration({ email: 'calendar-owner@example.com' }) });
  // Later accounts wait for the admin (the first one) to activate them.
  await stranger.call('/api/auth/register', { body: registration({ email: 'calendar-stranger@example.com' }) });
  const strangerId = (await owner.call('/api/admin/users')).json.users.find(
    (u: { email: string }) => u.email === 'calendar-stranger@example.com',
  )._id as string;
  await owner.call(`/api/admin/users/${strangerId}/status`, { method: 'PATCH', body: { isActive: true } });
  await stranger.call('/api/auth/login', {
    body: { email: 'calendar-stranger@example.com', password: registration().password },
  });
  await owner.call('/api/wordpress/credentials', {
    body: { siteUrl: wp.url, username: FAKE_WP_EDITOR.username, appPassword: FAKE_WP_EDITOR.appPassword },
  });
});
afterAll(async () => {
  await app?.stop();
  await wp?.stop();
});

describe('GET /api/calendar', () => {
  it('answers each platform at its scheduled time, follows a reschedule and a publish, with status, title and URL', async () => {
    const id = await newArticle(owner, 'On the calendar');
    const start = new Date(Math.ceil((Date.now() + DAY) / HOUR) * HOUR);
    const blogAt = new Date(start.getTime() + 2 * DAY).toISOString();
    const linkedinAt = new Date(start.getTime() + 3 * DAY).toISOString();
    expect((await schedule(owner, id, 'blog', blogAt)).status).toBe(200);
    expect((await schedule(owner, id, 'linkedin', linkedinAt)).status).toBe(200);
    const from = start.toISOString();
    const to = new Date(start.getTime() + 7 * DAY).toISOString();

    const first = await calendar(owner, from, to);
    expect(first.status).toBe(200);
    expect(first.json.from).toBe(from);
    expect(first.json.entries).toEqual([
      {
        articleId: id,
        platform: 'blog',
        version: 'blog',
        at: blogAt,
        kind: 'scheduled',
        status: 'scheduled',
        title: 'On the calendar',
        url: null,
        channel: 'wordpress',
      },
      {
        articleId: id,
        platform: 'linkedin',
        version: 'linkedin',
        at: linkedinAt,
        kind: 'scheduled',
        status: 'scheduled',
        title: 'On the calendar',
        url: null,
        channel: 'linkedin',
      },
    ]);
    // The article itself, for the card actions.
    expect(first.json.articles.map((a: { _id: string }) => a._id)).toEqual([id]);
    expect(first.json.articles[0].scheduled).toEqual({ blog: blogAt, linkedin: linkedinAt });

    // Moved out of the range: gone from it, found in the next one.
    const later = new Date(start.getTime() + 9 * DAY).toISOString();
    expect((await schedule(owner, id, 'linkedin', later)).status).toBe(200);
    expect((await calendar(owner, from, to)).json.entries.map((e: { platform: string }) => e.platform)).toEqual([
      'blog',
    ]);
    expect((await calendar(owner, to, new Date(start.getTime() + 14 * DAY).toISOString())).json.entries).toEqual([
      expect.objectContaining({ articleId: id, platform: 'linkedin', at: later }),
    ]);

    // Published now: the blog entry moves from its schedule to the publication time, with the post's URL.
    const published = await owner.call(`/api/wordpress/publish/${id}`, { method: 'POST' });
    expect(published.status).toBe(200);
    const now = Date.now();
    const around = await calendar(owner, new Date(now - DAY).toISOString(), new Date(now + 7 * DAY).toISOString());
    const blog = around.json.entries.filter((e: { articleId: string }) => e.articleId === id);
    expect(blog).toEqual([
      expect.objectContaining({
        platform: 'blog',
        kind: 'published',
        status: 'published',
        url: published.json.post.link,
        channel: 'wordpress',
      }),
    ]);
    expect(Math.abs(Date.parse(blog[0].at) - now)).toBeLessThan(60_000);
  });

  it('answers a post of a channel of `posts` (Ghost only) as a published entry of that channel', async () => {
    const id = await newArticle(owner, 'Ghost only');
    const ownerId = (await owner.call('/api/auth/me')).json.user._id;
    const at = new Date(Math.floor(Date.now() / 1000) * 1000 - HOUR).toISOString();
    const post = { id: 'g1', url: 'https://ghost.example/ghost-only/', publishedAt: at };
    // As the Ghost channel records its post (functions/src/channels/ghost/channel.ts).
    await articleStore(app).update(ownerId, id, { posts: { ghost: post } });
    const around = await calendar(
      owner,
      new Date(Date.now() - DAY).toISOString(),
      new Date(Date.now() + DAY).toISOString(),
    );
    expect(around.json.entries.filter((e: { articleId: string }) => e.articleId === id)).toEqual([
      {
        articleId: id,
        platform: 'blog',
        version: 'blog',
        at,
        kind: 'published',
        status: 'published',
        title: 'Ghost only',
        url: post.url,
        channel: 'ghost',
      },
    ]);
  });

  it("a Bluesky post is Bluesky's own version's entry; a scheduled blog version has an entry per channel it publishes to", async () => {
    const id = await newArticle(owner, 'Every channel');
    const ownerId = (await owner.call('/api/auth/me')).json.user._id;
    const postedAt = new Date(Math.floor(Date.now() / 1000) * 1000 - HOUR).toISOString();
    const skeet = {
      id: 'at://did:plc:x/app.bsky.feed.post/1',
      url: 'https://bsky.app/profile/x/post/1',
      publishedAt: postedAt,
    };
    // As the Bluesky channel records its post (functions/src/channels/bluesky/channel.ts).
    await articleStore(app).update(ownerId, id, { posts: { bluesky: skeet } });
    // Ghost connected beside WordPress: the blog version's schedule publishes to both (scheduled-channels-api).
    // Saved as the Ghost panel saves them (functions/src/channels/ghost/channel.ts), without a Ghost site to check.
    await settingService().put(ownerId, 'ghost_site_url', 'https://calendar-ghost.example.test', 'Ghost site');
    await settingService().put(ownerId, 'ghost_admin_api_key', `${'a'.repeat(24)}:${'b'.repeat(64)}`, 'Ghost key');
    try {
      const blogAt = new Date(Math.ceil((Date.now() + 2 * DAY) / HOUR) * HOUR).toISOString();
      expect((await schedule(owner, id, 'blog', blogAt)).status).toBe(200);

      const entries = (
        await calendar(owner, new Date(Date.now() - DAY).toISOString(), new Date(Date.now() + 4 * DAY).toISOString())
      ).json.entries.filter((e: { articleId: string }) => e.articleId === id);
      const common = { articleId: id, title: 'Every channel', platform: 'blog' };
      expect(entries).toEqual([
        {
          ...common,
          version: 'bluesky',
          channel: 'bluesky',
          at: postedAt,
          kind: 'published',
          status: 'published',
          url: skeet.url,
        },
        {
          ...common,
          version: 'blog',
          channel: 'wordpress',
          at: blogAt,
          kind: 'scheduled',
          status: 'scheduled',
          url: null,
        },
        { ...common, version: 'blog', channel: 'ghost', at: blogAt, kind: 'scheduled', status: 'scheduled', url: null },
      ]);

      // Dragging Ghost's item moves the schedule it follows (the blog version's): both its entries move.
      const movedAt = new Date(Date.parse(blogAt) + DAY).toISOString();
      expect((await schedule(owner, id, entries[2].platform, movedAt)).status).toBe(200);
      const after = (
        await calendar(owner, new Date(Date.now() - DAY).toISOString(), new Date(Date.now() + 4 * DAY).toISOString())
      ).json.entries.filter((e: { articleId: string; kind: string }) => e.articleId === id && e.kind === 'scheduled');
      expect(after.map((e: { channel: string; at: string }) => [e.channel, e.at])).toEqual([
        ['wordpress', movedAt],
        ['ghost', movedAt],
      ]);
    } finally {
      for (const key of ['ghost_site_url', 'ghost_admin_api_key']) await settingService().remove(ownerId, key);
    }
  });

  it("an article for some channels only (a Sheets import's Channels column): the calendar and the approval e-mail name those only", async () => {
    const id = await newArticle(owner, 'Only on the second blog');
    const ownerId = (await owner.call('/api/auth/me')).json.user._id;
    // As a Sheets import row naming that channel stores it (domain/sheets-import.ts).
    await articleStore(app).update(ownerId, id, { channels: ['ghost'] });
    await settingService().put(ownerId, 'ghost_site_url', 'https://calendar-ghost.example.test', 'Ghost site');
    await settingService().put(ownerId, 'ghost_admin_api_key', `${'a'.repeat(24)}:${'b'.repeat(64)}`, 'Ghost key');
    try {
      const at = new Date(Date.now() + 600).toISOString();
      expect((await schedule(owner, id, 'blog', at)).status).toBe(200);
      const entries = (
        await calendar(owner, new Date(Date.now() - DAY).toISOString(), new Date(Date.now() + DAY).toISOString())
      ).json.entries.filter((e: { articleId: string }) => e.articleId === id);
      expect(entries.map((e: { channel: string }) => e.channel)).toEqual(['ghost']);
      // WordPress is connected too, yet the approval publishes to the article's channel only, and says so.
      const mail = await approvalMail(app, 'Only on the second blog');
      expect(mail.text).toContain('Approving publishes to Ghost.');
    } finally {
      for (const key of ['ghost_site_url', 'ghost_admin_api_key']) await settingService().remove(ownerId, key);
    }
  });

  it("never answers another user's entries", async () => {
    const id = await newArticle(owner, 'Mine only');
    const at = new Date(Date.now() + 5 * DAY).toISOString();
    await schedule(owner, id, 'blog', at);
    const from = new Date(Date.now() + 4 * DAY).toISOString();
    const to = new Date(Date.now() + 6 * DAY).toISOString();
    expect((await calendar(owner, from, to)).json.entries.map((e: { articleId: string }) => e.articleId)).toContain(id);
    const theirs = await calendar(stranger, from, to);
    expect(theirs.status).toBe(200);
    expect(theirs.json).toEqual({ from, to, entries: [], articles: [] });
    // Nor may they move it: the schedule call answers 404 for another user's article.
    expect((await schedule(stranger, id, 'blog', new Date(Date.now() + 8 * DAY).toISOString())).status).toBe(404);
  });

  it('answers 400 with a clear message to a missing, malformed, reversed or too long range, and 401 signed out', async () => {
    const from = '2030-03-01T00:00:00.000Z';
    const cases: [string, string][] = [
      [`/api/calendar?from=${from}`, CalendarMessages.invalidTo],
      [`/api/calendar?from=yesterday&to=${from}`, CalendarMessages.invalidFrom],
      [`/api/calendar?from=${from}&to=2030-13-45`, CalendarMessages.invalidTo],
      [`/api/calendar?from=${from}&to=${from}`, CalendarMessages.order],
      [`/api/calendar?from=2030-03-02T00:00:00.000Z&to=${from}`, CalendarMessages.order],
      [
        `/api/calendar?from=${from}&to=${new Date(Date.parse(from) + (CALENDAR_MAX_DAYS + 1) * DAY).toISOString()}`,
        CalendarMessages.tooLong,
      ],
    ];
    for (const [path, message] of cases) {
      const res = await owner.call(path);
      expect(res.status, path).toBe(400);
      expect(res.json.message, path).toBe(message);
    }
    const longest = await owner.call(
      `/api/calendar?from=${from}&to=${new Date(Date.parse(from) + CALENDAR_MAX_DAYS * DAY).toISOString()}`,
    );
    expect(longest.status).toBe(200);
    expect((await new Client(app.url).call(`/api/calendar?from=${from}&to=2030-03-08T00:00:00.000Z`)).status).toBe(401);
  });

  it('a drag to a past time is refused by the schedule call with its message, and the entry stays', async () => {
    const id = await newArticle(owner, 'Not into the past');
    const at = new Date(Date.now() + 2 * DAY).toISOString();
    await schedule(owner, id, 'blog', at);
    const past = await schedule(owner, id, 'blog', new Date(Date.now() - DAY).toISOString());
    expect(past.status).toBe(400);
    expect(past.json.message).toBe('Please choose a future date and time.');
    const entries = (
      await calendar(owner, new Date(Date.now() - 2 * DAY).toISOString(), new Date(Date.now() + 3 * DAY).toISOString())
    ).json.entries.filter((e: { articleId: string }) => e.articleId === id);
    expect(entries).toEqual([expect.objectContaining({ platform: 'blog', at })]);
  });
});
