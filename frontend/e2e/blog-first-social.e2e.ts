/**
 * The blog-first bundle with two social posts: WordPress (fake), LinkedIn (fake) and Bluesky on a REAL PDS
 * (functions/test/channel-servers/atproto/pds.ts). One approval e-mail previews the three posts; the /approve page
 * shows the LinkedIn and Bluesky cards beside the blog post; approving publishes WordPress first, then Bluesky with a
 * link card to the live post (read back with getRecord) while LinkedIn is down; the Schedule card shows each channel's
 * state, and its Retry LinkedIn posts LinkedIn alone as an article share of the live post. Deterministic: the local
 * scheduler runs the bundle at once, the outbox is polled, nothing sleeps. Without a PDS (and without
 * REQUIRE_CHANNEL_SERVERS=1) the journey skips with one line saying why.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { atprotoPdsOrSkip, type ChannelServer } from '../../functions/test/channel-servers/atproto/pds.js';
import {
  ADA,
  approvalMail,
  browserAvailable,
  callApi,
  connectBluesky,
  connectLinkedIn,
  connectWordPress,
  createArticleWithDrafts,
  pdsAccount,
  pdsRecord,
  registerOnDashboard,
  scheduleVia,
  snap,
  withAppAndFakeWordPressAndLinkedIn,
  xrpc,
} from './harness.js';
import { onPhone, showTheme } from './viewport.js';

const hasBrowser = browserAvailable();

/** Light and dark, at the page's size and on a phone, for a person to look at; the page is left light. */
async function snapThemes(page: Page, name: string): Promise<void> {
  for (const theme of ['light', 'dark'] as const) {
    await showTheme(page, theme);
    await snap(page, `${name}-${theme}`);
    await onPhone(page, () => snap(page, `${name}-phone-${theme}`));
  }
  await showTheme(page, 'light');
}

