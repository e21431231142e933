import { IntegrationMessages } from '@app/shared';

/**
 * Texts of the integration panels that only the browser shows (docs/product.md, Texts). Texts the server
 * shows too live in @app/shared's IntegrationMessages.
 */
export const PanelMessages = {
  wordpress: {
    loadFailed: 'Failed to load WordPress credentials',
    connectionFailed: (error: string) => `Connection failed: ${error}`,
    saveFailed: (message: string) => `Failed to save credentials: ${message}`,
    connected: (name: string) => `Connection successful! Connected as ${name}.`,
    saved: (name: string) => `${IntegrationMessages.wordpressSaved}. Connected as ${name}.`,
  },
  linkedin: {
    loadFailed: 'Failed to load LinkedIn credentials',
    saveFirst: IntegrationMessages.linkedinSaveFirst,
    testFailed: 'LinkedIn connection test failed',
    saveFailed: 'Failed to save LinkedIn credentials',
    authUrlFailed: 'Failed to generate authorization URL',
    authStartFailed: 'Failed to start LinkedIn authentication',
    connected: IntegrationMessages.linkedinConnected,
    webhookLoadFailed: 'Failed to load the automation webhook',
    webhookSaveFailed: 'Failed to save the automation webhook',
    webhookOff: 'Automation webhook turned off',
    pagesLabel: IntegrationMessages.linkedinPagesLabel,
    pagesHint:
      'Asks LinkedIn for page access as well, to post as a Business Page. Your LinkedIn app needs the Community Management API product (LinkedIn approves it); without it LinkedIn refuses the sign-in.',
    pagesEnabled: 'Can also post to the LinkedIn Pages you administer.',
    pagesDisabled: 'Posts as your personal profile only (no page access).',
  },
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
 * The `?linkedin_error=` / `?gmail_error=` codes the callbacks put on /settings, as sentences. Only
 * known codes have a text of their own; anything else (the parameter is in the address, so anyone
 * can craft a link with one) reads as one generic sentence, and the parameter itself is never shown.
 */
const LINKEDIN_ERRORS: Record<string, string> = {
  invalid_state: 'The LinkedIn sign-in could not be verified. Please try again.',
  // A team workspace's sign-in whose starter stopped being an owner meanwhile (docs/product.md, Workspaces).
  not_owner: 'Only an owner of the workspace can connect LinkedIn. Ask the workspace owner to connect it.',
  user_cancelled_login: 'LinkedIn sign-in was cancelled.',
  user_cancelled_authorize: 'LinkedIn sign-in was cancelled.',
  not_configured: IntegrationMessages.linkedinSaveFirst,
  missing_code: 'LinkedIn did not send an authorization code. Please try again.',
  unauthorized_scope_error: `LinkedIn did not grant the requested permissions. Check the products enabled for your LinkedIn app; page access needs the Community Management API product, otherwise untick '${IntegrationMessages.linkedinPagesLabel}'.`,
  access_denied: 'LinkedIn did not grant the requested permissions. Check the products enabled for your LinkedIn app.',
  linkedin_invalid_client:
    "LinkedIn rejected the client ID or secret. Copy both again from the app's Auth tab in the LinkedIn Developer Portal.",
  linkedin_invalid_grant: 'The LinkedIn authorization expired before it could be used. Please try again.',
  linkedin_unreachable: 'LinkedIn could not be reached. Please try again later.',
};
const LINKEDIN_FAILED = 'LinkedIn sign-in did not complete. Please try again.';

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

const known = (texts: Record<string, string>, code: string): string | undefined =>
  Object.prototype.hasOwnProperty.call(texts, code) ? texts[code] : undefined;

/** A readable text for the `linkedin_error` code the callback puts on /settings. */
export function linkedInErrorText(code: string): string {
  return known(LINKEDIN_ERRORS, code) ?? LINKEDIN_FAILED;
}

/** A readable text for the `gmail_error` code the callback puts on /settings. */
export function gmailErrorText(code: string): string {
  return known(GMAIL_ERRORS, code) ?? GMAIL_FAILED;
}
