import { redirectUri } from '../../components/settings/oauth';
import type { OAuthSignInConfig } from '../../components/settings/useOAuthSignIn';
import { linkedInErrorText, LinkedInPanelMessages } from './messages';
import { LINKEDIN_QUERY_KEY } from './status';

/** The address LinkedIn redirects to (the callback route); it must be registered with the LinkedIn app exactly. */
export const linkedInRedirectUri = () => redirectUri('linkedin.callback');

/** LinkedIn's sign-in from its settings panel (components/settings/useOAuthSignIn.ts). */
export const LINKEDIN_SIGN_IN: OAuthSignInConfig = {
  provider: 'linkedin',
  queryKey: LINKEDIN_QUERY_KEY,
  popup: { name: 'linkedin-auth', features: 'width=600,height=700' },
  messages: LinkedInPanelMessages,
  errorText: linkedInErrorText,
};
