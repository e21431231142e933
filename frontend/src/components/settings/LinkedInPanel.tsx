import { useCallback, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { IntegrationMessages, LinkedInCredentialsSchema, type LinkedInStatus } from '@app/shared';
import { ApiError, errorText } from '../../api/client';
import { linkedInRedirectUri, linkedinApi, type LinkedInCredentialsBody } from '../../api/integrations';
import { panelToast } from '../../lib/toast';
import { ButtonSpinner, Spinner } from '../Spinner';
import { ConnectionBadge, CopyableValue, IntegrationStatus, TextField } from './fields';
import { LinkedInWebhook } from './LinkedInWebhook';
import { PanelMessages, linkedInErrorText } from './messages';
import { useOAuthPopup, useOAuthReturn, type OAuthOutcome } from './oauth';
import { LINKEDIN_QUERY_KEY, type SettingsPanelProps } from './types';

type Field = 'clientId' | 'clientSecret';
type Errors = Partial<Record<Field, string>>;
type Busy = 'save' | 'test' | 'auth' | null;

const M = PanelMessages.linkedin;
const DAY_MS = 24 * 60 * 60 * 1000;
/** SPEC.md §9: the LinkedIn authorization popup is 600x700. */
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
 * SPEC.md §2 /settings → LinkedIn Integration: the LinkedIn app's Client ID and Client Secret, a
 * connection test, the OAuth sign-in in a 600x700 popup, the connection state with the token's
 * expiry, and the automation webhook.
 */
export function LinkedInPanel({ onReload }: SettingsPanelProps) {
  const uid = useId();
  const titleId = `${uid}-title`;
  const ids: Record<Field, string> = { clientId: `${uid}-client-id`, clientSecret: `${uid}-client-secret` };
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: LINKEDIN_QUERY_KEY,
    queryFn: linkedinApi.status,
    retry: false,
    // Back from a sign-in in another window: show the new state.
    refetchOnWindowFocus: true,
  });
  const status = query.data;
  const hasSavedCredentials = !!status?.clientId && !!status.hasClientSecret;

  const [clientId, setClientId] = useState('');
  const [clientSecret, setClientSecret] = useState('');
  const [dirty, setDirty] = useState(false);
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState<Busy>(null);
  /** The token expiry before the popup opened: a different one means the sign-in worked. */
  const awaiting = useRef<{ expiresAt: string | null } | null>(null);

  useEffect(() => {
    if (query.isError) panelToast.error(M.loadFailed, { toastId: 'linkedin-load-failed' });
  }, [query.isError, query.errorUpdatedAt]);

  useEffect(() => {
    if (!status || dirty) return;
    setClientId(status.clientId ?? '');
    setClientSecret('');
  }, [status, dirty]);

  const refetch = query.refetch;
  const succeeded = useCallback(() => {
    awaiting.current = null;
    panelToast.success(M.connected, { toastId: 'linkedin-connected' });
  }, []);

  /** A fresh read of the status: a read started before the sign-in finished may be stale. */
  const refresh = useCallback(async () => {
    await queryClient.cancelQueries({ queryKey: LINKEDIN_QUERY_KEY });
    return refetch();
  }, [queryClient, refetch]);

  const onOutcome = useCallback(
    (outcome: OAuthOutcome) => {
      void refresh();
      if (outcome.ok) succeeded();
      else {
        awaiting.current = null;
        panelToast.error(linkedInErrorText(outcome.error), { toastId: 'linkedin-auth-error' });
      }
    },
    [refresh, succeeded],
  );

  /** While the popup is open (and once when it closes) the status tells whether the sign-in worked. */
  const pollStatus = useCallback(async () => {
    const result = await refetch();
    const next = result.data;
    if (awaiting.current && next?.connected && next.expiresAt !== awaiting.current.expiresAt) succeeded();
  }, [refetch, succeeded]);

  const handingOver = useOAuthReturn('linkedin', onOutcome);
  const popup = useOAuthPopup('linkedin', {
    onOutcome,
    onPoll: () => void pollStatus(),
    onClosed: () => void pollStatus().finally(() => (awaiting.current = null)),
  });

  const body = (): LinkedInCredentialsBody => ({ clientId: clientId.trim(), clientSecret: clientSecret.trim() });

  /** SPEC.md §5: Client ID required; the secret too, unless one is saved for this same client id. */
  const check = (input: LinkedInCredentialsBody): boolean => {
    const next: Errors = {};
    const parsed = LinkedInCredentialsSchema.safeParse(input);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as Field;
        if ((field === 'clientId' || field === 'clientSecret') && !next[field]) next[field] = issue.message;
      }
    }
    const keepsSavedSecret = hasSavedCredentials && input.clientId === status?.clientId;
    if (!input.clientSecret && !keepsSavedSecret && !next.clientSecret) {
      next.clientSecret = IntegrationMessages.linkedinClientSecretRequired;
    }
    setErrors(next);
    const first = (['clientId', 'clientSecret'] as const).find((field) => next[field]);
    if (!first) return true;
    panelToast.error(next[first]!, { toastId: `linkedin-invalid-${first}` });
    document.getElementById(ids[first])?.focus();
    return false;
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
      setClientSecret('');
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
    let authUrl: string | undefined;
    try {
      authUrl = (await linkedinApi.authUrl(linkedInRedirectUri()))?.authUrl;
    } catch (err) {
      // A 400 says why (e.g. "Please save LinkedIn credentials first").
      panelToast.error(err instanceof ApiError && err.status === 400 ? errorText(err, M.authUrlFailed) : M.authUrlFailed);
      setBusy(null);
      return;
    }
    try {
      if (!authUrl) {
        panelToast.error(M.authUrlFailed);
        return;
      }
      awaiting.current = { expiresAt: status?.expiresAt ?? null };
      // A blocked popup: sign in in this window instead; the callback brings the user back here.
      if (!popup.open(authUrl, LINKEDIN_POPUP.name, LINKEDIN_POPUP.features)) window.location.assign(authUrl);
    } catch {
      awaiting.current = null;
      panelToast.error(M.authStartFailed);
    } finally {
      setBusy(null);
    }
  };

  const disabled = busy !== null || query.isPending;

  return (
    <section className="card settings-card" aria-labelledby={titleId} aria-busy={query.isFetching || undefined}>
      <div className="settings-card__header settings-card__header--row">
        <div>
          <h2 id={titleId} className="card-title">
            LinkedIn Integration
          </h2>
          <p className="card-description">
            Publish posts to LinkedIn through your own LinkedIn app (developer portal → My apps → Auth), then sign in
            with the LinkedIn account to post as.
          </p>
        </div>
        {status && <LinkedInBadge status={status} />}
      </div>

      {handingOver ? (
        <IntegrationStatus tone="idle">Finishing the LinkedIn sign-in…</IntegrationStatus>
      ) : query.isPending ? (
        <div className="settings-card__state">
          <Spinner label="Loading LinkedIn status" />
        </div>
      ) : query.isError ? (
        <div className="settings-card__state">
          <div className="alert alert--error" role="alert">
            {M.loadFailed}
          </div>
          <button type="button" className="btn btn--secondary btn--sm" onClick={() => void refetch()}>
            Try again
          </button>
        </div>
      ) : (
        <LinkedInConnection status={status!} waiting={popup.isOpen} />
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
            id={ids.clientId}
            label="Client ID"
            name="clientId"
            autoComplete="off"
            placeholder="e.g. 86abcdefghijkl"
            required
            mono
            value={clientId}
            disabled={disabled}
            error={errors.clientId}
            onChange={(event) => {
              setClientId(event.target.value);
              setDirty(true);
              if (errors.clientId) setErrors((current) => ({ ...current, clientId: undefined }));
            }}
          />
          <TextField
            id={ids.clientSecret}
            label="Client Secret"
            type="password"
            name="clientSecret"
            autoComplete="new-password"
            placeholder={hasSavedCredentials ? 'Leave blank to keep the saved secret' : 'Primary Client Secret'}
            required={!hasSavedCredentials}
            value={clientSecret}
            disabled={disabled}
            error={errors.clientSecret}
            hint={hasSavedCredentials ? 'A secret is saved. Type a new one only to replace it.' : undefined}
            onChange={(event) => {
              setClientSecret(event.target.value);
              setDirty(true);
              if (errors.clientSecret) setErrors((current) => ({ ...current, clientSecret: undefined }));
            }}
          />
        </div>
        <div className="settings-form__actions">
          <button type="submit" className="btn btn--secondary" disabled={disabled} aria-busy={busy === 'save' || undefined}>
            {busy === 'save' ? (
              <>
                <ButtonSpinner /> Saving...
              </>
            ) : (
              'Save Credentials'
            )}
          </button>
          <button
            type="button"
            className="btn btn--secondary"
            onClick={() => void test()}
            disabled={disabled}
            aria-busy={busy === 'test' || undefined}
          >
            {busy === 'test' ? (
              <>
                <ButtonSpinner /> Testing...
              </>
            ) : (
              'Test Connection'
            )}
          </button>
          <button
            type="button"
            className="btn btn--primary"
            onClick={() => void authenticate()}
            disabled={disabled}
            aria-busy={busy === 'auth' || popup.isOpen || undefined}
          >
            {busy === 'auth' && <ButtonSpinner />}
            Authenticate with LinkedIn
          </button>
        </div>
      </form>

      <LinkedInWebhook />
    </section>
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
