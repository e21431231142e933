import { HttpLinkedInClient, LINKEDIN_SCOPES } from '../channels/linkedin/client.js';
import { LinkedInService } from '../channels/linkedin/service.js';
import type { LinkedInPublisher } from '../domain/integrations.js';
import { deps } from './deps.js';
import { lazy } from './lazy.js';
import { oauthState } from './oauth-state.js';
import { settingService } from './settings.js';

/** LinkedIn's connection and OAuth: a module of its own, so a bundle parses only the services it uses. */
export const linkedInService = lazy((): LinkedInService => {
  const { config } = deps();
  const settings = settingService();
  // The page lookup of connecting with page access: the publisher's module loads then, not at every cold start.
  const pages: Pick<LinkedInPublisher, 'administeredOrganizations'> = {
    administeredOrganizations: async (...args) =>
      (await import('../channels/linkedin/publisher.js')).linkedInPublisher(config).administeredOrganizations(...args),
  };
  return new LinkedInService(
    settings,
    new HttpLinkedInClient({ oauthUrl: config.linkedinOAuthUrl, apiUrl: config.linkedinApiUrl }),
    oauthState(),
    LINKEDIN_SCOPES,
    pages,
  );
});
