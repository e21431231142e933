import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ADA, browserAvailable, registerOnDashboard, withAppAndBrowser } from './harness.js';

const hasBrowser = browserAvailable();

/** Holds back the app's JavaScript (every script under /assets/), as a slow network would. */
async function withoutAppScripts(page: Page): Promise<() => Promise<void>> {
  const held: Array<() => Promise<void>> = [];
  let released = false;
  await page.route(/\/assets\/.*\.js$/, (route) => (released ? route.continue() : held.push(() => route.continue())));
  return async () => {
    released = true;
    await Promise.all(held.splice(0).map((release) => release()));
    await page.unrouteAll();
  };
}

describe.skipIf(!hasBrowser)('the first paint (Chromium)', () => {
  const journey = withAppAndBrowser();

  it('a signed-out visitor sees the welcome page before the app JavaScript has loaded; the app then takes over', async () => {
    const page = await journey.browser.newPage({ colorScheme: 'dark' });
    const release = await withoutAppScripts(page);
    await page.goto(journey.app.url, { waitUntil: 'commit' });
    const heading = page.getByRole('heading', { level: 1, name: /publish content across every channel/i });
    await expect.poll(() => heading.isVisible()).toBe(true);
    // In the visitor's theme from the start (public/boot.js), not light first.
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    expect(await page.locator('[data-prerendered] .logo--dark').isVisible()).toBe(true);
    expect(await page.locator('[data-prerendered] .logo--light').isVisible()).toBe(false);

    await release();
    await page.waitForURL(/\/welcome$/);
    await page.getByRole('button', { name: 'Register', exact: true }).click();
    await page.getByRole('dialog').waitFor();
    expect(await page.locator('[data-prerendered]').count()).toBe(0);
    await page.close();
  });

  it('a signed-in user opening / or /dashboard never sees the welcome page', async () => {
    const context = await journey.browser.newContext();
    const page = await context.newPage();
    await registerOnDashboard(page, journey.app, ADA);

    for (const path of ['/', '/dashboard']) {
      const release = await withoutAppScripts(page);
      await page.goto(`${journey.app.url}${path}`, { waitUntil: 'commit' });
      // Painted without the app: nothing of the welcome page is visible.
      await page.waitForFunction(() => document.documentElement.dataset.welcome !== undefined && !!document.body);
      await page.waitForTimeout(300);
      expect(await page.getByRole('button', { name: 'Register' }).isVisible()).toBe(false);
      expect(await page.getByRole('heading', { level: 1 }).count()).toBe(0);

      // And while the app checks the session, the welcome page does not flash either.
      const seenWelcome = page.evaluate(
        () =>
          new Promise<boolean>((done) => {
            const seen = () =>
              [...document.querySelectorAll('h1')].some(
                (h) => h.checkVisibility() && /publish content/i.test(h.textContent ?? ''),
              );
            const observer = new MutationObserver(() => {
              if (seen()) done(true);
            });
            observer.observe(document, { subtree: true, childList: true });
            setTimeout(() => done(seen()), 4000);
          }),
      );
      await release();
      await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
      expect(await seenWelcome).toBe(false);
    }
    await context.close();
  });
});
