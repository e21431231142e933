import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { IntegrationMessages, WordPressTestSchema, type WordPressStatus } from '@app/shared';
import { ApiError, errorText, request } from '../../api/client';
import { formatLastUpdated } from '../../lib/dates';
import { settingsToast } from '../../lib/toast';
import { CredentialsForm, useCredentialsForm } from '../../components/settings/CredentialsForm';
import { ConnectionBadge, IntegrationStatus } from '../../components/settings/fields';
import { WordPressPanelMessages } from './messages';
import { PanelQueryState, SettingsCard } from '../../components/settings/SettingsCard';
import type { SettingsPanelProps } from '../../components/settings/types';
import { wordpressStatusQuery } from './status';

const M = WordPressPanelMessages;

/** The user's display name from a passing check; the login name when WordPress sent none. */
const nameOf = (answer: { user: { name: string } }, fallback: string) => answer.user.name.trim() || fallback;

/** docs/product.md (Settings): every field (the password unless one is saved), and no masked values. */
const schemaFor = (status: WordPressStatus | undefined) =>
  z
    .pipe(
      WordPressTestSchema(),
      z.transform((body: WordPressTestOutput) => ({ ...body, appPassword: body.appPassword.trim() })),
    )
    .check(
      z.superRefine((body, ctx) => {
        if (!body.appPassword && !(status?.configured && status.hasAppPassword)) {
          ctx.addIssue({ code: 'custom', path: ['appPassword'], message: IntegrationMessages.allFieldsRequired });
        }
      }),
    );
type WordPressTestOutput = z.output<ReturnType<typeof WordPressTestSchema>>;

/**
 * docs/product.md (Settings, WordPress): site URL, username and application password, a
 * connection test and Save (which the server only accepts after a passing check). Once saved, the
 * site URL is fixed and a blank password keeps the saved one.
 */
export function WordPressPanel({ onReload }: SettingsPanelProps) {
  const query = useQuery(wordpressStatusQuery);
  const status = query.data;
  const editing = !!status?.configured;
  const [connectedAs, setConnectedAs] = useState<string | null>(null);

  const credentials = useCredentialsForm({
    status,
    values: (saved) => ({ siteUrl: saved?.siteUrl ?? '', username: saved?.username ?? '', appPassword: '' }),
    schema: schemaFor,
    secrets: ['appPassword'],
    test: {
      run: (body) => request('wordpress.testConnection', { body }),
      done: (answer, body) => {
        if (!answer.success) return M.connectionFailed(answer.error);
        const name = nameOf(answer, body.username);
        setConnectedAs(name);
        settingsToast.success(M.connected(name));
      },
      failed: (err) => M.connectionFailed(err instanceof ApiError ? err.message : 'the server could not be reached'),
    },
    save: {
      // A blank password keeps the saved one.
      run: (body) =>
        request('wordpress.saveCredentials', { body: body.appPassword ? body : { ...body, skipPasswordUpdate: true } }),
      done: (answer, body) => {
        const name = nameOf(answer, body.username);
        setConnectedAs(name);
        settingsToast.success(M.saved(name));
      },
      failed: (err) => M.saveFailed(errorText(err, 'the server could not be reached')),
    },
    refetch: query.refetch,
    onReload,
  });

  return (
    <SettingsCard
      title="WordPress Integration"
      description="Publish blog posts to your WordPress site. Create an application password under Users → Profile → Application Passwords in your WordPress admin."
      aside={editing && <ConnectionBadge connected />}
      busy={query.isFetching}
    >
      <PanelQueryState query={query} loadingLabel="Loading WordPress credentials" failedText={M.loadFailed}>
        <WordPressStatusLine status={status!} connectedAs={connectedAs} />
      </PanelQueryState>

      <CredentialsForm
        credentials={credentials}
        label="WordPress credentials"
        disabled={credentials.pending || query.isPending}
        save={{ label: 'Save', primary: true }}
        fields={[
          {
            name: 'siteUrl',
            label: 'Site URL',
            type: 'url',
            inputMode: 'url',
            autoComplete: 'url',
            placeholder: 'https://your-site.com',
            required: true,
            disabled: editing,
            hint: editing ? IntegrationMessages.siteUrlLocked : 'The address of your WordPress site.',
          },
          {
            name: 'username',
            label: 'Username',
            autoComplete: 'off',
            placeholder: 'Your WordPress login or e-mail',
            required: true,
          },
          {
            name: 'appPassword',
            label: 'Application Password',
            placeholder: 'xxxx xxxx xxxx xxxx xxxx xxxx',
            secret: { saved: editing && !!status?.hasAppPassword, what: 'password' },
          },
        ]}
      />
    </SettingsCard>
  );
}

function WordPressStatusLine({ status, connectedAs }: { status: WordPressStatus; connectedAs: string | null }) {
  if (!status.configured) {
    return (
      <IntegrationStatus tone="idle">
        Not connected. Enter your site&apos;s details, test the connection, then save.
      </IntegrationStatus>
    );
  }
  return (
    <IntegrationStatus tone="connected">
      <span>
        Connected to <strong>{status.siteUrl}</strong> as <strong>{connectedAs ?? status.username}</strong>
      </span>
      <span className="integration-status__meta">Last updated: {formatLastUpdated(status.updatedAt)}</span>
    </IntegrationStatus>
  );
}

/** The panel the Settings page shows for this channel (pages/Settings.tsx). */
export default WordPressPanel;
