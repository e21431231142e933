import { IntegrationMessages } from '@app/shared';

/**
 * Texts of the integration panels that only the browser shows (SPEC.md §5, §8). Texts the server
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

/** A readable text for the `linkedin_error` code the callback puts on /settings. */
export function linkedInErrorText(code: string): string {
  if (code === 'invalid_state') return 'The LinkedIn sign-in could not be verified. Please try again.';
  if (code.startsWith('user_cancelled')) return 'LinkedIn sign-in was cancelled.';
  if (code === 'not_configured') return IntegrationMessages.linkedinSaveFirst;
  if (code === 'missing_code') return 'LinkedIn did not send an authorization code. Please try again.';
  if (code === 'unauthorized_scope_error') {
    return `LinkedIn did not grant the requested permissions. Check the products enabled for your LinkedIn app; page access needs the Community Management API product, otherwise untick '${IntegrationMessages.linkedinPagesLabel}'.`;
  }
  if (code === 'access_denied') {
    return 'LinkedIn did not grant the requested permissions. Check the products enabled for your LinkedIn app.';
  }
  return `LinkedIn authentication failed (${code}). Please try again.`;
}

/** A readable text for the `gmail_error` code the callback puts on /settings. */
export function gmailErrorText(code: string): string {
  if (code === 'invalid_state') return 'The Google sign-in could not be verified. Please try again.';
  if (code === 'access_denied') return 'Google sign-in was cancelled.';
  if (code === 'not_configured') return IntegrationMessages.gmailCredentialsRequired;
  if (code === 'missing_code') return 'Google did not send an authorization code. Please try again.';
  if (code === 'no_refresh_token') {
    return 'Google did not return a refresh token. Remove the app under Google Account → Security → Third-party access, then authenticate again.';
  }
  if (code === 'redirect_uri_mismatch') return 'Google refused the redirect URI: add the one shown below to your OAuth client.';
  if (code === 'invalid_grant') return 'Google refused the authorization (invalid_grant). Please authenticate again.';
  return `Google authentication failed (${code}). Please try again.`;
}
