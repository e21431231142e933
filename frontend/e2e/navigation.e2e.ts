import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ADA, browserAvailable, registerOnDashboard, withAppAndBrowser } from './harness.js';

const hasBrowser = browserAvailable();

const scrollY = (page: Page) => page.evaluate(() => Math.round(window.scrollY));

/** Scrolls the window as a person would (a wheel turn), so the page sees the scroll events it would see. */
async function scrollTo(page: Page, top: number): Promise<number> {
  await page.mouse.move(700, 500);
  await page.mouse.wheel(0, top - (await scrollY(page)));
  await expect.poll(() => scrollY(page)).toBeGreaterThan(0);
  return scrollY(page);
}

/** How far below the sticky top bar the page's title starts (negative: hidden under it). */
async function titleBelowTopBar(page: Page, title: string): Promise<number> {
  const heading = page.getByRole('heading', { level: 1, name: title });
  await heading.waitFor();
  const [top, bar] = await Promise.all([
    heading.evaluate((el) => el.getBoundingClientRect().top),
    page.locator('.topbar').evaluate((el) => el.getBoundingClientRect().bottom),
  ]);
  return top - bar;
}

describe.skipIf(!hasBrowser)('navigation journey (Chromium)', () => {
  const journey = withAppAndBrowser();

  it('a page opened from the navigation starts at its top, its title below the top bar; Back and Forward return to where each page was scrolled', async () => {
    const { app, browser } = journey;
    const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    const page = await context.newPage();
    await registerOnDashboard(page, app, ADA);
    const nav = page.getByRole('navigation', { name: 'Main' });

    // Settings is the longest page: scrolled down to its API keys.
    await nav.getByRole('link', { name: 'Settings' }).click();
    await page.waitForURL(/\/settings$/);
    await page.getByText('No API keys found. Add your first key using the form.').waitFor();
    const settingsY = await scrollTo(page, 5000);
    expect(settingsY).toBeGreaterThan(600);

    await nav.getByRole('link', { name: 'Calendar' }).click();
    await page.waitForURL(/\/calendar$/);
    expect(await titleBelowTopBar(page, 'Calendar')).toBeGreaterThanOrEqual(0);
    expect(await scrollY(page)).toBe(0);
    await page.getByRole('grid').waitFor();
    const calendarY = await scrollTo(page, 150);

    await nav.getByRole('link', { name: 'Create' }).click();
    await page.waitForURL(/\/create$/);
    expect(await titleBelowTopBar(page, 'Create Article')).toBeGreaterThanOrEqual(0);
    expect(await scrollY(page)).toBe(0);

    await page.goBack();
    await page.waitForURL(/\/calendar$/);
    await expect.poll(() => scrollY(page)).toBe(calendarY);
    await page.goBack();
    await page.waitForURL(/\/settings$/);
    await expect.poll(() => scrollY(page)).toBe(settingsY);
    await page.goForward();
    await page.waitForURL(/\/calendar$/);
    await expect.poll(() => scrollY(page)).toBe(calendarY);

    // A reload keeps the place too, as the browser's own restoration would.
    await page.reload();
    await page.getByRole('grid').waitFor();
    await expect.poll(() => scrollY(page)).toBe(calendarY);

    // A page opened by its address in the same tab (a new document) starts at its top, however far down the tab's
    // first page was scrolled: each document's first entry has the same router key, and its load is no Back. A low
    // window makes every page taller than it, so a wrong restore would show as a scroll.
    await page.setViewportSize({ width: 1366, height: 300 });
    await page.goto(`${app.url}/settings`);
    await page.getByText('No API keys found. Add your first key using the form.').waitFor();
    expect(await scrollTo(page, 5000)).toBeGreaterThan(600);
    for (const [path, title] of [
      ['/dashboard', 'Dashboard'],
      ['/calendar', 'Calendar'],
      ['/create', 'Create Article'],
      ['/schedule', 'Schedule'],
    ] as const) {
      await page.goto(`${app.url}${path}`);
      await page.getByRole('heading', { level: 1, name: title }).waitFor();
      await page.waitForLoadState('networkidle');
      // Two frames: a restore under way would have scrolled by now (it tries on every frame).
      await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
      // It can scroll: a restore of Settings' place (far down) would show.
      expect(
        await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight),
        path,
      ).toBeGreaterThan(0);
      expect(await scrollY(page), path).toBe(0);
    }
    // Back to the scrolled Settings document still returns to its place.
    await page.goto(`${app.url}/settings`);
    await page.getByText('No API keys found. Add your first key using the form.').waitFor();
    const again = await scrollTo(page, 5000);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Calendar' }).click();
    await page.waitForURL(/\/calendar$/);
    await page.goBack();
    await page.waitForURL(/\/settings$/);
    await expect.poll(() => scrollY(page)).toBe(again);
    await context.close();
  });
});
