import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SPREADSHEET_MIME,
  defaultDriveFiles,
  defaultSpreadsheets,
  startFakeGoogle,
  type FakeGoogle,
} from '../../functions/test/fakes/google.js';
import {
  ADA,
  browserAvailable,
  launchBrowser,
  registerOnDashboard,
  removeData,
  snap,
  startApp,
  type RunningApp,
} from './harness.js';

const hasBrowser = browserAvailable();

const TITLES = [
  'Plan a quarter of posts in one afternoon',
  'Repurpose one webinar into ten posts',
  'Measure what your newsletter earns',
];

/** A toast with this text (toasts stay 3 s on this screen). */
const toast = (page: Page, text: string) => page.locator('.Toastify__toast', { hasText: text }).first().waitFor();

describe.skipIf(!hasBrowser)('spreadsheet import journey (Chromium, fake Google)', () => {
  let app: RunningApp;
  let browser: Browser;
  let google: FakeGoogle;

  beforeAll(async () => {
    [google, browser] = await Promise.all([
      startFakeGoogle({
        files: [
          ...defaultDriveFiles(),
          {
            id: 'sheet-q3',
            name: 'Q3 content plan',
            mimeType: SPREADSHEET_MIME,
            modifiedTime: '2025-07-03T08:00:00.000Z',
          },
        ],
        spreadsheets: {
          ...defaultSpreadsheets(),
          'sheet-q3': {
            title: 'Q3 content plan',
            sheets: {
              Plan: [
                ['Title', 'Topic', 'Keyword', 'Details', 'Image Description', 'Tags'],
                [
                  TITLES[0],
                  'Content planning',
                  'content calendar',
                  'Batch the ideas, then the outlines',
                  'A wall calendar full of notes',
                  'planning, productivity',
                ],
                [TITLES[1], 'Content reuse', 'repurposing'],
                [],
                ['A row without keyword', 'Content reuse'],
                [TITLES[2], 'Email marketing', 'newsletter revenue', '', '', 'email'],
              ],
            },
          },
        },
      }),
      launchBrowser(),
    ]);
    app = await startApp(undefined, {
      GOOGLE_OAUTH_URL: google.oauthUrl,
      GOOGLE_API_URL: google.apiUrl,
      OPENAI_API_KEY: '',
    });
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    if (app) removeData(app);
    await google?.stop();
  });

  it('connect → search → pick a spreadsheet → import → results → the articles on /schedule', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await registerOnDashboard(page, app, ADA);

    // The Google OAuth client, as the Settings → Email panel saves it (one setting per key).
    const saved = await page.evaluate(
      async ({ clientId, clientSecret }) => {
        const save = (key: string, value: string) =>
          fetch('/api/settings', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ key, value }),
          });
        return [
          (await save('gmail_client_id', clientId)).status,
          (await save('gmail_client_secret', clientSecret)).status,
        ];
      },
      { clientId: google.client.clientId, clientSecret: google.client.clientSecret },
    );
    expect(saved.every((s) => s < 300)).toBe(true);

    await page.goto(`${app.url}/create`);
    await page.getByRole('button', { name: 'Import Articles from Google Sheets' }).click();
    await page.waitForURL(/\/sheets-import$/);
    await page.getByRole('heading', { name: 'Import Articles from Google Sheets', level: 1 }).waitFor();
    const connect = page.getByRole('button', { name: 'Connect to Google Sheets' });
    await connect.waitFor();
    await snap(page, '30-sheets-connect');

    // Google's consent page (the fake consents at once), our callback, then back here.
    await connect.click();
    await toast(page, 'Google Sheets authentication successful!');
    await page.waitForURL((url) => url.pathname === '/sheets-import' && url.search === '');
    const select = page.getByLabel('Select Spreadsheet');
    await select.waitFor();
    // The newest spreadsheet first, preselected; the trashed one is not offered.
    expect(await select.inputValue()).toBe('sheet-q3');
    const options = await select.locator('option').allTextContents();
    expect(options).toEqual(['Q3 content plan', 'Content plan 2025', 'Editorial calendar', 'Archive 2024']);
    await snap(page, '31-sheets-connected');

    await page.getByLabel('Search Spreadsheets').fill('PLAN');
    expect(await select.locator('option').allTextContents()).toEqual(['Q3 content plan', 'Content plan 2025']);
    await page.getByLabel('Search Spreadsheets').fill('nothing like this');
    await page.getByText('No spreadsheets found matching "nothing like this"').waitFor();
    expect(await page.getByRole('button', { name: 'Import Articles' }).isDisabled()).toBe(true);
    await page.getByLabel('Search Spreadsheets').fill('q3');
    expect(await select.inputValue()).toBe('sheet-q3');

    const range = page.getByLabel('Range');
    expect(await range.inputValue()).toBe('Sheet1!A1:F50');
    await range.fill('Plan!A1:F20');
    await page.getByRole('button', { name: 'Import Articles' }).click();
    const results = page.getByRole('region', { name: 'Import results' });
    await results.getByText('Successfully imported 3 articles.').waitFor();
    expect(await results.getByRole('list', { name: 'Import errors' }).getByRole('listitem').allTextContents()).toEqual([
      'Row 5: Keyword is required',
    ]);
    await toast(page, 'Successfully imported 3 articles.');
    await snap(page, '32-sheets-imported');

    // Nothing was written to the sheet: write-back is off by default.
    expect(google.sheetUpdates).toEqual([]);

    // Opting in to write-back: the read-only connection cannot, so the page offers to reconnect with write access.
    await page.getByRole('checkbox', { name: "Write each row's status back to the sheet" }).check();
    await page.getByText('Writing statuses needs permission to edit your spreadsheets.', { exact: false }).waitFor();
    await snap(page, '34-sheets-write-access');
    await page.getByRole('button', { name: 'Reconnect with write access' }).click();
    await toast(page, 'Write access granted');
    await page.waitForURL((url) => url.pathname === '/sheets-import' && url.search === '');
    await page.getByLabel('Range').fill('Plan!A1:F20');
    expect(await page.getByRole('checkbox', { name: "Write each row's status back to the sheet" }).isChecked()).toBe(
      true,
    );

    // Importing the same rows again adds nothing, and writes each row's status into column G.
    await page.getByRole('button', { name: 'Import Articles' }).click();
    await results.getByText('Successfully imported 0 articles.').waitFor();
    await results.getByText('3 rows were imported before and skipped.').waitFor();
    await results.getByText("Each row's status was written to the sheet (Plan!G1:G6).").waitFor();
    expect(google.spreadsheets['sheet-q3']!.sheets.Plan!.map((row) => row[6])).toEqual([
      'Status',
      'Already imported',
      'Already imported',
      '',
      'Not imported: Keyword is required',
      'Already imported',
    ]);
    await snap(page, '35-sheets-write-back');

    await results.getByRole('button', { name: 'Go to Schedule' }).click();
    await page.waitForURL(/\/schedule$/);
    for (const title of TITLES) await page.getByText(title, { exact: true }).first().waitFor();
    await snap(page, '33-sheets-schedule');

    const unpublished = await page.evaluate(
      async () => (await (await fetch('/api/articles/unpublished')).json()).articles,
    );
    const imported = unpublished.filter((a: { title: string }) => TITLES.includes(a.title));
    expect(imported).toHaveLength(3);
    expect(imported.find((a: { title: string }) => a.title === TITLES[0])).toMatchObject({
      keyword: 'content calendar',
      tags: ['planning', 'productivity'],
    });

    // Disconnect: the connect card again.
    await page.goto(`${app.url}/sheets-import`);
    await page.getByRole('button', { name: 'Disconnect' }).click();
    await toast(page, 'Disconnected from Google Sheets');
    await page.getByRole('button', { name: 'Connect to Google Sheets' }).waitFor();
    await page.close();
  });
});
