import { useEffect, useId, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { IntegrationMessages, WordPressTestSchema, type WordPressStatus } from '@app/shared';
import { ApiError, errorText } from '../../api/client';
import { wordpressApi, type WordPressCheckAnswer, type WordPressCredentialsBody } from '../../api/integrations';
import { formatLastUpdated } from '../../lib/dates';
import { panelToast } from '../../lib/toast';
import { BusyButton } from '../Spinner';
import { ConnectionBadge, IntegrationStatus, SavedSecretField, TestConnectionButton, TextField } from './fields';
import { PanelMessages } from './messages';
import { PanelQueryState, SettingsCard, useLoadFailedToast } from './SettingsCard';
import { WORDPRESS_QUERY_KEY, type SettingsPanelProps } from './types';
import { addIssueErrors, useSettingsForm } from './useSettingsForm';

type Field = 'siteUrl' | 'username' | 'appPassword';
type Form = Record<Field, string>;
type Errors = Partial<Record<Field, string>>;
type Busy = 'test' | 'save' | null;

const EMPTY: Form = { siteUrl: '', username: '', appPassword: '' };
const FIELDS: Field[] = ['siteUrl', 'username', 'appPassword'];
const M = PanelMessages.wordpress;

/** The user's display name from a check answer; the login name when WordPress sent none. */
const nameOf = (answer: WordPressCheckAnswer, fallback: string) => answer.user?.name?.trim() || fallback;

/**
 * docs/product.md (Settings, WordPress): site URL, username and application password, a
 * connection test and Save (which the server only accepts after a passing check). Once saved, the
 * site URL is fixed and a blank password keeps the saved one.
 */
export function WordPressPanel({ onReload }: SettingsPanelProps) {
  const uid = useId();
  const ids: Record<Field, string> = { siteUrl: `${uid}-site`, username: `${uid}-user`, appPassword: `${uid}-password` };
  const query = useQuery({ queryKey: WORDPRESS_QUERY_KEY, queryFn: wordpressApi.status, retry: false });
  const status = query.data;
  const editing = !!status?.configured;
  const hasSavedPassword = editing && !!status?.hasAppPassword;

  const { form, setForm, dirty, setDirty, fieldProps, showErrors } = useSettingsForm(FIELDS, ids, EMPTY);
  const [busy, setBusy] = useState<Busy>(null);
  const [connectedAs, setConnectedAs] = useState<string | null>(null);

  useLoadFailedToast(query, M.loadFailed, 'wordpress-load-failed');

  // The saved site and user fill the form, unless the user is typing.
  useEffect(() => {
    if (!status || dirty) return;
    setForm({ siteUrl: status.siteUrl ?? '', username: status.username ?? '', appPassword: '' });
  }, [status, dirty]);

  /** The body for both calls; the locked site URL is always the saved one. */
  const body = (): WordPressCredentialsBody => ({
    siteUrl: editing ? (status?.siteUrl ?? form.siteUrl) : form.siteUrl.trim(),
    username: form.username.trim(),
    appPassword: form.appPassword.trim(),
  });

  /** docs/product.md (Settings): every field (the password unless one is saved), and no masked values. */
  const validate = (input: WordPressCredentialsBody): Errors => {
    const next: Errors = {};
    const parsed = WordPressTestSchema.safeParse(input);
    if (!parsed.success) addIssueErrors(next, parsed.error.issues, FIELDS);
    if (!input.appPassword && !hasSavedPassword && !next.appPassword) next.appPassword = IntegrationMessages.allFieldsRequired;
    return next;
  };

  const check = (input: WordPressCredentialsBody): boolean =>
    showErrors(validate(input), (_field, text) => `wordpress-invalid-${text}`);

  const test = async () => {
    if (busy) return;
    const input = body();
    if (!check(input)) return;
    setBusy('test');
    try {
      const answer = await wordpressApi.test(input);
      if (answer?.success) {
        const name = nameOf(answer, input.username);
        setConnectedAs(name);
        panelToast.success(M.connected(name));
      } else {
        panelToast.error(M.connectionFailed(answer?.error || answer?.message || 'unknown error'));
      }
    } catch (err) {
      panelToast.error(M.connectionFailed(err instanceof ApiError ? err.message : 'the server could not be reached'));
    } finally {
      setBusy(null);
    }
  };

  const save = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const input = body();
    if (!check(input)) return;
    if (hasSavedPassword && !input.appPassword) input.skipPasswordUpdate = true;
    setBusy('save');
    try {
      const answer = await wordpressApi.save(input);
      const name = nameOf(answer ?? {}, input.username);
      setConnectedAs(name);
      panelToast.success(M.saved(name));
      setDirty(false);
      setForm((current) => ({ ...current, appPassword: '' }));
      await query.refetch();
      onReload();
    } catch (err) {
      panelToast.error(M.saveFailed(errorText(err, 'the server could not be reached')));
    } finally {
      setBusy(null);
    }
  };

  const disabled = busy !== null || query.isPending;

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

      <form className="settings-form" onSubmit={(event) => void save(event)} noValidate aria-label="WordPress credentials">
        <div className="settings-form__grid">
          <TextField
            {...fieldProps('siteUrl')}
            label="Site URL"
            type="url"
            inputMode="url"
            autoComplete="url"
            placeholder="https://your-site.com"
            required
            value={editing ? (status?.siteUrl ?? form.siteUrl) : form.siteUrl}
            disabled={editing || disabled}
            hint={editing ? IntegrationMessages.siteUrlLocked : 'The address of your WordPress site.'}
          />
          <TextField
            {...fieldProps('username')}
            label="Username"
            autoComplete="off"
            placeholder="Your WordPress login or e-mail"
            required
            disabled={disabled}
          />
          <SavedSecretField
            {...fieldProps('appPassword')}
            label="Application Password"
            saved={hasSavedPassword}
            what="password"
            placeholder="xxxx xxxx xxxx xxxx xxxx xxxx"
            disabled={disabled}
          />
        </div>
        <div className="settings-form__actions">
          <TestConnectionButton testing={busy === 'test'} disabled={disabled} onTest={() => void test()} />
          <BusyButton
            type="submit"
            className="btn btn--primary"
            disabled={disabled}
            busy={busy === 'save'}
            label="Save"
            busyLabel="Saving..."
          />
        </div>
      </form>
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
