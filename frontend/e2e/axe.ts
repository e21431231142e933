import axe from 'axe-core';
import type { AxeResults } from 'axe-core';
import type { Page } from 'playwright-core';

/** axe's rules for WCAG 2.0 and 2.1, levels A and AA: what every journey's audit runs. */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

export type AxeViolation = AxeResults['violations'][number];

/**
 * Runs axe (the WCAG A/AA rules) on what the page shows now, within `include` or without `exclude` (CSS selectors);
 * its violations. axe-core's ~550 KB are evaluated once per document and kept there for the next audit (a theme
 * switch, a modal, a page the SPA routes to): evaluated again at every audit, as @axe-core/playwright's builder does
 * (twice, with a blank page for its results), they cost about 0.5 s an audit, most of an audit's time, on the 2-core
 * test machine. The checks are axe's own `axe.run`, as the builder's legacy mode runs them. The app has no frames:
 * a page with one fails here rather than leaving the frame unchecked.
 */
export async function axeViolations(
  page: Page,
  scope: { include?: string; exclude?: string } = {},
): Promise<AxeViolation[]> {
  const frames = page.frames().filter((frame) => frame !== page.mainFrame());
  if (frames.length > 0) throw new Error(`axeViolations checks no frames: ${frames.map((f) => f.url()).join(', ')}`);
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  const context = {
    ...(scope.include ? { include: [[scope.include]] } : {}),
    ...(scope.exclude ? { exclude: [[scope.exclude]] } : {}),
  };
  const results = await page.evaluate(
    ({ context, tags }) =>
      (window as unknown as { axe: typeof axe }).axe.run(
        (context.include || context.exclude ? context : document) as axe.ElementContext,
        { runOnly: { type: 'tag', values: tags } },
      ),
    { context, tags: WCAG_TAGS },
  );
  return results.violations;
}
