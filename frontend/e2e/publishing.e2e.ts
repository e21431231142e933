import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  GRACE,
  browserAvailable,
  callApi,
  connectWordPress,
  createArticleWithDrafts,
  registeredPage,
  snap,
  withAppAndFakeWordPress,
} from './harness.js';
import { PHONE, onPhone, pageScrollWidth, rightEdgeOf } from './viewport.js';

const hasBrowser = browserAvailable();

/**
 * Schedules one platform of the card through its row's Schedule button and the modal, at the
 * modal's default time (one hour ahead), as a person would before publishing it now.
 */
async function scheduleRow(page: Page, card: Locator, platform: 'Blog' | 'LinkedIn', toastWord: string): Promise<void> {
  const row = card.getByRole('region', { name: platform });
  await row.getByRole('button', { name: `Schedule ${platform}` }).click();
  const dialog = page.getByRole('dialog', { name: `Schedule ${platform}` });
  await dialog.waitFor();
  await dialog.getByRole('button', { name: 'Schedule', exact: true }).click();
  await page.getByText(new RegExp(`^Successfully scheduled ${toastWord} for `)).waitFor();
  await dialog.waitFor({ state: 'detached' });
  await row.getByText(/^Scheduled for/).waitFor();
}

/** The Content Status card's numbers, by label. */
async function contentStatus(page: Page): Promise<Record<string, string>> {
  const card = page.getByRole('region', { name: 'Content Status' });
  await card.waitFor();
  const out: Record<string, string> = {};
  for (const stat of await card.locator('.status-stat').all()) {
    const label = (await stat.locator('dt').textContent())!.trim();
    const count = (await stat.locator('.status-stat__count').textContent())!.trim();
    const percent = (await stat.locator('.status-stat__percent').textContent())!.trim();
    out[label] = `${count} ${percent}`;
  }
  return out;
}

