import { useId } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useWatch } from 'react-hook-form';
import * as z from 'zod/mini';
import { EmailSchema, IntegrationMessages, TEST_EMAIL_SUBJECT, type EmailStatus } from '@app/shared';
import { ApiError, request } from '../../api/client';
import { settingsToast } from '../../lib/toast';
import { BusyButton } from '../Spinner';
import { CredentialsForm, useCredentialsForm } from './CredentialsForm';
import { GmailSetupGuide } from './GmailSetupGuide';
import { PanelMessages } from './messages';
import { PanelQueryState, SettingsCard } from './SettingsCard';
import { EMAIL_QUERY_KEY, apiKeysQuery, removeSetting, type SettingsPanelProps } from './types';
import { GMAIL_SIGN_IN, useOAuthSignIn } from './useOAuthSignIn';

const M = PanelMessages.email;
/** The Gmail panel's values as sent, trimmed; what each button needs is schemaFor's. */
const EmailFormSchema = z.object({
  notificationEmail: z.string().check(z.trim()),
  gmailClientId: z.string().check(z.trim()),
  gmailClientSecret: z.string().check(z.trim()),
  gmailRefreshToken: z.string().check(z.trim()),
});
export type EmailForm = z.output<typeof EmailFormSchema>;
type Field = keyof EmailForm;

const EMPTY: EmailForm = { notificationEmail: '', gmailClientId: '', gmailClientSecret: '', gmailRefreshToken: '' };
const FIELDS: Field[] = ['notificationEmail', 'gmailClientId', 'gmailClientSecret', 'gmailRefreshToken'];

/** Whether a secret is saved, and whether it still counts for the typed client id (both trimmed). */
function secretState(status: EmailStatus | undefined, clientId: string, typedSecret: string) {
  const savedSecret = !!status?.gmailClientSecret;
  const otherClient = !!status?.gmailClientId && clientId !== '' && clientId !== status.gmailClientId;
  const keepsSavedSecret = savedSecret && !otherClient;
  return { savedSecret, otherClient, keepsSavedSecret, hasSecret: !!typedSecret || keepsSavedSecret };
}

/** The setting key and description each field is saved under (one POST /api/settings per key). */
const SETTING: Record<Field, { key: string; description: string }> = {
  notificationEmail: { key: 'notification_email', description: 'Where approval notifications are sent' },
  gmailClientId: { key: 'gmail_client_id', description: 'Gmail API OAuth client ID' },
  gmailClientSecret: { key: 'gmail_client_secret', description: 'Gmail API OAuth client secret' },
  gmailRefreshToken: { key: 'gmail_refresh_token', description: 'Gmail API refresh token' },
};
/** docs/product.md (Settings, Gmail): the SMTP settings of old; saving the Gmail settings deletes them. */
export const LEGACY_EMAIL_KEYS = ['email_host', 'email_port', 'email_user', 'email_password', 'email_method'] as const;

const TEST_MESSAGE =
  'This is a test e-mail from Content Publisher. If you can read it, the Gmail API settings work and approval notifications will arrive here.';
const BULLET = /[•●∙·]/;
const EMPTY_STATUS: EmailStatus = { success: true, ...EMPTY, authenticated: false };

/**
 * What each button needs (docs/product.md, Settings, Gmail); of several problems of a field the first
 * is shown. The saved secret belongs to the saved client id: saving another id removes it on the server
 * (domain/settings.ts), so another id needs its own secret.
 */
