/**
 * DESIGN.md §6 on the built SPA (frontend/dist, as `npm test` builds it): the welcome page's
 * first-load JavaScript stays within 150 KB gzipped and the chart library loads only with
 * /dashboard. No browser needed: it follows the chunks' static imports from index.html.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

const dist = resolve(dirname(fileURLToPath(import.meta.url)), '../dist');
const BUDGET_GZIP_BYTES = 150 * 1000;
/** Strings only react-datepicker's code carries (its CSS class names). */
const DATEPICKER = /react-datepicker__(time-list-item|day--selected|input-container)/;
/** Strings only recharts' code carries (its CSS class names). */
const RECHARTS = /recharts-(wrapper|surface|cartesian|area|bar|pie)/;

const read = (file: string) => readFileSync(join(dist, file), 'utf8');

/** `import … from "./x.js"` and `import "./x.js"`, not `import("./x.js")`. */
function staticImports(code: string): string[] {
  const found = new Set<string>();
  for (const m of code.matchAll(/(?:from|import)\s*["'`]\.\/([^"'`]+\.js)["'`]/g)) found.add(m[1]!);
  return [...found];
}

function dynamicImports(code: string): string[] {
  return [...code.matchAll(/import\(\s*["'`]\.\/([^"'`]+\.js)["'`]\s*\)/g)].map((m) => m[1]!);
}

/** The entry script and module preloads of index.html, with everything they statically import. */
function firstLoad(): string[] {
  const html = read('index.html');
  const start = [...html.matchAll(/(?:src|href)="\/assets\/([^"]+\.js)"/g)].map((m) => m[1]!);
  const seen = new Set<string>();
  const queue = [...start];
  while (queue.length) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    queue.push(...staticImports(read(join('assets', file))));
  }
  return [...seen];
}

describe.skipIf(!existsSync(join(dist, 'index.html')))('built SPA budgets (DESIGN.md §6)', () => {
  it('the welcome page loads ≤ 150 KB of gzipped JavaScript and no chart code', () => {
    const files = firstLoad();
    const sizes = files.map((file) => ({ file, gzip: gzipSync(read(join('assets', file)), { level: 9 }).length }));
    const total = sizes.reduce((sum, s) => sum + s.gzip, 0);
    console.log(`welcome first load: ${(total / 1000).toFixed(1)} kB gzipped (${sizes.map((s) => `${s.file} ${(s.gzip / 1000).toFixed(1)}`).join(', ')})`);
    expect(total).toBeLessThanOrEqual(BUDGET_GZIP_BYTES);
    for (const file of files) expect(read(join('assets', file)), file).not.toMatch(RECHARTS);
    for (const file of files) expect(read(join('assets', file)), file).not.toMatch(DATEPICKER);
  });

  it('react-datepicker loads only with the schedule modal, which only the Schedule page imports, on demand', () => {
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
    for (const page of lazyPages.filter((f) => f !== schedule)) {
      const code = read(join('assets', page));
      expect([...staticImports(code), ...dynamicImports(code)], page).not.toContain(pickers[0]);
    }
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
