import { IntegrationMessages } from '@app/shared';

/**
 * Texts of the integration panels that only the browser shows (docs/product.md, Texts). Texts the server
 * shows too live in @app/shared's IntegrationMessages.
 */
export const PanelMessages = {
  email: {
    loadFailed: 'Failed to load email settings',
    notificationEmailRequired: IntegrationMessages.notificationEmailRequired,
    credentialsRequired: IntegrationMessages.gmailCredentialsRequired,
    secretForClient: IntegrationMessages.gmailSecretForClient,
    testNeedsEmail: 'Please enter a notification email address first',
    testNeedsCredentials: 'Please enter Gmail API credentials first',
    authNeedsSavedCredentials: 'Save the Gmail API credentials first, then authenticate with Google.',
    saved: IntegrationMessages.emailSaved,
    saveFailed: 'Failed to save email settings',
    testSent: IntegrationMessages.testEmailSent,
    testFailed: (message: string) => `Test failed: ${message}`,
    testNetworkFailed: 'Failed to test email connection',
    authUrlFailed: 'Failed to get authentication URL',
    authStartFailed: 'Failed to start authentication',
    connected: 'Gmail API authentication successful!',
    cleared: IntegrationMessages.emailCleared,
    clearFailed: 'Failed to clear email settings',
    clearConfirm: 'Are you sure you want to clear all Gmail API settings?',
  },
  copyFailed: 'Could not copy: select the text and copy it by hand',
} as const;

/**
 * The `?gmail_error=` codes the callback puts on /settings, as sentences (a channel's are in its folder under
 * channels/). Only known codes have a text of their own; anything else (the parameter is in the
 * address, so anyone can craft a link with one) reads as one generic sentence, and the parameter itself is never
 * shown.
 */
const GMAIL_ERRORS: Record<string, string> = {
  invalid_state: 'The Google sign-in could not be verified. Please try again.',
  not_owner: 'Only an owner of the workspace can connect Gmail. Ask the workspace owner to connect it.',
  access_denied: 'Google sign-in was cancelled.',
  not_configured: IntegrationMessages.gmailCredentialsRequired,
  missing_code: 'Google did not send an authorization code. Please try again.',
  no_refresh_token:
    'Google did not return a refresh token. Remove the app under Google Account → Security → Third-party access, then authenticate again.',
  redirect_uri_mismatch: 'Google refused the redirect URI: add the one shown below to your OAuth client.',
  google_redirect_uri_mismatch: 'Google refused the redirect URI: add the one shown below to your OAuth client.',
  invalid_grant: 'Google refused the authorization (invalid_grant). Please authenticate again.',
  google_invalid_grant: 'Google refused the authorization (invalid_grant). Please authenticate again.',
  google_invalid_client: 'Google rejected the OAuth client ID or secret. Check both against the Google Cloud console.',
  google_unreachable: 'Google could not be reached. Please try again later.',
};
const GMAIL_FAILED = 'Google sign-in did not complete. Please try again.';

/** Settings' own words around what the server says (docs/product.md, Connection health). */
export const SettingsMessages = {
  /** A connection problem the check before a scheduled slot found. */
  needsAttention: (message: string) => `Needs attention before a scheduled post: ${message}`,
} as const;

export const knownText = (texts: Record<string, string>, code: string): string | undefined =>
  Object.prototype.hasOwnProperty.call(texts, code) ? texts[code] : undefined;

/** A readable text for the `gmail_error` code the callback puts on /settings. */
export function gmailErrorText(code: string): string {
  return knownText(GMAIL_ERRORS, code) ?? GMAIL_FAILED;
}
