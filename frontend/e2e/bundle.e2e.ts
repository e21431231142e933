/**
 * The performance budgets (docs/testing.md) on the built SPA (frontend/dist, as `npm test` builds it): the welcome page's
 * first-load JavaScript stays within 150 KB gzipped and the chart library loads only with
 * /dashboard. No browser needed: it follows the chunks' static imports from index.html.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  DATEPICKER,
  DEFAULT_DIST as dist,
  MARKDOWN,
  RECHARTS,
  WELCOME_BUDGET_GZIP_BYTES as BUDGET_GZIP_BYTES,
  dynamicImports,
  firstLoad,
  readDist as read,
  staticImports,
  welcomeLoad,
} from './first-load.js';

describe.skipIf(!existsSync(join(dist, 'index.html')))('built SPA budgets', () => {
  it('the welcome page loads ≤ 150 KB of gzipped JavaScript and no chart code', () => {
    const { files, totalGzip, withCharts, withDatepicker } = welcomeLoad();
    console.log(
      `welcome first load: ${(totalGzip / 1000).toFixed(1)} kB gzipped (${files.map((s) => `${s.file} ${(s.gzip / 1000).toFixed(1)}`).join(', ')})`,
    );
    expect(totalGzip).toBeLessThanOrEqual(BUDGET_GZIP_BYTES);
    expect(withCharts, 'first-load scripts with chart code').toEqual([]);
    expect(withDatepicker, 'first-load scripts with date-picker code').toEqual([]);
  });

  it('react-datepicker loads only with the schedule modal, which only the Schedule and Calendar pages import, on demand', () => {
    const html = read('index.html');
    const entry = /src="\/assets\/(index-[^"]+\.js)"/.exec(html)![1]!;
    const lazyPages = dynamicImports(read(join('assets', entry)));
    const schedule = lazyPages.find((f) => /^Schedule-/.test(f));
    expect(schedule, 'a lazy Schedule chunk').toBeTruthy();
    const scheduleCode = read(join('assets', schedule!));
    expect(scheduleCode).not.toMatch(DATEPICKER);
    expect(staticImports(scheduleCode).some((f) => DATEPICKER.test(read(join('assets', f))))).toBe(false);
    const pickers = dynamicImports(scheduleCode).filter((f) => DATEPICKER.test(read(join('assets', f))));
    expect(pickers).toHaveLength(1);
    const gzip = gzipSync(read(join('assets', pickers[0]!)), { level: 9 }).length;
    console.log(`schedule modal chunk ${pickers[0]}: ${(gzip / 1000).toFixed(1)} kB gzipped`);
    // The calendar's Reschedule dialog is the same modal, also fetched on demand.
    const calendar = lazyPages.find((f) => /^Calendar-/.test(f));
    expect(calendar, 'a lazy Calendar chunk').toBeTruthy();
    const calendarCode = read(join('assets', calendar!));
    expect(staticImports(calendarCode)).not.toContain(pickers[0]);
    expect(dynamicImports(calendarCode)).toContain(pickers[0]);
    for (const page of lazyPages.filter((f) => f !== schedule && f !== calendar)) {
      const code = read(join('assets', page));
      expect([...staticImports(code), ...dynamicImports(code)], page).not.toContain(pickers[0]);
    }
  });

  it("the Markdown renderer and sanitizer load only with the content step's previews, which the Create, Approve and Review pages import on demand", () => {
    const first = firstLoad(dist);
    expect(
      first.filter((f) => MARKDOWN.test(read(join('assets', f)))),
      'first-load scripts with Markdown code',
    ).toEqual([]);
    const html = read('index.html');
    const entry = /src="\/assets\/(index-[^"]+\.js)"/.exec(html)![1]!;
    const create = dynamicImports(read(join('assets', entry))).find((f) => /^Create-/.test(f));
    expect(create, 'a lazy Create chunk').toBeTruthy();
    const createCode = read(join('assets', create!));
    expect(createCode).not.toMatch(MARKDOWN);
    expect(staticImports(createCode).some((f) => MARKDOWN.test(read(join('assets', f))))).toBe(false);
    // The page, or a chunk it imports (the channels' registry, frontend/src/channels/registry.ts), fetches the blog
    // previews on demand: each is a chunk of its own that brings the Markdown code, itself or through a chunk they
    // share (two blog channels preview the same HTML).
    const brings = (f: string) =>
      [f, ...staticImports(read(join('assets', f)))].some((c) => MARKDOWN.test(read(join('assets', c))));
    const previews = [create!, ...staticImports(createCode)]
      .flatMap((f) => dynamicImports(read(join('assets', f))))
      .filter((f, index, all) => all.indexOf(f) === index && brings(f));
    expect(previews.length).toBeGreaterThanOrEqual(1);
    for (const preview of previews) expect(preview).toMatch(/^[A-Za-z]+Preview-/);
    const blog = previews.find((f) => /^WordPressPreview-/.test(f));
    expect(blog, 'the WordPress preview brings the Markdown code').toBeTruthy();
    // The approval and review pages show the same previews (components/review/LinkPostPreview.tsx, through the
    // registry), fetched on demand as well.
    for (const page of ['Approve', 'Review']) {
      const chunk = dynamicImports(read(join('assets', entry))).find((f) => new RegExp(`^${page}-`).test(f));
      expect(chunk, `a lazy ${page} chunk`).toBeTruthy();
      const code = read(join('assets', chunk!));
      expect(code).not.toMatch(MARKDOWN);
      const loaded = [chunk!, ...staticImports(code)];
      expect(
        loaded.filter((f) => MARKDOWN.test(read(join('assets', f)))),
        `${page}: Markdown loaded with it`,
      ).toEqual([]);
      expect(loaded.flatMap((f) => dynamicImports(read(join('assets', f))))).toContain(blog);
    }
    const blogChunks = [
      blog!,
      ...staticImports(read(join('assets', blog!))).filter((f) => MARKDOWN.test(read(join('assets', f)))),
    ];
    const gzip = blogChunks.reduce((sum, f) => sum + gzipSync(read(join('assets', f)), { level: 9 }).length, 0);
    console.log(`blog preview ${blogChunks.join(' + ')}: ${(gzip / 1000).toFixed(1)} kB gzipped`);
  });

  it('recharts is in a chunk that only the Dashboard page imports, on demand', () => {
    const html = read('index.html');
    const entry = /src="\/assets\/(index-[^"]+\.js)"/.exec(html)![1]!;
    const dashboard = dynamicImports(read(join('assets', entry))).find((f) => /^Dashboard-/.test(f));
    expect(dashboard, 'a lazy Dashboard chunk').toBeTruthy();
    const dashboardCode = read(join('assets', dashboard!));
    expect(dashboardCode).not.toMatch(RECHARTS);
    const charts = dynamicImports(dashboardCode).filter((f) => RECHARTS.test(read(join('assets', f))));
    expect(charts).toHaveLength(1);
    const gzip = gzipSync(read(join('assets', charts[0]!)), { level: 9 }).length;
    console.log(`dashboard charts chunk ${charts[0]}: ${(gzip / 1000).toFixed(1)} kB gzipped`);
    // No other page reaches the chart chunk, statically or on demand.
    for (const page of ['Schedule', 'History', 'Create', 'Settings', 'Admin', 'Shell', 'AuthModal']) {
      const chunk = dynamicImports(read(join('assets', entry))).find((f) => f.startsWith(`${page}-`));
      if (!chunk) continue;
      const code = read(join('assets', chunk));
      expect([...staticImports(code), ...dynamicImports(code)], page).not.toContain(charts[0]);
    }
  });
});
