import { useId } from 'react';
import { useQueries } from '@tanstack/react-query';
import { request } from '../../api/client';
import { CHANNEL_REGISTRY } from '../../channels/registry';
import { EMAIL_QUERY_KEY } from './types';

export const ConnectionsStatusMessages = {
  title: 'Connections',
  askOwner: (workspace: string) =>
    `The connections and API keys of ${workspace} are set by its owners. Ask the workspace owner to connect or change them.`,
  loading: 'Checking…',
  failed: 'Could not be checked',
} as const;

/**
 * docs/product.md (Workspaces): what a member who is not an owner sees on /settings in place of the
 * connection forms: each connection's status as the status routes answer it (masked: no secret is in them),
 * read-only, and who to ask. Only an owner sees the forms (Settings.tsx).
 */
export function ConnectionsStatus({ workspaceName }: { workspaceName: string }) {
  const titleId = useId();
  const channels = useQueries({ queries: CHANNEL_REGISTRY.map((channel) => channel.statusLine) });
  const [email, sheets] = useQueries({
    queries: [
      { queryKey: EMAIL_QUERY_KEY, queryFn: () => request('email.status'), retry: false },
      { queryKey: ['sheets', 'status'], queryFn: () => request('sheets.status'), retry: false },
    ],
  });
  const state = <T,>(query: { data?: T; isError: boolean }, text: (data: T) => string) =>
    query.data !== undefined
      ? text(query.data)
      : query.isError
        ? ConnectionsStatusMessages.failed
        : ConnectionsStatusMessages.loading;
  const rows: [string, string][] = [
    ...CHANNEL_REGISTRY.map(({ label }, index): [string, string] => [label, state(channels[index]!, (line) => line)]),
    [
      'Gmail',
      state(email, (e) =>
        e.authenticated
          ? `Signed in${e.notificationEmail ? `, notifications to ${e.notificationEmail}` : ''}`
          : 'Not connected',
      ),
    ],
    [
      'Google Sheets',
      state(sheets, (s) =>
        s.authenticated ? (s.canWrite ? 'Connected (read and write)' : 'Connected (read-only)') : 'Not connected',
      ),
    ],
  ];
  return (
    <section className="card settings-card" aria-labelledby={titleId}>
      <div className="settings-card__header">
        <h2 className="card-title" id={titleId}>
          {ConnectionsStatusMessages.title}
        </h2>
        <p className="card-description">{ConnectionsStatusMessages.askOwner(workspaceName)}</p>
      </div>
      <dl className="connections-status">
        {rows.map(([name, text]) => (
          <div key={name} className="connections-status__row">
            <dt>{name}</dt>
            <dd>{text}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
