import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, inject } from 'vitest';
import { withoutOfflineDraftNote } from '@app/shared';
import { FAKE_WP_EDITOR, startFakeWordPress, type FakeWordPress } from '../../functions/test/fakes/wordpress.js';
import { startFakeLinkedIn, type FakeLinkedIn } from '../../functions/test/fakes/linkedin.js';
import { parseMime, type ParsedMime } from '../../functions/test/fakes/mime.js';

import { axeViolations } from './axe.js';
import { CHROMIUM_ARGS, chromiumPath } from './chromium.js';
import { PHONE, onPhone, pageScrollWidth, showTheme } from './viewport.js';

export { chromiumPath };

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Whether browser journeys can run; CI sets REQUIRE_BROWSER=1 so a missing browser fails instead. */
export function browserAvailable(): boolean {
  if (existsSync(chromiumPath)) return true;
  if (process.env.REQUIRE_BROWSER === '1') throw new Error(`REQUIRE_BROWSER=1 but no Chromium at ${chromiumPath}`);
  console.log(`SKIPPED: browser journeys (no Chromium at ${chromiumPath}; apt-get install chromium)`);
  return false;
}

function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.on('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => res(port));
    });
  });
}

export interface RunningApp {
  url: string;
  dataDir: string;
  stop(): Promise<void>;
}

/** A new, empty data folder for an app (under the system's temp folder). */
export function newDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'cp-e2e-'));
}

/**
 * The product as `npm start` runs it (built SPA + local stack) on a free port. Without a data folder it gets a new
 * one and a table of its own in the run's shared DynamoDB Local (global-setup.ts): nothing of another file's apps is
 * visible to it. Given a data folder, it runs as `npm start` does, with a DynamoDB Local of its own keeping its files
 * there, so an app started again on the same folder finds its data (a restart journey).
 */
export async function startApp(dataDir?: string, extraEnv: Record<string, string> = {}): Promise<RunningApp> {
  if (!existsSync(join(root, 'frontend/dist/index.html')))
    throw new Error('frontend/dist is missing: run `npm run build` first');
  const sharedDynamo = dataDir === undefined ? inject('e2eDynamoEndpoint') : undefined;
  dataDir ??= newDataDir();
  const dynamoEnv: Record<string, string> = sharedDynamo
    ? { DYNAMODB_ENDPOINT: sharedDynamo, TABLE_NAME: `e2e-${randomBytes(6).toString('hex')}` }
    : {};
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env };
  // An app with a data folder of its own starts its own DynamoDB Local, whatever this process was given.
  delete env.DYNAMODB_ENDPOINT;
  delete env.TABLE_NAME;
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'functions/src/local/main.ts'], {
    cwd: root,
    env: {
      ...env,
      PORT: String(port),
      DATA_DIR: dataDir,
      PUBLIC_URL: `http://localhost:${port}`,
      POWERTOOLS_LOG_LEVEL: 'WARN',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      ...dynamoEnv,
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (d: Buffer) => (output = (output + d.toString()).slice(-8000));
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  await new Promise<void>((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`The app did not start within 90 s:\n${output}`)), 90_000);
    child.stdout!.on('data', () => {
      if (output.includes('is running on')) {
        clearTimeout(timer);
        resolvePromise();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`The app exited with ${code}:\n${output}`));
    });
  });
  return {
    url: `http://localhost:${port}`,
    dataDir,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export function removeData(app: RunningApp): void {
  rmSync(app.dataDir, { recursive: true, force: true });
}

/**
 * Content-Security-Policy violations the browser reported since the last check: console messages
 * that name the policy ("Refused to …" in older Chromium). The app is served with the deployed CSP
 * (functions/src/http/security-headers.ts), so an inline script or a script from elsewhere shows up
 * here instead of only breaking in AWS.
 */
const cspViolations: string[] = [];
const CSP_VIOLATION = /Refused to |Content Security Policy/;

/** The violations reported so far, cleared; for a journey that causes one on purpose. */
export function takeCspViolations(): string[] {
  return cspViolations.splice(0);
}

async function watchCsp(context: BrowserContext): Promise<void> {
  // Some violations never reach the console (a caught `new Function('')` probe, say): only the page's
  // securitypolicyviolation event tells of them, so it is echoed there.
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(
        `Content Security Policy violation: ${event.effectiveDirective} blocked ${event.blockedURI} ` +
          `(${event.sourceFile}:${event.lineNumber})`,
      );
    });
  });
  context.on('console', (message) => {
    if (CSP_VIOLATION.test(message.text()))
      cspViolations.push(`${message.location().url || message.page()?.url()}: ${message.text()}`);
  });
}