describe.skipIf(!hasBrowser)('the blog-first bundle with LinkedIn and Bluesky (Chromium, fakes, a real PDS)', () => {
  let pds: ChannelServer | undefined;
  // The PDS starts (or its first install runs) while the app and the fakes start.
  let pdsStarting: Promise<ChannelServer | undefined>;
  beforeAll(() => {
    pdsStarting = atprotoPdsOrSkip();
    // Its failure is reported where it is awaited, below, not as a rejection nobody handled meanwhile.
    pdsStarting.catch(() => undefined);
  });
  const journey = withAppAndFakeWordPressAndLinkedIn();
  beforeAll(async () => {
    pds = await pdsStarting;
  }, 30 * 60_000);
  afterAll(async () => {
    // Also when the app did not start and the PDS was never awaited.
    pds ??= await pdsStarting?.catch(() => undefined);
    await pds?.stop();
  });

  const server = (ctx: TestContext): ChannelServer => {
    if (!pds) ctx.skip();
    return pds!;
  };

  it('one e-mail previews the three posts → /approve shows them → WordPress, then Bluesky with the link card; LinkedIn failed → the card’s Retry LinkedIn shares the live post', async (ctx) => {
    const host = server(ctx);
    const who = await pdsAccount(host, `bundle${Date.now().toString(36)}`);
    const { app, browser, wp, li } = journey;
    const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1366, height: 900 } });
    const page = await context.newPage();
    try {
      await registerOnDashboard(page, app, ADA);
      await connectWordPress(page, wp);
      await connectLinkedIn(page, li);
      await connectBluesky(page, app, who, host.url);

      const title = 'Blog first, then LinkedIn and Bluesky';
      const id = await createArticleWithDrafts(page, {
        title,
        topic: 'Why the social posts wait for the blog post',
        keyword: 'blog first',
        details: 'The social posts link to the live article.',
        imageDescription: '',
      });
      const blueskyText = 'The long read is out 🌱 #blogfirst';
      const saved = await page.evaluate(
        async ({ id, content }) =>
          (
            await fetch(`/api/articles/${id}/versions/bluesky`, {
              method: 'PUT',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ content }),
            })
          ).status,
        { id, content: blueskyText },
      );
      expect(saved).toBe(200);

      // The bundle, due now: the local scheduler runs it at once and e-mails one approval.
      const scheduled = await scheduleVia(page, id, 'blog', new Date().toISOString(), { bundle: true });
      expect(scheduled).toBe(200);
      const { mail, approveUrl } = await approvalMail(app, title);
      expect(mail.text).toContain('Approving publishes to WordPress, LinkedIn and Bluesky.');
      expect([...(mail.html ?? '').matchAll(/>What will be published on ([^<]+)</g)].map((m) => m[1])).toEqual([
        'WordPress',
        'LinkedIn',
        'Bluesky',
      ]);
      expect(mail.text).toContain(blueskyText);
      // The e-mail as a person sees it (its HTML as the outbox wrote it, the inline picture aside).
      const mailPage = await context.newPage();
      await mailPage.setContent(mail.html ?? '');
      await snap(mailPage, 'bundle-01-email', { fullPage: true });
      await mailPage.setViewportSize({ width: 390, height: 844 });
      await snap(mailPage, 'bundle-02-email-phone', { fullPage: true });
      await mailPage.close();
      // /approve: the blog post, and beside it the LinkedIn and Bluesky cards.
      await page.goto(approveUrl);
      await page.getByRole('heading', { name: `Publish “${title}” to WordPress, LinkedIn and Bluesky?` }).waitFor();
      await page.getByRole('article', { name: 'WordPress post' }).waitFor();
      await page.getByRole('article', { name: 'LinkedIn post' }).waitFor();
      const blueskyCard = page.getByRole('article', { name: 'Bluesky post' });
      await blueskyCard.getByText(/The long read is out/).waitFor();
      await page.locator('#approve-title').scrollIntoViewIfNeeded();
      await snapThemes(page, 'bundle-03-approve');

      // LinkedIn is down: WordPress, then Bluesky go out; LinkedIn fails.
      li.setMode('down');
      await page.getByRole('button', { name: 'Approve and publish to WordPress, LinkedIn and Bluesky' }).click();
      const failure = page.getByRole('alert');
      await failure.waitFor({ timeout: 60_000 });
      expect(await failure.textContent()).toMatch(/^Published to WordPress and Bluesky\. LinkedIn failed: /);
      expect(wp.posts).toHaveLength(1);
      expect(li.posts).toHaveLength(0);
      const article = (await callApi(page, `/api/articles/${id}`)).json.article;
      const blogUrl = article.blog.wordpressPostUrl as string;
      expect(blogUrl).toMatch(new RegExp(`^${wp.url}/`));

      // The Bluesky post on the PDS: its text, and the live blog post as its link card.
      const record = await pdsRecord(host, article.posts.bluesky.id);
      expect(record.status).toBe(200);
      expect(record.json.value.text).toBe(blueskyText);
      expect(record.json.value.embed).toMatchObject({
        $type: 'app.bsky.embed.external',
        external: { uri: blogUrl, title },
      });

      // /schedule: a badge per channel; LinkedIn's reason and its own retry.
      await page.goto(`${app.url}/schedule`);
      const card = page.getByRole('article', { name: title });
      const linkedin = card.getByRole('region', { name: 'LinkedIn' });
      await linkedin.getByText('Failed', { exact: true }).waitFor();
      await linkedin.getByText(/^LinkedIn failed: /).waitFor();
      await card.getByRole('region', { name: 'Blog' }).getByText('Published', { exact: true }).waitFor();
      // Bluesky's row is its own version's (as LinkedIn's): its badge reads as theirs do.
      await card.getByRole('region', { name: 'Bluesky' }).getByText('Published', { exact: true }).waitFor();
      await card.scrollIntoViewIfNeeded();
      await snapThemes(page, 'bundle-04-schedule-card');

      li.setMode('ok');
      await linkedin.getByRole('button', { name: 'Retry LinkedIn' }).click();
      await page
        .getByRole('dialog', { name: 'Publish to LinkedIn now?' })
        .getByRole('button', { name: 'Confirm' })
        .click();
      await page.getByRole('status').filter({ hasText: 'Successfully published to LinkedIn!' }).waitFor();
      expect(li.posts).toHaveLength(1);
      expect(li.posts[0]!.body.content).toEqual({
        article: { source: blogUrl, title, description: 'Why the social posts wait for the blog post' },
      });
      // Neither the blog post nor the Bluesky post went out again.
      expect(wp.posts).toHaveLength(1);
      const posts = await xrpc(host, 'com.atproto.repo.listRecords', {
        query: { repo: who.did, collection: 'app.bsky.feed.post' },
      });
      expect(posts.json.records).toHaveLength(1);
      expect((await callApi(page, `/api/articles/${id}`)).json.article.lastError).toBeNull();
    } finally {
      await context.close();
    }
  });
});
