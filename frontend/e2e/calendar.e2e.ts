import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  ADA,
  browserAvailable,
  callApi,
  createArticleWithDrafts,
  registerOnDashboard,
  snap,
  withAppAndBrowser,
} from './harness.js';
import { onPhone, pageScrollWidth, PHONE } from './viewport.js';

const hasBrowser = browserAvailable();

// The user's zone is Tokyo (UTC+9 all year); the browser's clock is in Los Angeles. The calendar is on Tokyo's.
const TOKYO_MS = 9 * 60 * 60_000;
const DAY_MS = 24 * 60 * 60_000;
/** The UTC-midnight Date of the Tokyo calendar day `days` after today's. */
function tokyoDay(days: number): Date {
  const tokyo = new Date(Date.now() + TOKYO_MS);
  return new Date(Date.UTC(tokyo.getUTCFullYear(), tokyo.getUTCMonth(), tokyo.getUTCDate() + days));
}
/** The instant of `hour`:00 in Tokyo on `day`. */
const tokyoAt = (day: Date, hour: number) => new Date(day.getTime() + hour * 60 * 60_000 - TOKYO_MS).toISOString();
const key = (day: Date) => day.toISOString().slice(0, 10);
/** A day cell's accessible name, "Thursday, November 26, 2026", as the page writes it (en-US). */
const cellName = (day: Date) =>
  new Intl.DateTimeFormat('en-US', {
    weekday: 'long',
    month: 'long',
    day: 'numeric',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(day);

async function theme(page: Page, next: 'light' | 'dark') {
  await page.evaluate((value) => {
    localStorage.setItem('app-theme', value);
    window.dispatchEvent(new StorageEvent('storage', { key: 'app-theme', newValue: value }));
  }, next);
  await page.waitForFunction((value) => document.documentElement.dataset.theme === value, next);
  await settle(page);
}

/** Waits for the finite animations (the theme's colour fades, a toast's entrance) to end before a screenshot. */
const settle = (page: Page) =>
  page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => {
          // A toast's progress bar runs for as long as the toast stays: not waited for.
          const target = (animation.effect as KeyframeEffect | null)?.target;
          if (target instanceof Element && target.closest('.Toastify__progress-bar')) return false;
          return Number.isFinite(Number(animation.effect?.getComputedTiming().endTime));
        })
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );

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
    const scheduled = await page.evaluate(
      async ({ id, at }) =>
        (
          await fetch(`/api/articles/${id}/schedule`, {
            method: 'PUT',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ platform: 'blog', datetime: at }),
          })
        ).status,
      { id, at },
    );
    expect(scheduled).toBe(200);
    const linkedinAt = tokyoAt(tokyoDay(5), 16);
    await page.evaluate(
      async ({ id, at }) =>
        fetch(`/api/articles/${id}/schedule`, {
          method: 'PUT',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ platform: 'linkedin', datetime: at }),
        }),
      { id, at: linkedinAt },
    );

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
    await page.goto(`${app.url}/calendar?view=month&date=${key(day)}`);
    const item = page
      .getByRole('gridcell', { name: cellName(day) })
      .getByRole('button', { name: /^Planning a month of posts, Blog, Scheduled 10:00/ });
    await item.waitFor();
    // Today is Tokyo's.
    await expect
      .poll(() => page.locator('[aria-current="date"]').getAttribute('aria-label'))
      .toBe(`${cellName(tokyoDay(0))}, today`);
    await theme(page, 'light');
    await snap(page, '70-calendar-month-light');
    await theme(page, 'dark');
    await snap(page, '71-calendar-month-dark');
    await theme(page, 'light');

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
    await page.goto(`${app.url}/calendar?view=week&date=${key(day)}`);
    const slot = page.getByRole('gridcell', { name: `${cellName(day)}, 10:00` });
    const weekItem = slot.getByRole('button', { name: /^Planning a month of posts, Blog/ });
    await weekItem.waitFor();
    await weekItem.scrollIntoViewIfNeeded();
    await snap(page, '73-calendar-week-light');
    await theme(page, 'dark');
    await snap(page, '74-calendar-week-dark');
    await weekItem.click();
    const dialog = page.getByRole('dialog', { name: /^Blog · / });
    await dialog.getByRole('article', { name: title }).waitFor();
    await snap(page, '75-calendar-card-actions-dark');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await theme(page, 'light');

    // Phones: the month fits the screen; the week scrolls inside its own box, never the page.
    await onPhone(page, async () => {
      await page.goto(`${app.url}/calendar?view=month&date=${key(day)}`);
      await page
        .getByRole('gridcell', { name: cellName(day) })
        .getByRole('button')
        .first()
        .waitFor();
      expect(await pageScrollWidth(page)).toBeLessThanOrEqual(PHONE.width);
      await snap(page, '76-calendar-month-phone-light');
      await theme(page, 'dark');
      await snap(page, '77-calendar-month-phone-dark');
      await page.goto(`${app.url}/calendar?view=week&date=${key(day)}`);
      await page
        .getByRole('gridcell', { name: `${cellName(day)}, 10:00` })
        .getByRole('button')
        .waitFor();
      expect(await pageScrollWidth(page)).toBeLessThanOrEqual(PHONE.width);
      await snap(page, '78-calendar-week-phone-dark');
      await theme(page, 'light');
      await snap(page, '79-calendar-week-phone-light');
    });
    await context.close();
  });
});