const schemaFor = (status: EmailStatus | undefined, action: string) =>
  EmailFormSchema.check(
    z.superRefine((form, ctx) => {
      const problem = (field: Field, message: string) => ctx.addIssue({ code: 'custom', path: [field], message });
      const { savedSecret, otherClient, hasSecret } = secretState(status, form.gmailClientId, form.gmailClientSecret);
      if (action === 'auth') {
        // Google signs in with the saved client; typed but unsaved values would be ignored.
        if (form.gmailClientId !== (status?.gmailClientId ?? '')) problem('gmailClientId', M.authNeedsSavedCredentials);
        if (!savedSecret || form.gmailClientSecret) problem('gmailClientSecret', M.authNeedsSavedCredentials);
        return;
      }
      const saving = action === 'save';
      const email = saving ? EmailSchema().safeParse(form.notificationEmail) : null;
      if (!form.notificationEmail)
        problem('notificationEmail', saving ? M.notificationEmailRequired : M.testNeedsEmail);
      else if (email?.error)
        problem('notificationEmail', email.error.issues[0]?.message ?? 'Enter a valid email address');
      const credentials = saving ? M.credentialsRequired : M.testNeedsCredentials;
      if (!form.gmailClientId) problem('gmailClientId', credentials);
      if (!hasSecret)
        problem('gmailClientSecret', saving && savedSecret && otherClient ? M.secretForClient : credentials);
      // Typed values that look masked would overwrite the real secret with bullets.
      if (saving)
        for (const field of FIELDS) if (BULLET.test(form[field])) problem(field, IntegrationMessages.obfuscated);
    }),
  );

/**
 * docs/product.md (Settings, Gmail): the notification address and the Gmail API OAuth
 * client, the Google sign-in in a 500x600 popup, a test e-mail, Clear and Save. Saved secrets come
 * back masked and are shown as placeholders only, never as values (so they are never sent back).
 */
