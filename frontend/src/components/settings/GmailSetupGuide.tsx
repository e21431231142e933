import { useId } from 'react';
import { CopyableValue } from './fields';
import { gmailRedirectUri } from './oauth';

/** docs/product.md (Settings, Gmail): the setup steps, OAuth flow notes and troubleshooting. */
export function GmailSetupGuide() {
  const titleId = useId();
  const redirectUri = gmailRedirectUri();
  return (
    <section className="subpanel setup-guide" aria-labelledby={titleId}>
      <h3 id={titleId} className="subpanel__title">
        Gmail API setup instructions
      </h3>
      <ol className="steps-list">
        <li>
          Create a project (or pick one) in the{' '}
          <a href="https://console.cloud.google.com/projectcreate" target="_blank" rel="noreferrer">
            Google Cloud Console
          </a>
          .
        </li>
        <li>
          Enable the Gmail API: <em>APIs &amp; Services → Library → Gmail API → Enable</em>.
        </li>
        <li>
          Configure the <em>OAuth consent screen</em>: app name and support e-mail, the scope <code>gmail.send</code>,
          and — while the app is in <em>Testing</em> — your Google account under <em>Test users</em>.
        </li>
        <li>
          Create an OAuth client: <em>Credentials → Create credentials → OAuth client ID</em>, application type{' '}
          <strong>Web application</strong>, with this authorized redirect URI:
          <CopyableValue label="Authorized redirect URI" value={redirectUri} what="Gmail redirect URI" />
        </li>
        <li>Paste the Client ID and Client Secret above, enter the notification e-mail, then choose Save Settings.</li>
        <li>
          Choose <strong>Authenticate with Google</strong>, pick the account that sends the e-mails and allow access.
          The refresh token is stored for you.
        </li>
        <li>Test Connection sends a test e-mail to the notification address.</li>
      </ol>

      <details className="disclosure">
        <summary>OAuth flow notes</summary>
        <ul className="notes-list">
          <li>
            The app asks for offline access with the <code>gmail.send</code> scope only: it can send mail, not read your
            mailbox. Google answers with a refresh token, which the server keeps encrypted and never shows again.
          </li>
          <li>
            Google returns a refresh token only on the first consent for a client. The app adds{' '}
            <code>prompt=consent</code>, so re-authenticating always shows the consent screen and returns a new token.
          </li>
          <li>
            Leave the Refresh Token field empty unless you already have a token from elsewhere (for example the OAuth
            Playground with your own client).
          </li>
          <li>
            While the consent screen is in <em>Testing</em>, Google lets refresh tokens expire after 7 days. Publish the
            app (<em>In production</em>) to keep it connected.
          </li>
        </ul>
      </details>

      <details className="disclosure">
        <summary>Troubleshooting</summary>
        <dl className="troubleshooting">
          <dt>
            <code>redirect_uri_mismatch</code>
          </dt>
          <dd>
            The OAuth client must list exactly <code>{redirectUri}</code> (scheme, host, port and path, no trailing
            slash), and the client type must be Web application.
          </dd>
          <dt>
            <code>invalid_grant</code> when sending
          </dt>
          <dd>
            The refresh token was revoked or expired (access removed, password changed, the 7-day Testing limit, or long
            unused). Choose Re-authenticate.
          </dd>
          <dt>“Access blocked” or “has not completed the Google verification process”</dt>
          <dd>
            The app is unverified and in Testing: add the signing-in account under <em>Test users</em> on the OAuth
            consent screen. The “Google hasn’t verified this app” warning is expected for your own app: choose{' '}
            <em>Continue</em>.
          </dd>
          <dt>No refresh token returned</dt>
          <dd>
            Remove the app under{' '}
            <a href="https://myaccount.google.com/permissions" target="_blank" rel="noreferrer">
              Google Account → Third-party access
            </a>{' '}
            and authenticate again.
          </dd>
        </dl>
      </details>
    </section>
  );
}
