import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeGoogle, type FakeGoogle } from '../../functions/test/fakes/google.js';
import { startFakeWordPress, type FakeWordPress } from '../../functions/test/fakes/wordpress.js';
import {
  ADA,
  approvalMail,
  GRACE,
  browserAvailable,
  callApi,
  connectWordPress,
  createArticleWithDrafts,
  launchBrowser,
  registerOnDashboard,
  removeData,
  scheduleVia,
  snap,
  startApp,
  submitRegistration,
  type RunningApp,
} from './harness.js';
import { settle, showTheme } from './viewport.js';
import { axeViolations } from './axe.js';

const hasBrowser = browserAvailable();

const THEMES = ['light', 'dark'] as const;
type Theme = (typeof THEMES)[number];

/** One violated rule on one screen in one theme, as the failure lists it. */
interface Finding {
  screen: string;
  theme: Theme;
  rule: string;
  impact: string;
  help: string;
  targets: string[];
}

/** Closes every toast and waits until they are gone, so a fading toast is not measured. */
async function clearToasts(page: Page): Promise<void> {
  const toasts = page.locator('.Toastify__toast');
  for (const close of await page.locator('.Toastify__close-button').all()) await close.click().catch(() => undefined);
  await expect.poll(() => toasts.count()).toBe(0);
}

