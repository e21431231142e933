import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  ADA,
  browserAvailable,
  callApi,
  connectLinkedIn,
  connectWordPress,
  createArticleWithDrafts,
  publishNowOn,
  registerOnDashboard,
  scheduleVia,
  snap,
  withAppAndFakeWordPressAndLinkedIn,
} from './harness.js';
import { showTheme } from './viewport.js';
import { axeViolations } from './axe.js';

const hasBrowser = browserAvailable();

/**
 * axe (WCAG 2.0/2.1 A and AA, as accessibility.e2e.ts) on what the page shows, in light and dark, each theme
 * snapped; the page is left in light. Answers the violations found, by theme, rule and elements.
 */
async function axeBothThemes(page: Page, name: string, include?: string): Promise<string[]> {
  const found: string[] = [];
  for (const theme of ['dark', 'light'] as const) {
    await showTheme(page, theme);
    await snap(page, `${name}-${theme}`);
    for (const v of await axeViolations(page, include ? { include } : { exclude: '.Toastify' }))
      found.push(`${name} (${theme}) ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  }
  return found;
}

/**
 * What publishing an offline draft looks like from start to end, on WordPress and LinkedIn (fakes): the title is
 * the post's only headline, the offline-draft note is highlighted in the editor and refused on publishing until it
 * is removed, and LinkedIn's Publish Now, which leaves the article published everywhere, shows its outcome on the
 * card that stays, with View on LinkedIn, and in History.
 */
describe.skipIf(!hasBrowser)('publishing an offline draft (Chromium, fake WordPress and LinkedIn)', () => {
  const journey = withAppAndFakeWordPressAndLinkedIn();

  it('note highlighted and refused until removed → one headline on WordPress → LinkedIn: the card stays with View on LinkedIn → History', async () => {
    const { app, browser, wp, li } = journey;
    const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1366, height: 900 } });
    const page = await context.newPage();
    await registerOnDashboard(page, app, ADA);
    await connectWordPress(page, wp);
    await connectLinkedIn(page, li);

    const title = 'Ten habits of calm teams';
    const id = await createArticleWithDrafts(
      page,
      {
        title,
        topic: 'Why calm teams ship more',
        keyword: 'team habits',
        details: 'Clear priorities. Fewer meetings. Written decisions.',
        imageDescription: '',
      },
      { keepOfflineNote: true },
    );
    const at = new Date(Date.now() + 3600_000).toISOString();
    expect(await scheduleVia(page, id, 'blog', at)).toBe(200);
    expect(await scheduleVia(page, id, 'linkedin', at)).toBe(200);

    // Publish Now with the note still in: refused, with the way to the editor.
    await page.goto(`${app.url}/schedule`);
    const card = page.getByRole('article', { name: title });
    await publishNowOn(page, title, 'WordPress', 'Blog');
    const confirm = page.getByRole('dialog', { name: 'Publish to WordPress now?' });
    const refusal = confirm.getByRole('alert');
    await refusal.waitFor();
    expect(await refusal.textContent()).toBe(
      'Error publishing blog content: Remove the offline-draft note before publishing: line 1 of the blog text is still the note "Offline draft — …". Open the editor.',
    );
    await snap(page, '90-offline-note-refused');
    expect(wp.posts).toHaveLength(0);
    await refusal.getByRole('link', { name: 'Open the editor' }).click();

    // The editor: the note's line is marked in each version; the preview has the title once.
    await page.waitForURL(new RegExp(`/create\\?articleId=${id}$`));
    const modal = page.getByRole('dialog', { name: 'Generated Content' });
    const blogEditor = modal.getByRole('region', { name: 'Blog Article' });
    const linkedinEditor = modal.getByRole('region', { name: 'LinkedIn Post' });
    const blogMark = blogEditor.locator('mark');
    await blogMark.waitFor();
    expect(await blogMark.textContent()).toMatch(/^> Offline draft — composed from your brief without AI\./);
    expect(await linkedinEditor.locator('mark').textContent()).toMatch(/^\[Offline draft — composed/);
    // The mark lies exactly under the textarea's first line, once the dialog has settled (it opens with a motion, and
    // the mark's layer follows the textarea's scroll a frame later).
    const markOffset = async () => {
      const [area, mark] = await Promise.all([
        blogEditor.getByLabel('Blog content').boundingBox(),
        blogMark.boundingBox(),
      ]);
      return Math.abs(mark!.y - (area!.y + 9));
    };
    await expect.poll(markOffset, { timeout: 5000 }).toBeLessThanOrEqual(3);
    const wordpress = modal.getByRole('article', { name: 'WordPress post' });
    // The preview renders after the editor (deferred): wait for its title before counting headlines.
    await wordpress.getByRole('heading', { name: title }).first().waitFor();
    expect(await wordpress.getByRole('heading', { level: 1 }).count()).toBe(1);
    expect(await wordpress.getByRole('heading', { name: title }).count()).toBe(1);
    expect(await axeBothThemes(page, '91-offline-note-highlighted', '[role="dialog"]')).toEqual([]);

    for (const editor of [blogEditor, linkedinEditor]) {
      await editor.getByRole('button', { name: 'Remove the note' }).click();
      await editor.getByText('Saved', { exact: true }).waitFor();
      expect(await editor.locator('mark').count()).toBe(0);
    }
    const article = (await callApi(page, `/api/articles/${id}`)).json.article;
    expect(article.blog.content).toMatch(/^This article is about why calm teams ship more\./);
    expect(article.linkedin.content).not.toMatch(/offline draft/i);

    // WordPress: published, with the title as the post's only headline.
    await page.goto(`${app.url}/schedule`);
    await publishNowOn(page, title, 'WordPress', 'Blog');
    await page.getByText('Successfully published to WordPress!').waitFor();
    expect(wp.posts).toHaveLength(1);
    expect(wp.posts[0]!.title).toBe(title);
    expect(wp.posts[0]!.content).not.toMatch(/<h1|offline draft/i);
    expect(wp.posts[0]!.content).toMatch(/^<p>This article is about why calm teams ship more\./);

    // LinkedIn: the last platform. Success with View on LinkedIn, and the card stays with the post's link.
    const linkedin = await publishNowOn(page, title, 'LinkedIn');
    const notice = page.getByRole('status').filter({ hasText: 'Successfully published to LinkedIn!' });
    await notice.waitFor();
    expect(li.posts).toHaveLength(1);
    const postUrl = `https://www.linkedin.com/feed/update/${li.posts[0]!.urn}`;
    expect(await notice.getByRole('link', { name: /View on LinkedIn/ }).getAttribute('href')).toBe(postUrl);
    await snap(page, '92-linkedin-published-notice');
    // The notice leaves and the list is read again: the card is still there, with both posts' links.
    const refreshed = page.waitForResponse((r) => r.url().endsWith('/api/articles/unpublished'), { timeout: 30_000 });
    await notice.waitFor({ state: 'detached', timeout: 10_000 });
    await refreshed;
    await linkedin.getByText('Published', { exact: true }).waitFor();
    expect(await linkedin.getByRole('link', { name: /View on LinkedIn/ }).getAttribute('href')).toBe(postUrl);
    expect(await card.getByRole('link', { name: /View on WordPress/ }).count()).toBe(1);
    expect(await card.getByRole('link', { name: 'Open History' }).getAttribute('href')).toBe('/history');
    expect(await axeBothThemes(page, '93-linkedin-published-card')).toEqual([]);

    // History keeps both links; back on /schedule the article is no longer listed.
    await card.getByRole('link', { name: 'Open History' }).click();
    const rows = page.getByRole('table').locator('tbody tr');
    await rows.nth(1).waitFor();
    const linkedinRow = rows.filter({ hasText: 'LinkedIn' });
    expect(await linkedinRow.getByRole('link', { name: /^View Post/ }).getAttribute('href')).toBe(postUrl);
    await snap(page, '94-history-linkedin');
    await page.goto(`${app.url}/schedule`);
    await page.getByText('No unpublished articles. Create one to get started.').waitFor();
    await context.close();
  });
});