// Every journey of a file that imports this harness fails on a CSP violation.
afterEach(() => {
  expect(takeCspViolations(), 'Content-Security-Policy violations in the browser').toEqual([]);
});

/**
 * Chromium for the journeys: a connection to the run's shared browser (global-setup.ts), or a browser of its own when
 * the run has none. Each of its contexts (browser.newPage() makes one too) reports CSP violations; closing it closes
 * the contexts it made.
 */
export async function launchBrowser(): Promise<Browser> {
  const shared = inject('e2eBrowserEndpoint');
  const browser = shared
    ? await chromium.connect(shared)
    : await chromium.launch({ executablePath: chromiumPath, headless: true, args: [...CHROMIUM_ARGS] });
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    await watchCsp(context);
    return context;
  };
  // A violation reported after a file's last check still fails it, when the browser closes in afterAll.
  const close = browser.close.bind(browser);
  browser.close = async (options) => {
    await close(options);
    expect(takeCspViolations(), 'Content-Security-Policy violations in the browser').toEqual([]);
  };
  return browser;
}

/** Saves a screenshot under frontend/e2e/screenshots (git-ignored) for a person to look at (the whole page with `fullPage`). */
export async function snap(page: Page, name: string, { fullPage = false }: { fullPage?: boolean } = {}): Promise<void> {
  await page.screenshot({ path: join(root, 'frontend/e2e/screenshots', `${name}.png`), fullPage });
}

/** Someone who registers through the welcome screen's Register dialog. */
export interface NewAccount {
  name: string;
  surname: string;
  email: string;
  password: string;
  /** Picked in the dialog; the dialog's default when left out. */
  timezone?: string;
}

/** The first account of most journeys. */
export const ADA: NewAccount = { name: 'Ada', surname: 'Lovelace', email: 'ada@example.com', password: 'analytical' };
/** A second account. */
export const GRACE: NewAccount = { name: 'Grace', surname: 'Hopper', email: 'grace@example.com', password: 'compiler' };

/** Fills in and sends the Register dialog from the welcome screen (the page is on it); does not wait for the outcome. */
export async function submitRegistration(page: Page, who: NewAccount): Promise<void> {
  await page.getByRole('button', { name: 'Register', exact: true }).first().click();
  const auth = page.getByRole('dialog');
  await auth.locator('[name="name"]').fill(who.name);
  await auth.locator('[name="surname"]').fill(who.surname);
  await auth.locator('[name="email"]').fill(who.email);
  await auth.locator('[name="password"]').fill(who.password);
  if (who.timezone) await auth.locator('[name="timezone"]').selectOption(who.timezone);
  await auth.getByRole('button', { name: 'Create account' }).click();
}

/** Opens the app, registers `who` through the Register dialog and waits for the dashboard. */
export async function registerOnDashboard(page: Page, app: RunningApp, who: NewAccount): Promise<void> {
  await page.goto(app.url);
  await submitRegistration(page, who);
  await page.waitForURL(/\/dashboard$/);
}

