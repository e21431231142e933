import { useEffect, useId, useMemo, useState, type FormEvent } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useWatch } from 'react-hook-form';
import * as z from 'zod/mini';
import {
  DEFAULT_IMPORT_RANGE,
  SheetsMessages,
  importResultText,
  noSpreadsheetsMatching,
  SheetsImportSchema,
  statusColumn,
  type SheetsImportInput,
  type SheetsImportResult,
} from '@app/shared';
import { ApiError, request } from '../../api/client';
import { firstError, useZodForm } from '../../lib/form';
import { panelToast } from '../../lib/toast';
import { BusyButton, Spinner } from '../Spinner';
import { ImportResults } from './ImportResults';
import { ASK_OWNER, NOT_CONNECTED_CODES, sheetsErrorText } from './messages';

export const SPREADSHEETS_QUERY_KEY = ['sheets', 'spreadsheets'] as const;

interface ImportFormProps {
  disconnecting: boolean;
  /** Absent: the current role may not disconnect (only a workspace's owners connect it: docs/product.md, Workspaces). */
  onDisconnect?: () => void;
  /** The server no longer has a Google grant (revoked, or disconnected in another tab). */
  onConnectionLost: () => void;
  /** The stored grant may edit spreadsheets. */
  canWrite: boolean;
  /** "Write each row's status back to the sheet" (off by default). */
  writeBack: boolean;
  onWriteBackChange: (on: boolean) => void;
  /** Google's consent page again, asking for write access too. */
  /** Absent: the current role may not connect (the same). */
  onConnectWrite?: () => void;
  connectingWrite: boolean;
  /** The server found the grant read-only after all. */
  onWriteAccessLost: () => void;
}

/**
 * docs/product.md (Sheets import), connected: Disconnect, Search Spreadsheets, Select Spreadsheet (the
 * first match preselected), Range, Import Articles, then the results box.
 */
