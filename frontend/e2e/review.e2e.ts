import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ADA,
  browserAvailable,
  callApi,
  connectWordPress,
  createArticleWithDrafts,
  registerOnDashboard,
  scheduleVia,
  snap,
  withAppAndFakeWordPress,
  type RunningApp,
  invitationLink,
  lookAt,
  mailsTo,
} from './harness.js';
import { PHONE } from './viewport.js';

const hasBrowser = browserAvailable();

/** The link (an address in the e-mail's text) after `label: `, once the `count`-th such e-mail is there. */
async function linkIn(app: RunningApp, email: string, subject: RegExp, label: string, count = 1): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(() => {
      const mails = mailsTo(app, email, subject);
      if (mails.length < count) return undefined;
      link = new RegExp(`${label}: (http://\\S+)`).exec(mails[count - 1]!.text ?? '')?.[1];
      return link;
    })
    .toBeDefined();
  return link!;
}

/** Registers through an e-mailed invitation link in a new context; the member's page on the dashboard. */
async function joinThrough(journey: { browser: import('playwright-core').Browser }, link: string, name: string) {
  const context = await journey.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(link);
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByLabel('Surname').fill('Member');
  await page.getByLabel('Password').fill('membership');
  await page.getByRole('button', { name: 'Create account and join' }).click();
  await page.waitForURL(/\/dashboard$/);
  return { context, page };
}

