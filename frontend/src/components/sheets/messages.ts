import { SheetsMessages } from '@app/shared';
import { ApiError, routeUrl } from '../../api/client';

/** Said to a member who may not connect Google Sheets: only a workspace's owners do (docs/product.md, Workspaces). */
export const ASK_OWNER = 'Ask the workspace owner to connect Google Sheets.';

/** Server codes after which the page shows the connect card again (the grant is gone). */
export const NOT_CONNECTED_CODES = new Set(['sheets_not_connected', 'sheets_reconnect']);

/**
 * docs/product.md (Texts): the screen's own text, then what went wrong: the server's message, else
 * `Error: {status}` for a non-OK answer. A network failure gets the screen's text alone.
 */
export function sheetsErrorText(err: unknown, what: string): string {
  if (!(err instanceof ApiError)) return what;
  return `${what}: ${err.serverMessage ?? err.error ?? `Error: ${err.status}`}`;
}

/**
 * The callback's `?sheets_error=` codes, as sentences. The parameter is in the address (anyone can
 * craft a link with one), so an unknown code reads as one generic sentence, never as itself.
 */
export function authErrorReason(code: string, origin = window.location.origin): string {
  switch (code) {
    case 'invalid_state':
      return 'the sign-in took too long or was started in another session. Try again.';
    case 'not_owner':
      // A team workspace's sign-in whose starter stopped being an owner meanwhile (docs/product.md, Workspaces).
      return 'only an owner of the workspace can connect Google Sheets. Ask the workspace owner to connect it.';
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
      return `Google refused the redirect URI. Add ${origin}${routeUrl('sheets.callback')} to the OAuth client’s authorized redirect URIs.`;
    case 'google_invalid_grant':
      return 'the authorization code expired. Try again.';
    case 'google_unreachable':
      return 'Google could not be reached. Try again later.';
    default:
      return 'the Google sign-in did not complete. Try again.';
  }
}
