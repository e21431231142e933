import { useMutation, useQuery, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';
import type { ComponentType, ReactNode } from 'react';
import type { FieldValues, Path } from 'react-hook-form';
import type { ChannelConnectionAnswer, ChannelCredentialsInput } from '@app/shared';
import { ApiError, errorText, request } from '../api/client';
import type { FormSchema } from '../lib/form';
import { formatLastUpdated } from '../lib/dates';
import { settingsToast } from '../lib/toast';
import { CredentialsForm, useCredentialsForm, type CredentialField } from '../components/settings/CredentialsForm';
import { ConnectionBadge, IntegrationStatus } from '../components/settings/fields';
import { PanelQueryState, SettingsCard } from '../components/settings/SettingsCard';
import type { SettingsPanelProps } from '../components/settings/types';
import { BusyButton } from '../components/Spinner';

export interface ConnectionPanelProps<
  V extends FieldValues,
  B extends ChannelCredentialsInput,
  K extends QueryKey,
> extends SettingsPanelProps {
  /** The channel's id (the generic routes' `{channel}`) and name. */
  channel: { id: string; label: string };
  /** Its status query (its folder's status.ts). */
  statusQuery: UseQueryOptions<ChannelConnectionAnswer, Error, ChannelConnectionAnswer, K>;
  texts: {
    title: string;
    description: ReactNode;
    loadFailed: string;
    saveFailed: (message: string) => string;
    disconnectFailed: (message: string) => string;
    disconnected: string;
  };
  /** What the fields show for the saved connection (secrets blank), and with none. */
  values: (saved: ChannelConnectionAnswer | undefined) => V;
  /** The channel's checks of its fields before anything is sent (its shared folder's rules where it has them). */
  schema: (status: ChannelConnectionAnswer | undefined, action: string) => FormSchema<B>;
  secrets: readonly Path<V>[];
  /** What Save sends; Test sends the same, or nothing when the secret is left blank (the saved connection). */
  body: (values: B) => ChannelCredentialsInput;
  /** Test checks the saved connection: the secret was left blank. */
  testsSaved: (values: B) => boolean;
  fields: (connected: boolean) => CredentialField<V>[];
  /** The connected line's words: what it is connected to, with the secret masked by the server. */
  Connected: ComponentType<{ status: ChannelConnectionAnswer }>;
  /** The line when not connected: what to enter. */
  notConnected: string;
}

/**
 * The settings panel of a channel on the generic `channels.*` routes (docs/integrations.md, Channels): its
 * status line, its form with Test, Save (which the server keeps only after its own passing check) and Disconnect. A
 * saved secret comes back masked, never in a field. Each channel's folder gives only its fields, checks and words.
 */
export function ConnectionPanel<V extends FieldValues, B extends ChannelCredentialsInput, K extends QueryKey>(
  props: ConnectionPanelProps<V, B, K>,
) {
  const { channel, texts, onReload } = props;
  const query = useQuery(props.statusQuery);
  const status = query.data;
  const connected = !!status?.connected;
  const params = { channel: channel.id };

  const credentials = useCredentialsForm({
    status,
    values: props.values,
    schema: props.schema,
    secrets: props.secrets,
    test: {
      run: (values: B) =>
        request('channels.test', { params, body: props.testsSaved(values) ? {} : props.body(values) }),
      done: (answer) => {
        if (!answer.success) return `Connection failed: ${answer.message}`;
        settingsToast.success(answer.message);
      },
      failed: (err) =>
        `Connection failed: ${err instanceof ApiError ? err.message : 'the server could not be reached'}`,
    },
    save: {
      run: (values: B) => request('channels.connect', { params, body: props.body(values) }),
      done: (answer) => {
        settingsToast.success(answer.message);
      },
      failed: (err) => texts.saveFailed(errorText(err, 'the server could not be reached')),
    },
    refetch: query.refetch,
    onReload,
  });

  const disconnect = useMutation({
    mutationFn: () => request('channels.disconnect', { params }),
    onSuccess: async () => {
      settingsToast.success(texts.disconnected);
      credentials.form.reset(props.values(undefined));
      await query.refetch();
      onReload();
    },
  });
  const busy = credentials.pending || disconnect.isPending;
  const { Connected } = props;

  return (
    <SettingsCard
      title={texts.title}
      description={texts.description}
      aside={connected && <ConnectionBadge connected />}
      busy={query.isFetching}
    >
      <PanelQueryState
        query={query}
        loadingLabel={`Loading the ${channel.label} connection`}
        failedText={texts.loadFailed}
      >
        {status?.connected ? (
          <IntegrationStatus tone="connected">
            <span>
              <Connected status={status} />
            </span>
            {status.updatedAt && (
              <span className="integration-status__meta">Last updated: {formatLastUpdated(status.updatedAt)}</span>
            )}
          </IntegrationStatus>
        ) : (
          <IntegrationStatus tone="idle">{props.notConnected}</IntegrationStatus>
        )}
      </PanelQueryState>

      <CredentialsForm
        credentials={credentials}
        label={`${channel.label} connection`}
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
              {texts.disconnectFailed(errorText(disconnect.error, 'the server could not be reached'))}
            </div>
          )
        }
        fields={props.fields(connected)}
      />
    </SettingsCard>
  );
}
