import { useEffect, useId, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { IntegrationMessages, WordPressTestSchema, type WordPressStatus } from '@app/shared';
import { ApiError, errorText } from '../../api/client';
import { wordpressApi, type WordPressCheckAnswer, type WordPressCredentialsBody } from '../../api/integrations';
import { formatLastUpdated } from '../../lib/dates';
import { panelToast } from '../../lib/toast';
import { ButtonSpinner, Spinner } from '../Spinner';
import { ConnectionBadge, IntegrationStatus, TextField } from './fields';
import { PanelMessages } from './messages';
import { WORDPRESS_QUERY_KEY, type SettingsPanelProps } from './types';

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
 * SPEC.md §2 /settings → WordPress Integration: site URL, username and application password, a
 * connection test and Save (which the server only accepts after a passing check). Once saved, the
 * site URL is fixed and a blank password keeps the saved one.
 */
export function WordPressPanel({ onReload }: SettingsPanelProps) {
  const uid = useId();
  const titleId = `${uid}-title`;
  const ids: Record<Field, string> = { siteUrl: `${uid}-site`, username: `${uid}-user`, appPassword: `${uid}-password` };
  const query = useQuery({ queryKey: WORDPRESS_QUERY_KEY, queryFn: wordpressApi.status, retry: false });
  const status = query.data;
  const editing = !!status?.configured;
  const hasSavedPassword = editing && !!status?.hasAppPassword;

  const [form, setForm] = useState<Form>(EMPTY);
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState<Busy>(null);
  const [dirty, setDirty] = useState(false);
  const [connectedAs, setConnectedAs] = useState<string | null>(null);

  useEffect(() => {
    if (query.isError) panelToast.error(M.loadFailed, { toastId: 'wordpress-load-failed' });
  }, [query.isError, query.errorUpdatedAt]);

  // The saved site and user fill the form, unless the user is typing.
  useEffect(() => {
    if (!status || dirty) return;
    setForm({ siteUrl: status.siteUrl ?? '', username: status.username ?? '', appPassword: '' });
  }, [status, dirty]);

  const change = (field: Field, value: string) => {
    setForm((current) => ({ ...current, [field]: value }));
    setDirty(true);
    if (errors[field]) setErrors((current) => ({ ...current, [field]: undefined }));
  };

  /** The body for both calls; the locked site URL is always the saved one. */
  const body = (): WordPressCredentialsBody => ({
    siteUrl: editing ? (status?.siteUrl ?? form.siteUrl) : form.siteUrl.trim(),
    username: form.username.trim(),
    appPassword: form.appPassword.trim(),
  });

  /** SPEC.md §5: every field (the password unless one is saved), and no masked values. */
  const validate = (input: WordPressCredentialsBody): Errors => {
    const next: Errors = {};
    const parsed = WordPressTestSchema.safeParse(input);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as Field;
        if (FIELDS.includes(field) && !next[field]) next[field] = issue.message;
      }
    }
    if (!input.appPassword && !hasSavedPassword && !next.appPassword) next.appPassword = IntegrationMessages.allFieldsRequired;
    return next;
  };

  const check = (input: WordPressCredentialsBody): boolean => {
    const next = validate(input);
    setErrors(next);
    const first = FIELDS.find((field) => next[field]);
    if (!first) return true;
    const message = next[first]!;
    panelToast.error(message, { toastId: `wordpress-invalid-${message}` });
    document.getElementById(ids[first])?.focus();
    return false;
  };

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
    <section className="card settings-card" aria-labelledby={titleId} aria-busy={query.isFetching || undefined}>
      <div className="settings-card__header settings-card__header--row">
        <div>
          <h2 id={titleId} className="card-title">
            WordPress Integration
          </h2>
          <p className="card-description">
            Publish blog posts to your WordPress site. Create an application password under Users → Profile →
            Application Passwords in your WordPress admin.
          </p>
        </div>
        {editing && <ConnectionBadge connected />}
      </div>

      {query.isPending ? (
        <div className="settings-card__state">
          <Spinner label="Loading WordPress credentials" />
        </div>
      ) : query.isError ? (
        <div className="settings-card__state">
          <div className="alert alert--error" role="alert">
            {M.loadFailed}
          </div>
          <button type="button" className="btn btn--secondary btn--sm" onClick={() => void query.refetch()}>
            Try again
          </button>
        </div>
      ) : (
        <WordPressStatusLine status={status!} connectedAs={connectedAs} />
      )}

      <form className="settings-form" onSubmit={(event) => void save(event)} noValidate aria-label="WordPress credentials">
        <div className="settings-form__grid">
          <TextField
            id={ids.siteUrl}
            label="Site URL"
            type="url"
            name="siteUrl"
            inputMode="url"
            autoComplete="url"
            placeholder="https://your-site.com"
            required
            value={editing ? (status?.siteUrl ?? form.siteUrl) : form.siteUrl}
            disabled={editing || disabled}
            error={errors.siteUrl}
            hint={editing ? IntegrationMessages.siteUrlLocked : 'The address of your WordPress site.'}
            onChange={(event) => change('siteUrl', event.target.value)}
          />
          <TextField
            id={ids.username}
            label="Username"
            name="username"
            autoComplete="off"
            placeholder="Your WordPress login or e-mail"
            required
            value={form.username}
            disabled={disabled}
            error={errors.username}
            onChange={(event) => change('username', event.target.value)}
          />
          <TextField
            id={ids.appPassword}
            label="Application Password"
            type="password"
            name="appPassword"
            autoComplete="new-password"
            placeholder={hasSavedPassword ? 'Leave blank to keep the saved password' : 'xxxx xxxx xxxx xxxx xxxx xxxx'}
            required={!hasSavedPassword}
            value={form.appPassword}
            disabled={disabled}
            error={errors.appPassword}
            hint={hasSavedPassword ? 'A password is saved. Type a new one only to replace it.' : undefined}
            onChange={(event) => change('appPassword', event.target.value)}
          />
        </div>
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
              'Save'
            )}
          </button>
        </div>
      </form>
    </section>
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
