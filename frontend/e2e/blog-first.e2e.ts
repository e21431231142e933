/**
 * The blog-first bundle in the browser, on the local app with the fake WordPress and LinkedIn: the blog version's
 * Schedule modal takes the "Blog first" choice, the scheduler's run e-mails one approval link, and approving it
 * publishes WordPress first and then LinkedIn with the live post's address; LinkedIn failing is retried alone by
 * the same link (functions/src/domain/scheduling.ts, ApprovalLinks.confirmApproval; functions/test/bundle-api.test.ts).
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLinkedIn, type FakeLinkedIn } from '../../functions/test/fakes/linkedin.js';
import { startFakeWordPress, type FakeWordPress } from '../../functions/test/fakes/wordpress.js';
import {
  ADA,
  browserAvailable,
  callApi,
  connectLinkedIn,
  connectWordPress,
  createArticleWithDrafts,
  launchBrowser,
  outbox,
  registerOnDashboard,
  removeData,
  startApp,
  type RunningApp,
} from './harness.js';

const hasBrowser = browserAvailable();

describe.skipIf(!hasBrowser)('the blog-first bundle (Chromium, fake WordPress and LinkedIn, local outbox)', () => {
  let app: RunningApp;
  let browser: Browser;
  let wp: FakeWordPress;
  let li: FakeLinkedIn;

  beforeAll(async () => {
    [wp, li, browser] = await Promise.all([startFakeWordPress(), startFakeLinkedIn(), launchBrowser()]);
    app = await startApp(undefined, {
      OPENAI_API_KEY: '',
      LINKEDIN_OAUTH_URL: li.oauthUrl,
      LINKEDIN_API_URL: li.apiUrl,
      ALLOW_PRIVATE_URLS: '1',
    });
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    if (app) removeData(app);
    await Promise.all([wp?.stop(), li?.stop()]);
  });

  it('Blog first in the modal → one approval e-mail → WordPress published, LinkedIn failed → the link again posts LinkedIn only, with the post’s URL', async () => {
    const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await registerOnDashboard(page, app, ADA);
    await connectWordPress(page, wp);
    await connectLinkedIn(page, li);

    const title = 'Blog first, then the social posts';
    const id = await createArticleWithDrafts(page, {
      title,
      topic: 'Why the blog post goes out before its LinkedIn post',
      keyword: 'blog first',
      details: 'The LinkedIn post links to the live article.',
      imageDescription: '',
    });
    const drafted = (await callApi(page, `/api/articles/${id}`)).json.article;
    expect(drafted.blog.content).not.toBe('');
    expect(drafted.linkedin.content).not.toBe('');

    // /schedule: the blog version's own Schedule button; the modal's Blog first choice, at its default time (an
    // hour ahead on a 5-minute step, whatever today is).
    const puts: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'PUT' && /\/schedule$/.test(r.url())) puts.push(r.postData() ?? '');
    });
    await page.goto(`${app.url}/schedule`);
    const card = page.getByRole('article', { name: title });
    await card
      .getByRole('region', { name: 'Blog' })
      .getByRole('button', { name: /^Schedule/ })
      .click();
    const dialog = page.getByRole('dialog', { name: /^Schedule/ });
    await dialog.waitFor();
    const choice = dialog.getByRole('checkbox', { name: /^Blog first: the social posts wait for the blog post/ });
    expect(await choice.isChecked()).toBe(false);
    await choice.check();
    await dialog.getByRole('button', { name: 'Schedule', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    // One schedule, of the blog version, carrying the social posts.
    expect(puts.map((body) => JSON.parse(body))).toMatchObject([{ platform: 'blog', bundle: true }]);
    const scheduled = (await callApi(page, `/api/articles/${id}`)).json.article;
    expect(scheduled.bundle).toBe(true);

    // Rather than wait an hour, the bundle is moved to now through the API (the same PUT, bundle kept), as
    // scheduling.e2e.ts moves its schedule; the local scheduler then runs it at once.
    const moved = await page.evaluate(
      async ({ id, datetime }) =>
        (
          await fetch(`/api/articles/${id}/schedule`, {
            method: 'PUT',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ platform: 'blog', datetime, bundle: true }),
          })
        ).status,
      { id, datetime: new Date().toISOString() },
    );
    expect(moved).toBe(200);

    // The run e-mails one approval for WordPress and LinkedIn.
    const approvals = () => outbox(app).filter((m) => m.subject?.endsWith(`: ${title}`));
    await expect.poll(() => approvals().length, { timeout: 20_000, interval: 250 }).toBe(1);
    const mail = approvals()[0]!;
    expect(mail.text).toContain('Approving publishes to WordPress and LinkedIn.');
    const approveUrl = /(http:\/\/\S+\/approve\?token=\S+)/.exec(mail.text ?? '')?.[1];
    expect(approveUrl, mail.text).toBeTruthy();
    expect(wp.posts).toHaveLength(0);
    expect(li.posts).toHaveLength(0);

    // LinkedIn is down for the first approval (the fake's 'down' mode, as bundle-api.test.ts provokes it).
    li.setMode('down');
    await page.goto(approveUrl!);
    await page.getByRole('heading', { name: `Publish “${title}” to WordPress and LinkedIn?` }).waitFor();
    await page.getByRole('button', { name: 'Approve and publish to WordPress and LinkedIn' }).click();
    const failure = page.getByRole('alert');
    await failure.waitFor();
    expect(await failure.textContent()).toMatch(/^Published to WordPress\. LinkedIn failed: /);
    expect(await failure.textContent()).toMatch(/retry LinkedIn only; WordPress is not posted again\.$/);
    expect(wp.posts).toHaveLength(1);
    expect(wp.posts[0]!.status).toBe('publish');
    expect(li.posts).toHaveLength(0);
    const blogUrl = (await callApi(page, `/api/articles/${id}`)).json.article.blog.wordpressPostUrl as string;
    expect(blogUrl).toMatch(new RegExp(`^${wp.url}/`));
    const wpWrites = () => wp.requests.filter((r) => r.method !== 'GET' && /^\/wp\/v2\/posts/.test(r.route ?? ''));
    const writesAfterFirst = wpWrites().length;

    // LinkedIn is back; the same link again approves LinkedIn alone, as its button says.
    li.setMode('ok');
    await page.goto(approveUrl!);
    await page.getByRole('heading', { name: `Publish “${title}” to WordPress and LinkedIn?` }).waitFor();
    await page.getByRole('button', { name: 'Retry LinkedIn' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /^Published to WordPress and LinkedIn\./ })
      .waitFor();
    expect(li.posts).toHaveLength(1);
    // An article share of the live blog post.
    expect(li.posts[0]!.body.content.article).toMatchObject({ source: blogUrl, title });
    expect(li.posts[0]!.body.commentary).not.toContain(blogUrl);
    // WordPress: still the one post, neither made again nor updated.
    expect(wp.posts).toHaveLength(1);
    expect(wpWrites()).toHaveLength(writesAfterFirst);
    const after = (await callApi(page, `/api/articles/${id}`)).json.article;
    expect(after.linkedin.publishedToLinkedIn).toBe(true);
    expect(after.lastError).toBeNull();
    await context.close();
  });
});
