import type { EmailStatus, LinkedInStatus, WordPressStatus } from '@app/shared';
import { screen, within } from '@testing-library/react';
import { expect } from 'vitest';
import type { MockRoutes, RecordedRequest } from './utils';

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

/** The /settings page's load calls, answered for an empty account; pass routes to override. */
export function settingsRoutes(routes: MockRoutes = {}): MockRoutes {
  return {
    'settings.list': [],
    'wordpress.status': wordpressStatus(),
    'linkedin.status': linkedinStatus(),
    'linkedin.getWebhook': { success: true, webhookUrl: '', hasSigningSecret: false },
    'email.status': emailStatus(),
    // The channels of the generic routes: not connected.
    'channels.status': { success: true, channel: 'none', connected: false, fields: {}, updatedAt: null },
    ...routes,
  };
}

export const sentTo = (requests: RecordedRequest[], method: string, prefix = '') =>
  requests.filter((r) => r.method === method && r.path.startsWith(prefix));

/** A toast with exactly this text (not an inline copy of it). */
export const findToast = (text: string | RegExp) => screen.findByText(text, { selector: '.Toastify__toast' });
export const queryToast = (text: string | RegExp) => screen.queryByText(text, { selector: '.Toastify__toast' });

/**
 * A problem shown once, in the panel (a field's error or the panel's alert beside its buttons), and
 * not repeated as a toast (issue #15: one message per failure, in one place).
 */
export async function findInPanelOnly(panel: HTMLElement, text: string | RegExp): Promise<HTMLElement> {
  const [found] = await within(panel).findAllByText(text);
  expect(queryToast(text)).not.toBeInTheDocument();
  return found!;
}

/** The panel's alert of a failed Test or Save, beside its buttons; never a toast as well. */
export async function findPanelAlert(panel: HTMLElement, text: string): Promise<HTMLElement> {
  const alert = await within(panel).findByRole('alert');
  expect(alert).toHaveTextContent(text);
  expect(queryToast(text)).not.toBeInTheDocument();
  return alert;
}
