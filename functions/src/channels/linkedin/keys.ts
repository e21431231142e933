import { connectionExpiryKey } from '../ids.js';

/**
 * LinkedIn's settings keys and the page grant's check: what the channel, the approvals and the webhook delivery read
 * of the connection without the service (its OAuth and client), so those bundles do not parse it.
 */
export const LI_KEYS = {
  clientId: 'linkedin_client_id',
  clientSecret: 'linkedin_client_secret',
  accessToken: 'linkedin_access_token',
  /** When the token LinkedIn issued expires: the channel's connection expiry (ids.ts), which the sweep watches. */
  tokenExpiry: connectionExpiryKey('linkedin'),
  memberId: 'linkedin_member_id',
  memberName: 'linkedin_member_name',
  webhookUrl: 'linkedin_webhook_url',
  webhookSecret: 'linkedin_webhook_secret',
  /** The scopes LinkedIn granted with the stored token, space separated (absent for connections made before they were kept). */
  scopes: 'linkedin_scopes',
  /** The name of the page company mode posts as, looked up on connecting with page access (absent when unknown). */
  pageName: 'linkedin_page_name',
} as const;

/**
 * Posting as a LinkedIn Page (company mode): the Community Management API product's scopes, asked
 * for only when the member opts in, since LinkedIn refuses the whole consent for an app without it.
 */
export const LINKEDIN_PAGE_SCOPES = [
  /** Post and upload images as an organization page the member administers. */
  'w_organization_social',
  /** Read the member's organization roles (organizationAcls) to find the page to post as. */
  'r_organization_admin',
] as const;

/** LinkedIn lists granted scopes comma separated; accept spaces too. */
export const scopeList = (scope: string) => scope.split(/[\s,]+/).filter(Boolean);

/** Whether the stored grant may post as a page: undefined when the granted scopes were not recorded. */
export function grantAllowsPages(storedScopes: string | undefined): boolean | undefined {
  if (storedScopes === undefined) return undefined;
  const granted = scopeList(storedScopes);
  return LINKEDIN_PAGE_SCOPES.every((s) => granted.includes(s));
}
