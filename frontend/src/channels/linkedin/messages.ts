import { IntegrationMessages } from '@app/shared';
import { knownText } from '../../components/settings/messages';

/**
 * Texts of the LinkedIn settings panel that only the browser shows (docs/product.md, Texts). Texts the server shows
 * too live in @app/shared's IntegrationMessages.
 */
export const LinkedInPanelMessages = {
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
} as const;

/**
 * The `?linkedin_error=` codes the callback puts on /settings, as sentences. Only known codes have a text of their
 * own; anything else (the parameter is in the address, so anyone can craft a link with one) reads as one generic
 * sentence, and the parameter itself is never shown.
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

/** A readable text for the `linkedin_error` code the callback puts on /settings. */
export function linkedInErrorText(code: string): string {
  return knownText(LINKEDIN_ERRORS, code) ?? LINKEDIN_FAILED;
}
