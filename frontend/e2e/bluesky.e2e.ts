/**
 * Bluesky end to end against a REAL PDS (functions/test/channel-servers/atproto/pds.ts; docs/testing.md, Channel
 * servers): connect the account in Settings with an app password, create an article with an uploaded picture, write
 * its Bluesky text (the grapheme counter), see its Bluesky preview, schedule the Bluesky version from its own row on
 * /schedule, let the local scheduler fire, open the approval e-mail's link from the outbox and Approve, and read the
 * record back from the PDS with com.atproto.repo.getRecord: the text, its link and hashtag facets at UTF-8 byte
 * offsets, the image blob with its alt text. Without a PDS (and without REQUIRE_CHANNEL_SERVERS=1) the journey skips
 * with one line saying why.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { graphemeLength, utf8Length } from '@app/shared/channels/bluesky';
import { atprotoPdsOrSkip, type ChannelServer } from '../../functions/test/channel-servers/atproto/pds.js';
import {
  ADA,
  approvalMail,
  browserAvailable,
  connectBluesky,
  createArticleWithDrafts,
  launchBrowser,
  pdsAccount,
  pdsRecord,
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

/** The UTF-8 byte range of `piece` in `text` (its first occurrence), as a facet's index names it. */
function byteRange(text: string, piece: string) {
  const at = text.indexOf(piece);
  expect(at).toBeGreaterThanOrEqual(0);
  const byteStart = utf8Length(text.slice(0, at));
  return { byteStart, byteEnd: byteStart + utf8Length(piece) };
}

