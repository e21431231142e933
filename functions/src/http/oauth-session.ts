import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { OAuthPurpose } from '../domain/oauth-state.js';
import { readCookie, SESSION_COOKIE } from '../domain/sessions.js';
import { deps } from '../wiring/deps.js';
import { workspaceReads } from '../wiring/workspace-access.js';
import { oauthState } from '../wiring/oauth-state.js';

/**
 * Whom an OAuth callback's session may act for, for the integrations' check that a signed-in browser
 * finishes only its own flow: the session's user, or the team workspace the signed state names while
 * that user is one of its owners now (a connection belongs to the workspace and is set by its owners:
 * docs/product.md, Workspaces). Undefined without a session (the state alone binds, as before).
 */
export async function callbackSessionOwner(
  event: APIGatewayProxyEventV2,
  state: string | undefined,
  purpose: OAuthPurpose,
): Promise<string | undefined> {
  const { sessions } = deps();
  const sessionUser = (await sessions.verify(readCookie(event.cookies, SESSION_COOKIE)))?.userId;
  if (!sessionUser) return undefined;
  const owner = (await oauthState().read(state, purpose))?.userId;
  if (!owner || owner === sessionUser) return sessionUser;
  const { member } = await workspaceReads().access(owner, sessionUser);
  return member?.role === 'owner' ? owner : sessionUser;
}
