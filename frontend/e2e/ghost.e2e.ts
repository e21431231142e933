/**
 * Ghost end to end against a REAL Ghost (functions/test/channel-servers/ghost/ghost.ts; docs/testing.md, Channel
 * servers): connect it in Settings, create an article with an uploaded picture, see its Ghost preview, publish it
 * from its Ghost row on /schedule, follow "View on Ghost", and read the post back through Ghost's Admin API. Without
 * a Ghost (and without REQUIRE_CHANNEL_SERVERS=1) the journey skips with one line saying why.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { adminToken, GhostAdminKey } from '../../functions/src/channels/ghost/index.js';
import { ghostForTests, type GhostServer } from '../../functions/test/channel-servers/ghost/ghost.js';
import {
  ADA,
  browserAvailable,
  connectGhost,
  createArticleWithDrafts,
  launchBrowser,
  publishNowOn,
  registerOnDashboard,
  removeData,
  scheduleVia,
  snap,
  startApp,
  type RunningApp,
} from './harness.js';
import { onPhone, showTheme } from './viewport.js';
import type { Browser } from 'playwright-core';

const hasBrowser = browserAvailable();

interface AdminPost {
  id: string;
  title: string;
  html: string;
  status: string;
  feature_image: string | null;
  tags: { name: string }[];
  url: string;
}

/** Reads posts straight from the Admin API with the site's key, as a person's Ghost Admin would show them. */
async function adminGet<T>(server: GhostServer, path: string): Promise<T> {
  const token = await adminToken(new GhostAdminKey(server.adminApiKey));
  const res = await fetch(`${server.url}/ghost/api/admin/${path}`, {
    headers: { authorization: `Ghost ${token}`, 'accept-version': 'v6.0' },
  });
  expect(res.status, `${path}: ${res.status}`).toBe(200);
  return (await res.json()) as T;
}

