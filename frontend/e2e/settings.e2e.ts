import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_EMAIL_SUBJECT } from '@app/shared';
import { FAKE_WP_EDITOR, startFakeWordPress, type FakeWordPress } from '../../functions/test/fakes/wordpress.js';
import { startFakeLinkedIn, type FakeLinkedIn } from '../../functions/test/fakes/linkedin.js';
import { startFakeGoogle, type FakeGoogle } from '../../functions/test/fakes/google.js';
import { browserAvailable, launchBrowser, removeData, snap, startApp, type RunningApp } from './harness.js';

const hasBrowser = browserAvailable();
const NOTIFICATION_EMAIL = 'alerts@example.com';
const OPENAI_KEY = 'sk-e2e-test-0123456789abcdef';

async function registerFirstAccount(page: Page) {
  await page.getByRole('button', { name: 'Register', exact: true }).first().click();
  const dialog = page.getByRole('dialog');
  await dialog.locator('[name="name"]').fill('Ada');
  await dialog.locator('[name="surname"]').fill('Lovelace');
  await dialog.locator('[name="email"]').fill('ada@example.com');
  await dialog.locator('[name="password"]').fill('analytical');
  await dialog.locator('[name="timezone"]').selectOption('Europe/Paris');
  await dialog.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL(/\/dashboard$/);
}

/** The whole settings page (the shell scrolls inside its main area, so the viewport is made tall first). */
async function snapTall(page: Page, name: string) {
  const viewport = page.viewportSize()!;
  const height = await page.evaluate(() =>
    Math.max(...[...document.querySelectorAll('main, .page')].map((el) => el.scrollHeight), 900),
  );
  await page.setViewportSize({ width: viewport.width, height: height + 120 });
  await snap(page, name);
  await page.setViewportSize(viewport);
}

/** One panel at full resolution, next to the page screenshots. */
async function snapPanel(panel: Locator, name: string) {
  await panel.screenshot({ path: join(dirname(fileURLToPath(import.meta.url)), 'screenshots', `${name}.png`) });
}

/** A toast with this text (toasts stay 3 s on this screen). */
const toast = (page: Page, text: string) => page.locator('.Toastify__toast', { hasText: text }).first().waitFor();

/**
 * What a normal session must not log (issue #15, console noise): console errors, and answers of 400 or
 * more, which Chromium prints as console errors of their own.
 */
function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400)
      errors.push(`${response.status()} ${response.request().method()} ${new URL(response.url()).pathname}`);
  });
  return errors;
}

/** Opens the provider's popup with `click`, and waits until it has gone through the fake and closed itself. */
async function throughPopup(page: Page, click: () => Promise<void>) {
  const popupEvent = page.waitForEvent('popup');
  await click();
  const popup = await popupEvent;
  await expect.poll(() => popup.isClosed(), { timeout: 30_000, interval: 200 }).toBe(true);
  return popup;
}