describe.skipIf(!hasBrowser)('accessibility journey (Chromium, axe-core, light and dark)', () => {
  let app: RunningApp;
  let browser: Browser;
  let wp: FakeWordPress;
  let google: FakeGoogle;
  const findings: Finding[] = [];
  const checked: string[] = [];

  beforeAll(async () => {
    [wp, google, browser] = await Promise.all([startFakeWordPress(), startFakeGoogle(), launchBrowser()]);
    app = await startApp(undefined, {
      OPENAI_API_KEY: '',
      GOOGLE_OAUTH_URL: google.oauthUrl,
      GOOGLE_API_URL: google.apiUrl,
    });
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    if (app) removeData(app);
    await Promise.all([wp?.stop(), google?.stop()]);
  });

  /** A modal's screen: the page behind it was audited just before, as it is. */
  const DIALOG = { include: '[role="dialog"]' };

  /**
   * Runs axe on what the page shows now, in light then dark theme (the page is left in dark);
   * `snapDark` also saves the dark theme's screenshot under that name.
   */
  async function audit(page: Page, screen: string, options: { include?: string; snapDark?: string } = {}) {
    for (const theme of THEMES) {
      await showTheme(page, theme);
      if (theme === 'dark' && options.snapDark) await snap(page, options.snapDark);
      // Toasts come and go on their own timer; they are audited where they are held open on purpose.
      const violations = await axeViolations(
        page,
        options.include ? { include: options.include } : { exclude: '.Toastify' },
      );
      checked.push(`${screen} (${theme})`);
      for (const violation of violations) {
        findings.push({
          screen,
          theme,
          rule: violation.id,
          impact: violation.impact ?? 'unknown',
          help: violation.help,
          // Where, and axe's own account of it (for contrast: the two colours and the ratio found).
          targets: violation.nodes.map(
            (node) => `${node.target.join(' ')}: ${node.failureSummary?.split('\n').slice(1).join(' ').trim() ?? ''}`,
          ),
        });
      }
    }
  }

  // 58 audits: about a minute on an idle machine, but the calendar's 288 time slots alone take axe
  // seconds on a busy one, so the limit is above the journeys' default.
  it('finds no WCAG 2.1 A/AA violation on any screen, in light and dark theme', async () => {
    const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();

    // Welcome and the auth modal, signed out.
    await page.goto(app.url);
    await page.waitForURL(/\/welcome$/);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await audit(page, 'welcome');
    await page.getByRole('button', { name: 'Login', exact: true }).first().click();
    const auth = page.getByRole('dialog');
    await auth.locator('[name="password"]').waitFor();
    await audit(page, 'auth modal: login', DIALOG);
    await auth.getByRole('tab', { name: 'Register' }).click();
    await auth.locator('[name="surname"]').waitFor();
    await audit(page, 'auth modal: register', DIALOG);
    await page.keyboard.press('Escape');
    await auth.waitFor({ state: 'detached' });

    // The first account is the admin; its welcome toast, held open by the pointer, is audited alone.
    await registerOnDashboard(page, app, ADA);
    const toast = page.locator('.Toastify__toast').first();
    await toast.hover();
    await settle(page); // its entrance animation
    await audit(page, 'toast', { include: '.Toastify' });
    await page.mouse.move(0, 0);
    await clearToasts(page);
    await audit(page, 'dashboard (empty)');

    await page.goto(`${app.url}/history`);
    await page.getByText('Nothing published yet.').waitFor();
    await audit(page, 'history (empty)');

    // Create: the form, then both steps of the Generated Content modal.
    await page.goto(`${app.url}/create`);
    await page.getByLabel('Title', { exact: true }).fill('Accessible colour palettes');
    await page.getByLabel('Topic', { exact: true }).fill('Choosing colours everyone can read');
    await page.getByLabel('Keyword', { exact: true }).fill('colour contrast');
    await page
      .getByLabel('Details', { exact: true })
      .fill('Contrast ratios. Dark themes. Links that are not only colour.');
    await page.getByLabel('Image Description', { exact: true }).fill('Swatches of colour on a desk');
    await audit(page, 'create: form');
    await page.getByRole('button', { name: 'Create & Schedule' }).click();
    const generated = page.getByRole('dialog', { name: 'Generated Content' });
    await expect.poll(() => generated.getByLabel('Blog content').inputValue(), { timeout: 30_000 }).not.toBe('');
    await expect.poll(() => generated.getByLabel('LinkedIn content').inputValue()).not.toBe('');
    await clearToasts(page);
    await audit(page, 'create: Generated Content, content step', DIALOG);
    // Offline drafts carry their note, highlighted (audited above); publishing refuses it, so it goes now.
    for (const name of ['Blog Article', 'LinkedIn Post']) {
      const editor = generated.getByRole('region', { name });
      await editor.getByRole('button', { name: 'Remove the note' }).click();
      await editor.getByText('Saved', { exact: true }).waitFor();
    }
    await generated.getByRole('button', { name: 'Next' }).click();
    await generated.getByRole('button', { name: 'Generate Image' }).waitFor();
    await audit(page, 'create: Generated Content, image step', DIALOG);
    await generated.getByRole('button', { name: 'Generate Image' }).click();
    const preview = generated.getByRole('img', { name: /Generated image/ });
    await expect
      .poll(() => preview.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), { timeout: 30_000 })
      .toBeGreaterThan(0);
    await clearToasts(page);
    await audit(page, 'create: Generated Content, image step with an image', DIALOG);
    await generated.getByRole('button', { name: 'Continue to Schedule' }).click();
    await page.waitForURL(/\/schedule$/);

    // Schedule: the card, the schedule modal with its calendar open, the publish confirmation.
    await connectWordPress(page, wp);
    const card = page.getByRole('article', { name: 'Accessible colour palettes' });
    const blog = card.getByRole('region', { name: 'Blog' });
    await blog.getByRole('button', { name: 'Schedule Blog' }).waitFor();
    await clearToasts(page);
    await audit(page, 'schedule');
    await blog.getByRole('button', { name: 'Schedule Blog' }).click();
    const scheduleDialog = page.getByRole('dialog', { name: 'Schedule Blog' });
    await scheduleDialog.getByRole('textbox', { name: 'Date and time' }).click();
    await scheduleDialog.locator('.react-datepicker__time-list-item').first().waitFor();
    await audit(page, 'schedule: schedule modal (calendar open)', DIALOG);
    await scheduleDialog.getByRole('button', { name: 'Schedule', exact: true }).click();
    await scheduleDialog.waitFor({ state: 'detached' });

    // Calendar: the scheduled blog in the month (the next one when its time falls there), the week, its card actions.
    await page.goto(`${app.url}/calendar`);
    const calendarItem = page.getByRole('button', { name: /^Accessible colour palettes, WordPress, Scheduled/ });
    const calendarStatus = page.locator('.calendar-status');
    await page.getByRole('grid').waitFor();
    await expect.poll(() => calendarStatus.textContent()).not.toMatch(/Loading/);
    if ((await calendarItem.count()) === 0) await page.getByRole('button', { name: /Next month/ }).click();
    await calendarItem.waitFor();
    await clearToasts(page);
    await audit(page, 'calendar (month)');
    await page.getByRole('button', { name: 'Week' }).click();
    await page
      .getByRole('gridcell', { name: /, 08:00$/ })
      .first()
      .waitFor();
    await expect.poll(() => calendarStatus.textContent()).not.toMatch(/Loading/);
    await audit(page, 'calendar (week)');
    await page.getByRole('button', { name: 'Month' }).click();
    await calendarItem.click();
    await page
      .getByRole('dialog', { name: /^WordPress · / })
      .getByRole('article')
      .waitFor();
    await audit(page, 'calendar: card actions', DIALOG);
    await page.keyboard.press('Escape');
    await page.goto(`${app.url}/schedule`);
    await blog.getByRole('button', { name: 'Publish Now to WordPress' }).click();
    const confirm = page.getByRole('dialog', { name: 'Publish to WordPress now?' });
    await confirm.getByRole('button', { name: 'Confirm' }).waitFor();
    await clearToasts(page);
    await audit(page, 'schedule: publish confirmation', DIALOG);
    await confirm.getByRole('button', { name: 'Confirm' }).click();
    await blog.getByText('Published', { exact: true }).waitFor();
    // The success toast is closed rather than waited out (it stays for seconds); toasts are audited on their own above.
    await page.getByText('Successfully published to WordPress!').waitFor();
    await clearToasts(page);
    await audit(page, 'schedule (blog published)');

    await page.goto(`${app.url}/history`);
    await page.getByRole('link', { name: /^View Post/ }).waitFor();
    await audit(page, 'history (one published article)');

    await page.goto(`${app.url}/dashboard`);
    await expect.poll(() => page.getByTestId('distribution-total').textContent()).toBe('1');
    await page.getByRole('region', { name: 'Top Keywords' }).locator('.recharts-pie').waitFor({ state: 'attached' });
    await audit(page, 'dashboard', { snapDark: '40-a11y-dashboard-dark' });
    // A phone's layout hides and folds parts of the shell (the user menu shows only initials).
    const desktop = page.viewportSize()!;
    await page.setViewportSize({ width: 390, height: 844 });
    await audit(page, 'dashboard (390 px wide)');
    await page.setViewportSize(desktop);

    // Settings: every disclosure open, then the API key dialog.
    await page.goto(`${app.url}/settings`);
    await page.getByRole('region', { name: 'Gmail API Configuration' }).waitFor();
    await page.getByRole('region', { name: 'WordPress Integration' }).getByText('Connected to').waitFor();
    const closed = page.locator('details:not([open]) > summary');
    await expect.poll(() => page.locator('details').count()).toBeGreaterThan(0);
    while ((await closed.count()) > 0) await closed.first().click();
    await audit(page, 'settings (all panels open)', { snapDark: '41-a11y-settings-dark' });
    await page.getByRole('button', { name: 'Add New API Key' }).click();
    await page.getByRole('dialog', { name: 'Add New API Key' }).getByLabel('Key Name').waitFor();
    await audit(page, 'settings: Add New API Key', DIALOG);
    await page.keyboard.press('Escape');

    // Approve: an article whose blog was scheduled now; the link comes from the approval e-mail.
    const approvalId = await createArticleWithDrafts(page, {
      title: 'Approve me when ready',
      topic: 'Approval before publishing',
      keyword: 'editorial approval',
      details: 'One click to publish.',
      imageDescription: '',
    });
    expect(await scheduleVia(page, approvalId, 'blog', new Date().toISOString())).toBe(200);
    const { approveUrl } = await approvalMail(app, 'Approve me when ready', { timeout: 20_000 });
    await page.goto(approveUrl);
    await page.getByRole('button', { name: 'Approve and publish to WordPress' }).waitFor();
    await audit(page, 'approve');
    await page.getByRole('button', { name: 'Approve and publish to WordPress' }).click();
    await page.getByText('Published to WordPress.').waitFor();
    await audit(page, 'approve (published)');

    // Admin, with a user waiting for approval (registered in a signed-out browser of their own).
    const other = await browser.newContext({ locale: 'en-US' });
    const otherPage = await other.newPage();
    await otherPage.goto(app.url);
    await submitRegistration(otherPage, GRACE);
    await otherPage.getByText('Registration received. Await admin approval.').first().waitFor();
    await other.close();
    await page.goto(`${app.url}/admin`);
    await page
      .getByRole('row', { name: /grace@example\.com/ })
      .getByRole('button', { name: 'Activate' })
      .waitFor();
    await audit(page, 'admin (a user pending)');

    // Sheets import: without a Google client, then connected through the fake Google, then the results.
    await page.goto(`${app.url}/sheets-import`);
    await page.getByRole('button', { name: 'Connect to Google Sheets' }).waitFor();
    await audit(page, 'sheets-import: connect card (no Google client)');
    for (const [key, value] of [
      ['gmail_client_id', google.client.clientId],
      ['gmail_client_secret', google.client.clientSecret],
    ] as const) {
      expect((await callApi(page, '/api/settings', { key, value })).status).toBeLessThan(300);
    }
    await page.reload();
    const connect = page.getByRole('button', { name: 'Connect to Google Sheets' });
    await expect.poll(() => connect.isEnabled()).toBe(true);
    await audit(page, 'sheets-import: connect card');
    await connect.click();
    await page.waitForURL((url) => url.pathname === '/sheets-import' && url.search === '');
    await page.getByLabel('Select Spreadsheet').selectOption('sheet-content-plan');
    await page.getByLabel('Range').fill('Articles!A1:F20');
    await clearToasts(page);
    await audit(page, 'sheets-import: import form');
    await page.getByRole('button', { name: 'Import Articles' }).click();
    await page
      .getByRole('region', { name: 'Import results' })
      .getByText(/^Successfully imported/)
      .waitFor();
    await clearToasts(page);
    await audit(page, 'sheets-import: results');
    await context.close();

    const report = findings.map(
      (f) => `- ${f.screen} [${f.theme}] ${f.rule} (${f.impact}): ${f.help}\n    ${f.targets.join('\n    ')}`,
    );
    expect(checked).toHaveLength(2 * 29);
    expect(findings.length, `axe found violations:\n${report.join('\n')}`).toBe(0);
  }, 300_000);

  // The audits above find nothing on the app; this shows that they would: axe, kept in the page between audits
  // (frontend/e2e/axe.ts), still finds each violation in its scope, and again in a document that replaced it.
  it('the audit finds a missing alt text and low contrast, within its include and without its exclude, after a navigation too', async () => {
    const context = await browser.newContext({ locale: 'en-US' });
    const page = await context.newPage();
    const found = async (scope: Parameters<typeof axeViolations>[1] = {}) =>
      (await axeViolations(page, scope)).flatMap((v) => v.nodes.map((n) => `${v.id} ${n.target.join(' ')}`)).sort();
    const doc = (body: string) =>
      `data:text/html,${encodeURIComponent(`<!doctype html><html lang="en"><title>t</title><body>${body}</body></html>`)}`;
    await page.goto(
      doc(
        '<main><img id="bare" src="data:,"><p id="faint" style="color:#777;background:#888">Faint text</p></main>' +
          '<div class="Toastify"><img id="toast-image" src="data:,"></div>',
      ),
    );
    expect(await found()).toEqual(['color-contrast #faint', 'image-alt #bare', 'image-alt #toast-image']);
    expect(await page.evaluate(() => 'axe' in window)).toBe(true);
    expect(await found({ exclude: '.Toastify' })).toEqual(['color-contrast #faint', 'image-alt #bare']);
    expect(await found({ include: '.Toastify' })).toEqual(['image-alt #toast-image']);
    await page.goto(doc('<main><img id="described" src="data:," alt="A chart"><img id="other" src="data:,"></main>'));
    expect(await found()).toEqual(['image-alt #other']);
    await page.setContent('<main><iframe srcdoc="<p>inside</p>"></iframe></main>');
    await expect(found()).rejects.toThrow(/checks no frames/);
    await context.close();
  });
});
