/**
 * The Google Sheets import as the API uses it: the grant (domain/sheets-grant.ts) and the import of
 * rows (domain/sheets-import.ts) behind one service.
 */
import type { SheetsAccess, SheetsImportResult, SheetsStatus, Spreadsheet } from '@app/shared';
import { SheetsGrants, type SheetsGrantsDeps } from './sheets-grant.js';
import { SheetsImport, type SheetsImportDeps } from './sheets-import.js';

export type { ArticleImport } from './sheets-import.js';

export type SheetsServiceDeps = SheetsGrantsDeps & Omit<SheetsImportDeps, 'grants'>;

export class SheetsService {
  private readonly grants: SheetsGrants;
  private readonly rows: SheetsImport;

  constructor(deps: SheetsServiceDeps) {
    this.grants = new SheetsGrants(deps);
    this.rows = new SheetsImport({ ...deps, grants: this.grants });
  }

  status(userId: string): Promise<SheetsStatus> {
    return this.grants.status(userId);
  }

  authUrl(userId: string, redirectUri: string, access?: SheetsAccess, startedBy?: string): Promise<string> {
    return this.grants.authUrl(userId, redirectUri, access, startedBy);
  }

  callback(
    query: { code?: string; state?: string; error?: string },
    sessionUserId: string | undefined,
    redirectUri: string,
  ): Promise<string> {
    return this.grants.callback(query, sessionUserId, redirectUri);
  }

  disconnect(userId: string): Promise<void> {
    return this.grants.disconnect(userId);
  }

  listSpreadsheets(userId: string): Promise<Spreadsheet[]> {
    return this.rows.listSpreadsheets(userId);
  }

  import(
    userId: string,
    input: { spreadsheetId: string; range: string; writeBack?: boolean },
  ): Promise<SheetsImportResult> {
    return this.rows.import(userId, input);
  }
}