export function ImportForm({
  disconnecting,
  onDisconnect,
  onConnectionLost,
  canWrite,
  writeBack,
  onWriteBackChange,
  onConnectWrite,
  connectingWrite,
  onWriteAccessLost,
}: ImportFormProps) {
  const uid = useId();
  const list = useQuery({
    queryKey: SPREADSHEETS_QUERY_KEY,
    queryFn: async () => (await request('sheets.list')).spreadsheets,
    retry: false,
  });
  const [search, setSearch] = useState('');
  const [chosenId, setChosenId] = useState('');
  const [result, setResult] = useState<SheetsImportResult | null>(null);

  useEffect(() => {
    if (!list.isError) return;
    panelToast.error(sheetsErrorText(list.error, SheetsMessages.listFailed), { toastId: 'sheets-list-failed' });
    if (list.error instanceof ApiError && list.error.code && NOT_CONNECTED_CODES.has(list.error.code))
      onConnectionLost();
  }, [list.isError, list.error, list.errorUpdatedAt, onConnectionLost]);

  const term = search.trim().toLowerCase();
  const matches = useMemo(
    () => (list.data ?? []).filter((s) => !term || s.name.toLowerCase().includes(term)),
    [list.data, term],
  );
  // The choice stands while it matches the search; otherwise the first match is selected.
  const selectedId = matches.some((s) => s.id === chosenId) ? chosenId : (matches[0]?.id ?? '');

  // The payload's own schema, as the API checks it (a missing pick or range, an over-long range).
  const form = useZodForm(
    z.pipe(
      z.pipe(
        z.object({ range: z.string() }),
        z.transform(({ range }) => ({ spreadsheetId: selectedId, range, ...(writeBack ? { writeBack: true } : {}) })),
      ),
      SheetsImportSchema(),
    ),
    { range: DEFAULT_IMPORT_RANGE },
  );
  const range = useWatch({ control: form.control, name: 'range' });

  const importRows = useMutation({
    mutationFn: (body: SheetsImportInput) => request('sheets.import', { body }),
    onSuccess: (answer) => {
      setResult(answer);
      const text = importResultText(answer.importedCount);
      if (answer.importedCount > 0) panelToast.success(text);
      else panelToast.info(text);
      // The rows are imported either way; the statuses not reaching the sheet is a warning.
      if (answer.writeBack && answer.writeBack.status !== 'written') {
        panelToast.warning(answer.writeBack.message);
        if (answer.writeBack.status === 'not_allowed') onWriteAccessLost();
      }
    },
    onError: (err) => {
      panelToast.error(sheetsErrorText(err, SheetsMessages.importFailed));
      if (err instanceof ApiError && err.code && NOT_CONNECTED_CODES.has(err.code)) onConnectionLost();
    },
  });
  const importing = importRows.isPending;
  const canImport = !importing && selectedId !== '' && range.trim() !== '';

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (importing) return;
    void form.handleSubmit(
      (input) => importRows.mutate(input),
      (errors) => {
        const text = firstError(errors, ['spreadsheetId', 'range', 'writeBack']);
        if (text) panelToast.error(text);
      },
    )(event);
  };

  const ids = {
    search: `${uid}-search`,
    select: `${uid}-select`,
    range: `${uid}-range`,
    writeBack: `${uid}-write-back`,
  };
  const column = statusColumn(range);
  const warning =
    list.isSuccess && matches.length === 0
      ? term
        ? noSpreadsheetsMatching(search.trim())
        : SheetsMessages.noSpreadsheets
      : null;

  return (
    <>
      <form className="card sheets-card" onSubmit={onSubmit} noValidate aria-labelledby={`${uid}-title`}>
        <div className="sheets-card__header">
          <div>
            <h2 id={`${uid}-title`} className="card-title">
              Google Sheets <span className="badge sheets-badge">Connected</span>
            </h2>
            <p className="card-description">Pick a spreadsheet and the cells to read; each row becomes an article.</p>
          </div>
          {onDisconnect && (
            <BusyButton
              type="button"
              className="btn btn--secondary btn--sm"
              onClick={onDisconnect}
              disabled={disconnecting || importing}
              busy={disconnecting}
              label="Disconnect"
              busyLabel="Disconnecting..."
            />
          )}
        </div>

        <div className="field">
          <label className="field__label" htmlFor={ids.search}>
            Search Spreadsheets
          </label>
          <input
            id={ids.search}
            className="input"
            type="search"
            value={search}
            placeholder="Filter by name"
            autoComplete="off"
            onChange={(event) => setSearch(event.target.value)}
          />
        </div>

        <div className="field">
          <div className="field__label-row">
            <label className="field__label" htmlFor={ids.select}>
              Select Spreadsheet
            </label>
            <button
              type="button"
              className="link-button sheets-refresh"
              onClick={() => void list.refetch()}
              disabled={list.isFetching}
            >
              {list.isFetching ? 'Loading...' : 'Refresh list'}
            </button>
          </div>
          {list.isPending ? (
            <div className="sheets-loading">
              <Spinner size="sm" label="Loading spreadsheets" />{' '}
              <span className="muted">Loading your spreadsheets...</span>
            </div>
          ) : (
            <select
              id={ids.select}
              className="input select"
              value={selectedId}
              disabled={matches.length === 0}
              onChange={(event) => setChosenId(event.target.value)}
            >
              {matches.length === 0 && <option value="">No spreadsheet to select</option>}
              {matches.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))}
            </select>
          )}
          {list.isError && (
            <p className="alert alert--error" role="alert">
              {sheetsErrorText(list.error, SheetsMessages.listFailed)}
            </p>
          )}
          {warning && (
            <p className="alert alert--warning" role="status">
              {warning}
            </p>
          )}
        </div>

        <div className="field">
          <label className="field__label" htmlFor={ids.range}>
            Range
          </label>
          <input
            {...form.register('range')}
            id={ids.range}
            className="input sheets-range"
            type="text"
            spellCheck={false}
            autoComplete="off"
            aria-describedby={`${ids.range}-hint`}
          />
          <p id={`${ids.range}-hint`} className="field__hint">
            The tab name, then the first and last cell. Example: <code className="sheets-code">Sheet1!A1:F50</code>{' '}
            reads columns A to F of rows 1 to 50 on the tab “Sheet1”; end at G (
            <code className="sheets-code">Sheet1!A1:G50</code>) to read a Channels column.
          </p>
        </div>

        <div className="field">
          <div className="sheets-check">
            <input
              id={ids.writeBack}
              type="checkbox"
              checked={writeBack}
              disabled={importing}
              aria-describedby={`${ids.writeBack}-hint`}
              onChange={(event) => onWriteBackChange(event.target.checked)}
            />
            <label htmlFor={ids.writeBack}>{SheetsMessages.writeBackLabel}</label>
          </div>
          <p id={`${ids.writeBack}-hint`} className="field__hint sheets-check__hint">
            After the import, column <strong>{column}</strong> (just after the six import columns, or after a Channels
            column the range reads) gets each row's status: Imported, Already imported, or why it was not imported. It
            replaces what that column holds on those rows.
          </p>
          {writeBack && !canWrite && (
            <div className="alert alert--warning sheets-write-access" role="status">
              <span>{SheetsMessages.writeBackNeedsAccess}</span>
              {onConnectWrite ? (
                <BusyButton
                  type="button"
                  className="btn btn--secondary btn--sm"
                  onClick={onConnectWrite}
                  disabled={connectingWrite || importing}
                  busy={connectingWrite}
                  label={SheetsMessages.reconnectWithWrite}
                  busyLabel="Connecting..."
                />
              ) : (
                <span>{ASK_OWNER}</span>
              )}
            </div>
          )}
        </div>

        <div className="sheets-actions">
          <BusyButton
            type="submit"
            className="btn btn--primary btn--lg"
            disabled={!canImport}
            busy={importing}
            label="Import Articles"
            busyLabel="Importing..."
          />
          {!importing && !canImport && !list.isPending && (
            <span className="field__hint">{SheetsMessages.selectSpreadsheetAndRange}.</span>
          )}
        </div>
      </form>
      {result && <ImportResults result={result} />}
    </>
  );
}
