import type { SheetsAccess, SheetsImportInput, SheetsImportResult, SheetsStatus, Spreadsheet } from '@app/shared';
import { ApiError, api } from './client';

/** The spreadsheet import calls (functions/src/routes.ts). */
export const sheetsApi = {
  status: () => api.get<SheetsStatus>('/sheets/status'),
  /** `write`: also ask Google for permission to edit spreadsheets (writing statuses back). */
  authUrl: (access: SheetsAccess = 'read') =>
    api.get<{ success: boolean; authUrl: string }>(access === 'write' ? '/sheets/auth?access=write' : '/sheets/auth'),
  disconnect: () => api.post<{ success: boolean; message?: string }>('/sheets/disconnect'),
  spreadsheets: async (): Promise<Spreadsheet[]> =>
    (await api.get<{ success: boolean; spreadsheets?: Spreadsheet[] }>('/sheets/spreadsheets')).spreadsheets ?? [],
  importRows: (input: SheetsImportInput) => api.post<SheetsImportResult>('/sheets/import', input),
};

/** Server codes after which the page shows the connect card again (the grant is gone). */
export const NOT_CONNECTED_CODES = new Set(['sheets_not_connected', 'sheets_reconnect']);

/**
 * docs/product.md (Texts): the screen's own text, then what went wrong: the server's message, else
 * `Error: {status}` for a non-OK answer. A network failure gets the screen's text alone.
 */
export function sheetsErrorText(err: unknown, what: string): string {
  if (!(err instanceof ApiError)) return what;
  return `${what}: ${err.serverMessage ?? err.error ?? `Error: ${err.status}`}`;
}
