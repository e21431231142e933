import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SheetsMessages, type SheetsImportResult, type SheetsStatus, type Spreadsheet } from '@app/shared';
import SheetsImportPage from './SheetsImport';
import { browser } from '../components/sheets/browser';
import { findToast } from '../test/settings';
import { deferred, mockApi, renderWithProviders, type MockRoutes, type Reply } from '../test/utils';

const location = () => screen.getByTestId('location');
const status = (overrides: Partial<SheetsStatus> = {}): SheetsStatus => ({
  success: true,
  authenticated: false,
  clientConfigured: true,
  ...overrides,
});
const SHEETS: Spreadsheet[] = [
  { id: 's-plan', name: 'Content plan 2025' },
  { id: 's-editorial', name: 'Editorial Calendar' },
  { id: 's-archive', name: 'Archive 2024' },
];
const connected = (routes: MockRoutes = {}): MockRoutes => ({
  'sheets.status': status({ authenticated: true }),
  'sheets.list': { success: true, spreadsheets: SHEETS },
  ...routes,
});
const result = (overrides: Partial<SheetsImportResult> = {}): SheetsImportResult => ({
  success: true,
  importedCount: 2,
  errors: [],
  alreadyImported: 0,
  ...overrides,
});

const importButton = () => screen.getByRole('button', { name: 'Import Articles' });
const select = () => screen.getByLabelText('Select Spreadsheet');

/** A toast of the import screen: bottom-right (docs/product.md, Sheets import). */
async function panelToastWith(text: string | RegExp) {
  const toast = await findToast(text);
  expect(toast.closest('.Toastify__toast-container')).toHaveClass('Toastify__toast-container--bottom-right');
  return toast;
}

const savedAssign = browser.assign;
beforeEach(() => {
  browser.assign = vi.fn();
});
afterEach(() => {
  browser.assign = savedAssign;
  vi.unstubAllGlobals();
});