describe.skipIf(!hasBrowser)('settings journey (Chromium, fake WordPress, LinkedIn and Google)', () => {
  let app: RunningApp;
  let browser: Browser;
  let wp: FakeWordPress;
  let li: FakeLinkedIn;
  let google: FakeGoogle;

  beforeAll(async () => {
    [wp, li, google, browser] = await Promise.all([
      startFakeWordPress(),
      startFakeLinkedIn(),
      startFakeGoogle(),
      launchBrowser(),
    ]);
    app = await startApp(undefined, {
      LINKEDIN_OAUTH_URL: li.oauthUrl,
      LINKEDIN_API_URL: li.apiUrl,
      GOOGLE_OAUTH_URL: google.oauthUrl,
      GOOGLE_API_URL: google.apiUrl,
      ALLOW_PRIVATE_URLS: '1',
    });
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    if (app) removeData(app);
    await Promise.all([wp?.stop(), li?.stop(), google?.stop()]);
  });

  it('connects WordPress, LinkedIn (popup) and Gmail (popup), sends a test e-mail, adds and deletes an API key; no secret ever comes back', async () => {
    const context: BrowserContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    // Every /api answer any page of this context (the popups too) receives.
    const apiBodies: { url: string; body: string }[] = [];
    context.on('response', (response) => {
      if (!new URL(response.url()).pathname.startsWith('/api/')) return;
      if (response.status() >= 300 && response.status() < 400) return;
      void response
        .text()
        .then((body) => apiBodies.push({ url: response.url(), body }))
        .catch(() => undefined);
    });
    const page = await context.newPage();
    page.on('dialog', (dialog) => void dialog.accept());
    const errors = collectErrors(page);

    // A signed-out load: the session check answers without an error.
    await page.goto(app.url);
    await page.getByRole('button', { name: 'Register', exact: true }).first().waitFor();
    expect(errors).toEqual([]);
    await registerFirstAccount(page);
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.waitForURL(/\/settings$/);
    const wordpress = page.getByRole('region', { name: 'WordPress Integration' });
    const linkedin = page.getByRole('region', { name: 'LinkedIn Integration' });
    const gmail = page.getByRole('region', { name: 'Gmail API Configuration' });
    await wordpress.getByText(/^Not connected\./).waitFor();
    await gmail.getByText('Complete OAuth flow to enable Gmail API email sending').waitFor();
    await snapTall(page, '10-settings-empty');
    // Clearing Gmail settings never saved deletes nothing (no 404s in the console).
    await gmail.getByRole('button', { name: 'Clear Settings' }).click();
    await toast(page, 'Gmail API settings cleared successfully!');
    expect(errors).toEqual([]);

    // WordPress: saved only after a passing check against the fake site.
    await wordpress.getByLabel('Site URL').fill(wp.url);
    await wordpress.getByLabel('Username').fill(FAKE_WP_EDITOR.username);
    await wordpress.getByLabel('Application Password').fill(FAKE_WP_EDITOR.appPassword);
    await wordpress.getByRole('button', { name: 'Test Connection' }).click();
    await toast(page, `Connected as ${FAKE_WP_EDITOR.name}`);
    await wordpress.getByRole('button', { name: 'Save' }).click();
    await toast(page, `WordPress credentials saved. Connected as ${FAKE_WP_EDITOR.name}.`);
    await wordpress.getByText(`Connected to`).waitFor();
    expect(await wordpress.getByLabel('Site URL').isDisabled()).toBe(true);
    await wordpress.getByText('Site URL cannot be changed').waitFor();
    expect(await wordpress.getByLabel('Application Password').inputValue()).toBe('');
    expect(await wordpress.getByLabel('Application Password').getAttribute('placeholder')).toBe(
      'Leave blank to keep the saved password',
    );

    // LinkedIn: credentials, then the OAuth popup through the fake and back.
    await linkedin.getByText(`${app.url}/api/linkedin/callback`).waitFor();
    await linkedin.getByLabel('Client ID').fill(li.app.clientId);
    await linkedin.getByLabel('Client Secret').fill(li.app.clientSecret);
    await linkedin.getByRole('button', { name: 'Save Credentials' }).click();
    await toast(page, 'LinkedIn credentials saved');
    await linkedin.getByText(/Credentials are saved/).waitFor();
    // Page posting is opt-in: unticked, the sign-in asks only for what every LinkedIn app may grant.
    expect(await linkedin.getByRole('checkbox', { name: 'Also post to LinkedIn Pages I administer' }).isChecked()).toBe(
      false,
    );
    await throughPopup(page, () => linkedin.getByRole('button', { name: 'Authenticate with LinkedIn' }).click());
    await toast(page, 'LinkedIn authentication successful!');
    await linkedin.getByText(`Connected as ${li.member.name}`).waitFor();
    await linkedin.getByText(/Access token expires on/).waitFor();
    await linkedin.getByText('Posts as your personal profile only (no page access).').waitFor();
    const consent = li.requests.filter((r) => r.path.startsWith('/oauth/v2/authorization')).at(-1)!;
    expect(new URL(consent.path, li.url).searchParams.get('scope')).toBe('openid profile email w_member_social');
    expect(page.url()).toBe(`${app.url}/settings`);
    await snapTall(page, '11-settings-wordpress-linkedin');

    // Gmail: save the OAuth client, authenticate in the popup, send the test e-mail.
    await gmail.getByLabel('Notification Email').fill(NOTIFICATION_EMAIL);
    await gmail.getByLabel('Gmail Client ID').fill(google.client.clientId);
    await gmail.getByLabel('Gmail Client Secret').fill(google.client.clientSecret);
    await gmail.getByRole('button', { name: 'Save Settings' }).click();
    await toast(page, 'Email settings saved successfully!');
    // Saving sends no request expected to fail (the SMTP settings of old are only deleted when there are some).
    expect(errors).toEqual([]);
    await expect.poll(() => gmail.getByLabel('Gmail Client Secret').getAttribute('placeholder')).toMatch(/^•+/);
    expect(await gmail.getByLabel('Gmail Client Secret').inputValue()).toBe('');
    await throughPopup(page, () => gmail.getByRole('button', { name: 'Authenticate with Google' }).click());
    await toast(page, 'Gmail API authentication successful!');
    await gmail.getByText('Gmail API is authenticated and ready to use').waitFor();
    await gmail.getByRole('button', { name: 'Re-authenticate' }).waitFor();
    await gmail.getByRole('button', { name: 'Test Connection' }).click();
    await toast(page, 'Test email sent successfully! Check your inbox.');
    expect(google.sentMessages).toHaveLength(1);
    expect(google.sentMessages[0]).toMatchObject({ to: NOTIFICATION_EMAIL, subject: TEST_EMAIL_SUBJECT });
    await snapTall(page, '12-settings-connected');
    await snapPanel(wordpress, '12a-wordpress-panel');
    await snapPanel(linkedin, '12b-linkedin-panel');
    await snapPanel(gmail, '12c-gmail-panel');

    // API Keys: add one, then delete it (the confirmation is accepted).
    const keys = page.getByRole('region', { name: 'API Keys' });
    await keys.getByRole('button', { name: 'Add New API Key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add New API Key' });
    await dialog.getByLabel('Key Name').fill('openai_api_key');
    await dialog.getByLabel('Value').fill(OPENAI_KEY);
    await dialog.getByLabel('Description').fill('Drafts and images');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Created settings entry successfully');
    const entry = keys.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'openai_api_key' }) });
    await entry.waitFor();
    expect(await entry.textContent()).toContain('••••••••cdef');
    await snapTall(page, '13-settings-api-key');
    await entry.getByRole('button', { name: 'Delete openai_api_key' }).click();
    await toast(page, 'Settings entry deleted successfully');
    await entry.waitFor({ state: 'detached' });

    // Reloading shows the same saved state.
    await page.reload();
    await wordpress.getByText('Connected to').waitFor();
    await linkedin.getByText(`Connected as ${li.member.name}`).waitFor();
    await gmail.getByText('Gmail API is authenticated and ready to use').waitFor();
    expect(await gmail.getByLabel('Notification Email').inputValue()).toBe(NOTIFICATION_EMAIL);
    await page.getByLabel('Theme', { exact: true }).selectOption('dark');
    await snapTall(page, '14-settings-dark');

    // No answer of the API ever carried a secret back.
    await expect.poll(() => apiBodies.length).toBeGreaterThan(20);
    const secrets = [
      FAKE_WP_EDITOR.appPassword,
      FAKE_WP_EDITOR.appPassword.replace(/\s/g, ''),
      li.app.clientSecret,
      google.client.clientSecret,
      OPENAI_KEY,
    ];
    for (const { url, body } of apiBodies) {
      for (const secret of secrets) expect(body.includes(secret), `${url} answered with a secret`).toBe(false);
    }
    expect(apiBodies.some(({ url }) => url.includes('/api/email/settings'))).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });
});
