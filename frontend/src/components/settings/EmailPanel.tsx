import { useCallback, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { EmailSchema, IntegrationMessages, TEST_EMAIL_SUBJECT, type EmailStatus } from '@app/shared';
import { ApiError } from '../../api/client';
import { emailApi } from '../../api/integrations';
import { settingsApi } from '../../api/settings';
import { panelToast } from '../../lib/toast';
import { ButtonSpinner, Spinner } from '../Spinner';
import { TextField } from './fields';
import { GmailSetupGuide } from './GmailSetupGuide';
import { PanelMessages, gmailErrorText } from './messages';
import { useOAuthPopup, useOAuthReturn, type OAuthOutcome } from './oauth';
import { EMAIL_QUERY_KEY, type SettingsPanelProps } from './types';

/** SPEC.md §3 Email form state. */
export interface EmailForm {
  notificationEmail: string;
  gmailClientId: string;
  gmailClientSecret: string;
  gmailRefreshToken: string;
}
type Field = keyof EmailForm;
type Errors = Partial<Record<Field, string>>;
type Busy = 'save' | 'test' | 'auth' | 'clear' | null;

const EMPTY: EmailForm = { notificationEmail: '', gmailClientId: '', gmailClientSecret: '', gmailRefreshToken: '' };
const FIELDS: Field[] = ['notificationEmail', 'gmailClientId', 'gmailClientSecret', 'gmailRefreshToken'];
const M = PanelMessages.email;

/** The setting key and description each field is saved under (one POST /api/settings per key). */
const SETTING: Record<Field, { key: string; description: string }> = {
  notificationEmail: { key: 'notification_email', description: 'Where approval notifications are sent' },
  gmailClientId: { key: 'gmail_client_id', description: 'Gmail API OAuth client ID' },
  gmailClientSecret: { key: 'gmail_client_secret', description: 'Gmail API OAuth client secret' },
  gmailRefreshToken: { key: 'gmail_refresh_token', description: 'Gmail API refresh token' },
};
/** SPEC.md §3, §9: the SMTP settings of old; saving the Gmail settings deletes them. */
export const LEGACY_EMAIL_KEYS = ['email_host', 'email_port', 'email_user', 'email_password', 'email_method'] as const;
/** SPEC.md §9: the Google authorization popup is 500x600. */
export const GMAIL_POPUP = { name: 'gmail-auth', features: 'width=500,height=600' } as const;

const TEST_MESSAGE =
  'This is a test e-mail from Content Publisher. If you can read it, the Gmail API settings work and approval notifications will arrive here.';
const BULLET = /[•●∙·]/;
const EMPTY_STATUS: EmailStatus = {
  success: true,
  notificationEmail: '',
  gmailClientId: '',
  gmailClientSecret: '',
  gmailRefreshToken: '',
  authenticated: false,
};

/**
 * SPEC.md §2 /settings → Gmail API Configuration: the notification address and the Gmail API OAuth
 * client, the Google sign-in in a 500x600 popup, a test e-mail, Clear and Save. Saved secrets come
 * back masked and are shown as placeholders only, never as values (so they are never sent back).
 */
export function EmailPanel({ onReload }: SettingsPanelProps) {
  const uid = useId();
  const titleId = `${uid}-title`;
  const authTitleId = `${uid}-auth-title`;
  const ids = Object.fromEntries(FIELDS.map((field) => [field, `${uid}-${field}`])) as Record<Field, string>;
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: EMAIL_QUERY_KEY,
    queryFn: emailApi.status,
    retry: false,
    refetchOnWindowFocus: true,
  });
  const status = query.data;

  const [form, setForm] = useState<EmailForm>(EMPTY);
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState<Busy>(null);
  const [serverError, setServerError] = useState('');
  /** The server's plain values last copied into the form: a field still equal to them is not being edited. */
  const synced = useRef<Pick<EmailForm, 'notificationEmail' | 'gmailClientId'> | null>(null);
  /** The masked token before the popup opened: a different one means the sign-in worked. */
  const awaiting = useRef<{ token: string } | null>(null);

  useEffect(() => {
    if (query.isError) panelToast.error(M.loadFailed, { toastId: 'email-load-failed' });
  }, [query.isError, query.errorUpdatedAt]);

  useEffect(() => {
    if (!status) return;
    const previous = synced.current;
    synced.current = { notificationEmail: status.notificationEmail ?? '', gmailClientId: status.gmailClientId ?? '' };
    setForm((current) => ({
      ...current,
      notificationEmail:
        !previous || current.notificationEmail === previous.notificationEmail
          ? synced.current!.notificationEmail
          : current.notificationEmail,
      gmailClientId:
        !previous || current.gmailClientId === previous.gmailClientId ? synced.current!.gmailClientId : current.gmailClientId,
    }));
  }, [status]);

  const savedSecret = !!status?.gmailClientSecret;
  const savedToken = !!status?.authenticated || !!status?.gmailRefreshToken;
  const clientId = form.gmailClientId.trim();
  const hasSecret = !!form.gmailClientSecret.trim() || savedSecret;

  const change = (field: Field, value: string) => {
    setForm((current) => ({ ...current, [field]: value }));
    if (errors[field]) setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const refetch = query.refetch;
  const succeeded = useCallback(() => {
    awaiting.current = null;
    panelToast.success(M.connected, { toastId: 'gmail-connected' });
  }, []);

  /** A fresh read of the status: a read started before the sign-in finished may be stale. */
  const refresh = useCallback(async () => {
    await queryClient.cancelQueries({ queryKey: EMAIL_QUERY_KEY });
    return refetch();
  }, [queryClient, refetch]);

  const onOutcome = useCallback(
    (outcome: OAuthOutcome) => {
      void refresh();
      if (outcome.ok) succeeded();
      else {
        awaiting.current = null;
        panelToast.error(gmailErrorText(outcome.error), { toastId: 'gmail-auth-error' });
      }
    },
    [refresh, succeeded],
  );

  const pollStatus = useCallback(async () => {
    const next = (await refetch()).data;
    if (awaiting.current && next?.authenticated && next.gmailRefreshToken !== awaiting.current.token) succeeded();
  }, [refetch, succeeded]);

  const handingOver = useOAuthReturn('gmail', onOutcome);
  const popup = useOAuthPopup('gmail', {
    onOutcome,
    onPoll: () => void pollStatus(),
    onClosed: () => void pollStatus().finally(() => (awaiting.current = null)),
  });

  /** Shows the first problem as a toast and next to its field, and focuses that field. */
  const reject = (next: Errors, message?: string) => {
    setErrors(next);
    const first = FIELDS.find((field) => next[field]);
    const text = message ?? (first ? next[first] : undefined);
    if (text) panelToast.error(text, { toastId: `email-invalid-${text}` });
    if (first) document.getElementById(ids[first])?.focus();
  };

  /** Typed values that look masked would overwrite the real secret with bullets: refuse them. */
  const maskedFields = (): Errors => {
    const next: Errors = {};
    for (const field of FIELDS) if (BULLET.test(form[field])) next[field] = IntegrationMessages.obfuscated;
    return next;
  };

  const save = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    setServerError('');
    const email = form.notificationEmail.trim();
    if (!email) return reject({ notificationEmail: M.notificationEmailRequired });
    const emailCheck = EmailSchema.safeParse(email);
    if (!emailCheck.success) return reject({ notificationEmail: emailCheck.error.issues[0]?.message ?? 'Enter a valid email address' });
    if (!clientId || !hasSecret) {
      return reject(
        {
          gmailClientId: clientId ? undefined : M.credentialsRequired,
          gmailClientSecret: hasSecret ? undefined : M.credentialsRequired,
        },
        M.credentialsRequired,
      );
    }
    const masked = maskedFields();
    if (Object.keys(masked).length > 0) return reject(masked);
    setErrors({});

    const values: EmailForm = {
      notificationEmail: email,
      gmailClientId: clientId,
      gmailClientSecret: form.gmailClientSecret.trim(),
      gmailRefreshToken: form.gmailRefreshToken.trim(),
    };
    // Blank secrets are the saved ones, unchanged: they are not written.
    const writes = FIELDS.filter((field) => values[field] !== '');
    setBusy('save');
    try {
      for (const field of writes) {
        await settingsApi.save({ key: SETTING[field].key, value: values[field], description: SETTING[field].description });
      }
      await Promise.all(LEGACY_EMAIL_KEYS.map((key) => settingsApi.remove(key)));
      panelToast.success(M.saved);
      setForm((current) => ({ ...current, gmailClientSecret: '', gmailRefreshToken: '' }));
      await refetch();
      onReload();
    } catch (err) {
      panelToast.error(M.saveFailed);
      if (err instanceof ApiError && err.serverMessage) setServerError(`${M.saveFailed}: ${err.serverMessage}`);
    } finally {
      setBusy(null);
    }
  };

  const test = async () => {
    if (busy) return;
    const email = form.notificationEmail.trim();
    if (!email) return reject({ notificationEmail: M.testNeedsEmail });
    if (!clientId || !hasSecret) {
      return reject(
        {
          gmailClientId: clientId ? undefined : M.testNeedsCredentials,
          gmailClientSecret: hasSecret ? undefined : M.testNeedsCredentials,
        },
        M.testNeedsCredentials,
      );
    }
    setBusy('test');
    try {
      const answer = await emailApi.sendTest({ to: email, subject: TEST_EMAIL_SUBJECT, message: TEST_MESSAGE, method: 'gmail' });
      if (answer?.success) panelToast.success(M.testSent);
      else panelToast.error(M.testFailed(answer?.message || answer?.error || 'unknown error'));
    } catch (err) {
      panelToast.error(err instanceof ApiError ? M.testFailed(err.message) : M.testNetworkFailed);
    } finally {
      setBusy(null);
    }
  };

  const authenticate = async () => {
    if (busy || popup.isOpen) return;
    setBusy('auth');
    let authUrl: string | undefined;
    try {
      authUrl = (await emailApi.authUrl())?.authUrl;
    } catch (err) {
      // A 400 says why ("Please fill in Gmail API credentials": nothing saved yet).
      panelToast.error(err instanceof ApiError && err.status === 400 && err.serverMessage ? err.serverMessage : M.authUrlFailed);
      setBusy(null);
      return;
    }
    try {
      if (!authUrl) {
        panelToast.error(M.authUrlFailed);
        return;
      }
      awaiting.current = { token: status?.gmailRefreshToken ?? '' };
      // A blocked popup: sign in in this window instead; the callback brings the user back here.
      if (!popup.open(authUrl, GMAIL_POPUP.name, GMAIL_POPUP.features)) window.location.assign(authUrl);
    } catch {
      awaiting.current = null;
      panelToast.error(M.authStartFailed);
    } finally {
      setBusy(null);
    }
  };

  const clear = async () => {
    if (busy) return;
    if (!window.confirm(M.clearConfirm)) return;
    setBusy('clear');
    setServerError('');
    try {
      await Promise.all(FIELDS.map((field) => settingsApi.remove(SETTING[field].key)));
      synced.current = { notificationEmail: '', gmailClientId: '' };
      setForm(EMPTY);
      setErrors({});
      queryClient.setQueryData<EmailStatus>(EMAIL_QUERY_KEY, EMPTY_STATUS);
      panelToast.success(M.cleared);
      onReload();
    } catch {
      panelToast.error(M.clearFailed);
    } finally {
      setBusy(null);
    }
  };

  const authenticating = busy === 'auth' || popup.isOpen;
  const disabled = busy !== null || query.isPending;
  const authDisabled = busy !== null || popup.isOpen || !clientId || !hasSecret;

  return (
    <section className="card settings-card" aria-labelledby={titleId} aria-busy={query.isFetching || undefined}>
      <div className="settings-card__header settings-card__header--row">
        <div>
          <h2 id={titleId} className="card-title">
            Gmail API Configuration
          </h2>
          <p className="card-description">
            Approval notifications are sent through the Gmail API with your own Google Cloud OAuth client.
          </p>
        </div>
        <span className="badge badge--accent">Gmail API Only</span>
      </div>

      {handingOver ? (
        <p className="muted">Finishing the Google sign-in…</p>
      ) : query.isPending ? (
        <div className="settings-card__state">
          <Spinner label="Loading email settings" />
        </div>
      ) : (
        query.isError && (
          <div className="settings-card__state">
            <div className="alert alert--error" role="alert">
              {M.loadFailed}
            </div>
            <button type="button" className="btn btn--secondary btn--sm" onClick={() => void refetch()}>
              Try again
            </button>
          </div>
        )
      )}

      <form className="settings-form" onSubmit={(event) => void save(event)} noValidate aria-label="Gmail API settings">
        {serverError && (
          <div className="alert alert--error" role="alert">
            {serverError}
          </div>
        )}
        <div className="settings-form__grid">
          <TextField
            id={ids.notificationEmail}
            label="Notification Email"
            type="email"
            name="notificationEmail"
            autoComplete="email"
            placeholder="you@example.com"
            required
            value={form.notificationEmail}
            disabled={disabled}
            error={errors.notificationEmail}
            hint="Where approval notifications will be sent"
            onChange={(event) => change('notificationEmail', event.target.value)}
          />
          <TextField
            id={ids.gmailClientId}
            label="Gmail Client ID"
            type="text"
            name="gmailClientId"
            autoComplete="off"
            placeholder="1234567890-abc.apps.googleusercontent.com"
            required
            mono
            value={form.gmailClientId}
            disabled={disabled}
            error={errors.gmailClientId}
            onChange={(event) => change('gmailClientId', event.target.value)}
          />
          <TextField
            id={ids.gmailClientSecret}
            label="Gmail Client Secret"
            type="password"
            name="gmailClientSecret"
            autoComplete="new-password"
            placeholder={status?.gmailClientSecret || 'GOCSPX-…'}
            required={!savedSecret}
            value={form.gmailClientSecret}
            disabled={disabled}
            error={errors.gmailClientSecret}
            hint={savedSecret ? 'Saved. Leave blank to keep it, or type a new one to replace it.' : undefined}
            onChange={(event) => change('gmailClientSecret', event.target.value)}
          />
          <TextField
            id={ids.gmailRefreshToken}
            label="Gmail Refresh Token"
            type="password"
            name="gmailRefreshToken"
            autoComplete="new-password"
            placeholder={status?.gmailRefreshToken || 'Optional'}
            value={form.gmailRefreshToken}
            disabled={disabled}
            error={errors.gmailRefreshToken}
            hint="Leave empty for initial setup, generated during the OAuth flow"
            onChange={(event) => change('gmailRefreshToken', event.target.value)}
          />
        </div>

        <section className={`subpanel google-auth${savedToken ? ' google-auth--ready' : ''}`} aria-labelledby={authTitleId}>
          <div className="google-auth__text">
            <h3 id={authTitleId} className="subpanel__title">
              Google Authentication
            </h3>
            <p className="subpanel__text" role="status">
              {savedToken
                ? 'Gmail API is authenticated and ready to use'
                : 'Complete OAuth flow to enable Gmail API email sending'}
            </p>
          </div>
          <button
            type="button"
            className={`btn ${savedToken ? 'btn--secondary' : 'btn--primary'}`}
            onClick={() => void authenticate()}
            disabled={authDisabled}
            aria-busy={authenticating || undefined}
          >
            {authenticating ? (
              <>
                <ButtonSpinner /> Authenticating...
              </>
            ) : savedToken ? (
              'Re-authenticate'
            ) : (
              'Authenticate with Google'
            )}
          </button>
        </section>

        <div className="settings-form__actions settings-form__actions--split">
          <button
            type="button"
            className="btn btn--danger-ghost"
            onClick={() => void clear()}
            disabled={disabled}
            aria-busy={busy === 'clear' || undefined}
          >
            {busy === 'clear' ? 'Clearing...' : 'Clear Settings'}
          </button>
          <div className="settings-form__actions">
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
            <button type="submit" className="btn btn--primary" disabled={disabled} aria-busy={busy === 'save' || undefined}>
              {busy === 'save' ? (
                <>
                  <ButtonSpinner /> Saving...
                </>
              ) : (
                'Save Settings'
              )}
            </button>
          </div>
        </div>
        <p className="field__hint">Test Connection sends a test e-mail to the notification address with the saved settings.</p>
      </form>

      <GmailSetupGuide />
    </section>
  );
}
