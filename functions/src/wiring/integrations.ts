import { GoogleOAuth, GMAIL_SEND_SCOPE } from '../adapters/integrations/google.js';
import { HttpLinkedInClient, LINKEDIN_SCOPES } from '../channels/linkedin/client.js';
import { GmailSender, OutboxSender } from '../adapters/integrations/mail.js';
import { HttpWordPressClient } from '../channels/wordpress/client.js';
import { deps } from './deps.js';
import { lazy } from './lazy.js';
import { EmailService } from '../domain/email.js';
import type { LinkedInPublisher } from '../domain/integrations.js';
import { LinkedInService } from '../channels/linkedin/service.js';
import { WordPressService } from '../channels/wordpress/service.js';

export interface IntegrationServices {
  wordpress: WordPressService;
  linkedin: LinkedInService;
  email: EmailService;
}

function build(): IntegrationServices {
  const { config, settings, oauthState } = deps();
  const google = new GoogleOAuth({ oauthUrl: config.googleOAuthUrl });
  const outbox = config.outboxDir ? new OutboxSender(config.outboxDir) : undefined;
  // The page lookup of connecting with page access: the publisher's module loads then, not at every cold start.
  const pages: Pick<LinkedInPublisher, 'administeredOrganizations'> = {
    administeredOrganizations: async (...args) =>
      (await import('../channels/linkedin/publisher.js')).linkedInPublisher(config).administeredOrganizations(...args),
  };
  return {
    wordpress: new WordPressService(settings, new HttpWordPressClient({ allowPrivateUrls: config.allowPrivateUrls })),
    linkedin: new LinkedInService(
      settings,
      new HttpLinkedInClient({ oauthUrl: config.linkedinOAuthUrl, apiUrl: config.linkedinApiUrl }),
      oauthState,
      LINKEDIN_SCOPES,
      pages,
    ),
    email: new EmailService(
      settings,
      google,
      oauthState,
      {
        gmail: (c) => new GmailSender({ ...c, apiUrl: config.googleApiUrl, oauthUrl: config.googleOAuthUrl }),
        fallback: () => outbox,
      },
      [GMAIL_SEND_SCOPE],
    ),
  };
}

/** WordPress, LinkedIn and e-mail services, built on first use (kept out of the auth bundle). */
export const integrations = lazy(build);
