/**
 * Lighthouse scores of the welcome page and the dashboard for `npm run bench` (index.ts): the app as
 * `npm start` runs it (lighthouse-app.ts), Lighthouse's default configuration (a phone with simulated
 * mobile throttling), several runs per page in a fresh Chromium and the median of each figure.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const chromePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface LighthouseScores {
  /** 0–100, as Lighthouse shows them. */
  performance: number;
  accessibility: number;
  bestPractices: number;
  lcpMs: number;
}

export interface LighthouseRun extends LighthouseScores {
  /** What Lighthouse found worth reporting: the LCP element, failed audits, opportunities. */
  notes: string[];
}

interface App {
  url: string;
  email: string;
  password: string;
  stop(): Promise<void>;
}

/** Starts lighthouse-app.ts on a free port with a fresh data folder; resolves when it is seeded. */
export async function startBenchApp(): Promise<App> {
  const dataDir = mkdtempSync(join(tmpdir(), 'cp-lighthouse-'));
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'scripts/bench/lighthouse-app.ts'], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, POWERTOOLS_LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'WARN' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const ready = await new Promise<{ url: string; email: string; password: string }>((done, fail) => {
      child.once('exit', (code) => fail(new Error(`the app for Lighthouse exited with ${code} before it was ready`)));
      createInterface({ input: child.stdout! }).on('line', (line) => {
        if (line.startsWith('{')) done(JSON.parse(line));
      });
    });
    return { ...ready, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

const percent = (score: number | null | undefined) => Math.round((score ?? 0) * 100);

/** One Lighthouse run of `url` in the Chromium listening on `port`. */
async function runOnce(url: string, port: number): Promise<LighthouseRun> {
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance', 'accessibility', 'best-practices'],
  });
  if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
  const { lhr } = result;
  // BENCH_LIGHTHOUSE_REPORTS=<folder>: keep each run's full report (open it in the Lighthouse viewer).
  const reports = process.env.BENCH_LIGHTHOUSE_REPORTS;
  if (reports) {
    mkdirSync(reports, { recursive: true });
    const name = `${new URL(url).pathname.replace(/\W+/g, '_') || '_'}-${Date.now()}.json`;
    writeFileSync(join(reports, name), result.report as string);
  }
  if (lhr.runtimeError) throw new Error(`Lighthouse could not load ${url}: ${lhr.runtimeError.message}`);
  const notes: string[] = [];
  const lcpElement = lhr.audits['largest-contentful-paint-element']?.details as
    { items?: Array<{ items?: Array<{ node?: { snippet?: string }; phase?: string; timing?: number }> }> } | undefined;
  const [elementTable, phases] = lcpElement?.items ?? [];
  const snippet = elementTable?.items?.[0]?.node?.snippet;
  if (snippet) notes.push(`LCP element: ${snippet.slice(0, 160)}`);
  if (phases?.items?.length)
    notes.push(`LCP phases: ${phases.items.map((p) => `${p.phase} ${Math.round(p.timing ?? 0)} ms`).join(', ')}`);
  for (const category of Object.values(lhr.categories)) {
    for (const ref of category.auditRefs) {
      const audit = lhr.audits[ref.id];
      if (!audit || audit.score === null || audit.score >= 0.9) continue;
      if (audit.scoreDisplayMode === 'informative' || audit.scoreDisplayMode === 'notApplicable') continue;
      notes.push(`${category.id}: ${audit.id} ${audit.displayValue ?? ''} (score ${audit.score})`.trim());
      if (category.id === 'performance') continue;
      // What failed, for the accessibility and best-practices audits (each must pass).
      const items = (audit.details as { items?: Array<Record<string, unknown>> } | undefined)?.items ?? [];
      for (const item of items.slice(0, 3)) {
        const node = item.node as { snippet?: string } | undefined;
        notes.push(`  ${(node?.snippet ?? JSON.stringify(item)).slice(0, 200)}`);
      }
    }
  }
  return {
    performance: percent(lhr.categories.performance?.score),
    accessibility: percent(lhr.categories.accessibility?.score),
    bestPractices: percent(lhr.categories['best-practices']?.score),
    lcpMs: lhr.audits['largest-contentful-paint']?.numericValue ?? Number.NaN,
    notes,
  };
}

/** Signs in in the browser as a user does (the session cookie, what the app keeps in the page's storage) and opens the dashboard once. */
async function signIn(port: number, app: App): Promise<void> {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    const context = browser.contexts()[0]!;
    const page = await context.newPage();
    await page.goto(`${app.url}/welcome`);
    const status = await page.evaluate(
      async ({ email, password }) =>
        (
          await fetch('/api/auth/login', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ email, password }),
          })
        ).status,
      { email: app.email, password: app.password },
    );
    if (status !== 200) throw new Error(`signing in answered ${status}`);
    await page.goto(`${app.url}/dashboard`);
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await page.close();
  } finally {
    // Leaves the browser running: this only ends Playwright's connection to it.
    await browser.close();
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

export interface PageMeasurement {
  page: string;
  path: string;
  median: LighthouseScores;
  runs: LighthouseRun[];
}

/**
 * Lighthouse `runs` times on each page, each page in a Chromium of its own: the welcome page signed
 * out, the dashboard signed in. Each figure's median is taken on its own.
 */
export async function measurePages(
  app: App,
  runs = 3,
  onRun: (page: string, run: LighthouseRun) => void = () => undefined,
): Promise<PageMeasurement[]> {
  const pages = [
    { page: 'welcome', path: '/', signedIn: false },
    { page: 'dashboard', path: '/dashboard', signedIn: true },
  ];
  const measured: PageMeasurement[] = [];
  for (const { page, path, signedIn } of pages) {
    const chrome = await chromeLauncher.launch({ chromePath, chromeFlags: CHROME_FLAGS });
    try {
      if (signedIn) await signIn(chrome.port, app);
      const results: LighthouseRun[] = [];
      for (let i = 0; i < runs; i++) {
        const run = await runOnce(`${app.url}${path}`, chrome.port);
        onRun(page, run);
        results.push(run);
      }
      const of = (key: keyof LighthouseScores) => median(results.map((r) => r[key]));
      measured.push({
        page,
        path,
        runs: results,
        median: {
          performance: of('performance'),
          accessibility: of('accessibility'),
          bestPractices: of('bestPractices'),
          lcpMs: of('lcpMs'),
        },
      });
    } finally {
      chrome.kill();
    }
  }
  return measured;
}
