import { useMutation, useQuery } from '@tanstack/react-query';
import * as z from 'zod/mini';
import type { ChannelConnectionAnswer } from '@app/shared';
import { BLUESKY_ID } from '@app/shared/channels/bluesky';
import { ApiError, errorText, request } from '../../api/client';
import { formatLastUpdated } from '../../lib/dates';
import { settingsToast } from '../../lib/toast';
import { CredentialsForm, useCredentialsForm } from '../../components/settings/CredentialsForm';
import { ConnectionBadge, IntegrationStatus } from '../../components/settings/fields';
import { PanelQueryState, SettingsCard } from '../../components/settings/SettingsCard';
import type { SettingsPanelProps } from '../../components/settings/types';
import { BusyButton } from '../../components/Spinner';
import { BlueskyPanelMessages as M } from './messages';
import { blueskyStatusQuery } from './status';

interface BlueskyForm {
  handle: string;
  appPassword: string;
  serviceUrl: string;
}

/**
 * Only what must be there is checked here; the shapes of handle, app password and address are the server's to judge
 * (functions/src/channels/bluesky/credentials.ts), and its sentence is shown as it comes. Test with a blank app
 * password checks the saved connection; Save always needs it, and the server signs in before keeping anything.
 */
const schemaFor = (status: ChannelConnectionAnswer | undefined, action: string) =>
  z
    .object({
      handle: z.string().check(z.trim(), z.minLength(1, M.handleRequired), z.maxLength(253)),
      appPassword: z.string().check(z.trim(), z.maxLength(100)),
      serviceUrl: z.string().check(z.trim(), z.maxLength(300)),
    })
    .check(
      z.superRefine((body, ctx) => {
        if (body.appPassword || (status?.connected && action === 'test')) return;
        ctx.addIssue({ code: 'custom', path: ['appPassword'], message: M.appPasswordRequired });
      }),
    );

/** What is sent: an empty address is left out (the server's default, bsky.social); a blank password on Test too. */
const bodyOf = (body: BlueskyForm) => ({
  handle: body.handle,
  ...(body.appPassword ? { appPassword: body.appPassword } : {}),
  ...(body.serviceUrl ? { serviceUrl: body.serviceUrl } : {}),
});

/**
 * docs/integrations.md (Bluesky): the account's handle, an app password and the address of the server hosting the
 * account, a connection test, Save (kept only after the server signed in with them) and Disconnect. The saved app
 * password comes back masked, never in a field.
 */
export function BlueskyPanel({ onReload }: SettingsPanelProps) {
  const query = useQuery(blueskyStatusQuery);
  const status = query.data;
  const connected = !!status?.connected;

  const credentials = useCredentialsForm({
    status,
    values: (saved): BlueskyForm => ({
      handle: saved?.fields.handle ?? '',
      appPassword: '',
      serviceUrl: saved?.fields.serviceUrl ?? '',
    }),
    schema: schemaFor,
    secrets: ['appPassword'],
    test: {
      run: (body: BlueskyForm) =>
        request('channels.test', {
          params: { channel: BLUESKY_ID },
          body: body.appPassword ? bodyOf(body) : {},
        }),
      done: (answer) => {
        if (!answer.success) return M.connectionFailed(answer.message);
        settingsToast.success(answer.message);
      },
      failed: (err) => M.connectionFailed(err instanceof ApiError ? err.message : 'the server could not be reached'),
    },
    save: {
      run: (body: BlueskyForm) => request('channels.connect', { params: { channel: BLUESKY_ID }, body: bodyOf(body) }),
      done: (answer) => {
        settingsToast.success(answer.message);
      },
      failed: (err) => M.saveFailed(errorText(err, 'the server could not be reached')),
    },
    refetch: query.refetch,
    onReload,
  });

  const disconnect = useMutation({
    mutationFn: () => request('channels.disconnect', { params: { channel: BLUESKY_ID } }),
    onSuccess: async () => {
      settingsToast.success(M.disconnected);
      credentials.form.reset({ handle: '', appPassword: '', serviceUrl: '' });
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
      <PanelQueryState query={query} loadingLabel="Loading the Bluesky connection" failedText={M.loadFailed}>
        <BlueskyStatusLine status={status!} />
      </PanelQueryState>

      <CredentialsForm
        credentials={credentials}
        label="Bluesky connection"
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
            name: 'handle',
            label: 'Handle',
            autoComplete: 'username',
            placeholder: 'alice.bsky.social',
            required: true,
            hint: 'The handle on your Bluesky profile, without the @.',
          },
          {
            name: 'appPassword',
            label: 'App password',
            placeholder: 'xxxx-xxxx-xxxx-xxxx',
            type: 'password',
            autoComplete: 'new-password',
            required: true,
            hint: connected ? M.passwordHint : M.appPasswordHelp,
          },
          {
            name: 'serviceUrl',
            label: 'PDS address',
            type: 'url',
            inputMode: 'url',
            autoComplete: 'url',
            placeholder: 'https://bsky.social',
            hint: 'The server that hosts your account. Leave it empty for bsky.social.',
          },
        ]}
      />
    </SettingsCard>
  );
}

function BlueskyStatusLine({ status }: { status: ChannelConnectionAnswer }) {
  if (!status.connected) {
    return (
      <IntegrationStatus tone="idle">
        Not connected. Enter your handle and an app password, test the connection, then save.
      </IntegrationStatus>
    );
  }
  return (
    <IntegrationStatus tone="connected">
      <span>
        Connected as <strong>@{status.fields.handle}</strong> on {status.fields.serviceUrl} with the app password{' '}
        <code>{status.fields.appPassword}</code>
      </span>
      {status.updatedAt && (
        <span className="integration-status__meta">Last updated: {formatLastUpdated(status.updatedAt)}</span>
      )}
    </IntegrationStatus>
  );
}

/** The panel the Settings page shows for this channel (pages/Settings.tsx). */
export default BlueskyPanel;
