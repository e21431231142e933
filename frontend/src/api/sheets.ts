import type { SheetsAccess, SheetsImportInput, SheetsImportResult, SheetsStatus, Spreadsheet } from '@app/shared';
import { api } from './client';

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

export { NOT_CONNECTED_CODES, sheetsErrorText } from '../components/sheets/messages';
