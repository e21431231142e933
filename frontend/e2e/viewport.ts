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
