import { useEffect, useId, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { IntegrationMessages, WebhookSchema } from '@app/shared';
import { errorText } from '../../api/client';
import { linkedinApi } from '../../api/integrations';
import { panelToast } from '../../lib/toast';
import { BusyButton } from '../Spinner';
import { CopyableValue, TextField } from './fields';
import { PanelMessages } from './messages';
import { LINKEDIN_WEBHOOK_QUERY_KEY } from './types';

const M = PanelMessages.linkedin;

/**
 * The automation webhook (e.g. a Zapier "Catch Hook"): after each LinkedIn publication the server
 * POSTs the publication as JSON to this URL, signed with HMAC-SHA256. The signing secret is shown
 * once, when it is created.
 */
export function LinkedInWebhook() {
  const uid = useId();
  const titleId = `${uid}-title`;
  const inputId = `${uid}-url`;
  const query = useQuery({ queryKey: LINKEDIN_WEBHOOK_QUERY_KEY, queryFn: linkedinApi.webhook, retry: false });
  const [url, setUrl] = useState('');
  const [dirty, setDirty] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const [saving, setSaving] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);

  useEffect(() => {
    if (query.data && !dirty) setUrl(query.data.webhookUrl ?? '');
  }, [query.data, dirty]);

  const save = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (saving) return;
    const parsed = WebhookSchema.safeParse({ webhookUrl: url });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      document.getElementById(inputId)?.focus();
      return;
    }
    setError(undefined);
    setSaving(true);
    try {
      const answer = await linkedinApi.setWebhook(parsed.data.webhookUrl);
      if (answer?.signingSecret) setSecret(answer.signingSecret);
      if (!parsed.data.webhookUrl) setSecret(null);
      panelToast.success(parsed.data.webhookUrl ? answer?.message || IntegrationMessages.webhookSaved : M.webhookOff);
      setDirty(false);
      await query.refetch();
    } catch (err) {
      panelToast.error(errorText(err, M.webhookSaveFailed));
    } finally {
      setSaving(false);
    }
  };

  const active = !!query.data?.webhookUrl;

  return (
    <section className="subpanel" aria-labelledby={titleId}>
      <div className="subpanel__header">
        <h3 id={titleId} className="subpanel__title">
          Automation webhook
        </h3>
        <span className={`badge${active ? ' badge--success' : ''}`}>{active ? 'On' : 'Off'}</span>
      </div>
      <p className="subpanel__text">
        After each LinkedIn publication the app sends a <code>POST</code> with the publication as JSON (event, article,
        text, post URL, time) to this address, for example a Zapier or Make “catch hook”. Leave it empty and save to
        turn it off.
      </p>
      {query.isError && (
        <div className="alert alert--error" role="alert">
          {M.webhookLoadFailed}
        </div>
      )}
      <form className="webhook-form" onSubmit={(event) => void save(event)} noValidate aria-label="Automation webhook">
        <TextField
          id={inputId}
          label="Webhook URL"
          type="url"
          name="webhookUrl"
          inputMode="url"
          autoComplete="off"
          placeholder="https://hooks.zapier.com/hooks/catch/…"
          value={url}
          disabled={saving || query.isPending}
          error={error}
          onChange={(event) => {
            setUrl(event.target.value);
            setDirty(true);
            if (error) setError(undefined);
          }}
        />
        <BusyButton
          type="submit"
          className="btn btn--secondary"
          disabled={saving || query.isPending}
          busy={saving}
          label="Save Webhook"
          busyLabel="Saving..."
        />
      </form>

      {secret ? (
        <div className="secret-once" role="region" aria-label="Webhook signing secret">
          <CopyableValue
            label="Signing secret — shown only now"
            value={secret}
            what="signing secret"
            hint="Copy it into the receiving end now: it is stored encrypted and never shown again."
          />
        </div>
      ) : (
        active &&
        query.data?.hasSigningSecret && (
          <p className="field__hint">
            Requests are signed with the secret shown when the webhook was first saved. To get a new one, turn the
            webhook off and save it again.
          </p>
        )
      )}

      <details className="disclosure">
        <summary>How to verify a request</summary>
        <ol className="steps-list">
          <li>
            Read the headers <code>x-webhook-timestamp</code> (Unix seconds) and <code>x-webhook-signature</code>{' '}
            (<code>sha256=&lt;hex&gt;</code>).
          </li>
          <li>
            Compute <code>{'HMAC-SHA256(secret, `${timestamp}.${body}`)'}</code> with the raw request body, as
            received, and hex-encode it.
          </li>
          <li>Compare <code>sha256=&lt;hex&gt;</code> with the header in constant time, and reject timestamps more than 5 minutes old.</li>
        </ol>
      </details>
    </section>
  );
}