describe.skipIf(!hasBrowser)('publishing journey (Chromium, fake WordPress)', () => {
  const journey = withAppAndFakeWordPress();

  it('register → connect WordPress → article → dashboard → publish the blog from /schedule → history → dashboard counts it', async () => {
    const { app, wp } = journey;
    // The browser runs in Tokyo; the user's own zone (New York) must win for the dates shown.
    const { context, page } = await registeredPage(journey, 'Asia/Tokyo', { ...GRACE, timezone: 'America/New_York' });

    // WordPress credentials and the article go through the API (the Settings UI is someone else's work).
    const saved = await connectWordPress(page, wp);
    expect(saved.json.success).toBe(true);

    const title = 'Shipping small releases often';
    const id = await createArticleWithDrafts(page, {
      title,
      topic: 'Why small, frequent releases lower risk',
      keyword: 'release engineering',
      details: 'Feature flags. Short-lived branches. Fast rollback.',
      imageDescription: '',
    });

    // Dashboard before: one article, not scheduled, nothing published.
    await page.goto(`${app.url}/dashboard`);
    expect(await contentStatus(page)).toEqual({
      'All Content Published': '0 0%',
      Scheduled: '0 0%',
      'Content Created': '0 0%',
      'Not Scheduled': '1 100%',
    });
    await expect.poll(() => page.getByTestId('distribution-total').textContent()).toBe('0');
    await page
      .getByRole('region', { name: 'Publishing Trends' })
      .locator('.recharts-area')
      .first()
      .waitFor({ state: 'attached' });
    await snap(page, '20-dashboard-before');

    // /schedule: the card, its blog row, and publishing now.
    await page.goto(`${app.url}/schedule`);
    const card = page.getByRole('article', { name: title });
    await card.waitFor();
    const blog = card.getByRole('region', { name: 'Blog' });
    expect(await blog.getByText('Will be processed after scheduling').isVisible()).toBe(true);
    expect(
      await card
        .getByText(/^Overall status:/)
        .locator('..')
        .textContent(),
    ).toContain('Not Scheduled');
    expect(await card.getByRole('button', { name: /^Edit/ }).count()).toBe(0);
    // docs/product.md (Schedule): a not-scheduled platform has no publish button at all, only the text and Schedule.
    expect(await card.getByRole('button', { name: /publish/i }).count()).toBe(0);
    expect(await blog.getByRole('button', { name: 'Schedule Blog' }).isVisible()).toBe(true);

    // The posting mode is saved per article.
    await card.getByRole('radio', { name: 'Business Page' }).check();
    await page.getByText('LinkedIn posting mode set to Business Page').waitFor();
    expect((await callApi(page, `/api/linkedin/article/${id}/posting-mode`)).json.mode).toBe('company');
    await snap(page, '21-schedule-card');

    // Publish Now appears once a platform is scheduled (docs/product.md, Schedule): schedule LinkedIn for later.
    await scheduleRow(page, card, 'LinkedIn', 'LinkedIn');
    // LinkedIn is not connected: the confirmation says so and points to Settings; nothing changes.
    await card
      .getByRole('region', { name: 'LinkedIn' })
      .getByRole('button', { name: 'Publish Now to LinkedIn' })
      .click();
    const liConfirm = page.getByRole('dialog', { name: 'Publish to LinkedIn now?' });
    await liConfirm.getByRole('button', { name: 'Confirm' }).click();
    const liError = liConfirm.getByRole('alert');
    await liError.waitFor();
    expect(await liError.textContent()).toMatch(
      /^Error publishing LinkedIn content: Connect LinkedIn in Settings first/,
    );
    expect(await liError.getByRole('link', { name: 'Connect LinkedIn in Settings' }).getAttribute('href')).toBe(
      '/settings',
    );
    await snap(page, '21b-linkedin-error');
    await liConfirm.getByRole('button', { name: 'Cancel' }).click();
    await liConfirm.waitFor({ state: 'detached' });

    // The blog likewise: scheduled for later, then published now.
    expect(await blog.getByRole('button', { name: /publish/i }).count()).toBe(0);
    await scheduleRow(page, card, 'Blog', 'blog');
    await blog.getByRole('button', { name: 'Publish Now to WordPress' }).click();
    const confirm = page.getByRole('dialog', { name: 'Publish to WordPress now?' });
    await confirm.waitFor();
    expect(await confirm.getByText(title).isVisible()).toBe(true);
    await page.waitForTimeout(250); // the modal's entrance animation
    await snap(page, '22-publish-confirm');
    await confirm.getByRole('button', { name: 'Confirm' }).click();

    const view = page.getByRole('link', { name: /View on WordPress/ }).first();
    await view.waitFor();
    await snap(page, '23-published-notice');
    expect(await page.getByText('Successfully published to WordPress!').isVisible()).toBe(true);
    expect(wp.posts).toHaveLength(1);
    const post = wp.posts[0]!;
    expect(post.title).toBe(title);
    expect(post.status).toBe('publish');
    const href = await view.getAttribute('href');
    expect(href).toMatch(new RegExp(`^${wp.url}/\\d{4}/\\d{2}/\\d{2}/${post.slug}/$`));
    expect(await view.getAttribute('target')).toBe('_blank');
    expect(await view.getAttribute('rel')).toContain('noopener');
    const article = (await callApi(page, `/api/articles/${id}`)).json.article;
    expect(article.blog.wordpressPostUrl).toBe(href);

    // The card stays (LinkedIn is not published) and shows the blog as published.
    await blog.getByText('Published', { exact: true }).waitFor();
    expect(await blog.getByRole('link', { name: /View on WordPress/ }).getAttribute('href')).toBe(href);
    // The inline notice leaves after 3 s plus the fade.
    await page.getByText('Successfully published to WordPress!').waitFor({ state: 'detached', timeout: 10_000 });
    await snap(page, '24-schedule-after');

    // History: one row, the user's time zone, View Post.
    await page.goto(`${app.url}/history`);
    const table = page.getByRole('table');
    await table.waitFor();
    const rows = table.locator('tbody tr');
    expect(await rows.count()).toBe(1);
    const cells = rows.first().locator('td');
    expect(await cells.nth(0).textContent()).toBe(title);
    expect(await cells.nth(1).textContent()).toBe('WordPress');
    expect(await cells.nth(2).textContent()).toMatch(/\d{2}:\d{2} E[SD]T$/);
    const viewPost = rows.first().getByRole('link', { name: /^View Post/ });
    expect(await viewPost.getAttribute('href')).toBe(href);
    expect(await viewPost.getAttribute('target')).toBe('_blank');
    await snap(page, '25-history');
    // On a phone each publication is a card: View Post is on screen, not past the right edge of a scrolled table.
    await onPhone(page, async () => {
      await expect.poll(() => rightEdgeOf(viewPost)).toBeLessThanOrEqual(PHONE.width);
      expect(await pageScrollWidth(page)).toBeLessThanOrEqual(PHONE.width);
      await snap(page, '25b-history-phone');
    });

    // Dashboard after: the publication is counted; the article is still Scheduled (LinkedIn waits for its time).
    await page.goto(`${app.url}/dashboard`);
    await expect.poll(() => page.getByTestId('distribution-total').textContent()).toBe('1');
    expect(await contentStatus(page)).toMatchObject({
      'All Content Published': '0 0%',
      Scheduled: '1 100%',
      'Not Scheduled': '0 0%',
    });
    const trends = page.getByRole('region', { name: 'Publishing Trends' });
    expect(await trends.getByText('1 WordPress post, 0 LinkedIn posts', { exact: false }).isVisible()).toBe(true);
    await trends.locator('.recharts-area').first().waitFor({ state: 'attached' });
    await page.getByRole('region', { name: 'Top Keywords' }).locator('.recharts-pie').waitFor({ state: 'attached' });
    await snap(page, '26-dashboard-after');
    await page.getByRole('region', { name: 'Content Status' }).scrollIntoViewIfNeeded();
    await snap(page, '26b-dashboard-status');

    // The same in the dark theme.
    await page.evaluate(() => localStorage.setItem('app-theme', 'dark'));
    await page.reload();
    await page.getByRole('region', { name: 'Top Keywords' }).locator('.recharts-pie').waitFor({ state: 'attached' });
    await snap(page, '27-dashboard-dark');
    await page.goto(`${app.url}/schedule`);
    await page.getByRole('article', { name: title }).waitFor();
    await snap(page, '28-schedule-dark');
    await context.close();
  });
});