export function EmailPanel({ onReload }: SettingsPanelProps) {
  const uid = useId();
  const authTitleId = `${uid}-auth-title`;
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: EMAIL_QUERY_KEY,
    queryFn: () => request('email.status'),
    retry: false,
    refetchOnWindowFocus: true,
  });
  const status = query.data;

  // A different (masked) token than before the popup opened means the sign-in worked.
  const oauth = useOAuthSignIn(
    GMAIL_SIGN_IN,
    query.refetch,
    (before, next) => !!next?.authenticated && next.gmailRefreshToken !== (before?.gmailRefreshToken ?? ''),
  );

  const credentials = useCredentialsForm({
    status,
    values: (saved) => ({
      ...EMPTY,
      notificationEmail: saved?.notificationEmail ?? '',
      gmailClientId: saved?.gmailClientId ?? '',
    }),
    schema: schemaFor,
    secrets: ['gmailClientSecret', 'gmailRefreshToken'],
    test: {
      run: (values) =>
        request('email.test', {
          body: { to: values.notificationEmail, subject: TEST_EMAIL_SUBJECT, message: TEST_MESSAGE, method: 'gmail' },
        }),
      done: () => void settingsToast.success(M.testSent),
      failed: (err) => (err instanceof ApiError ? M.testFailed(err.message) : M.testNetworkFailed),
    },
    save: {
      run: async (values) => {
        // Blank secrets are the saved ones, unchanged: they are not written.
        for (const field of FIELDS.filter((name) => values[name] !== '')) {
          await request('settings.save', {
            body: { key: SETTING[field].key, value: values[field], description: SETTING[field].description },
          });
        }
        // Only those the account still has: a delete of one long gone would answer 404, an error in the console.
        const listed = await queryClient.fetchQuery(apiKeysQuery);
        const legacy = LEGACY_EMAIL_KEYS.filter((key) => listed.some((setting) => setting.key === key));
        await Promise.all(legacy.map(removeSetting));
      },
      done: () => void settingsToast.success(M.saved),
      failed: (err) =>
        err instanceof ApiError && err.serverMessage ? `${M.saveFailed}: ${err.serverMessage}` : M.saveFailed,
    },
    refetch: query.refetch,
    onReload,
  });
  const { form } = credentials;

  const clear = useMutation({
    mutationFn: async () => {
      // Only those the account has: a delete of one never saved would answer 404, an error in the console.
      const listed = await queryClient.fetchQuery(apiKeysQuery);
      const saved = FIELDS.map((field) => SETTING[field].key).filter((key) => listed.some((s) => s.key === key));
      // The client id last: the server deletes the secret and token saved for it with it (domain/settings.ts).
      const clientId = SETTING.gmailClientId.key;
      await Promise.all(saved.filter((key) => key !== clientId).map(removeSetting));
      if (saved.includes(clientId)) await removeSetting(clientId);
    },
    onSuccess: () => {
      form.reset(EMPTY, { keepDirtyValues: false, keepFieldsRef: true });
      queryClient.setQueryData<EmailStatus>(EMAIL_QUERY_KEY, EMPTY_STATUS);
      settingsToast.success(M.cleared);
      onReload();
    },
    onError: () => settingsToast.error(M.clearFailed),
  });

  const [clientId, typedSecret] = useWatch({ control: form.control, name: ['gmailClientId', 'gmailClientSecret'] });
  const secret = secretState(status, clientId.trim(), typedSecret.trim());
  const savedToken = !!status?.authenticated || !!status?.gmailRefreshToken;
  const busy = credentials.pending || oauth.starting || clear.isPending;
  const disabled = busy || query.isPending;

  const authenticate = () => {
    if (!busy && !oauth.popupOpen)
      credentials.check('auth', () => oauth.signIn(status, () => request('email.authUrl')));
  };

  const clearSettings = () => {
    if (busy || !window.confirm(M.clearConfirm)) return;
    credentials.save.reset();
    credentials.clearFailure();
    clear.mutate();
  };

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

      <CredentialsForm
        credentials={credentials}
        label="Gmail API settings"
        disabled={disabled}
        save={{ label: 'Save Settings', primary: true }}
        fields={[
          {
            name: 'notificationEmail',
            label: 'Notification Email',
            type: 'email',
            autoComplete: 'email',
            placeholder: 'you@example.com',
            required: true,
            hint: 'Where approval notifications will be sent',
          },
          {
            name: 'gmailClientId',
            label: 'Gmail Client ID',
            type: 'text',
            autoComplete: 'off',
            placeholder: '1234567890-abc.apps.googleusercontent.com',
            required: true,
            mono: true,
          },
          {
            name: 'gmailClientSecret',
            label: 'Gmail Client Secret',
            type: 'password',
            autoComplete: 'new-password',
            placeholder: (secret.keepsSavedSecret && status?.gmailClientSecret) || 'GOCSPX-…',
            required: !secret.keepsSavedSecret,
            hint: secret.keepsSavedSecret
              ? 'Saved. Leave blank to keep it, or type a new one to replace it.'
              : secret.savedSecret && secret.otherClient
                ? M.secretForClient
                : undefined,
          },
          {
            name: 'gmailRefreshToken',
            label: 'Gmail Refresh Token',
            type: 'password',
            autoComplete: 'new-password',
            placeholder: status?.gmailRefreshToken || 'Optional',
            hint: 'Leave empty for initial setup, generated during the OAuth flow',
          },
        ]}
        startAction={
          <button
            type="button"
            className="btn btn--danger-ghost"
            onClick={clearSettings}
            disabled={disabled}
            aria-busy={clear.isPending || undefined}
          >
            {clear.isPending ? 'Clearing...' : 'Clear Settings'}
          </button>
        }
        footer={
          <p className="field__hint">
            Test Connection sends a test e-mail to the notification address with the saved settings.
          </p>
        }
      >
        <section
          className={`subpanel google-auth${savedToken ? ' google-auth--ready' : ''}`}
          aria-labelledby={authTitleId}
        >
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
            onClick={authenticate}
            disabled={busy || oauth.popupOpen || !clientId.trim() || !secret.hasSecret}
            busy={oauth.starting || oauth.popupOpen}
            label={savedToken ? 'Re-authenticate' : 'Authenticate with Google'}
            busyLabel="Authenticating..."
          />
        </section>
      </CredentialsForm>

      <GmailSetupGuide />
    </SettingsCard>
  );
}
