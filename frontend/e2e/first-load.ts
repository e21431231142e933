/**
 * What the welcome page loads from the built SPA (frontend/dist): the entry script and module
 * preloads of index.html with everything they statically import. Shared by bundle.e2e.ts and
 * `npm run bench` (docs/testing.md, Performance budgets). No browser needed.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

export const DEFAULT_DIST = resolve(dirname(fileURLToPath(import.meta.url)), '../dist');
export const WELCOME_BUDGET_GZIP_BYTES = 150 * 1000;
/** Strings only react-datepicker's code carries (its CSS class names). */
export const DATEPICKER = /react-datepicker__(time-list-item|day--selected|input-container)/;
/** Strings only recharts' code carries (its CSS class names). */
export const RECHARTS = /recharts-(wrapper|surface|cartesian|area|bar|pie)/;
/** Strings only marked's and sanitize-html's code carry (an error text of each, and an option only the sanitizer reads). */
export const MARKDOWN = /markedjs\/marked|allowedSchemesAppliedToAttributes/;

export const readDist = (file: string, dist = DEFAULT_DIST) => readFileSync(join(dist, file), 'utf8');

/** `import … from "./x.js"` and `import "./x.js"`, not `import("./x.js")`. */
export function staticImports(code: string): string[] {
  const found = new Set<string>();
  for (const m of code.matchAll(/(?:from|import)\s*["'`]\.\/([^"'`]+\.js)["'`]/g)) found.add(m[1]!);
  return [...found];
}

export function dynamicImports(code: string): string[] {
  return [...code.matchAll(/import\(\s*["'`]\.\/([^"'`]+\.js)["'`]\s*\)/g)].map((m) => m[1]!);
}

/** The entry script and module preloads of index.html, with everything they statically import (names under assets/). */
export function firstLoad(dist = DEFAULT_DIST): string[] {
  const html = readDist('index.html', dist);
  const start = [...html.matchAll(/(?:src|href)="\/assets\/([^"]+\.js)"/g)].map((m) => m[1]!);
  const seen = new Set<string>();
  const queue = [...start];
  while (queue.length) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    queue.push(...staticImports(readDist(join('assets', file), dist)));
  }
  return [...seen];
}

export interface WelcomeLoad {
  /** Each first-load script with its gzipped size (level 9). */
  files: { file: string; gzip: number }[];
  totalGzip: number;
  /** First-load scripts that carry chart (recharts) or date-picker code. */
  withCharts: string[];
  withDatepicker: string[];
}

/** The welcome page's first-load JavaScript: gzipped sizes and whether chart or date-picker code is in it. */
export function welcomeLoad(dist = DEFAULT_DIST): WelcomeLoad {
  const names = firstLoad(dist);
  const code = new Map(names.map((file) => [file, readDist(join('assets', file), dist)]));
  const files = names.map((file) => ({ file, gzip: gzipSync(code.get(file)!, { level: 9 }).length }));
  return {
    files,
    totalGzip: files.reduce((sum, f) => sum + f.gzip, 0),
    withCharts: names.filter((f) => RECHARTS.test(code.get(f)!)),
    withDatepicker: names.filter((f) => DATEPICKER.test(code.get(f)!)),
  };
}
