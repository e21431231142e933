import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { EmailSchema, IntegrationMessages, TEST_EMAIL_SUBJECT, type EmailStatus } from '@app/shared';
import { ApiError } from '../../api/client';
import { emailApi } from '../../api/integrations';
import { settingsApi } from '../../api/settings';
import { panelToast } from '../../lib/toast';
import { BusyButton } from '../Spinner';
import { TestConnectionButton, TextField } from './fields';
import { GmailSetupGuide } from './GmailSetupGuide';
import { PanelMessages, gmailErrorText } from './messages';
import { PanelQueryState, SettingsCard, useLoadFailedToast } from './SettingsCard';
import { EMAIL_QUERY_KEY, type SettingsPanelProps } from './types';
import { useOAuthSignIn } from './useOAuthSignIn';
import { useSettingsForm } from './useSettingsForm';

/** The Gmail panel's form state. */
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
/** docs/product.md (Settings, Gmail): the SMTP settings of old; saving the Gmail settings deletes them. */
export const LEGACY_EMAIL_KEYS = ['email_host', 'email_port', 'email_user', 'email_password', 'email_method'] as const;
/** docs/product.md (Settings): the Google authorization popup is 500x600. */
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
 * docs/product.md (Settings, Gmail): the notification address and the Gmail API OAuth
 * client, the Google sign-in in a 500x600 popup, a test e-mail, Clear and Save. Saved secrets come
 * back masked and are shown as placeholders only, never as values (so they are never sent back).
 */
export function EmailPanel({ onReload }: SettingsPanelProps) {
  const uid = useId();
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

  const { form, setForm, setErrors, fieldProps, showErrors } = useSettingsForm(FIELDS, ids, EMPTY);
  const [busy, setBusy] = useState<Busy>(null);
  const [serverError, setServerError] = useState('');
  /** The server's plain values last copied into the form: a field still equal to them is not being edited. */
  const synced = useRef<Pick<EmailForm, 'notificationEmail' | 'gmailClientId'> | null>(null);

  useLoadFailedToast(query, M.loadFailed, 'email-load-failed');

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
  // The saved secret belongs to the saved client id: saving another id removes it on the server (domain/settings.ts).
  const otherClient = !!status?.gmailClientId && clientId !== '' && clientId !== status.gmailClientId;
  const keepsSavedSecret = savedSecret && !otherClient;
  const hasSecret = !!form.gmailClientSecret.trim() || keepsSavedSecret;

  const refetch = query.refetch;
  const oauth = useOAuthSignIn({
    provider: 'gmail',
    queryKey: EMAIL_QUERY_KEY,
    refetch,
    popup: GMAIL_POPUP,
    // A different (masked) token than before the popup opened means the sign-in worked.
    signedInSince: (before, next) => !!next?.authenticated && next.gmailRefreshToken !== (before?.gmailRefreshToken ?? ''),
    messages: M,
    errorText: gmailErrorText,
  });

  /** Shows the first problem (or `message`) as a toast and next to its field, and focuses that field. */
  const reject = (next: Errors, message?: string) => {
    showErrors(next, (_field, text) => `email-invalid-${text}`, message);
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
    if (savedSecret && otherClient && !hasSecret) {
      return reject({ gmailClientSecret: M.secretForClient }, M.secretForClient);
    }
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
    if (busy || oauth.popupOpen) return;
    // docs/product.md (Settings, Gmail): Google signs in with the saved client; typed but unsaved values would be ignored.
    const unsaved = {
      gmailClientId: clientId !== (status?.gmailClientId ?? '') ? M.authNeedsSavedCredentials : undefined,
      gmailClientSecret: !savedSecret || form.gmailClientSecret.trim() ? M.authNeedsSavedCredentials : undefined,
    };
    if (unsaved.gmailClientId || unsaved.gmailClientSecret) return reject(unsaved, M.authNeedsSavedCredentials);
    setBusy('auth');
    try {
      await oauth.signIn(status, () => emailApi.authUrl());
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

  const authenticating = busy === 'auth' || oauth.popupOpen;
  const disabled = busy !== null || query.isPending;
  const authDisabled = busy !== null || oauth.popupOpen || !clientId || !hasSecret;

  return (
    <SettingsCard
      title="Gmail API Configuration"
      description="Approval notifications are sent through the Gmail API with your own Google Cloud OAuth client."
      aside={<span className="badge badge--accent">Gmail API Only</span>}
      busy={query.isFetching}
    >
      {oauth.handingOver ? (
        <p className="muted">Finishing the Google sign-in…</p>
      ) : (
        <PanelQueryState query={query} loadingLabel="Loading email settings" failedText={M.loadFailed} />
      )}

      <form className="settings-form" onSubmit={(event) => void save(event)} noValidate aria-label="Gmail API settings">
        {serverError && (
          <div className="alert alert--error" role="alert">
            {serverError}
          </div>
        )}
        <div className="settings-form__grid">
          <TextField
            {...fieldProps('notificationEmail')}
            label="Notification Email"
            type="email"
            autoComplete="email"
            placeholder="you@example.com"
            required
            disabled={disabled}
            hint="Where approval notifications will be sent"
          />
          <TextField
            {...fieldProps('gmailClientId')}
            label="Gmail Client ID"
            type="text"
            autoComplete="off"
            placeholder="1234567890-abc.apps.googleusercontent.com"
            required
            mono
            disabled={disabled}
          />
          <TextField
            {...fieldProps('gmailClientSecret')}
            label="Gmail Client Secret"
            type="password"
            autoComplete="new-password"
            placeholder={(keepsSavedSecret && status?.gmailClientSecret) || 'GOCSPX-…'}
            required={!keepsSavedSecret}
            disabled={disabled}
            hint={
              keepsSavedSecret
                ? 'Saved. Leave blank to keep it, or type a new one to replace it.'
                : savedSecret && otherClient
                  ? M.secretForClient
                  : undefined
            }
          />
          <TextField
            {...fieldProps('gmailRefreshToken')}
            label="Gmail Refresh Token"
            type="password"
            autoComplete="new-password"
            placeholder={status?.gmailRefreshToken || 'Optional'}
            disabled={disabled}
            hint="Leave empty for initial setup, generated during the OAuth flow"
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
          <BusyButton
            type="button"
            className={`btn ${savedToken ? 'btn--secondary' : 'btn--primary'}`}
            onClick={() => void authenticate()}
            disabled={authDisabled}
            busy={authenticating}
            label={savedToken ? 'Re-authenticate' : 'Authenticate with Google'}
            busyLabel="Authenticating..."
          />
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
            <TestConnectionButton testing={busy === 'test'} disabled={disabled} onTest={() => void test()} />
            <BusyButton
              type="submit"
              className="btn btn--primary"
              disabled={disabled}
              busy={busy === 'save'}
              label="Save Settings"
              busyLabel="Saving..."
            />
          </div>
        </div>
        <p className="field__hint">Test Connection sends a test e-mail to the notification address with the saved settings.</p>
      </form>

      <GmailSetupGuide />
    </SettingsCard>
  );
}