/** POST/GET JSON from inside the page, with its session cookie (as the SPA does). */
export async function callApi<T = any>(page: Page, path: string, body?: unknown): Promise<{ status: number; json: T }> {
  return page.evaluate(
    async ({ path, body }) => {
      const res = await fetch(path, {
        method: body === undefined ? 'GET' : 'POST',
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, json: await res.json() };
    },
    { path, body },
  );
}

/**
 * Schedules one version of an article (blog, linkedin or a channel's own) through the API from inside the page (PUT,
 * as the Schedule page does); its HTTP status. `bundle` makes the blog version's schedule a blog-first bundle, as the
 * modal's Blog first choice does.
 */
export async function scheduleVia(
  page: Page,
  id: string,
  platform: string,
  datetime: string,
  { bundle }: { bundle?: boolean } = {},
) {
  return page.evaluate(
    async ({ id, platform, datetime, bundle }) =>
      (
        await fetch(`/api/articles/${id}/schedule`, {
          method: 'PUT',
          headers: { 'content-type': 'application/json' },
          // (JSON leaves `bundle` out when undefined, as the modal sends it.)
          body: JSON.stringify({ platform, datetime, bundle }),
        })
      ).status,
    { id, platform, datetime, bundle },
  );
}

/**
 * Connects the signed-in user to the fake WordPress site as its editor, through the API (the
 * Settings UI has its own journey), and expects the credentials to be accepted.
 */
export async function connectWordPress(page: Page, wp: FakeWordPress): Promise<{ status: number; json: any }> {
  const saved = await callApi(page, '/api/wordpress/credentials', {
    siteUrl: wp.url,
    username: FAKE_WP_EDITOR.username,
    appPassword: FAKE_WP_EDITOR.appPassword,
  });
  expect(saved.status, JSON.stringify(saved.json)).toBe(200);
  return saved;
}

export interface NewArticle {
  title: string;
  topic: string;
  keyword: string;
  details: string;
  imageDescription: string;
}

/**
 * Creates an article through the API and waits until its drafts are generated; its id. The journeys run without
 * an OpenAI key, so the drafts are offline ones: their note ("Offline draft — …") is taken out of both versions, as
 * their owner does before publishing (publishing refuses it, shared/src/offline-draft.ts), unless `keepOfflineNote`.
 */
export async function createArticleWithDrafts(
  page: Page,
  article: NewArticle,
  { keepOfflineNote = false }: { keepOfflineNote?: boolean } = {},
): Promise<string> {
  const created = await callApi(page, '/api/articles', article);
  expect(created.status).toBe(201);
  const id: string = created.json.article._id;
  await expect
    .poll(async () => (await callApi(page, `/api/articles/${id}`)).json.article.generation.status, { timeout: 30_000 })
    .not.toBe('pending');
  if (!keepOfflineNote) {
    const drafted = (await callApi(page, `/api/articles/${id}`)).json.article;
    for (const platform of ['blog', 'linkedin'] as const) {
      const content = withoutOfflineDraftNote(drafted[platform].content);
      if (content === drafted[platform].content) continue;
      const status = await page.evaluate(
        async ({ path, content }) =>
          (
            await fetch(path, {
              method: 'PUT',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ content }),
            })
          ).status,
        { path: `/api/articles/${id}/${platform}`, content },
      );
      expect(status).toBe(200);
    }
  }
  return id;
}

/** What a journey on the app alone runs on; filled in before its tests. */
export interface AppJourney {
  app: RunningApp;
  browser: Browser;
}

/** Call in a describe: the app and Chromium start before its tests and stop after them, the app's data removed. */
export function withAppAndBrowser(): AppJourney {
  const journey = {} as AppJourney;
  beforeAll(async () => {
    [journey.app, journey.browser] = await Promise.all([startApp(), launchBrowser()]);
  });
  afterAll(async () => {
    await journey.browser?.close();
    await journey.app?.stop();
    if (journey.app) removeData(journey.app);
  });
  return journey;
}

/** What a journey against the fake WordPress runs on; filled in before its tests. */
export interface WordPressJourney {
  app: RunningApp;
  browser: Browser;
  wp: FakeWordPress;
}

/**
 * Call in a describe: before its tests, a fake WordPress, the app (offline drafts: no OpenAI key) and
 * Chromium are started; after them they are stopped and the app's data folder is removed.
 */
export function withAppAndFakeWordPress(): WordPressJourney {
  const journey = {} as WordPressJourney;
  beforeAll(async () => {
    journey.wp = await startFakeWordPress();
    [journey.app, journey.browser] = await Promise.all([startApp(undefined, { OPENAI_API_KEY: '' }), launchBrowser()]);
  });
  afterAll(async () => {
    await journey.browser?.close();
    await journey.app?.stop();
    await journey.wp?.stop();
    if (journey.app) removeData(journey.app);
  });
  return journey;
}

/** What a journey against the fake WordPress and LinkedIn runs on; filled in before its tests. */
export interface WordPressLinkedInJourney extends WordPressJourney {
  li: FakeLinkedIn;
}

