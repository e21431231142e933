import { Link } from 'react-router-dom';
import { SheetsMessages } from '@app/shared';
import { BusyButton } from '../Spinner';
import { ASK_OWNER } from './messages';

interface ConnectCardProps {
  /** Whether a Google OAuth client is available (the user's Gmail client or the deployment's). */
  clientConfigured: boolean;
  connecting: boolean;
  /** Absent: the current role may not connect (only a workspace's owners do: docs/product.md, Workspaces). */
  onConnect?: () => void;
}

/** docs/product.md (Sheets import), not connected: what connecting allows, and the button. */
export function ConnectCard({ clientConfigured, connecting, onConnect }: ConnectCardProps) {
  const callback = `${window.location.origin}/api/sheets/callback`;
  return (
    <section className="card sheets-card" aria-labelledby="sheets-connect-title">
      <div>
        <h2 id="sheets-connect-title" className="card-title">
          Connect to Google Sheets
        </h2>
        <p className="card-description">
          Allow read-only access to your Google Drive so you can pick a spreadsheet and turn its rows into articles. The
          app reads spreadsheet names and cell values; it changes a sheet only if you later choose to write each row’s
          import status back, which asks Google for permission to edit.
        </p>
      </div>
      <ul className="sheets-notes">
        <li>You will be taken to Google to sign in and allow access, then brought back here.</li>
        <li>
          It uses the Google OAuth client from <Link to="/settings">Settings → Email</Link>. Add{' '}
          <code className="sheets-code">{callback}</code> to that client’s authorized redirect URIs, and enable the
          Google Sheets API and Google Drive API in its Google Cloud project.
        </li>
      </ul>
      {!clientConfigured && (
        <p className="alert alert--warning" role="status">
          {SheetsMessages.clientMissing}
        </p>
      )}
      <div className="sheets-actions">
        {onConnect ? (
          <BusyButton
            type="button"
            className="btn btn--primary"
            onClick={onConnect}
            disabled={connecting || !clientConfigured}
            busy={connecting}
            label="Connect to Google Sheets"
            busyLabel="Connecting..."
          />
        ) : (
          <p className="card-description">{ASK_OWNER}</p>
        )}
      </div>
    </section>
  );
}
