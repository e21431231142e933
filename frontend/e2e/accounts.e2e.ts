import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADA,
  GRACE,
  browserAvailable,
  launchBrowser,
  newDataDir,
  removeData,
  snap,
  startApp,
  submitRegistration,
  type RunningApp,
} from './harness.js';
import { PHONE, onPhone, pageScrollWidth, rightEdgeOf } from './viewport.js';

const hasBrowser = browserAvailable();

async function login(page: Page, email: string, password: string) {
  await page.getByRole('button', { name: 'Login', exact: true }).first().click();
  const dialog = page.getByRole('dialog');
  await dialog.locator('[name="email"]').fill(email);
  await dialog.locator('[name="password"]').fill(password);
  await dialog.getByRole('button', { name: 'Login', exact: true }).last().click();
}

async function logout(page: Page, name: string) {
  await page
    .getByRole('button', { name: new RegExp(name) })
    .first()
    .click();
  await page
    .getByRole('menuitem', { name: 'Logout' })
    .or(page.getByRole('button', { name: 'Logout' }))
    .first()
    .click();
  await page.waitForURL(/\/welcome$/);
}

describe.skipIf(!hasBrowser)('accounts journey (Chromium)', () => {
  let app: RunningApp;
  let browser: Browser;

  beforeAll(async () => {
    // A data folder of its own: the app keeps its DynamoDB files there, so the restart below finds them.
    [app, browser] = await Promise.all([startApp(newDataDir()), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    if (app) removeData(app);
  });

  it('first account becomes admin, approves the second, who logs in; logout lands on /welcome; data survives a restart', async () => {
    const page = await browser.newPage();
    await page.goto(app.url);
    await page.waitForURL(/\/welcome$/);
    await snap(page, '01-welcome');

    await submitRegistration(page, { ...ADA, timezone: 'Europe/Paris' });
    await page.waitForURL(/\/dashboard$/);
    await expect.poll(() => page.getByText('Admin account created. You are logged in.').count()).toBeGreaterThan(0);
    await page.getByRole('link', { name: 'Admin' }).click();
    await page.waitForURL(/\/admin$/);
    await page.getByRole('cell', { name: 'ada@example.com' }).waitFor();
    await snap(page, '02-admin');
    await logout(page, 'Ada');

    await submitRegistration(page, { ...GRACE, timezone: 'Europe/Paris' });
    await page.getByText('Registration received. Await admin approval.').first().waitFor();
    expect(page.url()).toMatch(/\/welcome$/);
    await login(page, 'grace@example.com', 'compiler');
    await page
      .getByText(/awaiting admin approval/)
      .first()
      .waitFor();
    await page.keyboard.press('Escape');

    await login(page, 'ada@example.com', 'analytical');
    await page.waitForURL(/\/dashboard$/);
    await page.goto(`${app.url}/admin`);
    const row = page.getByRole('row', { name: /grace@example\.com/ });
    // On a phone each user is a card: Activate is on screen, not past the right edge of a scrolled table.
    await onPhone(page, async () => {
      await expect
        .poll(() => rightEdgeOf(row.getByRole('button', { name: 'Activate' })))
        .toBeLessThanOrEqual(PHONE.width);
      expect(await pageScrollWidth(page)).toBeLessThanOrEqual(PHONE.width);
      await snap(page, '02b-admin-phone');
    });
    await row.getByRole('button', { name: 'Activate' }).click();
    await row.getByRole('button', { name: 'Deactivate' }).waitFor();
    await page.getByText('User activated').first().waitFor();
    await snap(page, '03-activated');
    await logout(page, 'Ada');

    await login(page, 'grace@example.com', 'compiler');
    await page.waitForURL(/\/dashboard$/);
    expect(await page.getByRole('link', { name: 'Admin' }).count()).toBe(0);
    await page.goto(`${app.url}/admin`);
    await page.waitForURL(/\/dashboard$/);
    await logout(page, 'Grace');
    // Back after logout does not show the app: the signed-out app sends any path to /welcome.
    await page.goBack();
    await page.waitForURL(/\/welcome$/);
    await page.getByRole('button', { name: 'Register', exact: true }).first().waitFor();

    // Stop and start the product on the same data folder: both accounts are still there.
    await app.stop();
    app = await startApp(app.dataDir);
    await page.goto(app.url);
    await login(page, 'grace@example.com', 'compiler');
    await page.waitForURL(/\/dashboard$/);
    await snap(page, '04-after-restart');
    await page.close();
  });
});