/**
 * Call in a describe: before its tests, a fake WordPress and a fake LinkedIn, the app pointed at them (offline drafts:
 * no OpenAI key; the fakes' private addresses allowed) and Chromium are started; after them they are stopped and the
 * app's data folder is removed.
 */
export function withAppAndFakeWordPressAndLinkedIn(): WordPressLinkedInJourney {
  const journey = {} as WordPressLinkedInJourney;
  beforeAll(async () => {
    [journey.wp, journey.li, journey.browser] = await Promise.all([
      startFakeWordPress(),
      startFakeLinkedIn(),
      launchBrowser(),
    ]);
    journey.app = await startApp(undefined, {
      OPENAI_API_KEY: '',
      LINKEDIN_OAUTH_URL: journey.li.oauthUrl,
      LINKEDIN_API_URL: journey.li.apiUrl,
      ALLOW_PRIVATE_URLS: '1',
    });
  });
  afterAll(async () => {
    await journey.browser?.close();
    await journey.app?.stop();
    if (journey.app) removeData(journey.app);
    await Promise.all([journey.wp?.stop(), journey.li?.stop()]);
  });
  return journey;
}

/**
 * A page in a new browser context (en-US, 1280×900) whose clock is in `browserTimezone`, on which
 * `who` has registered and sees the dashboard. Close the context at the end.
 */
export async function registeredPage(
  journey: WordPressJourney,
  browserTimezone: string,
  who: NewAccount,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await journey.browser.newContext({
    timezoneId: browserTimezone,
    locale: 'en-US',
    viewport: { width: 1280, height: 900 },
  });
  const page = await context.newPage();
  await registerOnDashboard(page, journey.app, who);
  return { context, page };
}

/** The messages the local stack wrote into the app's outbox so far, oldest first. */
export function outbox(app: RunningApp): ParsedMime[] {
  const dir = join(app.dataDir, 'outbox');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.eml'))
    .sort()
    .map((f) => parseMime(readFileSync(join(dir, f), 'utf8')));
}

/** The messages of the app's outbox sent to `email` (and whose subject matches `subject`, if given), oldest first. */
export function mailsTo(app: RunningApp, email: string, subject?: RegExp): ParsedMime[] {
  return outbox(app).filter((m) => m.to.includes(email) && (!subject || subject.test(m.subject)));
}

/** The invitation link last e-mailed to `email` (the local outbox), once it is there. */
export async function invitationLink(app: RunningApp, email: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(() => {
      link = mailsTo(app, email)
        .map((mail) => /(http:\/\/\S+\/invite\?token=\S+)/.exec(mail.text ?? '')?.[1])
        .filter((found) => found !== undefined)
        .at(-1);
      return link;
    })
    .toBeDefined();
  return link!;
}

/**
 * Waits until the app's outbox holds the one approval e-mail of the article titled `title` (its subject ends with
 * `: <title>`) and answers it with the approval link it carries (checked to be on the app).
 */
export async function approvalMail(
  app: RunningApp,
  title: string,
  { timeout = 30_000 }: { timeout?: number } = {},
): Promise<{ mail: ParsedMime; approveUrl: string }> {
  const approvals = () => outbox(app).filter((m) => m.subject?.endsWith(`: ${title}`));
  await expect.poll(() => approvals().length, { timeout, interval: 250 }).toBe(1);
  const mail = approvals()[0]!;
  const approveUrl = /(http:\/\/\S+\/approve\?token=\S+)/.exec(mail.text ?? '')?.[1];
  expect(approveUrl, mail.text).toBeTruthy();
  expect(approveUrl!.startsWith(`${app.url}/approve?token=`), approveUrl).toBe(true);
  return { mail, approveUrl: approveUrl! };
}

/**
 * Connects the signed-in user to the fake LinkedIn: the app's credentials through the API, then the consent through
 * the fake (it approves at once), back on /settings.
 */
export async function connectLinkedIn(page: Page, li: FakeLinkedIn): Promise<void> {
  const credentials = await callApi(page, '/api/linkedin/credentials', {
    clientId: li.app.clientId,
    clientSecret: li.app.clientSecret,
  });
  expect(credentials.status, JSON.stringify(credentials.json)).toBe(200);
  const { authUrl } = (await callApi(page, '/api/linkedin/auth-url')).json;
  await page.goto(authUrl);
  await page.waitForURL(/\/settings/);
}

