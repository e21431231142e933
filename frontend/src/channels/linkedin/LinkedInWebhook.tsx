import { useId, useState } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { WebhookSchema } from '@app/shared';
import { errorText, request } from '../../api/client';
import { useZodForm } from '../../lib/form';
import { settingsToast } from '../../lib/toast';
import { TextField } from '../../components/Field';
import { BusyButton } from '../../components/Spinner';
import { CopyableValue } from '../../components/settings/fields';
import { LinkedInPanelMessages } from './messages';
import { LINKEDIN_WEBHOOK_QUERY_KEY } from './status';

const M = LinkedInPanelMessages;

/**
 * The automation webhook (e.g. a Zapier "Catch Hook"): after each LinkedIn publication the server
 * POSTs the publication as JSON to this URL, signed with HMAC-SHA256. The signing secret is shown
 * once, when it is created.
 */
export function LinkedInWebhook() {
  const uid = useId();
  const titleId = `${uid}-title`;
  const query = useQuery({
    queryKey: LINKEDIN_WEBHOOK_QUERY_KEY,
    queryFn: () => request('linkedin.getWebhook'),
    retry: false,
  });
  const [secret, setSecret] = useState<string | null>(null);
  const form = useZodForm(
    WebhookSchema(),
    { webhookUrl: '' },
    {
      // The saved address, unless the user is typing.
      values: { webhookUrl: query.data?.webhookUrl ?? '' },
      resetOptions: { keepDirtyValues: true },
    },
  );

  const save = useMutation({
    mutationFn: (body: { webhookUrl: string }) => request('linkedin.setWebhook', { body }),
    onSuccess: async (answer, { webhookUrl }) => {
      if (answer.signingSecret) setSecret(answer.signingSecret);
      if (!webhookUrl) setSecret(null);
      settingsToast.success(webhookUrl ? answer.message : M.webhookOff);
      form.reset(form.getValues(), { keepDirtyValues: false, keepFieldsRef: true });
      await query.refetch();
    },
  });
  const disabled = save.isPending || query.isPending;
  const submit = form.handleSubmit((body) => !save.isPending && save.mutate(body));

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
      <form
        className="webhook-form"
        onSubmit={(event) => void submit(event)}
        noValidate
        aria-label="Automation webhook"
      >
        <TextField
          {...form.register('webhookUrl', { onChange: () => save.reset() })}
          id={`${uid}-url`}
          label="Webhook URL"
          type="url"
          inputMode="url"
          autoComplete="off"
          placeholder="https://hooks.zapier.com/hooks/catch/…"
          disabled={disabled}
          error={form.formState.errors.webhookUrl?.message}
        />
        <BusyButton
          type="submit"
          className="btn btn--secondary"
          disabled={disabled}
          busy={save.isPending}
          label="Save Webhook"
          busyLabel="Saving..."
        />
      </form>
      {save.error && (
        <div className="alert alert--error" role="alert">
          {errorText(save.error, M.webhookSaveFailed)}
        </div>
      )}

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
            Read the headers <code>x-webhook-timestamp</code> (Unix seconds) and <code>x-webhook-signature</code> (
            <code>sha256=&lt;hex&gt;</code>).
          </li>
          <li>
            Compute <code>{'HMAC-SHA256(secret, `${timestamp}.${body}`)'}</code> with the raw request body, as received,
            and hex-encode it.
          </li>
          <li>
            Compare <code>sha256=&lt;hex&gt;</code> with the header in constant time, and reject timestamps more than 5
            minutes old.
          </li>
        </ol>
      </details>
    </section>
  );
}
