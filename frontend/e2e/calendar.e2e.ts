import type { Locator, Page } from 'playwright-core';
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
  type AppJourney,
} from './harness.js';
import { cellName, dayParam, fixedMonth, tokyoAt } from './tokyo.js';
import { onPhone, pageScrollWidth, PHONE, settle, showTheme } from './viewport.js';

const hasBrowser = browserAvailable();

// The user's zone is Tokyo (see tokyo.ts); the browser's clock is in Los Angeles. The calendar is on Tokyo's.
// The browser's clock stands still at 09:30 in Tokyo on Tuesday the 10th of a month of known shape (fixedMonth), so
// every day below is the same cell of the same grid whatever day the suite runs; the server's clock is the real one.
const month = fixedMonth();
const TODAY = month.day(10);
const NOW = new Date(tokyoAt(TODAY, 9.5));
const WINDOW = { width: 1366, height: 900 };

const scheduledBlog = async (page: Page, id: string) =>
  (await callApi(page, `/api/articles/${id}`)).json.article.scheduled.blog as string;

const monthTitle = (day: Date) =>
  new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(day);

/** A page of a new 1366×900 context, signed in as Ada (registered through the welcome page by the first to come). */
async function adaOnCalendarClock({ app, browser }: AppJourney): Promise<Page> {
  const context = await browser.newContext({ timezoneId: 'America/Los_Angeles', locale: 'en-US', viewport: WINDOW });
  const page = await context.newPage();
  await page.goto(app.url);
  const signedIn = await callApi(page, '/api/auth/login', { email: ADA.email, password: ADA.password });
  if (signedIn.status !== 200) await registerOnDashboard(page, app, { ...ADA, timezone: 'Asia/Tokyo' });
  await page.clock.setFixedTime(NOW);
  return page;
}

/** Where the element is, in window pixels. */
async function boxOf(locator: Locator) {
  const box = await locator.boundingBox();
  if (!box) throw new Error('The element is not rendered');
  return { ...box, bottom: box.y + box.height, middle: { x: box.x + box.width / 2, y: box.y + box.height / 2 } };
}

/**
 * Carries a dragged item to (x, y) and rests there. A resting pointer keeps sending dragover in a user's browser; a
 * scripted one sends it only as it moves, and Chromium lets the last of a quick series go: two small nudges make sure
 * the page has heard of the place.
 */
async function carryTo(page: Page, x: number, y: number, steps = 6) {
  await page.mouse.move(x, y, { steps });
  for (const dx of [1, 0]) {
    await page.waitForTimeout(60);
    await page.mouse.move(x + dx, y);
  }
}

/**
 * A user's drag onto `target`, which is out of sight below `bottom` (the window's or the week box's lower edge): the
 * item is picked up, carried to `bottom - 32` (inside the edge where the calendar scrolls, beyond the few pixels where
 * the browser itself would) and held there until the target is wholly in sight, then let go on the target's middle.
 */
async function dragBelowTheFold(page: Page, item: Locator, target: Locator, bottom: () => Promise<number>) {
  const from = await boxOf(item);
  await page.mouse.move(from.middle.x, from.middle.y);
  await page.mouse.down();
  await page.mouse.move(from.middle.x + 12, from.middle.y - 6, { steps: 3 });
  await carryTo(page, (await boxOf(target)).middle.x, (await bottom()) - 32);
  await expect
    .poll(async () => (await boxOf(target)).bottom <= (await bottom()), {
      message: 'the target is wholly in sight while the item is held near the edge',
      timeout: 10_000,
    })
    .toBe(true);
  // Over the target's middle the scroll may go on to the end: the drop waits for it to stop.
  await carryTo(page, (await boxOf(target)).middle.x, (await boxOf(target)).middle.y, 3);
  await expect.poll(() => scrollingStopped(page)).toBe(true);
  await carryTo(page, (await boxOf(target)).middle.x, (await boxOf(target)).middle.y, 2);
  await page.mouse.up();
}

/** Whether neither the page nor the week's box moved in the last 300 ms. */
const scrollingStopped = (page: Page) =>
  page.evaluate(async () => {
    const read = () => `${scrollY}:${document.querySelector('.calendar-scroll')?.scrollTop}`;
    const before = read();
    await new Promise((r) => setTimeout(r, 300));
    return read() === before;
  });