// Calls to the PDS the Bluesky journeys make: the same as the API tests' (channel-servers/atproto/xrpc.ts).
export { pdsAccount, pdsRecord, xrpc } from '../../functions/test/channel-servers/atproto/xrpc.js';

/**
 * Connects Bluesky in Settings as a person does: handle, app password and the PDS's address, saved once the server
 * signed in with them. Answers the Bluesky panel.
 */
export async function connectBluesky(
  page: Page,
  app: RunningApp,
  account: { handle: string; appPassword: string },
  pdsUrl: string,
): Promise<Locator> {
  await page.goto(`${app.url}/settings`);
  const panel = page.getByRole('region', { name: 'Bluesky Integration' });
  await panel.getByText(/^Not connected\. Enter your handle/).waitFor();
  await panel.getByLabel('Handle').fill(account.handle);
  await panel.getByLabel('App password').fill(account.appPassword);
  await panel.getByLabel('PDS address').fill(pdsUrl);
  await panel.getByRole('button', { name: 'Save' }).click();
  await panel.getByText(`Connected as @${account.handle}`, { exact: false }).waitFor({ timeout: 30_000 });
  return panel;
}

/**
 * Connects Ghost in Settings as a person does: the Admin API URL and key, Test Connection, then Save. Answers the
 * Ghost panel and what Test Connection said.
 */
export async function connectGhost(
  page: Page,
  app: RunningApp,
  site: { url: string; adminApiKey: string },
): Promise<{ panel: Locator; tested: string }> {
  if (!page.url().endsWith('/settings')) await page.goto(`${app.url}/settings`);
  const panel = page.getByRole('region', { name: 'Ghost Integration' });
  await panel.getByLabel('Admin API URL').fill(site.url);
  await panel.getByLabel('Admin API key').fill(site.adminApiKey);
  await panel.getByRole('button', { name: 'Test Connection' }).click();
  const answer = page.getByText(/^Connected to .+ \(Ghost \d+\.\d+\)$/).first();
  await answer.waitFor({ timeout: 30_000 });
  const tested = (await answer.textContent()) ?? '';
  await panel.getByRole('button', { name: 'Save' }).click();
  await panel.getByText(`Connected to ${site.url} with the key`, { exact: false }).waitFor({ timeout: 30_000 });
  return { panel, tested };
}

/**
 * Publish Now on a channel's row of the article's Schedule card (the page is on /schedule) through its confirmation:
 * the row is named `row` (the channel's label unless given, e.g. "Blog" for WordPress). Answers the row.
 */
export async function publishNowOn(
  page: Page,
  title: string,
  channel: string,
  row: string = channel,
): Promise<Locator> {
  const region = page.getByRole('article', { name: title }).getByRole('region', { name: row });
  await region.getByRole('button', { name: `Publish Now to ${channel}` }).click();
  const dialog = page.getByRole('dialog', { name: `Publish to ${channel} now?` });
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  return region;
}

/**
 * What the page shows now in light, dark and 390 px wide (left light), each saved to look at and checked with axe
 * (WCAG 2.1 AA, toasts aside): no violation, and nothing wider than the phone. `onPhoneFirst` brings what is looked
 * at into the phone's view before its picture.
 */
export async function lookAt(
  page: Page,
  name: string,
  { onPhoneFirst }: { onPhoneFirst?: () => Promise<void> } = {},
): Promise<void> {
  for (const theme of ['light', 'dark'] as const) {
    await showTheme(page, theme);
    await snap(page, `${name}-${theme}`);
    const violations = await axeViolations(page, { exclude: '.Toastify' });
    expect(
      violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
      `${name} (${theme})`,
    ).toEqual([]);
  }
  await onPhone(page, async () => {
    await onPhoneFirst?.();
    await snap(page, `${name}-phone`);
    expect(await pageScrollWidth(page), `${name} at ${PHONE.width} px`).toBeLessThanOrEqual(PHONE.width);
  });
  await showTheme(page, 'light');
}