describe.skipIf(!hasBrowser)('Bluesky journey (Chromium, a real PDS)', () => {
  let pds: ChannelServer | undefined;
  let app: RunningApp;
  let browser: Browser;
  const dir = mkdtempSync(join(tmpdir(), 'cp-bluesky-e2e-'));

  beforeAll(async () => {
    [pds, app, browser] = await Promise.all([
      atprotoPdsOrSkip(),
      startApp(undefined, { OPENAI_API_KEY: '' }),
      launchBrowser(),
    ]);
  }, 30 * 60_000);

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    if (app) removeData(app);
    await pds?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const server = (ctx: TestContext): ChannelServer => {
    if (!pds) ctx.skip();
    return pds!;
  };

  it('connect Bluesky in Settings → article with an uploaded image → its Bluesky text and preview → its own schedule → the approval e-mail → Approve → the record on the PDS', async (ctx) => {
    const host = server(ctx);
    const who = await pdsAccount(host, `rose${Date.now().toString(36)}`);
    const context = await browser.newContext({ viewport: { width: 1366, height: 900 }, locale: 'en-US' });
    const page = await context.newPage();
    try {
      await registerOnDashboard(page, app, ADA);

      // Settings: where an app password is made, then handle, app password and the PDS's address, saved after the
      // server signed in with them.
      await page.goto(`${app.url}/settings`);
      await page
        .getByRole('region', { name: 'Bluesky Integration' })
        .getByText(/Privacy and security → App passwords/)
        .waitFor();
      const panel = await connectBluesky(page, app, who, host.url);
      expect(await page.content()).not.toContain(who.appPassword);
      expect(await panel.getByLabel('App password').inputValue()).toBe('');
      await panel.scrollIntoViewIfNeeded();
      await snap(page, 'bluesky-01-settings-light');

      // An article; its Bluesky text written on the content step, counted in graphemes.
      const title = 'Roses on a north wall';
      const id = await createArticleWithDrafts(page, {
        title,
        topic: 'Growing roses where the sun is short',
        keyword: 'shade roses',
        details: 'Which roses take a north wall, and how to feed them.',
        imageDescription: 'Red roses climbing a brick wall',
      });
      await page.goto(`${app.url}/create?articleId=${id}`);
      const modal = page.getByRole('dialog', { name: 'Generated Content' });
      const editor = modal.getByRole('region', { name: 'Bluesky Post', exact: true });
      const text = `Roses 🌹 for a shady wall 👨‍👩‍👧: https://roses.example.com/north-wall. #gardening #roses`;
      await editor.getByLabel('Bluesky text').fill(text);
      const counter = editor.getByTestId('bluesky-counter');
      await expect.poll(() => counter.textContent()).toBe(`${graphemeLength(text)} / 300`);
      expect(graphemeLength(text)).toBeLessThan(text.length);
      await editor.getByText('Saved', { exact: true }).waitFor({ timeout: 30_000 });
      const preview = modal.getByRole('article', { name: 'Bluesky post' });
      await preview.getByRole('link', { name: '#gardening' }).waitFor();
      await preview.getByText(`@${who.handle}`).waitFor();
      await editor.scrollIntoViewIfNeeded();
      await snap(page, 'bluesky-02-editor-light');

      // The picture, uploaded through the Image step.
      await modal.getByRole('button', { name: 'Next' }).click();
      const photo = join(dir, 'roses.jpg');
      await sharp({ create: { width: 1600, height: 1000, channels: 3, background: '#be123c' } })
        .jpeg()
        .toFile(photo);
      await modal.getByLabel('Upload image').setInputFiles(photo);
      await modal.getByRole('group', { name: /^Focal point:/ }).waitFor({ timeout: 30_000 });
      await modal.getByRole('button', { name: 'Apply crop' }).click();
      await modal.getByText(/Your picture, cut around/).waitFor({ timeout: 30_000 });

      // Schedule: the Bluesky version at its own time, from its own row's Schedule modal.
      await page.goto(`${app.url}/schedule`);
      const card = page.getByRole('article', { name: title });
      const row = card.getByRole('region', { name: 'Bluesky' });
      await row.getByText('Not Scheduled', { exact: true }).waitFor();
      await row.getByRole('button', { name: 'Schedule Bluesky' }).click();
      const scheduling = page.getByRole('dialog', { name: 'Schedule Bluesky' });
      await scheduling.getByText(/The Bluesky version goes out at this time\./).waitFor();
      await snap(page, 'bluesky-03-schedule-modal-light');
      await scheduling.getByRole('button', { name: 'Schedule', exact: true }).click();
      await scheduling.waitFor({ state: 'detached' });
      await row.getByText(/^Scheduled for /).waitFor();
      // The blog version is not scheduled by it.
      await card.getByRole('region', { name: 'Blog' }).getByText('Not Scheduled', { exact: true }).waitFor();
      await row.scrollIntoViewIfNeeded();
      await snap(page, 'bluesky-04-schedule-light');
      await showTheme(page, 'dark');
      await snap(page, 'bluesky-05-schedule-dark');
      await onPhone(page, async () => {
        await row.scrollIntoViewIfNeeded();
        await snap(page, 'bluesky-06-schedule-phone-dark');
      });
      await showTheme(page, 'light');

      // Moved to now (the API, as the Schedule page sends it), the local scheduler fires: the approval e-mail.
      expect(await scheduleVia(page, id, 'bluesky', new Date().toISOString())).toBe(200);
      const { mail, approveUrl } = await approvalMail(app, title);
      expect(mail.subject).toBe(`Approve for Bluesky: ${title}`);
      expect(mail.text).toContain(text);

      // Approve: the page shows the Bluesky post, and its button publishes it.
      await page.goto(approveUrl);
      await page.getByRole('heading', { name: `Publish “${title}” to Bluesky?` }).waitFor();
      await page.getByRole('article', { name: 'Bluesky post' }).getByRole('link', { name: '#gardening' }).waitFor();
      await snap(page, 'bluesky-07-approve-light');
      await page.getByRole('button', { name: 'Approve and publish to Bluesky' }).click();
      const status = page.getByRole('status').filter({ hasText: 'Published to Bluesky.' });
      await status.waitFor({ timeout: 60_000 });
      const done = status.getByRole('link', { name: 'View the post' });
      const url = await done.getAttribute('href');
      expect(url).toMatch(new RegExp(`^https://bsky\\.app/profile/${who.did}/post/[a-z2-7]{13}$`));
      await snap(page, 'bluesky-08-approved-light');

      // The record on the PDS: the text, its facets at UTF-8 byte offsets, the uploaded picture with its alt text.
      const stored = (await page.evaluate(
        async (articleId) => (await (await fetch(`/api/articles/${articleId}`)).json()).article,
        id,
      )) as { posts: { bluesky: { id: string; url: string } } };
      expect(stored.posts.bluesky.url).toBe(url);
      const [, repo, , rkey] = /^at:\/\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(stored.posts.bluesky.id)!;
      expect(repo).toBe(who.did);
      expect(url!.endsWith(`/post/${rkey}`)).toBe(true);
      const record = await pdsRecord(host, stored.posts.bluesky.id);
      expect(record.status).toBe(200);
      const post = record.json.value;
      expect(post.text).toBe(text);
      expect(post.facets).toEqual(
        expect.arrayContaining([
          {
            index: byteRange(text, 'https://roses.example.com/north-wall'),
            features: [{ $type: 'app.bsky.richtext.facet#link', uri: 'https://roses.example.com/north-wall' }],
          },
          {
            index: byteRange(text, '#gardening'),
            features: [{ $type: 'app.bsky.richtext.facet#tag', tag: 'gardening' }],
          },
          { index: byteRange(text, '#roses'), features: [{ $type: 'app.bsky.richtext.facet#tag', tag: 'roses' }] },
        ]),
      );
      expect(post.facets).toHaveLength(3);
      expect(post.embed.$type).toBe('app.bsky.embed.images');
      const [image] = post.embed.images;
      expect(image.alt).toBe('Red roses climbing a brick wall');
      expect(image.image).toMatchObject({ $type: 'blob', mimeType: expect.stringMatching(/^image\//) });
      const blob = await fetch(
        `${host.url}/xrpc/com.atproto.sync.getBlob?did=${encodeURIComponent(who.did)}&cid=${image.image.ref.$link}`,
      );
      expect(blob.status).toBe(200);
      expect((await blob.arrayBuffer()).byteLength).toBe(image.image.size);
    } finally {
      await context.close();
    }
  });
});
