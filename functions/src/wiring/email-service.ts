import { GoogleOAuth, GMAIL_SEND_SCOPE } from '../adapters/integrations/google.js';
import { GmailSender, OutboxSender } from '../adapters/integrations/mail.js';
import { EmailService } from '../domain/email.js';
import { deps } from './deps.js';
import { lazy } from './lazy.js';
import { oauthState } from './oauth-state.js';
import { settingService } from './settings.js';

/** Gmail's connection and the mail it sends: a module of its own, so a bundle parses only the services it uses. */
export const emailService = lazy((): EmailService => {
  const { config } = deps();
  const settings = settingService();
  const outbox = config.outboxDir ? new OutboxSender(config.outboxDir) : undefined;
  return new EmailService(
    settings,
    new GoogleOAuth({ oauthUrl: config.googleOAuthUrl }),
    oauthState(),
    {
      gmail: (c) => new GmailSender({ ...c, apiUrl: config.googleApiUrl, oauthUrl: config.googleOAuthUrl }),
      fallback: () => outbox,
    },
    [GMAIL_SEND_SCOPE],
  );
});
