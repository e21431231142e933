import { GoogleOAuth, GMAIL_SEND_SCOPE } from '../adapters/integrations/google.js';
import { HttpLinkedInClient, LINKEDIN_SCOPES } from '../adapters/integrations/linkedin.js';
import { GmailSender, OutboxSender } from '../adapters/integrations/mail.js';
import { HttpWordPressClient } from '../adapters/integrations/wordpress.js';
import { deps } from './deps.js';
import { lazy } from './lazy.js';
import { linkedInPublisher } from './linkedin-publisher.js';
import { EmailService } from '../domain/email.js';
import { LinkedInService } from '../domain/linkedin.js';
import { WordPressService } from '../domain/wordpress.js';

export interface IntegrationServices {
  wordpress: WordPressService;
  linkedin: LinkedInService;
  email: EmailService;
}

function build(): IntegrationServices {
  const { config, settings, oauthState } = deps();
  const google = new GoogleOAuth({ oauthUrl: config.googleOAuthUrl });
  const outbox = config.outboxDir ? new OutboxSender(config.outboxDir) : undefined;
  return {
    wordpress: new WordPressService(settings, new HttpWordPressClient({ allowPrivateUrls: config.allowPrivateUrls })),
    linkedin: new LinkedInService(
      settings,
      new HttpLinkedInClient({ oauthUrl: config.linkedinOAuthUrl, apiUrl: config.linkedinApiUrl }),
      oauthState,
      LINKEDIN_SCOPES,
      linkedInPublisher(config),
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