describe.skipIf(!hasBrowser)('calendar journey (Chromium)', () => {
  const journey = withAppAndBrowser();

  it('schedule an article → /calendar → drag it to the next day: the new time is saved; Undo puts the old one back; a past day refuses it', async () => {
    const { app } = journey;
    const page = await adaOnCalendarClock(journey);

    const title = 'Planning a month of posts';
    const id = await createArticleWithDrafts(page, {
      title,
      topic: 'A content calendar for a small team',
      keyword: 'content calendar',
      details: 'One view of everything that goes out.',
      imageDescription: '',
    });
    // The blog at 10:00 in Tokyo on Friday the 13th; LinkedIn at 06:00 on Thursday the 12th (before the week's 08:00).
    const day = month.day(13);
    const at = tokyoAt(day, 10);
    expect(await scheduleVia(page, id, 'blog', at)).toBe(200);
    expect(await scheduleVia(page, id, 'linkedin', tokyoAt(month.day(12), 6))).toBe(200);

    // From the navigation, after Schedule: the month of the browser's today.
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
    await page.getByRole('heading', { name: monthTitle(TODAY) }).waitFor();
    const item = page
      .getByRole('gridcell', { name: cellName(day) })
      .getByRole('button', { name: /^Planning a month of posts, WordPress, Scheduled 10:00/ });
    await item.waitFor();
    // Today is Tokyo's (in Los Angeles it is still the 9th).
    await expect
      .poll(() => page.locator('[aria-current="date"]').getAttribute('aria-label'))
      .toBe(`${cellName(TODAY)}, today`);
    await showTheme(page, 'light');
    await snap(page, '70-calendar-month-light');
    await showTheme(page, 'dark');
    await snap(page, '71-calendar-month-dark');
    await showTheme(page, 'light');

    // Drag to the next day: same time of day.
    const next = month.day(14);
    const target = page.getByRole('gridcell', { name: cellName(next) });
    await item.dragTo(target);
    await page.getByText(/^Rescheduled "Planning a month of posts" \(Blog\) to/).waitFor();
    await target.getByRole('button', { name: /^Planning a month of posts, WordPress, Scheduled 10:00/ }).waitFor();
    await expect.poll(() => scheduledBlog(page, id)).toBe(tokyoAt(next, 10));
    await settle(page);
    await snap(page, '72-calendar-moved-undo-toast');

    // Undo: back to the old day and time.
    await page.getByRole('button', { name: 'Undo' }).click();
    await page.getByText(/"Planning a month of posts" is back at/).waitFor();
    await expect.poll(() => scheduledBlog(page, id)).toBe(at);
    const back = page
      .getByRole('gridcell', { name: cellName(day) })
      .getByRole('button', { name: /^Planning a month of posts, WordPress/ });
    await back.waitFor();

    // Yesterday (Monday the 9th) is past on the user's clock, though still ahead of the server's: while the item is
    // over it the day says so and does not take it; let go there, nothing is sent and the item stays.
    const pastCell = page.getByRole('gridcell', { name: cellName(month.day(9)) });
    const from = await boxOf(back);
    await page.mouse.move(from.middle.x, from.middle.y);
    await page.mouse.down();
    await carryTo(page, (await boxOf(pastCell)).middle.x, (await boxOf(pastCell)).middle.y);
    await pastCell.getByText('In the past').waitFor();
    await settle(page);
    await snap(page, '72b-calendar-past-day-refused');
    await page.mouse.up();
    await page.getByText('Please choose a future date and time.').waitFor();
    await pastCell.getByText('In the past').waitFor({ state: 'detached' });
    expect(await scheduledBlog(page, id)).toBe(at);
    await back.waitFor();

    // Week view: it opens at 08:00; Thursday's 06:00 post is counted above its day, and the now-line is on today.
    await page.getByRole('button', { name: 'Week', exact: true }).click();
    await page
      .getByRole('gridcell', { name: `${cellName(TODAY)}, 09:00` })
      .getByRole('img', { name: 'Now, 09:30' })
      .waitFor();
    const thursday = page.getByRole('columnheader', { name: cellName(month.day(12)) });
    const earlier = thursday.getByRole('button', { name: `1 earlier on ${cellName(month.day(12))}: show` });
    await earlier.waitFor();
    const early = page
      .getByRole('gridcell', { name: `${cellName(month.day(12))}, 06:00` })
      .getByRole('button', { name: /^Planning a month of posts, LinkedIn, Scheduled 06:00/ });
    expect(await inWeekBox(page, early)).toBe(false);
    await settle(page);
    await snap(page, '73a-calendar-week-earlier-marker');
    await earlier.click();
    await expect.poll(() => inWeekBox(page, early)).toBe(true);
    await expect.poll(() => early.evaluate((el) => el === document.activeElement)).toBe(true);
    await earlier.waitFor({ state: 'detached' });

    // The item in its hour; the click opens its card actions.
    await page.goto(`${app.url}/calendar?view=week&date=${dayParam(day)}`);
    const slot = page.getByRole('gridcell', { name: `${cellName(day)}, 10:00` });
    const weekItem = slot.getByRole('button', { name: /^Planning a month of posts, WordPress/ });
    await weekItem.waitFor();
    await weekItem.scrollIntoViewIfNeeded();
    await snap(page, '73-calendar-week-light');
    await showTheme(page, 'dark');
    await snap(page, '74-calendar-week-dark');
    await weekItem.click();
    const dialog = page.getByRole('dialog', { name: /^WordPress · / });
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
    await page.context().close();
  });

  it("the month's last day → the next month's first, in the sixth row below the fold: held near the window's bottom, the page scrolls to it; in the week the hours scroll to a late one", async () => {
    const { app } = journey;
    const page = await adaOnCalendarClock(journey);
    const title = 'End of the month';
    const id = await createArticleWithDrafts(page, {
      title,
      topic: 'Closing the books',
      keyword: 'month end',
      details: 'What goes out on the last day.',
      imageDescription: '',
    });
    expect(await scheduleVia(page, id, 'blog', tokyoAt(month.last, 10))).toBe(200);
    const itemName = /^End of the month, WordPress, Scheduled 10:00/;

    await page.goto(`${app.url}/calendar`);
    await page.getByRole('heading', { name: monthTitle(TODAY) }).waitFor();
    const item = page.getByRole('gridcell', { name: cellName(month.last) }).getByRole('button', { name: itemName });
    await item.waitFor();
    const target = page.getByRole('gridcell', { name: cellName(month.nextFirst) });
    // The next month's first day ends the grid, greyed as another month's, and is not wholly in the window.
    expect(await target.getAttribute('class')).toMatch(/\bis-outside\b/);
    expect((await boxOf(target)).bottom).toBeGreaterThan(WINDOW.height);
    expect(await page.evaluate(() => scrollY)).toBe(0);

    await dragBelowTheFold(page, item, target, async () => WINDOW.height);
    await page.getByText(/^Rescheduled "End of the month" \(Blog\) to/).waitFor();
    await target.getByRole('button', { name: itemName }).waitFor();
    await expect.poll(() => scheduledBlog(page, id)).toBe(tokyoAt(month.nextFirst, 10));
    await settle(page);
    await snap(page, '72c-calendar-month-boundary-below-the-fold');
    // Next month, it is on its first day.
    await page.getByRole('button', { name: /Next month/ }).click();
    await page.getByRole('heading', { name: monthTitle(month.nextFirst) }).waitFor();
    await page
      .getByRole('gridcell', { name: cellName(month.nextFirst) })
      .getByRole('button', { name: itemName })
      .waitFor();

    // The week opens at 08:00 in a box of its own: 23:00 is below the box's edge until the hours scroll.
    await page.goto(`${app.url}/calendar?view=week&date=${dayParam(month.nextFirst)}`);
    const weekItem = page.getByRole('gridcell', { name: `${cellName(month.nextFirst)}, 10:00` }).getByRole('button');
    await weekItem.waitFor();
    const late = page.getByRole('gridcell', { name: `${cellName(month.nextFirst)}, 23:00` });
    const boxBottom = async () => (await boxOf(page.locator('.calendar-scroll'))).bottom;
    expect((await boxOf(late)).bottom).toBeGreaterThan(await boxBottom());
    await dragBelowTheFold(page, weekItem, late, boxBottom);
    await late.getByRole('button', { name: /^End of the month, WordPress, Scheduled 23:00/ }).waitFor();
    await expect.poll(() => scheduledBlog(page, id)).toBe(tokyoAt(month.nextFirst, 23));
    await page.context().close();
  });
});

/** Whether the element is wholly in sight inside the week's scrolling box, below its sticky head. */
const inWeekBox = (page: Page, locator: Locator) =>
  locator.evaluate((el) => {
    const box = el.closest('.calendar-scroll')!.getBoundingClientRect();
    const head = el.closest('.calendar-scroll')!.querySelector('.calendar-grid__head')!.getBoundingClientRect();
    const own = el.getBoundingClientRect();
    return own.top >= head.bottom && own.bottom <= box.bottom && own.bottom <= window.innerHeight;
  });