describe('Sheets import page: not connected', () => {
  it('shows the title, Back to Create, the connect card and the expected format', async () => {
    mockApi({ 'sheets.status': status() });
    renderWithProviders(<SheetsImportPage />, { route: '/sheets-import' });
    expect(screen.getByRole('heading', { level: 1, name: 'Import Articles from Google Sheets' })).toBeInTheDocument();
    const card = await screen.findByRole('region', { name: 'Connect to Google Sheets' });
    expect(within(card).getByText(/read-only access to your Google Drive/)).toBeInTheDocument();
    expect(within(card).getByText(`${window.location.origin}/api/sheets/callback`)).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Connect to Google Sheets' })).toBeEnabled();
    expect(screen.queryByLabelText('Select Spreadsheet')).not.toBeInTheDocument();

    const format = screen.getByRole('complementary', { name: 'Expected format' });
    const items = within(format)
      .getAllByRole('listitem')
      .slice(0, 6)
      .map((li) => li.textContent);
    expect(items).toEqual([
      'ATitle (required)',
      'BTopic (required)',
      'CKeyword (required)',
      'DDetails (optional)',
      'EImage Description (optional)',
      'FTags (comma separated)',
    ]);

    await userEvent.setup().click(screen.getByRole('button', { name: 'Back to Create' }));
    expect(location()).toHaveTextContent(/^\/create$/);
  });

  it('goes to Google’s consent page with the auth URL', async () => {
    const answer = deferred<Reply<'sheets.authUrl'>>();
    const { requests } = mockApi({ 'sheets.status': status(), 'sheets.authUrl': () => answer.promise });
    renderWithProviders(<SheetsImportPage />, { route: '/sheets-import' });
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Connect to Google Sheets' }));
    expect(screen.getByRole('button', { name: /Connecting\.\.\./ })).toBeDisabled();
    answer.resolve({ success: true, authUrl: 'https://accounts.google.com/o/oauth2/v2/auth?x=1' });
    await waitFor(() =>
      expect(browser.assign).toHaveBeenCalledWith('https://accounts.google.com/o/oauth2/v2/auth?x=1'),
    );
    expect(requests.find((r) => r.path === '/api/sheets/auth?access=read')?.credentials).toBe('include');
  });

  it('says what is missing when no Google OAuth client is set up', async () => {
    mockApi({ 'sheets.status': status({ clientConfigured: false }) });
    renderWithProviders(<SheetsImportPage />, { route: '/sheets-import' });
    expect(await screen.findByText(/Add your Google OAuth client first/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Connect to Google Sheets' })).toBeDisabled();
    expect(screen.getByRole('link', { name: 'Settings → Email' })).toHaveAttribute('href', '/settings');
  });

  it.each([
    [
      { status: 400, body: { error: 'Add a client', message: 'Add a client' } },
      'Failed to get authentication URL: Add a client',
    ],
    [{ status: 500, body: null }, 'Failed to get authentication URL: Error: 500'],
  ])('toasts a failed auth URL (%#)', async (reply, text) => {
    mockApi({ 'sheets.status': status(), 'sheets.authUrl': reply });
    renderWithProviders(<SheetsImportPage />, { route: '/sheets-import' });
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Connect to Google Sheets' }));
    await panelToastWith(text);
    expect(browser.assign).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Connect to Google Sheets' })).toBeEnabled();
  });

  it('toasts a failed status check and offers to try again', async () => {
    let calls = 0;
    mockApi({ 'sheets.status': () => (++calls === 1 ? { status: 503, body: null } : status()) });
    renderWithProviders(<SheetsImportPage />, { route: '/sheets-import' });
    await panelToastWith('Failed to check authentication status: Error: 503');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('region', { name: 'Connect to Google Sheets' })).toBeInTheDocument();
  });
});

describe('Sheets import page: back from Google', () => {
  it('toasts the success, refreshes the status and removes the query', async () => {
    let calls = 0;
    mockApi({
      'sheets.status': () => status({ authenticated: ++calls > 0 }),
      'sheets.list': { success: true, spreadsheets: SHEETS },
    });
    renderWithProviders(<SheetsImportPage />, { route: '/sheets-import?sheets_connected=true' });
    await panelToastWith('Google Sheets authentication successful!');
    await waitFor(() => expect(location()).toHaveTextContent(/^\/sheets-import$/));
    expect(location()).toHaveAttribute('data-navigation', 'REPLACE');
    expect(await screen.findByLabelText('Select Spreadsheet')).toBeInTheDocument();
  });

  it('explains a failed authorization', async () => {
    mockApi({ 'sheets.status': status() });
    renderWithProviders(<SheetsImportPage />, { route: '/sheets-import?sheets_error=access_denied' });
    await panelToastWith('Authentication failed: access was not allowed on Google’s consent screen.');
    await waitFor(() => expect(location()).toHaveTextContent(/^\/sheets-import$/));
  });

  it('an unknown sheets_error shows one generic text, never the parameter itself', async () => {
    mockApi({ 'sheets.status': status() });
    renderWithProviders(<SheetsImportPage />, {
      route: '/sheets-import?sheets_error=Your%20account%20is%20suspended%2C%20call%20%2B1%20555%200100%20now',
    });
    await panelToastWith('Authentication failed: the Google sign-in did not complete. Try again.');
    expect(document.body.textContent).not.toMatch(/suspended/);
    await waitFor(() => expect(location()).toHaveTextContent(/^\/sheets-import$/));
  });
});

describe('Sheets import page: connected', () => {
  it('preselects the first spreadsheet and filters by name, case-insensitively', async () => {
    mockApi(connected());
    renderWithProviders(<SheetsImportPage />, { route: '/sheets-import' });
    await waitFor(() => expect(select()).toHaveValue('s-plan'));
    expect(
      within(select())
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(SHEETS.map((s) => s.name));
    expect(screen.getByLabelText('Range')).toHaveValue('Sheet1!A1:F50');
    expect(screen.getByText('Sheet1!A1:F50', { selector: 'code' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Disconnect' })).toBeEnabled();

    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Search Spreadsheets'), 'CALENDAR');
    expect(
      within(select())
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Editorial Calendar']);
    expect(select()).toHaveValue('s-editorial');

    await user.clear(screen.getByLabelText('Search Spreadsheets'));
    await user.selectOptions(select(), 's-archive');
    await user.type(screen.getByLabelText('Search Spreadsheets'), '20');
    // The choice stands while it still matches.
    expect(select()).toHaveValue('s-archive');
  });

  it('warns when nothing matches the search, and when the Drive has no spreadsheet', async () => {
    mockApi(connected());
    const first = renderWithProviders(<SheetsImportPage />, { route: '/sheets-import' });
    await waitFor(() => expect(select()).toHaveValue('s-plan'));
    await userEvent.setup().type(screen.getByLabelText('Search Spreadsheets'), 'zzz');
    expect(screen.getByText('No spreadsheets found matching "zzz"')).toBeInTheDocument();
    expect(importButton()).toBeDisabled();
    first.unmount();

    mockApi(connected({ 'sheets.list': { success: true, spreadsheets: [] } }));
    renderWithProviders(<SheetsImportPage />, { route: '/sheets-import' });
    expect(await screen.findByText('No spreadsheets found in your Google Drive')).toBeInTheDocument();
    expect(select()).toBeDisabled();
    expect(importButton()).toBeDisabled();
  });

  it("checks the import with the API's own schema: an over-long range is refused before any request", async () => {
    const { requests } = mockApi(connected({}));
    renderWithProviders(<SheetsImportPage />, { route: '/sheets-import' });
    await waitFor(() => expect(select()).toHaveValue('s-plan'));
    const range = screen.getByLabelText('Range');
    const user = userEvent.setup();
    await user.clear(range);
    await user.click(range);
    await user.paste(`Plan!A1:${'F'.repeat(300)}`);
    await user.click(importButton());
    expect(await findToast('The range must be at most 300 characters')).toBeInTheDocument();
    expect(requests.filter((r) => r.method === 'POST')).toHaveLength(0);
  });

  it('keeps Import Articles disabled without a range or while importing', async () => {
    const answer = deferred<Reply<'sheets.import'>>();
    const { requests } = mockApi(connected({ 'sheets.import': () => answer.promise }));
    renderWithProviders(<SheetsImportPage />, { route: '/sheets-import' });
    await waitFor(() => expect(select()).toHaveValue('s-plan'));
    const user = userEvent.setup();
    const range = screen.getByLabelText('Range');
    await user.clear(range);
    expect(importButton()).toBeDisabled();
    expect(screen.getByText('Please select a spreadsheet and specify a range.')).toBeInTheDocument();
    await user.type(range, '   ');
    expect(importButton()).toBeDisabled();
    await user.clear(range);
    await user.type(range, ' Plan!A2:F9 ');
    expect(importButton()).toBeEnabled();

    await user.click(importButton());
    const busy = screen.getByRole('button', { name: /Importing\.\.\./ });
    expect(busy).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Disconnect' })).toBeDisabled();
    expect(requests.filter((r) => r.method === 'POST')).toEqual([
      expect.objectContaining({
        path: '/api/sheets/import',
        body: { spreadsheetId: 's-plan', range: 'Plan!A2:F9' },
        credentials: 'include',
      }),
    ]);
    answer.resolve(result());
    expect(await screen.findByRole('button', { name: 'Import Articles' })).toBeEnabled();
  });

  it('shows the results box: the count, the rows not imported, and Go to Schedule', async () => {
    mockApi(
      connected({
        'sheets.import': result({
          importedCount: 3,
          alreadyImported: 2,
          errors: ['Row 4: Keyword is required', 'Row 7: Topic is required'],
        }),
      }),
    );
    renderWithProviders(<SheetsImportPage />, { route: '/sheets-import' });
    await waitFor(() => expect(select()).toHaveValue('s-plan'));
    const user = userEvent.setup();
    await user.click(importButton());
    const box = await screen.findByRole('region', { name: 'Import results' });
    expect(within(box).getByText('Successfully imported 3 articles.')).toBeInTheDocument();
    expect(within(box).getByText('2 rows were imported before and skipped.')).toBeInTheDocument();
    expect(
      within(within(box).getByRole('list', { name: 'Import errors' }))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Row 4: Keyword is required', 'Row 7: Topic is required']);
    await panelToastWith('Successfully imported 3 articles.');
    await user.click(within(box).getByRole('button', { name: 'Go to Schedule' }));
    expect(location()).toHaveTextContent(/^\/schedule$/);
  });

  it.each([
    [{ status: 502, body: null }, 'Failed to import articles from Google Sheets: Error: 502'],
    [
      {
        status: 400,
        body: {
          error: 'Please select a spreadsheet and specify a range',
          message: 'Please select a spreadsheet and specify a range',
        },
      },
      'Failed to import articles from Google Sheets: Please select a spreadsheet and specify a range',
    ],
  ])('toasts a failed import (%#)', async (reply, text) => {
    mockApi(connected({ 'sheets.import': reply }));
    renderWithProviders(<SheetsImportPage />, { route: '/sheets-import' });
    await waitFor(() => expect(select()).toHaveValue('s-plan'));
    await userEvent.setup().click(importButton());
    await panelToastWith(text);
    expect(screen.queryByRole('region', { name: 'Import results' })).not.toBeInTheDocument();
  });

  it('toasts a failed list, and shows the connect card when Google no longer accepts the grant', async () => {
    let authenticated = true;
    mockApi({
      'sheets.status': () => status({ authenticated }),
      'sheets.list': () => {
        authenticated = false;
        const message = 'Google no longer accepts the Google Sheets connection. Connect Google Sheets again.';
        return { status: 400, body: { error: message, message, code: 'sheets_reconnect' } };
      },
    });
    renderWithProviders(<SheetsImportPage />, { route: '/sheets-import' });
    await panelToastWith(
      'Failed to fetch spreadsheets: Google no longer accepts the Google Sheets connection. Connect Google Sheets again.',
    );
    expect(await screen.findByRole('button', { name: 'Connect to Google Sheets' })).toBeInTheDocument();
  });

  it('disconnects: the list and the selection are gone, the connect card is back', async () => {
    let authenticated = true;
    const { requests } = mockApi(
      connected({
        'sheets.status': () => status({ authenticated }),
        'sheets.disconnect': () => {
          authenticated = false;
          return { success: true, message: 'Disconnected from Google Sheets' };
        },
      }),
    );
    renderWithProviders(<SheetsImportPage />, { route: '/sheets-import' });
    await waitFor(() => expect(select()).toHaveValue('s-plan'));
    await userEvent.setup().click(screen.getByRole('button', { name: 'Disconnect' }));
    await panelToastWith('Disconnected from Google Sheets');
    expect(await screen.findByRole('button', { name: 'Connect to Google Sheets' })).toBeInTheDocument();
    expect(screen.queryByLabelText('Select Spreadsheet')).not.toBeInTheDocument();
    expect(requests.find((r) => r.method === 'POST')).toMatchObject({
      path: '/api/sheets/disconnect',
      body: undefined,
    });
  });

  it('toasts a failed disconnect and stays connected', async () => {
    mockApi(connected({ 'sheets.disconnect': { status: 500, body: null } }));
    renderWithProviders(<SheetsImportPage />, { route: '/sheets-import' });
    await waitFor(() => expect(select()).toHaveValue('s-plan'));
    await userEvent.setup().click(screen.getByRole('button', { name: 'Disconnect' }));
    await panelToastWith('Failed to disconnect from Google Sheets: Error: 500');
    expect(screen.getByLabelText('Select Spreadsheet')).toBeInTheDocument();
  });
});

describe('Sheets import page: writing statuses back (optional)', () => {
  const checkbox = () => screen.getByRole('checkbox', { name: "Write each row's status back to the sheet" });

  it('is off by default; ticked, the import asks for it and the results say where the statuses went', async () => {
    const { requests } = mockApi(
      connected({
        'sheets.status': status({ authenticated: true, canWrite: true }),
        'sheets.import': result({
          importedCount: 1,
          writeBack: { status: 'written', updatedRange: 'Plan!H2:H9', updatedRows: 8 },
        }),
      }),
    );
    renderWithProviders(<SheetsImportPage />, { route: '/sheets-import' });
    await waitFor(() => expect(select()).toHaveValue('s-plan'));
    expect(checkbox()).not.toBeChecked();
    // The column after the six import columns of the range.
    expect(checkbox()).toHaveAccessibleDescription(
      /column G \(just after the six import columns, or after a Channels column the range reads\)/,
    );
    const user = userEvent.setup();
    const range = screen.getByLabelText('Range');
    await user.clear(range);
    await user.type(range, 'Plan!B2:G9');
    expect(checkbox()).toHaveAccessibleDescription(/column H/);

    await user.click(checkbox());
    expect(checkbox()).toBeChecked();
    // Write access is there: no warning.
    expect(screen.queryByText(SheetsMessages.writeBackNeedsAccess)).not.toBeInTheDocument();
    await user.click(importButton());
    const box = await screen.findByRole('region', { name: 'Import results' });
    expect(within(box).getByText("Each row's status was written to the sheet (Plan!H2:H9).")).toBeInTheDocument();
    expect(requests.filter((r) => r.method === 'POST')).toEqual([
      expect.objectContaining({
        path: '/api/sheets/import',
        body: { spreadsheetId: 's-plan', range: 'Plan!B2:G9', writeBack: true },
      }),
    ]);
  });

  it('without write access: says so, offers to reconnect with write access, and still imports', async () => {
    const answer = deferred<Reply<'sheets.authUrl'>>();
    const { requests } = mockApi(
      connected({
        'sheets.authUrl': () => answer.promise,
        'sheets.import': result({
          writeBack: { status: 'not_allowed', code: 'sheets_write_scope', message: SheetsMessages.writeBackNotAllowed },
        }),
      }),
    );
    renderWithProviders(<SheetsImportPage />, { route: '/sheets-import' });
    await waitFor(() => expect(select()).toHaveValue('s-plan'));
    const user = userEvent.setup();
    await user.click(checkbox());
    expect(screen.getByText(SheetsMessages.writeBackNeedsAccess)).toBeInTheDocument();
    expect(importButton()).toBeEnabled();

    // Importing anyway: the rows are imported, the page says why the statuses are not in the sheet.
    await user.click(importButton());
    const box = await screen.findByRole('region', { name: 'Import results' });
    expect(within(box).getByText('Successfully imported 2 articles.')).toBeInTheDocument();
    expect(within(box).getByText(SheetsMessages.writeBackNotAllowed)).toBeInTheDocument();
    await panelToastWith(SheetsMessages.writeBackNotAllowed);

    // Reconnecting asks Google for write access.
    await user.click(screen.getByRole('button', { name: 'Reconnect with write access' }));
    expect(screen.getByRole('button', { name: /Connecting\.\.\./ })).toBeDisabled();
    answer.resolve({ success: true, authUrl: 'https://accounts.google.com/o/oauth2/v2/auth?scope=spreadsheets' });
    await waitFor(() =>
      expect(browser.assign).toHaveBeenCalledWith('https://accounts.google.com/o/oauth2/v2/auth?scope=spreadsheets'),
    );
    expect(requests.some((r) => r.path === '/api/sheets/auth?access=write')).toBe(true);
  });

  it('warns when Google refused the statuses, keeping the import result', async () => {
    const message =
      'The articles are imported, but the statuses were not written to the sheet. Your Google account can view this spreadsheet but not edit it.';
    mockApi(
      connected({
        'sheets.status': status({ authenticated: true, canWrite: true }),
        'sheets.import': result({
          importedCount: 3,
          writeBack: { status: 'failed', code: 'spreadsheet_read_only', message },
        }),
      }),
    );
    renderWithProviders(<SheetsImportPage />, { route: '/sheets-import' });
    await waitFor(() => expect(select()).toHaveValue('s-plan'));
    const user = userEvent.setup();
    await user.click(checkbox());
    await user.click(importButton());
    const box = await screen.findByRole('region', { name: 'Import results' });
    expect(within(box).getByText('Successfully imported 3 articles.')).toBeInTheDocument();
    expect(within(box).getByText(message)).toHaveClass('alert--warning');
    await panelToastWith('Successfully imported 3 articles.');
    await panelToastWith(message);
    // Still connected with write access: no reconnect prompt.
    expect(screen.queryByRole('button', { name: 'Reconnect with write access' })).not.toBeInTheDocument();
  });

  it('back from Google with write access: toasts it and ticks the box', async () => {
    let calls = 0;
    mockApi(connected({ 'sheets.status': () => status({ authenticated: true, canWrite: ++calls > 0 }) }));
    renderWithProviders(<SheetsImportPage />, { route: '/sheets-import?sheets_connected=true&sheets_write=granted' });
    await panelToastWith('Google Sheets authentication successful!');
    await panelToastWith(SheetsMessages.writeAccessGranted);
    await waitFor(() => expect(location()).toHaveTextContent(/^\/sheets-import$/));
    await waitFor(() => expect(select()).toHaveValue('s-plan'));
    expect(checkbox()).toBeChecked();
    expect(screen.queryByText(SheetsMessages.writeBackNeedsAccess)).not.toBeInTheDocument();
  });

  it('back from Google without the edit permission: connected read-only, box unticked', async () => {
    mockApi(connected());
    renderWithProviders(<SheetsImportPage />, { route: '/sheets-import?sheets_connected=true&sheets_write=denied' });
    await panelToastWith(SheetsMessages.writeAccessDenied);
    await waitFor(() => expect(select()).toHaveValue('s-plan'));
    expect(checkbox()).not.toBeChecked();
  });
});
