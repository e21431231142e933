import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseMime, type ParsedMime } from '../../functions/test/fakes/mime.js';
import {
  ADA,
  browserAvailable,
  callApi,
  connectWordPress,
  createArticleWithDrafts,
  registeredPage,
  snap,
  withAppAndFakeWordPress,
  type RunningApp,
} from './harness.js';

const hasBrowser = browserAvailable();

/** The messages the local stack wrote into the outbox so far. */
function outbox(app: RunningApp): ParsedMime[] {
  const dir = join(app.dataDir, 'outbox');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.eml'))
    .sort()
    .map((f) => parseMime(readFileSync(join(dir, f), 'utf8')));
}

describe.skipIf(!hasBrowser)('scheduling journey (Chromium, fake WordPress, local outbox)', () => {
  const journey = withAppAndFakeWordPress();

  it('schedule both platforms "now" from the badge → approval e-mail → approve page → published to WordPress once', async () => {
    const { app, wp } = journey;
    // The browser's clock is in Los Angeles; the user's own zone (Tokyo) is used for times shown back.
    const { context, page } = await registeredPage(journey, 'America/Los_Angeles', {
      ...ADA,
      password: 'engines',
      timezone: 'Asia/Tokyo',
    });

    await connectWordPress(page, wp);

    const title = 'Scheduling posts that wait for approval';
    const id = await createArticleWithDrafts(page, {
      title,
      topic: 'Why a human approves every scheduled post',
      keyword: 'editorial workflow',
      details: 'Schedule ahead. Approve by e-mail. Publish once.',
      imageDescription: '',
    });

    // /schedule: the badge opens scheduling for both platforms.
    await page.goto(`${app.url}/schedule`);
    const card = page.getByRole('article', { name: title });
    await card.waitFor();
    await card.getByRole('button', { name: 'Overall status: Not Scheduled' }).click();
    const dialog = page.getByRole('dialog', { name: 'Schedule blog and LinkedIn' });
    await dialog.waitFor();
    const input = dialog.getByRole('textbox', { name: 'Date and time' });

    // Default: one hour ahead on the browser's clock, on a 5-minute step.
    const shown = await input.inputValue();
    expect(shown).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    const ahead = await page.evaluate((text) => {
      const [d, t] = text.split(' ');
      const [y, m, day] = d!.split('-').map(Number);
      const [h, min] = t!.split(':').map(Number);
      return new Date(y!, m! - 1, day!, h!, min!).getTime() - Date.now();
    }, shown);
    expect(ahead).toBeGreaterThan(55 * 60_000);
    expect(ahead).toBeLessThanOrEqual(65 * 60_000);
    expect(Number(shown.slice(-2)) % 5).toBe(0);

    // The calendar with its 24-hour list in 5-minute steps.
    await input.click();
    const timeList = dialog.locator('.react-datepicker__time-list-item');
    await timeList.first().waitFor();
    expect(await timeList.count()).toBe(288);
    expect(await timeList.nth(13 * 12 + 7).textContent()).toBe('13:35');
    await page.waitForTimeout(250); // the modal's entrance animation
    await snap(page, '30-schedule-modal');

    // "Now": the current minute on the browser's clock (already under way, so clamped to now).
    const nowText = await page.evaluate(() => {
      const d = new Date();
      const p = (n: number) => String(n).padStart(2, '0');
      return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
    });
    await input.fill(nowText);
    await input.press('Enter');
    await dialog.getByText(/24-hour clock/).click(); // leave the field: the picker closes
    expect(await input.inputValue()).toBe(nowText);
    await snap(page, '31-schedule-now');
    await dialog.getByRole('button', { name: 'Schedule', exact: true }).click();

    // One toast for both, with the time in the user's zone (Tokyo is GMT+9 in en-US).
    const toast = page.getByText(/^Successfully scheduled blog and LinkedIn for /);
    await toast.waitFor();
    expect(await toast.textContent()).toMatch(/ \d{2}:\d{2} GMT\+9$/);
    await page.waitForTimeout(900); // the toast slides in
    await snap(page, '31b-scheduled-toast');
    await dialog.waitFor({ state: 'detached' });
    const badge = card.getByRole('button', { name: /^Overall status: (Scheduled|Content Created)$/ });
    await badge.waitFor();
    await snap(page, '32-scheduled');

    const article = (await callApi(page, `/api/articles/${id}`)).json.article;
    expect(article.scheduled.blog).toBeTruthy();
    // "Now" is the server's now for each of the two calls.
    expect(Math.abs(Date.parse(article.scheduled.blog) - Date.parse(article.scheduled.linkedin))).toBeLessThan(2000);
    expect(Math.abs(Date.parse(article.scheduled.blog) - Date.now())).toBeLessThan(60_000);

    // The local scheduler fires at once: the approval e-mail lands in the outbox.
    await expect
      .poll(() => outbox(app).filter((m) => /WordPress/.test(m.subject)).length, { timeout: 20_000, interval: 250 })
      .toBe(1);
    const mail = outbox(app).find((m) => /WordPress/.test(m.subject))!;
    expect(mail.to).toContain('ada@example.com');
    expect(mail.subject).toContain(title);
    expect(mail.text).toContain(title);
    expect(mail.text).toContain(`${app.url}/schedule`);
    const approveUrl = /(http:\/\/\S+\/approve\?token=\S+)/.exec(mail.text ?? '')?.[1];
    expect(approveUrl, mail.text).toBeTruthy();
    expect(approveUrl!.startsWith(`${app.url}/approve?token=`)).toBe(true);

    // The list shows the run: content is ready for approval.
    await page.reload();
    await card.getByRole('button', { name: 'Overall status: Content Created' }).waitFor({ timeout: 20_000 });
    await card
      .getByRole('region', { name: 'Blog' })
      .getByText(/^Ready for approval, scheduled/)
      .waitFor();
    await snap(page, '33-content-created');
    expect(wp.posts).toHaveLength(0);

    // The approve page shows what would be published and publishes only on the button.
    await page.goto(approveUrl!);
    await page.getByRole('heading', { name: `Publish “${title}” to WordPress?` }).waitFor();
    const approve = page.getByRole('button', { name: 'Approve and publish to WordPress' });
    await approve.waitFor();
    expect(wp.posts).toHaveLength(0);
    await snap(page, '34-approve');
    await approve.click();
    await page.getByText('Published to WordPress.').waitFor();
    await snap(page, '35-approved');
    expect(wp.posts).toHaveLength(1);
    expect(wp.posts[0]!.title).toBe(title);
    expect(wp.posts[0]!.status).toBe('publish');

    // /schedule shows the blog as published (LinkedIn still waits), and /history lists it.
    await page.goto(`${app.url}/schedule`);
    const blog = page.getByRole('article', { name: title }).getByRole('region', { name: 'Blog' });
    await blog.getByText('Published', { exact: true }).waitFor();
    expect(await blog.getByRole('link', { name: /View on WordPress/ }).getAttribute('href')).toMatch(
      new RegExp(`^${wp.url}/.*${wp.posts[0]!.slug}/$`),
    );
    await snap(page, '36-schedule-after-approval');
    await page.goto(`${app.url}/history`);
    const rows = page.getByRole('table').locator('tbody tr');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(1);
    expect(await rows.first().locator('td').nth(0).textContent()).toBe(title);
    expect(await rows.first().locator('td').nth(1).textContent()).toBe('WordPress');
    await snap(page, '37-history');

    // Publishing once: the same link again publishes nothing more.
    await page.goto(approveUrl!);
    await page.getByText('Already published.').waitFor();
    expect(await page.getByRole('button', { name: /Approve and publish/ }).count()).toBe(0);
    expect(wp.posts).toHaveLength(1);

    // The modal in the dark theme, from the badge, which now offers only LinkedIn (the blog is live);
    // Escape closes the calendar first, then the dialog.
    await page.evaluate(() => localStorage.setItem('app-theme', 'dark'));
    await page.goto(`${app.url}/schedule`);
    await page
      .getByRole('article', { name: title })
      .getByRole('button', { name: /^Overall status:/ })
      .click();
    const dark = page.getByRole('dialog', { name: 'Schedule LinkedIn' });
    const darkInput = dark.getByRole('textbox', { name: 'Date and time' });
    await darkInput.click();
    await dark.locator('.react-datepicker__time-list-item').first().waitFor();
    await page.waitForTimeout(250);
    await snap(page, '38-schedule-modal-dark');
    await page.keyboard.press('Escape');
    await dark.locator('.react-datepicker').waitFor({ state: 'detached' });
    expect(await dark.isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    await dark.waitFor({ state: 'detached' });
    await context.close();
  });
});
