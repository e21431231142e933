import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  ADA,
  browserAvailable,
  invitationLink,
  lookAt,
  registerOnDashboard,
  snap,
  withAppAndBrowser,
} from './harness.js';
import { settle } from './viewport.js';

/**
 * Comments and activity in a team workspace (docs/product.md, Comments and activity): one member comments on the
 * blog version, the other sees it beside the text, edits the text and the comment is marked as made on an earlier
 * version; the Activity names both of them. Looked at in light and dark, on a phone, and left open 30 s.
 */
const hasBrowser = browserAvailable();

/** A JSON call from inside the page with the page's session, in workspace `workspace` (undefined: personal). */
const api = (page: Page, method: string, path: string, body?: unknown, workspace?: string) =>
  page.evaluate(
    async ({ method, path, body, workspace }) => {
      const res = await fetch(path, {
        method,
        headers: {
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(workspace ? { 'x-workspace': workspace } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, json: await res.json() };
    },
    { method, path, body, workspace },
  );

describe.skipIf(!hasBrowser)('comments and activity journey (Chromium)', () => {
  const journey = withAppAndBrowser();

  it('one member comments on the blog version, the other sees it beside the text; the activity shows both', async () => {
    const { app, browser } = journey;
    const ownerContext = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    const owner = await ownerContext.newPage();
    await registerOnDashboard(owner, app, ADA);
    expect((await api(owner, 'PUT', '/api/admin/settings', { invitationsActivateAccounts: true })).status).toBe(200);
    const teamId = (await api(owner, 'POST', '/api/workspaces', { name: 'Acme Marketing' })).json.workspace
      .id as string;
    const invited = await api(
      owner,
      'POST',
      '/api/workspace/invitations',
      { email: 'wendy@example.com', role: 'writer' },
      teamId,
    );
    expect(invited.status).toBe(201);
    const created = await api(
      owner,
      'POST',
      '/api/articles',
      { title: 'Team launch post', topic: 'The launch' },
      teamId,
    );
    const articleId = created.json.article._id as string;
    await expect
      .poll(async () => (await api(owner, 'GET', `/api/articles/${articleId}`, undefined, teamId)).json.article)
      .toMatchObject({ generation: { status: 'done' } });

    // The writer joins through the e-mailed link and opens the article's editor in the team.
    const writerContext = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    const writer = await writerContext.newPage();
    await writer.goto(await invitationLink(app, 'wendy@example.com'));
    await writer.getByLabel('Name', { exact: true }).fill('Wendy');
    await writer.getByLabel('Surname').fill('Writer');
    await writer.getByLabel('Password').fill('typewriter');
    await writer.getByRole('button', { name: 'Create account and join' }).click();
    await writer.waitForURL(/\/dashboard$/);
    await writer.goto(`${app.url}/create?articleId=${articleId}`);
    const writerBlogThread = writer.getByRole('region', { name: /Comments on the blog version/ });
    await writerBlogThread.getByText('No comments yet.').waitFor();
    await writerBlogThread.getByLabel('Add a comment').fill('The intro could be shorter.');
    await writerBlogThread.getByRole('button', { name: 'Comment' }).click();
    await writerBlogThread.getByText('The intro could be shorter.').waitFor();
    // A writer edits the LinkedIn version too.
    const linkedin = writer.getByLabel('LinkedIn content');
    await linkedin.fill('Launching today: the team post.');
    await writer.getByRole('region', { name: 'LinkedIn Post' }).getByRole('button', { name: 'Save' }).click();
    await writer.getByRole('region', { name: 'LinkedIn Post' }).getByText('Saved').waitFor();

    // The owner opens the same article in the team: the comment is there, beside the blog text.
    await owner.evaluate((id) => window.localStorage.setItem('workspace', id), teamId);
    await owner.goto(`${app.url}/create?articleId=${articleId}`);
    const blogThread = owner.getByRole('region', { name: /Comments on the blog version/ });
    const comment = blogThread.getByRole('listitem').filter({ hasText: 'The intro could be shorter.' });
    await comment.waitFor();
    await expect.poll(() => comment.textContent()).toContain('Wendy Writer');
    // Not the owner's own comment: no Delete.
    expect(await comment.getByRole('button', { name: /Delete/ }).count()).toBe(0);
    const editorBox = (await owner.getByRole('region', { name: 'Blog Article' }).boundingBox())!;
    const threadBox = (await blogThread.boundingBox())!;
    expect(threadBox.x).toBeGreaterThanOrEqual(editorBox.x + editorBox.width);
    expect(threadBox.y).toBeLessThan(editorBox.y + editorBox.height);

    // The owner changes the blog text: the comment stays, marked as made on an earlier version.
    const blog = owner.getByLabel('Blog content');
    await blog.fill('# Launch\n\nA shorter intro.');
    await owner.getByRole('region', { name: 'Blog Article' }).getByRole('button', { name: 'Save' }).click();
    await comment.getByText('on an earlier version').waitFor();

    // The activity names both members, newest first.
    await owner.getByRole('button', { name: 'Activity' }).click();
    const entries = owner.locator('.activity__entry');
    await entries.first().waitFor();
    await expect
      .poll(async () => (await entries.allTextContents()).join('\n'))
      .toMatch(/Edited the blog versionAda Lovelace[\s\S]*Edited the LinkedIn versionWendy Writer/);
    expect((await entries.allTextContents()).at(-1)).toMatch(/^Created the articleAda Lovelace/);

    await settle(owner);
    await lookAt(owner, 'comments-01-owner', {
      onPhoneFirst: () => owner.locator('.comments').first().scrollIntoViewIfNeeded(),
    });
    // Left open for 30 s: nothing moves, grows or fails.
    const before = await owner.locator('.content-modal').boundingBox();
    await owner.waitForTimeout(30_000);
    expect(await owner.locator('.content-modal').boundingBox()).toEqual(before);
    expect(await comment.textContent()).toContain('on an earlier version');
    await snap(owner, 'comments-02-after-30s');

    // The writer sees the mark too, and may delete their own comment.
    await writer.reload();
    const own = writer
      .getByRole('region', { name: /Comments on the blog version/ })
      .getByRole('listitem')
      .filter({ hasText: 'The intro could be shorter.' });
    await own.getByText('on an earlier version').waitFor();
    await own.getByRole('button', { name: /Delete your comment/ }).click();
    await own.waitFor({ state: 'detached' });
    await ownerContext.close();
    await writerContext.close();
  });
});
