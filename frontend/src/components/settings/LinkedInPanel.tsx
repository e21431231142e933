import { useEffect, useId, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { IntegrationMessages, LinkedInCredentialsSchema, type LinkedInStatus } from '@app/shared';
import { ApiError, errorText } from '../../api/client';
import { linkedInRedirectUri, linkedinApi, type LinkedInCredentialsBody } from '../../api/integrations';
import { panelToast } from '../../lib/toast';
import { BusyButton, ButtonSpinner } from '../Spinner';
import {
  ConnectionBadge,
  CopyableValue,
  IntegrationStatus,
  SavedSecretField,
  TestConnectionButton,
  TextField,
} from './fields';
import { LinkedInWebhook } from './LinkedInWebhook';
import { PanelMessages, linkedInErrorText } from './messages';
import { PanelQueryState, SettingsCard, useLoadFailedToast } from './SettingsCard';
import { LINKEDIN_QUERY_KEY, linkedInStatusQuery, type SettingsPanelProps } from './types';
import { useOAuthSignIn } from './useOAuthSignIn';
import { addIssueErrors, useSettingsForm } from './useSettingsForm';

type Field = 'clientId' | 'clientSecret';
type Errors = Partial<Record<Field, string>>;
type Busy = 'save' | 'test' | 'auth' | null;

const FIELDS: Field[] = ['clientId', 'clientSecret'];
const EMPTY: Record<Field, string> = { clientId: '', clientSecret: '' };
const M = PanelMessages.linkedin;
const DAY_MS = 24 * 60 * 60 * 1000;
/** docs/product.md (Settings): the LinkedIn authorization popup is 600x700. */
export const LINKEDIN_POPUP = { name: 'linkedin-auth', features: 'width=600,height=700' } as const;

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

/**
 * docs/product.md (Settings, LinkedIn): the LinkedIn app's Client ID and Client Secret, a
 * connection test, the OAuth sign-in in a 600x700 popup, the connection state with the token's
 * expiry, and the automation webhook.
 */
export function LinkedInPanel({ onReload }: SettingsPanelProps) {
  const uid = useId();
  const ids: Record<Field, string> = { clientId: `${uid}-client-id`, clientSecret: `${uid}-client-secret` };
  // Back from a sign-in in another window: show the new state.
  const query = useQuery({ ...linkedInStatusQuery, refetchOnWindowFocus: true });
  const status = query.data;
  const hasSavedCredentials = !!status?.clientId && !!status.hasClientSecret;

  const { form, setForm, dirty, setDirty, fieldProps, showErrors } = useSettingsForm(FIELDS, ids, EMPTY);
  const [busy, setBusy] = useState<Busy>(null);
  // Page posting is opt-in: most LinkedIn apps lack the Community Management API, and LinkedIn then refuses the whole sign-in.
  // Connected with page access: authenticating again keeps it unless unticked.
  const [pagesChoice, setPages] = useState<boolean | null>(null);
  const pages = pagesChoice ?? status?.canPostAsPage === true;

  useLoadFailedToast(query, M.loadFailed, 'linkedin-load-failed');

  useEffect(() => {
    if (!status || dirty) return;
    setForm({ clientId: status.clientId ?? '', clientSecret: '' });
  }, [status, dirty]);

  const refetch = query.refetch;
  const oauth = useOAuthSignIn({
    provider: 'linkedin',
    queryKey: LINKEDIN_QUERY_KEY,
    refetch,
    popup: LINKEDIN_POPUP,
    // A different token expiry than before the popup opened means the sign-in worked.
    signedInSince: (before, next) => !!next?.connected && next.expiresAt !== (before?.expiresAt ?? null),
    messages: M,
    errorText: linkedInErrorText,
  });

  const body = (): LinkedInCredentialsBody => ({ clientId: form.clientId.trim(), clientSecret: form.clientSecret.trim() });

  /** docs/product.md (Settings): Client ID required; the secret too, unless one is saved for this same client id. */
  const check = (input: LinkedInCredentialsBody): boolean => {
    const next: Errors = {};
    const parsed = LinkedInCredentialsSchema.safeParse(input);
    if (!parsed.success) addIssueErrors(next, parsed.error.issues, FIELDS);
    const keepsSavedSecret = hasSavedCredentials && input.clientId === status?.clientId;
    if (!input.clientSecret && !keepsSavedSecret && !next.clientSecret) {
      // The saved secret only ever goes with the Client ID it was saved for (the server refuses it too).
      next.clientSecret = hasSavedCredentials ? IntegrationMessages.linkedinSecretForClient : IntegrationMessages.linkedinClientSecretRequired;
    }
    return showErrors(next, (field) => `linkedin-invalid-${field}`);
  };

  const save = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const input = body();
    if (!check(input)) return;
    setBusy('save');
    try {
      const answer = await linkedinApi.saveCredentials(input);
      panelToast.success(answer?.message || IntegrationMessages.linkedinSaved);
      setDirty(false);
      setForm((current) => ({ ...current, clientSecret: '' }));
      await refetch();
      onReload();
    } catch (err) {
      panelToast.error(errorText(err, M.saveFailed));
    } finally {
      setBusy(null);
    }
  };

  const test = async () => {
    if (busy) return;
    const input = body();
    if (!check(input)) return;
    setBusy('test');
    try {
      const answer = await linkedinApi.test(input);
      if (answer?.success) panelToast.success(answer.message || 'LinkedIn accepted the credentials.');
      else {
        const reason = answer?.error || answer?.message;
        panelToast.error(reason ? `${M.testFailed}: ${reason}` : M.testFailed);
      }
    } catch (err) {
      panelToast.error(err instanceof ApiError && err.serverMessage ? `${M.testFailed}: ${err.serverMessage}` : M.testFailed);
    } finally {
      setBusy(null);
    }
  };

  const authenticate = async () => {
    if (busy) return;
    if (!hasSavedCredentials) {
      panelToast.error(M.saveFirst, { toastId: 'linkedin-save-first' });
      return;
    }
    setBusy('auth');
    try {
      await oauth.signIn(status, () => linkedinApi.authUrl(undefined, pages));
    } finally {
      setBusy(null);
    }
  };

  const disabled = busy !== null || query.isPending;

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

      <form className="settings-form" onSubmit={(event) => void save(event)} noValidate aria-label="LinkedIn credentials">
        <div className="settings-form__grid">
          <TextField
            {...fieldProps('clientId')}
            label="Client ID"
            autoComplete="off"
            placeholder="e.g. 86abcdefghijkl"
            required
            mono
            disabled={disabled}
          />
          <SavedSecretField
            {...fieldProps('clientSecret')}
            label="Client Secret"
            saved={hasSavedCredentials}
            what="secret"
            placeholder="Primary Client Secret"
            disabled={disabled}
          />
        </div>
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
        <div className="settings-form__actions">
          <BusyButton
            type="submit"
            className="btn btn--secondary"
            disabled={disabled}
            busy={busy === 'save'}
            label="Save Credentials"
            busyLabel="Saving..."
          />
          <TestConnectionButton testing={busy === 'test'} disabled={disabled} onTest={() => void test()} />
          <button
            type="button"
            className="btn btn--primary"
            onClick={() => void authenticate()}
            disabled={disabled}
            aria-busy={busy === 'auth' || oauth.popupOpen || undefined}
          >
            {busy === 'auth' && <ButtonSpinner />}
            Authenticate with LinkedIn
          </button>
        </div>
      </form>

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
