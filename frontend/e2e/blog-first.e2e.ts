/**
 * The blog-first bundle in the browser, on the local app with the fake WordPress and LinkedIn: the blog version's
 * Schedule modal takes the "Blog first" choice, the scheduler's run e-mails one approval link, and approving it
 * publishes WordPress first and then LinkedIn with the live post's address; LinkedIn failing is retried alone by
 * the same link (functions/src/domain/scheduling.ts, ApprovalLinks.confirmApproval; functions/test/bundle-api.test.ts).
 */
import { describe, expect, it } from 'vitest';
import {
  ADA,
  approvalMail,
  browserAvailable,
  callApi,
  connectLinkedIn,
  connectWordPress,
  createArticleWithDrafts,
  registerOnDashboard,
  scheduleVia,
  withAppAndFakeWordPressAndLinkedIn,
} from './harness.js';

const hasBrowser = browserAvailable();

describe.skipIf(!hasBrowser)('the blog-first bundle (Chromium, fake WordPress and LinkedIn, local outbox)', () => {
  const journey = withAppAndFakeWordPressAndLinkedIn();

  it('Blog first in the modal → one approval e-mail → WordPress published, LinkedIn failed → the link again posts LinkedIn only, with the post’s URL', async () => {
    const { app, browser, wp, li } = journey;
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
    const moved = await scheduleVia(page, id, 'blog', new Date().toISOString(), { bundle: true });
    expect(moved).toBe(200);

    // The run e-mails one approval for WordPress and LinkedIn.
    const { mail, approveUrl } = await approvalMail(app, title, { timeout: 20_000 });
    expect(mail.text).toContain('Approving publishes to WordPress and LinkedIn.');
    expect(wp.posts).toHaveLength(0);
    expect(li.posts).toHaveLength(0);

    // LinkedIn is down for the first approval (the fake's 'down' mode, as bundle-api.test.ts provokes it).
    li.setMode('down');
    await page.goto(approveUrl);
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
    await page.goto(approveUrl);
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
