import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  ADA,
  browserAvailable,
  callApi,
  createArticleWithDrafts,
  registerOnDashboard,
  scheduleVia,
  snap,
  withAppAndBrowser,
} from './harness.js';
import { cellName, DAY_MS, dayParam, tokyoAt, tokyoDay } from './tokyo.js';
import { onPhone, pageScrollWidth, PHONE, settle, showTheme } from './viewport.js';

const hasBrowser = browserAvailable();

// The user's zone is Tokyo (see tokyo.ts); the browser's clock is in Los Angeles. The calendar is on Tokyo's.

const scheduledBlog = async (page: Page, id: string) =>
  (await callApi(page, `/api/articles/${id}`)).json.article.scheduled.blog as string;

describe.skipIf(!hasBrowser)('calendar journey (Chromium)', () => {
  const journey = withAppAndBrowser();

  it('schedule an article → /calendar → drag it to the next day: the new time is saved; Undo puts the old one back', async () => {
    const { app, browser } = journey;
    const context = await browser.newContext({
      timezoneId: 'America/Los_Angeles',
      locale: 'en-US',
      viewport: { width: 1366, height: 900 },
    });
    const page = await context.newPage();
    await registerOnDashboard(page, app, { ...ADA, timezone: 'Asia/Tokyo' });

    const title = 'Planning a month of posts';
    const id = await createArticleWithDrafts(page, {
      title,
      topic: 'A content calendar for a small team',
      keyword: 'content calendar',
      details: 'One view of everything that goes out.',
      imageDescription: '',
    });
    // 10:00 in Tokyo, three days ahead; a second article published today gives the month a second colour.
    const day = tokyoDay(3);
    const at = tokyoAt(day, 10);
    expect(await scheduleVia(page, id, 'blog', at)).toBe(200);
    expect(await scheduleVia(page, id, 'linkedin', tokyoAt(tokyoDay(5), 16))).toBe(200);

    // From the navigation, after Schedule.
    await page.goto(`${app.url}/schedule`);
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Calendar' }).waitFor();
    expect(await nav.getByRole('link').allTextContents()).toEqual([
      'Dashboard',
      'Create',
      'Schedule',
      'Calendar',
      'History',
      'Settings',
      'Admin',
    ]);
    await nav.getByRole('link', { name: 'Calendar' }).click();
    await page.waitForURL(/\/calendar$/);
    // The month of the scheduled day (it may be next month's).
    await page.goto(`${app.url}/calendar?view=month&date=${dayParam(day)}`);
    const item = page
      .getByRole('gridcell', { name: cellName(day) })
      .getByRole('button', { name: /^Planning a month of posts, Blog, Scheduled 10:00/ });
    await item.waitFor();
    // Today is Tokyo's.
    await expect
      .poll(() => page.locator('[aria-current="date"]').getAttribute('aria-label'))
      .toBe(`${cellName(tokyoDay(0))}, today`);
    await showTheme(page, 'light');
    await snap(page, '70-calendar-month-light');
    await showTheme(page, 'dark');
    await snap(page, '71-calendar-month-dark');
    await showTheme(page, 'light');

    // Drag to the next day: same time of day.
    const next = new Date(day.getTime() + DAY_MS);
    const target = page.getByRole('gridcell', { name: cellName(next) });
    await item.dragTo(target);
    await page.getByText(/^Rescheduled "Planning a month of posts" \(Blog\) to/).waitFor();
    await target.getByRole('button', { name: /^Planning a month of posts, Blog, Scheduled 10:00/ }).waitFor();
    await expect.poll(() => scheduledBlog(page, id)).toBe(tokyoAt(next, 10));
    await settle(page);
    await snap(page, '72-calendar-moved-undo-toast');

    // Undo: back to the old day and time.
    await page.getByRole('button', { name: 'Undo' }).click();
    await page.getByText(/"Planning a month of posts" is back at/).waitFor();
    await expect.poll(() => scheduledBlog(page, id)).toBe(at);
    await page
      .getByRole('gridcell', { name: cellName(day) })
      .getByRole('button', { name: /^Planning a month of posts, Blog/ })
      .waitFor();

    // A past day is refused with the server's message, and the item stays.
    const yesterday = tokyoDay(-1);
    const pastCell = page.getByRole('gridcell', { name: cellName(yesterday) });
    if (await pastCell.count()) {
      await page
        .getByRole('gridcell', { name: cellName(day) })
        .getByRole('button', { name: /^Planning a month of posts, Blog/ })
        .dragTo(pastCell);
      await page.getByText('Please choose a future date and time.').waitFor();
      expect(await scheduledBlog(page, id)).toBe(at);
    }

    // Week view: the item in its hour; the click opens its card actions.
    await page.goto(`${app.url}/calendar?view=week&date=${dayParam(day)}`);
    const slot = page.getByRole('gridcell', { name: `${cellName(day)}, 10:00` });
    const weekItem = slot.getByRole('button', { name: /^Planning a month of posts, Blog/ });
    await weekItem.waitFor();
    await weekItem.scrollIntoViewIfNeeded();
    await snap(page, '73-calendar-week-light');
    await showTheme(page, 'dark');
    await snap(page, '74-calendar-week-dark');
    await weekItem.click();
    const dialog = page.getByRole('dialog', { name: /^Blog · / });
    await dialog.getByRole('article', { name: title }).waitFor();
    await settle(page);
    await snap(page, '75-calendar-card-actions-dark');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await showTheme(page, 'light');

    // Phones: the month fits the screen; the week scrolls inside its own box, never the page.
    await onPhone(page, async () => {
      await page.goto(`${app.url}/calendar?view=month&date=${dayParam(day)}`);
      await page
        .getByRole('gridcell', { name: cellName(day) })
        .getByRole('button')
        .first()
        .waitFor();
      expect(await pageScrollWidth(page)).toBeLessThanOrEqual(PHONE.width);
      await snap(page, '76-calendar-month-phone-light');
      await showTheme(page, 'dark');
      await snap(page, '77-calendar-month-phone-dark');
      await page.goto(`${app.url}/calendar?view=week&date=${dayParam(day)}`);
      await page
        .getByRole('gridcell', { name: `${cellName(day)}, 10:00` })
        .getByRole('button')
        .waitFor();
      expect(await pageScrollWidth(page)).toBeLessThanOrEqual(PHONE.width);
      await snap(page, '78-calendar-week-phone-dark');
      await showTheme(page, 'light');
      await snap(page, '79-calendar-week-phone-light');
    });
    await context.close();
  });
});