describe.skipIf(!hasBrowser)('Ghost journey (Chromium, a real Ghost)', () => {
  let ghost: GhostServer | undefined;
  let app: RunningApp;
  let browser: Browser;
  const dir = mkdtempSync(join(tmpdir(), 'cp-ghost-e2e-'));

  beforeAll(async () => {
    [ghost, app, browser] = await Promise.all([
      ghostForTests(),
      startApp(undefined, { OPENAI_API_KEY: '' }),
      launchBrowser(),
    ]);
  }, 30 * 60_000);

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    if (app) removeData(app);
    await ghost?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const site = (ctx: TestContext): GhostServer => {
    if (!ghost) ctx.skip();
    return ghost!;
  };

  it('connect Ghost in Settings → article with an uploaded image → its Ghost preview → Publish Now to Ghost → View on Ghost → the post in Ghost', async (ctx) => {
    const server = site(ctx);
    const context = await browser.newContext({ viewport: { width: 1366, height: 900 }, locale: 'en-US' });
    const page = await context.newPage();
    try {
      await registerOnDashboard(page, app, ADA);

      // Settings: a key of the wrong shape is refused at its field, then the real one is tested and saved.
      await page.goto(`${app.url}/settings`);
      const panel = page.getByRole('region', { name: 'Ghost Integration' });
      await panel.getByText(/^Not connected\. Enter/).waitFor();
      await panel.getByLabel('Admin API URL').fill(server.url);
      await panel.getByLabel('Admin API key').fill('not-a-key');
      await panel.getByRole('button', { name: 'Save' }).click();
      await panel.getByText(/This is not a Ghost Admin API key/).waitFor();
      const { tested } = await connectGhost(page, app, { url: server.url, adminApiKey: server.adminApiKey });
      expect(tested).toMatch(/^Connected to Channel tests \(Ghost 6\.\d+\)$/);
      const secret = server.adminApiKey.split(':')[1]!;
      expect(await page.content()).not.toContain(secret);
      expect(await panel.getByLabel('Admin API key').inputValue()).toBe('');
      await snap(page, 'ghost-01-settings-light');

      // An article whose picture is uploaded through the Image step.
      const title = 'Roses on a north wall';
      const id = await createArticleWithDrafts(page, {
        title,
        topic: 'Growing roses where the sun is short',
        keyword: 'shade roses',
        details: 'Which roses take a north wall, and how to feed them.',
        imageDescription: '',
      });
      await page.goto(`${app.url}/create?articleId=${id}`);
      const modal = page.getByRole('dialog', { name: 'Generated Content' });
      // The content step shows the Ghost post beside the WordPress one, Ghost being connected.
      const preview = modal.getByRole('article', { name: 'Ghost post' });
      await preview.getByRole('heading', { level: 1, name: title }).waitFor();
      await snap(page, 'ghost-02-preview-light');
      await modal.getByRole('button', { name: 'Next' }).click();
      const photo = join(dir, 'roses.jpg');
      await sharp({ create: { width: 1600, height: 1000, channels: 3, background: '#be123c' } })
        .jpeg()
        .toFile(photo);
      await modal.getByLabel('Upload image').setInputFiles(photo);
      await modal.getByRole('group', { name: /^Focal point:/ }).waitFor({ timeout: 30_000 });
      await modal.getByRole('button', { name: 'Apply crop' }).click();
      await modal.getByText(/Your picture, cut around/).waitFor({ timeout: 30_000 });

      // Schedule: the blog version scheduled for later, then its Ghost row's Publish Now.
      expect(await scheduleVia(page, id, 'blog', new Date(Date.now() + 86_400_000).toISOString())).toBe(200);
      await page.goto(`${app.url}/schedule`);
      const row = await publishNowOn(page, title, 'Ghost');
      const notice = page.locator('.inline-notice').filter({ hasText: /Ghost/ });
      const noticeLink = notice.getByRole('link', { name: /View on Ghost/ });
      await noticeLink.waitFor({ timeout: 60_000 });
      const rowLink = row.getByRole('link', { name: /View on Ghost/ });
      await rowLink.waitFor();
      const url = await rowLink.getAttribute('href');
      expect(url).toMatch(new RegExp(`^${server.url}/`));
      expect(await noticeLink.getAttribute('href')).toBe(url);
      await expect.poll(async () => (await fetch(url!)).status).toBe(200);
      await snap(page, 'ghost-03-schedule-light');
      await showTheme(page, 'dark');
      await snap(page, 'ghost-04-schedule-dark');
      await onPhone(page, async () => {
        await row.scrollIntoViewIfNeeded();
        await snap(page, 'ghost-05-schedule-phone-dark');
      });
      await showTheme(page, 'light');

      // The post in Ghost: once, with the HTML, the uploaded feature image and the keyword and tags.
      const article = (await page.evaluate(
        async (articleId) => (await (await fetch(`/api/articles/${articleId}`)).json()).article,
        id,
      )) as { posts: { ghost: { id: string; url: string } }; tags: string[] };
      expect(article.posts.ghost.url).toBe(url);
      const { posts } = await adminGet<{ posts: AdminPost[] }>(
        server,
        `posts/?filter=${encodeURIComponent(`title:'${title}'`)}&formats=html&include=tags&limit=all`,
      );
      expect(posts).toHaveLength(1);
      const [post] = posts;
      expect(post!.id).toBe(article.posts.ghost.id);
      expect(post!.status).toBe('published');
      expect(post!.html).toMatch(/<p>/);
      expect(post!.html).not.toMatch(/<script|Offline draft/i);
      expect(post!.feature_image).toMatch(/^https?:\/\//);
      const image = await fetch(post!.feature_image!);
      expect(image.status).toBe(200);
      expect(image.headers.get('content-type')).toMatch(/^image\//);
      const tags = post!.tags.map((t) => t.name.toLowerCase());
      expect(tags[0]).toBe('shade roses');
      for (const tag of article.tags ?? []) expect(tags).toContain(tag.toLowerCase());
    } finally {
      await context.close();
    }
  });
});