describe.skipIf(!hasBrowser)('review journey (Chromium)', () => {
  const journey = withAppAndFakeWordPress();

  it('a writer submits, the reviewer requests changes by e-mail, the writer edits, the reviewer approves, the writer cannot approve their own; it publishes at its slot', async () => {
    const { app, browser, wp } = journey;
    const ownerContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const owner = await ownerContext.newPage();
    await registerOnDashboard(owner, app, ADA);
    await owner.getByRole('link', { name: 'Admin' }).click();
    await owner.getByRole('checkbox', { name: /registered through a workspace invitation/ }).check();
    await owner.getByText('Settings saved').first().waitFor();

    // The team, its review setting (one approval by someone else) and its WordPress.
    await owner.getByRole('button', { name: /Ada/ }).first().click();
    await owner.getByRole('button', { name: 'Workspaces' }).click();
    await owner.waitForURL(/\/workspaces$/);
    await owner.getByLabel('New team workspace').fill('Acme Review');
    await owner.getByRole('button', { name: 'Create workspace' }).click();
    await owner.getByRole('heading', { name: 'Members of Acme Review' }).waitFor();
    await owner.getByLabel('Publishing needs').selectOption('one');
    await owner.getByRole('button', { name: 'Save', exact: true }).click();
    await owner.getByText('Review setting saved').first().waitFor();
    await connectWordPress(owner, wp);

    for (const [email, role] of [
      ['wendy@example.com', 'writer'],
      ['rae@example.com', 'reviewer'],
    ] as const) {
      await owner.getByLabel('E-mail address').fill(email);
      await owner.getByLabel('Role', { exact: true }).selectOption(role);
      await owner.getByRole('button', { name: 'Send invitation' }).click();
      await owner.getByText(email).first().waitFor();
    }
    await lookAt(owner, 'review-01-workspaces');

    const writer = await joinThrough(journey, await invitationLink(app, 'wendy@example.com'), 'Wendy');
    const reviewer = await joinThrough(journey, await invitationLink(app, 'rae@example.com'), 'Rae');

    // The writer writes the article in the team and submits its blog version from the Schedule card.
    const title = 'Reviewed launch post';
    const id = await createArticleWithDrafts(writer.page, {
      title,
      topic: 'The launch',
      keyword: 'launch',
      details: '',
      imageDescription: '',
    });
    await writer.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Schedule' }).click();
    const card = writer.page.getByRole('article', { name: title });
    const blog = card.getByRole('region', { name: 'Blog' });
    await blog.getByRole('button', { name: 'Submit for review' }).click();
    await blog.getByText('In review').waitFor();

    // The writer schedules it (a writer may: nothing publishes without an approval); not approved, the card and the
    // calendar say it waits for approval.
    expect(await scheduleVia(writer.page, id, 'blog', new Date(Date.now() + 3600_000).toISOString())).toBe(200);
    await writer.page.reload();
    await blog.getByText('Waiting for approval').waitFor();
    await lookAt(writer.page, 'review-02-waiting');
    await writer.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Calendar' }).click();
    await writer.page.getByRole('button', { name: new RegExp(`^${title}, WordPress, Waiting for approval`) }).waitFor();
    await lookAt(writer.page, 'review-02-waiting-calendar');
    await writer.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Schedule' }).click();

    // The reviewer gets the rendered post with both links; Request changes asks for the click and a comment.
    const subject = new RegExp(`^Review for WordPress \\(blog\\): ${title}$`);
    const changesLink = await linkIn(app, 'rae@example.com', subject, 'Request changes');
    const mail = mailsTo(app, 'rae@example.com', subject)[0]!;
    writeFileSync(join(app.dataDir, 'review-mail.html'), mail.html ?? '');
    expect(mailsTo(app, 'wendy@example.com', subject)).toHaveLength(0);
    await reviewer.page.goto(changesLink);
    await reviewer.page.getByRole('heading', { name: `Request changes to “${title}”` }).waitFor();
    await lookAt(reviewer.page, 'review-02-request-changes');
    await reviewer.page.getByRole('button', { name: 'Request changes' }).click();
    await reviewer.page.getByText('the comment is required').waitFor();
    await reviewer.page.getByLabel('What should change?').fill('Say when the launch is.');
    await reviewer.page.getByRole('button', { name: 'Request changes' }).click();
    await reviewer.page.getByText('Changes requested.').waitFor();

    // The writer sees the comment on the card and edits the version: it goes back to review.
    await writer.page.reload();
    await blog.getByText('Changes requested').waitFor();
    await blog.getByText('Say when the launch is.').waitFor();
    await lookAt(writer.page, 'review-03-changes-requested');
    // The comment is in the version's thread beside the text, marked as the change request, and the writer was
    // e-mailed it with a link to the editor.
    const editorLink = await linkIn(
      app,
      'wendy@example.com',
      new RegExp(`^Changes requested for WordPress \\(blog\\): ${title}$`),
      'Edit it and submit it again',
    );
    writeFileSync(
      join(app.dataDir, 'changes-mail.html'),
      mailsTo(app, 'wendy@example.com', /^Changes requested/)[0]!.html ?? '',
    );
    expect(editorLink).toBe(`${app.url}/create?articleId=${id}`);
    await writer.page.goto(editorLink);
    const thread = writer.page.getByRole('region', { name: /Comments on the blog version/ });
    const request = thread.getByRole('listitem').filter({ hasText: 'Say when the launch is.' });
    await request.getByText('Requested changes').waitFor();
    await expect.poll(() => request.textContent()).toContain('Rae Member');
    const editorBox = (await writer.page.getByRole('region', { name: 'Blog Article' }).boundingBox())!;
    const threadBox = (await thread.boundingBox())!;
    expect(threadBox.x).toBeGreaterThanOrEqual(editorBox.x + editorBox.width);
    expect(threadBox.y).toBeLessThan(editorBox.y + editorBox.height);
    await lookAt(writer.page, 'review-03-changes-thread');
    await writer.page.goto(`${app.url}/schedule`);
    const article = (await callApi(writer.page, `/api/articles/${id}`)).json.article;
    const edited = await writer.page.evaluate(
      async ({ id, content }) =>
        (
          await fetch(`/api/articles/${id}/blog`, {
            method: 'PUT',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ content }),
          })
        ).status,
      { id, content: `${article.blog.content}\n\nThe launch is on Monday.` },
    );
    expect(edited).toBe(200);

    // The reviewer approves through the new e-mail's link; the writer's own approval is refused.
    const approveLink = await linkIn(app, 'rae@example.com', subject, 'Approve', 2);
    const own = await callApi(writer.page, `/api/articles/${id}/review/approve`, { platform: 'blog' });
    expect(own.status).toBe(403);
    expect(own.json.message).toMatch(/someone else must approve it/);
    await reviewer.page.goto(approveLink);
    await reviewer.page.getByRole('heading', { name: `Approve “${title}” for WordPress?` }).waitFor();
    await lookAt(reviewer.page, 'review-04-approve');
    await reviewer.page.getByRole('button', { name: 'Approve', exact: true }).click();
    await reviewer.page.getByText('Approved.').waitFor();
    await writer.page.reload();
    await blog.getByText('Approved').first().waitFor();

    // The owner schedules it a moment ahead: the run at the slot publishes the approved version to WordPress.
    const posts = wp.posts.length;
    expect(await scheduleVia(owner, id, 'blog', new Date(Date.now() + 1500).toISOString())).toBe(200);
    await expect.poll(() => wp.posts.length, { timeout: 20_000 }).toBe(posts + 1);
    await expect
      .poll(async () => (await callApi(owner, `/api/articles/${id}`)).json.article.blog.publishedToWordPress)
      .toBe(true);

    // The article's activity lists the review's steps with the member who took each, newest first.
    await writer.page.goto(`${app.url}/create?articleId=${id}`);
    await writer.page.getByRole('button', { name: 'Activity' }).click();
    const entries = writer.page.locator('.activity__entry');
    await entries.first().waitFor();
    await expect
      .poll(async () => (await entries.allTextContents()).join('\n'))
      .toMatch(
        /Approved the blog versionRae Member[\s\S]*Edited the blog version: back in reviewWendy Member[\s\S]*Requested changes to the blog versionRae Member[\s\S]*Submitted the blog version for reviewWendy Member/,
      );
    await lookAt(writer.page, 'review-06-activity');

    // The reviewer's and the writer's e-mails as the outbox wrote them, to look at.
    const mailPage = await ownerContext.newPage();
    for (const [file, name] of [
      ['review-mail.html', 'review-05-email'],
      ['changes-mail.html', 'review-05-changes-email'],
    ] as const) {
      await mailPage.setViewportSize({ width: 1280, height: 900 });
      await mailPage.setContent(readFileSync(join(app.dataDir, file), 'utf8'));
      await snap(mailPage, name);
      await mailPage.setViewportSize(PHONE);
      await snap(mailPage, `${name}-phone`);
    }

    await writer.context.close();
    await reviewer.context.close();
    await ownerContext.close();
  });
});
