import { SheetsMessages } from '@app/shared';

/**
 * The callback's `?sheets_error=` codes, as sentences. The parameter is in the address (anyone can
 * craft a link with one), so an unknown code reads as one generic sentence, never as itself.
 */
export function authErrorReason(code: string, origin = window.location.origin): string {
  switch (code) {
    case 'invalid_state':
      return 'the sign-in took too long or was started in another session. Try again.';
    case 'access_denied':
      return 'access was not allowed on Google’s consent screen.';
    case 'missing_scope':
      return 'allow both permissions on Google’s consent screen (your spreadsheets and your Drive file names).';
    case 'no_refresh_token':
      return 'Google did not return a lasting authorization. Try again.';
    case 'not_configured':
      return SheetsMessages.clientMissing;
    case 'google_invalid_client':
      return 'Google rejected the OAuth client ID or secret. Check them in Settings → Email.';
    case 'google_redirect_uri_mismatch':
      return `Google refused the redirect URI. Add ${origin}/api/sheets/callback to the OAuth client’s authorized redirect URIs.`;
    case 'google_invalid_grant':
      return 'the authorization code expired. Try again.';
    case 'google_unreachable':
      return 'Google could not be reached. Try again later.';
    default:
      return 'the Google sign-in did not complete. Try again.';
  }
}
