import type { EmailStatus, LinkedInStatus, WordPressStatus } from '@app/shared';
import { screen } from '@testing-library/react';
import type { MockReply, RecordedRequest } from './utils';

/** Answers of the integration status calls for a user who has configured nothing yet. */
export const wordpressStatus = (overrides: Partial<WordPressStatus> = {}): WordPressStatus => ({
  success: true,
  configured: false,
  siteUrl: null,
  username: null,
  hasAppPassword: false,
  updatedAt: null,
  ...overrides,
});

export const linkedinStatus = (overrides: Partial<LinkedInStatus> = {}): LinkedInStatus => ({
  success: true,
  clientId: null,
  hasClientSecret: false,
  connected: false,
  memberName: null,
  expiresAt: null,
  expiringSoon: false,
  expired: false,
  ...overrides,
});

export const emailStatus = (overrides: Partial<EmailStatus> = {}): EmailStatus => ({
  success: true,
  notificationEmail: '',
  gmailClientId: '',
  gmailClientSecret: '',
  gmailRefreshToken: '',
  authenticated: false,
  ...overrides,
});

type Handler = MockReply | ((request: RecordedRequest) => MockReply | Promise<MockReply>);

/** The /settings page's load calls, answered for an empty account; pass routes to override. */
export function settingsRoutes(routes: Record<string, Handler> = {}): Record<string, Handler> {
  return {
    'GET /api/settings?mask=true': { body: [] },
    'GET /api/wordpress/credentials': { body: wordpressStatus() },
    'GET /api/linkedin/status': { body: linkedinStatus() },
    'GET /api/linkedin/zapier-webhook': { body: { success: true, webhookUrl: '', hasSigningSecret: false } },
    'GET /api/email/settings': { body: emailStatus() },
    ...routes,
  };
}

export const sentTo = (requests: RecordedRequest[], method: string, prefix = '') =>
  requests.filter((r) => r.method === method && r.path.startsWith(prefix));

/** A toast with exactly this text (not an inline copy of it). */
export const findToast = (text: string | RegExp) => screen.findByText(text, { selector: '.Toastify__toast' });
export const queryToast = (text: string | RegExp) => screen.queryByText(text, { selector: '.Toastify__toast' });
