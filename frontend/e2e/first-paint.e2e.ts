import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ADA, browserAvailable, callApi, registerOnDashboard, withAppAndBrowser } from './harness.js';

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
  // docs/testing.md, Performance budgets (Lighthouse on the dashboard): on a slow network each of these waited.
  it('a signed-in user reloading the dashboard: its call starts before the page code, no form code loads, and the chart code is fetched after the cards painted', async () => {
    const context = await journey.browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    // Ada, the first account (active at once): registered by the test before, or here when this one runs alone.
    await page.goto(journey.app.url);
    const signedIn = await callApi(page, '/api/auth/login', { email: ADA.email, password: ADA.password });
    if (signedIn.status !== 200) await registerOnDashboard(page, journey.app, ADA);
    await page.goto(`${journey.app.url}/dashboard`);
    await page.locator('.recharts-wrapper').first().waitFor();

    await page.addInitScript(() => {
      const paints: Array<{ time: number; inCards: boolean }> = [];
      (window as unknown as { cardPaints: typeof paints }).cardPaints = paints;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as Array<PerformanceEntry & { element?: Element | null }>)
          paints.push({ time: entry.startTime, inCards: !!entry.element?.closest('.dashboard-grid') });
      }).observe({ type: 'largest-contentful-paint', buffered: true });
    });
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await page.reload();
    await page.locator('.dashboard-card__summary').first().waitFor();
    await page.locator('.recharts-wrapper').first().waitFor();
    const timing = await page.evaluate(() => ({
      resources: performance
        .getEntriesByType('resource')
        .map((entry) => ({ path: new URL(entry.name).pathname, start: entry.startTime })),
      paints: (window as unknown as { cardPaints: Array<{ time: number; inCards: boolean }> }).cardPaints,
    }));
    const started = (pattern: RegExp) => {
      const found = timing.resources.find((r) => pattern.test(r.path));
      expect(found, String(pattern)).toBeDefined();
      return found!.start;
    };

    // The dashboard's call (and the session check) leave before the page's code is asked for.
    const dashboardCall = started(/^\/api\/dashboard$/);
    expect(dashboardCall).toBeLessThan(started(/^\/assets\/Dashboard-[\w-]+\.js$/));
    expect(started(/^\/api\/auth\/me$/)).toBeLessThan(started(/^\/assets\/Shell-[\w-]+\.js$/));

    // The shell loads no change-password dialog (its form code, the modal) before the cards: it comes when it opens.
    const dialogCode = /^\/assets\/(ChangePasswordModal|form|Field|Modal)-[\w-]+\.js$/;
    expect(scripts.filter((path) => dialogCode.test(path))).toEqual([]);

    // The chart code is asked for only once the cards with their figures are on screen.
    const cardsPainted = timing.paints.filter((p) => p.inCards).map((p) => p.time);
    expect(cardsPainted.length).toBeGreaterThan(0);
    expect(started(/^\/assets\/charts-[\w-]+\.js$/)).toBeGreaterThan(Math.min(...cardsPainted));

    // The change-password dialog still opens (its code fetched then).
    await page.getByRole('button', { name: /Ada/ }).click();
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByRole('dialog', { name: 'Change password' }).waitFor();
    await context.close();
  });
});
