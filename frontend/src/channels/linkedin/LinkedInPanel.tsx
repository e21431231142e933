import { useId, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { IntegrationMessages, LinkedInCredentialsSchema, type LinkedInStatus } from '@app/shared';
import { ApiError, errorText, request } from '../../api/client';
import { settingsToast } from '../../lib/toast';
import { ButtonSpinner } from '../../components/Spinner';
import { CredentialsForm, useCredentialsForm } from '../../components/settings/CredentialsForm';
import { ConnectionBadge, CopyableValue, IntegrationStatus } from '../../components/settings/fields';
import { LinkedInWebhook } from './LinkedInWebhook';
import { LinkedInPanelMessages } from './messages';
import { PanelQueryState, SettingsCard } from '../../components/settings/SettingsCard';
import type { SettingsPanelProps } from '../../components/settings/types';
import { linkedInStatusQuery } from './status';
import { useOAuthSignIn } from '../../components/settings/useOAuthSignIn';
import { LINKEDIN_SIGN_IN, linkedInRedirectUri } from './oauth';

const M = LinkedInPanelMessages;
const DAY_MS = 24 * 60 * 60 * 1000;

let expiryFormat: Intl.DateTimeFormat | null = null;
const formatExpiry = (iso: string) => {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return 'an unknown date';
  expiryFormat ??= new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
  return expiryFormat.format(date);
};

/** Whole days left before `iso`, at least 1 while it is in the future. */
export const daysUntil = (iso: string, now = Date.now()) => Math.max(1, Math.ceil((Date.parse(iso) - now) / DAY_MS));

/** The warning of the last 7 days before the token expires. */
export function expiryWarning(iso: string, now = Date.now()): string {
  const days = daysUntil(iso, now);
  return `Access expires in ${days} ${days === 1 ? 'day' : 'days'} — reconnect soon.`;
}

/** docs/product.md (Settings): Client ID required; the secret too, unless one is saved for this same client id. */
const schemaFor = (status: LinkedInStatus | undefined) =>
  LinkedInCredentialsSchema().check(
    z.superRefine((body, ctx) => {
      const saved = !!status?.clientId && status.hasClientSecret;
      // The saved secret only ever goes with the Client ID it was saved for (the server refuses it too).
      if (body.clientSecret || (saved && body.clientId === status.clientId)) return;
      const message = saved
        ? IntegrationMessages.linkedinSecretForClient
        : IntegrationMessages.linkedinClientSecretRequired;
      ctx.addIssue({ code: 'custom', path: ['clientSecret'], message });
    }),
  );

/**
 * docs/product.md (Settings, LinkedIn): the LinkedIn app's Client ID and Client Secret, a
 * connection test, the OAuth sign-in in a 600x700 popup, the connection state with the token's
 * expiry, and the automation webhook.
 */
export function LinkedInPanel({ onReload }: SettingsPanelProps) {
  const uid = useId();
  // Back from a sign-in in another window: show the new state.
  const query = useQuery({ ...linkedInStatusQuery, refetchOnWindowFocus: true });
  const status = query.data;
  const hasSavedCredentials = !!status?.clientId && !!status.hasClientSecret;
  // Page posting is opt-in: most LinkedIn apps lack the Community Management API, and LinkedIn then refuses the whole sign-in.
  // Connected with page access: authenticating again keeps it unless unticked.
  const [pagesChoice, setPages] = useState<boolean | null>(null);
  const pages = pagesChoice ?? status?.canPostAsPage === true;

  // A different token expiry than before the popup opened means the sign-in worked.
  const oauth = useOAuthSignIn(
    LINKEDIN_SIGN_IN,
    query.refetch,
    (before, next) => !!next?.connected && next.expiresAt !== (before?.expiresAt ?? null),
  );

  const credentials = useCredentialsForm({
    status,
    values: (saved) => ({ clientId: saved?.clientId ?? '', clientSecret: '' }),
    schema: schemaFor,
    secrets: ['clientSecret'],
    test: {
      run: (body) => request('linkedin.testConnection', { body }),
      done: (answer) => {
        if (!answer.success) return `${M.testFailed}: ${answer.error}`;
        settingsToast.success(answer.message);
      },
      failed: (err) =>
        err instanceof ApiError && err.serverMessage ? `${M.testFailed}: ${err.serverMessage}` : M.testFailed,
    },
    save: {
      run: (body) => request('linkedin.saveCredentials', { body }),
      done: (answer) => void settingsToast.success(answer.message),
      failed: (err) => errorText(err, M.saveFailed),
    },
    refetch: query.refetch,
    onReload,
  });

  const disabled = credentials.pending || oauth.starting || query.isPending;

  const authenticate = () => {
    if (disabled) return;
    if (!hasSavedCredentials) settingsToast.error(M.saveFirst, { toastId: 'linkedin-save-first' });
    else {
      const query = { redirectUri: linkedInRedirectUri(), pages: pages ? ('true' as const) : undefined };
      oauth.signIn(status, () => request('linkedin.authUrl', { query }));
    }
  };

  return (
    <SettingsCard
      title="LinkedIn Integration"
      description="Publish posts to LinkedIn through your own LinkedIn app (developer portal → My apps → Auth), then sign in with the LinkedIn account to post as."
      aside={status && <LinkedInBadge status={status} />}
      busy={query.isFetching}
    >
      {oauth.handingOver ? (
        <IntegrationStatus tone="idle">Finishing the LinkedIn sign-in…</IntegrationStatus>
      ) : (
        <PanelQueryState query={query} loadingLabel="Loading LinkedIn status" failedText={M.loadFailed}>
          <LinkedInConnection status={status!} waiting={oauth.popupOpen} />
        </PanelQueryState>
      )}

      <CopyableValue
        label="Redirect URL"
        value={linkedInRedirectUri()}
        what="LinkedIn redirect URL"
        hint="Add this exact URL under Authorized redirect URLs in your LinkedIn app's Auth settings."
      />

      <CredentialsForm
        credentials={credentials}
        label="LinkedIn credentials"
        disabled={disabled}
        save={{ label: 'Save Credentials', primary: false, first: true }}
        fields={[
          {
            name: 'clientId',
            label: 'Client ID',
            autoComplete: 'off',
            placeholder: 'e.g. 86abcdefghijkl',
            required: true,
            mono: true,
          },
          {
            name: 'clientSecret',
            label: 'Client Secret',
            placeholder: 'Primary Client Secret',
            secret: { saved: hasSavedCredentials, what: 'secret' },
          },
        ]}
        moreActions={
          <button
            type="button"
            className="btn btn--primary"
            onClick={authenticate}
            disabled={disabled}
            aria-busy={oauth.starting || oauth.popupOpen || undefined}
          >
            {oauth.starting && <ButtonSpinner />}
            Authenticate with LinkedIn
          </button>
        }
      >
        <div className="field">
          <label className="field__label" htmlFor={`${uid}-pages`}>
            <input
              id={`${uid}-pages`}
              type="checkbox"
              checked={pages}
              disabled={disabled}
              aria-describedby={`${uid}-pages-hint`}
              onChange={(event) => setPages(event.target.checked)}
            />{' '}
            {M.pagesLabel}
          </label>
          <p id={`${uid}-pages-hint`} className="field__hint">
            {M.pagesHint}
          </p>
        </div>
      </CredentialsForm>

      <LinkedInWebhook />
    </SettingsCard>
  );
}

function LinkedInBadge({ status }: { status: LinkedInStatus }) {
  if (status.expired) return <span className="badge badge--danger">Expired</span>;
  if (status.connected && status.expiringSoon) return <span className="badge badge--warning">Expiring soon</span>;
  return status.connected ? <ConnectionBadge connected /> : null;
}

function LinkedInConnection({ status, waiting }: { status: LinkedInStatus; waiting: boolean }) {
  const who = status.memberName || 'your LinkedIn account';
  if (waiting) {
    return <IntegrationStatus tone="idle">Waiting for the LinkedIn sign-in in the popup window…</IntegrationStatus>;
  }
  if (status.expired) {
    return (
      <IntegrationStatus tone="error">
        <span>
          LinkedIn access for <strong>{who}</strong> expired
          {status.expiresAt ? ` on ${formatExpiry(status.expiresAt)}` : ''}.
        </span>
        <span className="integration-status__meta">Authenticate with LinkedIn again to keep publishing.</span>
      </IntegrationStatus>
    );
  }
  if (status.connected) {
    const soon = status.expiringSoon && status.expiresAt;
    return (
      <IntegrationStatus tone={soon ? 'warning' : 'connected'}>
        <span>
          Connected as <strong>{who}</strong>
        </span>
        {status.expiresAt && (
          <span className="integration-status__meta">Access token expires on {formatExpiry(status.expiresAt)}</span>
        )}
        {status.canPostAsPage === true && <span className="integration-status__meta">{M.pagesEnabled}</span>}
        {status.canPostAsPage === false && <span className="integration-status__meta">{M.pagesDisabled}</span>}
        {soon && <span className="integration-status__warning">{expiryWarning(status.expiresAt!)}</span>}
      </IntegrationStatus>
    );
  }
  return (
    <IntegrationStatus tone="idle">
      {status.clientId && status.hasClientSecret
        ? 'Not connected. Credentials are saved: authenticate with LinkedIn to connect your account.'
        : 'Not connected. Save your LinkedIn app’s Client ID and Client Secret, then authenticate.'}
    </IntegrationStatus>
  );
}

/** The panel the Settings page shows for this channel (pages/Settings.tsx). */
export default LinkedInPanel;
