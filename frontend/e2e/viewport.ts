import type { Locator, Page } from 'playwright-core';

/** The phone size the layout is checked at (390×844, an iPhone 12–14). */
export const PHONE = { width: 390, height: 844 } as const;

/** Runs `check` with the page at the phone's size, then puts the page back at its own size. */
export async function onPhone(page: Page, check: () => Promise<void>): Promise<void> {
  const own = page.viewportSize();
  await page.setViewportSize(PHONE);
  // The side nav slides away into its drawer when the viewport narrows: let that transition end first.
  // A transition replaced by another is cancelled, and its `finished` rejects: that one has ended too.
  await page.evaluate(() =>
    Promise.all(document.getAnimations().map((animation) => animation.finished.catch(() => undefined))),
  );
  try {
    await check();
  } finally {
    if (own) await page.setViewportSize(own);
  }
}

/** Where the element ends on the right, in viewport pixels (past the viewport's width: off-screen). */
export async function rightEdgeOf(locator: Locator): Promise<number> {
  const box = await locator.boundingBox();
  if (!box) throw new Error('The element is not rendered');
  return box.x + box.width;
}

/** Whether the page itself scrolls sideways (something is wider than the viewport). */
export const pageScrollWidth = (page: Page): Promise<number> =>
  page.evaluate(() => document.documentElement.scrollWidth);

/**
 * Waits until the finite CSS animations and transitions (colour fades, a modal's or a toast's entrance) are over,
 * so a screenshot or an axe run sees the colours as they stay. A toast's progress bar runs for as long as the
 * toast stays (finite, but seconds): not waited for; infinite ones (spinners) neither.
 */
export const settle = (page: Page): Promise<void> =>
  page.evaluate(async () => {
    const finite = document.getAnimations().filter((animation) => {
      const target = (animation.effect as KeyframeEffect | null)?.target;
      if (target instanceof Element && target.closest('.Toastify__progress-bar')) return false;
      return Number.isFinite(Number(animation.effect?.getComputedTiming().endTime));
    });
    await Promise.all(finite.map((animation) => animation.finished.catch(() => undefined)));
  });

/**
 * Switches the theme as another tab of the app would (useTheme listens to `storage`), so an open modal or a
 * half-filled form stays as it is, then lets the colour fades end.
 */
export async function showTheme(page: Page, theme: 'light' | 'dark'): Promise<void> {
  await page.evaluate((next) => {
    localStorage.setItem('app-theme', next);
    window.dispatchEvent(new StorageEvent('storage', { key: 'app-theme', newValue: next }));
  }, theme);
  await page.waitForFunction((next) => document.documentElement.dataset.theme === next, theme);
  await settle(page);
}
