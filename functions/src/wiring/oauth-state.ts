import { OAuthState } from '../domain/oauth-state.js';
import { deps } from './deps.js';
import { workspaceReads } from './workspace-access.js';
import { lazy } from './lazy.js';

/** Signs OAuth `state` with the session key (the OAuth sign-ins of LinkedIn, Gmail and Sheets), built on first use. */
export const oauthState = lazy((): OAuthState => {
  const { signingKey } = deps();
  // A team workspace's sign-in finishes only while its starter is one of its owners (domain/oauth-state.ts).
  return new OAuthState(signingKey, undefined, async (workspaceId, userId) => {
    return (await workspaceReads().access(workspaceId, userId)).member?.role === 'owner';
  });
});
