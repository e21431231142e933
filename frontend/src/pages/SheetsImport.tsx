import { useCallback, useEffect, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { SheetsMessages, type SheetsAccess, type SheetsStatus } from '@app/shared';
import { request } from '../api/client';
import { PageHeader } from '../components/PageHeader';
import { PageSpinner } from '../components/Spinner';
import { ConnectCard } from '../components/sheets/ConnectCard';
import { ExpectedFormat } from '../components/sheets/ExpectedFormat';
import { ImportForm, SPREADSHEETS_QUERY_KEY } from '../components/sheets/ImportForm';
import { browser } from '../components/sheets/browser';
import { authErrorReason, sheetsErrorText } from '../components/sheets/messages';
import { useSheetsReturn, type SheetsReturn } from '../components/sheets/useSheetsReturn';
import { useCan } from '../hooks/useWorkspaces';
import { panelToast } from '../lib/toast';
import '../components/sheets/sheets.css';

export const SHEETS_STATUS_QUERY_KEY = ['sheets', 'status'] as const;

/**
 * docs/product.md (Sheets import): connect Google Sheets (the browser goes to Google's consent page and
 * comes back with `?sheets_connected=true`), pick a spreadsheet and a range, import the rows.
 */
export default function SheetsImportPage() {
  const navigate = useNavigate();
  // Connecting and disconnecting are the owners' (docs/product.md, Workspaces); importing is a writer's.
  const may = useCan();
  const queryClient = useQueryClient();
  const status = useQuery({
    queryKey: SHEETS_STATUS_QUERY_KEY,
    queryFn: () => request('sheets.status'),
    retry: false,
    staleTime: 0,
  });
  /** Write each row's status back to the sheet: off by default, on after granting write access for it. */
  const [writeBack, setWriteBack] = useState(false);

  useEffect(() => {
    if (status.isError) {
      panelToast.error(sheetsErrorText(status.error, SheetsMessages.statusFailed), { toastId: 'sheets-status-failed' });
    }
  }, [status.isError, status.error, status.errorUpdatedAt]);

  useSheetsReturn(
    useCallback(
      (outcome: SheetsReturn) => {
        if (outcome.ok) {
          panelToast.success(SheetsMessages.connected);
          if (outcome.write === 'granted') {
            panelToast.info(SheetsMessages.writeAccessGranted);
            setWriteBack(true);
          } else if (outcome.write === 'denied') {
            panelToast.warning(SheetsMessages.writeAccessDenied);
          }
        } else {
          panelToast.error(`${SheetsMessages.authFailed}: ${authErrorReason(outcome.error)}`);
        }
        void queryClient.invalidateQueries({ queryKey: SHEETS_STATUS_QUERY_KEY });
      },
      [queryClient],
    ),
  );

  /** The grant is gone: forget the list and show the connect card. */
  const connectionLost = useCallback(() => {
    queryClient.removeQueries({ queryKey: SPREADSHEETS_QUERY_KEY });
    setWriteBack(false);
    queryClient.setQueryData<SheetsStatus>(
      SHEETS_STATUS_QUERY_KEY,
      (current) => current && { ...current, authenticated: false },
    );
    void queryClient.invalidateQueries({ queryKey: SHEETS_STATUS_QUERY_KEY });
  }, [queryClient]);

  /** The grant may read only now (the edit permission was taken back at Google). */
  const writeAccessLost = useCallback(() => {
    queryClient.setQueryData<SheetsStatus>(
      SHEETS_STATUS_QUERY_KEY,
      (current) => current && { ...current, canWrite: false },
    );
  }, [queryClient]);

  const connect = useMutation({
    mutationFn: (access: SheetsAccess) => request('sheets.authUrl', { query: { access } }),
    // Google's consent page, then back here through /api/sheets/callback.
    onSuccess: ({ authUrl }) => browser.assign(authUrl),
  });
  // Still connecting once the browser is on its way to Google.
  const connecting = connect.isPending || connect.isSuccess;
  // The failure's toast comes with the button usable again (mutate's callbacks run as the result is published).
  const startConnect = (access: SheetsAccess = 'read') =>
    connect.mutate(access, { onError: (err) => panelToast.error(sheetsErrorText(err, SheetsMessages.authUrlFailed)) });

  const disconnect = useMutation({
    mutationFn: () => request('sheets.disconnect'),
    onSuccess: () => {
      panelToast.success(SheetsMessages.disconnected);
      connectionLost();
    },
    onError: (err) => panelToast.error(sheetsErrorText(err, SheetsMessages.disconnectFailed)),
  });

  let main;
  if (status.isPending) {
    main = <PageSpinner label="Checking the Google Sheets connection" />;
  } else if (status.isError) {
    main = (
      <section className="card sheets-card" aria-label="Google Sheets connection">
        <p className="alert alert--error" role="alert">
          {sheetsErrorText(status.error, SheetsMessages.statusFailed)}
        </p>
        <div className="sheets-actions">
          <button
            type="button"
            className="btn btn--secondary"
            onClick={() => void status.refetch()}
            disabled={status.isFetching}
          >
            Try again
          </button>
        </div>
      </section>
    );
  } else if (status.data.authenticated) {
    main = (
      <ImportForm
        disconnecting={disconnect.isPending}
        onDisconnect={may('sheets.disconnect') ? () => disconnect.mutate() : undefined}
        onConnectionLost={connectionLost}
        canWrite={status.data.canWrite === true}
        writeBack={writeBack}
        onWriteBackChange={setWriteBack}
        connectingWrite={connecting}
        onConnectWrite={may('sheets.authUrl') ? () => startConnect('write') : undefined}
        onWriteAccessLost={writeAccessLost}
      />
    );
  } else {
    main = (
      <ConnectCard
        clientConfigured={status.data.clientConfigured !== false}
        connecting={connecting}
        onConnect={may('sheets.authUrl') ? () => startConnect() : undefined}
      />
    );
  }

  return (
    <div className="page">
      <PageHeader
        title="Import Articles from Google Sheets"
        description="Turn the rows of a spreadsheet into articles; their drafts are written in the background."
        actions={
          <button type="button" className="btn btn--secondary" onClick={() => navigate('/create')}>
            Back to Create
          </button>
        }
      />
      <div className="sheets-layout">
        <div className="sheets-main">{main}</div>
        <ExpectedFormat />
      </div>
    </div>
  );
}
