import { useMutation, useQuery } from '@tanstack/react-query';
import * as z from 'zod/mini';
import type { ChannelConnectionAnswer } from '@app/shared';
import { GhostMessages, ghostAdminKeyProblem } from '@app/shared/channels/ghost';
import { ApiError, errorText, request } from '../../api/client';
import { formatLastUpdated } from '../../lib/dates';
import { settingsToast } from '../../lib/toast';
import { CredentialsForm, useCredentialsForm } from '../../components/settings/CredentialsForm';
import { ConnectionBadge, IntegrationStatus } from '../../components/settings/fields';
import { PanelQueryState, SettingsCard } from '../../components/settings/SettingsCard';
import type { SettingsPanelProps } from '../../components/settings/types';
import { BusyButton } from '../../components/Spinner';
import { GhostPanelMessages as M } from './messages';
import { GHOST_ID, ghostStatusQuery } from './status';

interface GhostForm {
  siteUrl: string;
  adminApiKey: string;
}

/**
 * The server's own checks of the two fields, made before anything is sent (shared/src/channels/ghost/index.ts): the site's
 * address, and the key's shape (a Content API key or a key cut short is named). Test with a blank key checks the
 * saved connection; Save always needs the key, which the server checks against the site before keeping both.
 */
const schemaFor = (status: ChannelConnectionAnswer | undefined, action: string) =>
  z
    .object({
      siteUrl: z.string().check(z.trim(), z.minLength(1, GhostMessages.siteUrlRequired), z.maxLength(300)),
      adminApiKey: z.string().check(z.trim(), z.maxLength(200, GhostMessages.adminKeyShape)),
    })
    .check(
      z.superRefine((body, ctx) => {
        if (!body.adminApiKey && status?.connected && action === 'test') return;
        const problem = ghostAdminKeyProblem(body.adminApiKey);
        if (problem) ctx.addIssue({ code: 'custom', path: ['adminApiKey'], message: problem });
      }),
    );

/** What Test sends: nothing for a blank key (one is saved), so the server checks the saved connection. */
const testBody = (body: GhostForm) => (body.adminApiKey ? body : {});

/**
 * docs/integrations.md (Ghost): the site's Admin URL and the Admin API key of a custom integration, a connection
 * test, Save (which the server accepts only after its own passing check) and Disconnect. The saved key comes back
 * masked, never in a field.
 */
export function GhostPanel({ onReload }: SettingsPanelProps) {
  const query = useQuery(ghostStatusQuery);
  const status = query.data;
  const connected = !!status?.connected;

  const credentials = useCredentialsForm({
    status,
    values: (saved): GhostForm => ({ siteUrl: saved?.fields.siteUrl ?? '', adminApiKey: '' }),
    schema: schemaFor,
    secrets: ['adminApiKey'],
    test: {
      run: (body: GhostForm) => request('channels.test', { params: { channel: GHOST_ID }, body: testBody(body) }),
      done: (answer) => {
        if (!answer.success) return M.connectionFailed(answer.message);
        settingsToast.success(answer.message);
      },
      failed: (err) => M.connectionFailed(err instanceof ApiError ? err.message : 'the server could not be reached'),
    },
    save: {
      run: (body: GhostForm) => request('channels.connect', { params: { channel: GHOST_ID }, body }),
      done: (answer) => {
        settingsToast.success(answer.message);
      },
      failed: (err) => M.saveFailed(errorText(err, 'the server could not be reached')),
    },
    refetch: query.refetch,
    onReload,
  });

  const disconnect = useMutation({
    mutationFn: () => request('channels.disconnect', { params: { channel: GHOST_ID } }),
    onSuccess: async () => {
      settingsToast.success(M.disconnected);
      credentials.form.reset({ siteUrl: '', adminApiKey: '' });
      await query.refetch();
      onReload();
    },
  });
  const busy = credentials.pending || disconnect.isPending;

  return (
    <SettingsCard
      title={M.title}
      description={M.description}
      aside={connected && <ConnectionBadge connected />}
      busy={query.isFetching}
    >
      <PanelQueryState query={query} loadingLabel="Loading the Ghost connection" failedText={M.loadFailed}>
        <GhostStatusLine status={status!} />
      </PanelQueryState>

      <CredentialsForm
        credentials={credentials}
        label="Ghost connection"
        disabled={busy || query.isPending}
        save={{ label: 'Save', primary: true }}
        moreActions={
          connected && (
            <BusyButton
              type="button"
              className="btn btn--danger-ghost"
              disabled={busy}
              busy={disconnect.isPending}
              label="Disconnect"
              busyLabel="Disconnecting..."
              onClick={() => {
                credentials.clearFailure();
                disconnect.mutate();
              }}
            />
          )
        }
        footer={
          disconnect.error && (
            <div className="alert alert--error" role="alert">
              {M.disconnectFailed(errorText(disconnect.error, 'the server could not be reached'))}
            </div>
          )
        }
        fields={[
          {
            name: 'siteUrl',
            label: 'Admin API URL',
            type: 'url',
            inputMode: 'url',
            autoComplete: 'url',
            placeholder: 'https://your-site.ghost.io',
            required: true,
            hint: "Your Ghost site's address, as the custom integration shows it.",
          },
          {
            name: 'adminApiKey',
            label: 'Admin API key',
            placeholder: '24 characters:64 characters',
            type: 'password',
            autoComplete: 'new-password',
            required: true,
            hint: connected ? M.keyHint : 'Starts with 24 characters, a colon, then 64 more.',
          },
        ]}
      />
    </SettingsCard>
  );
}

function GhostStatusLine({ status }: { status: ChannelConnectionAnswer }) {
  if (!status.connected) {
    return (
      <IntegrationStatus tone="idle">
        Not connected. Enter your site&apos;s Admin API URL and key, test the connection, then save.
      </IntegrationStatus>
    );
  }
  return (
    <IntegrationStatus tone="connected">
      <span>
        Connected to <strong>{status.fields.siteUrl}</strong> with the key <code>{status.fields.adminApiKey}</code>
      </span>
      {status.updatedAt && (
        <span className="integration-status__meta">Last updated: {formatLastUpdated(status.updatedAt)}</span>
      )}
    </IntegrationStatus>
  );
}

/** The panel the Settings page shows for this channel (pages/Settings.tsx). */
export default GhostPanel;
